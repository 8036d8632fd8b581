package store

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"arena/core"
)

//go:embed queries/*.sql
var queryFiles embed.FS

// queries caches what q found: a query's name (its "-- name: X" line in
// queries/*.sql) to its text. q finds each on first use, so package
// initialization parses nothing (a new edge isolate runs every package's
// init before its first request; docs/edge.md "Cold start").
var queries sync.Map

// queryWords are the names a query may use, in double braces, for a list
// core defines ("status IN {{resolved}}" is the SQL of
// core.MatchStatus.Resolved) or an expression several queries share
// ({{log_seq}}: the event log's last seq, sealed or not, 0 when it is
// empty; {{match_games}}: match m's decided games; {{grace_cutoff}}: the
// instant a result of tournament t waits its grace period from;
// {{deciding}}: the types of a match's deciding events,
// core.DecidingEventTypes). Built on first use, like the queries.
var queryWords = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer("{{resolved}}", sqlList(core.ResolvedStatuses),
		"{{log_seq}}", "(SELECT coalesce(max(seq), 0) FROM event_log)",
		"{{match_games}}", matchGamesColumn, "{{grace_cutoff}}", graceCutoff,
		"{{deciding}}", sqlList(core.DecidingEventTypes))
})

// graceCutoff is {{grace_cutoff}}: :now less tournament t's grace period
// (its own in minutes, else the arena's :arena_grace_seconds; as
// core.Tournament.GracePeriod), in the stored time layout.
const graceCutoff = "strftime('%Y-%m-%dT%H:%M:%fZ', :now, '-' || CASE WHEN t.grace_period_minutes > 0 " +
	"THEN t.grace_period_minutes * 60 ELSE :arena_grace_seconds END || ' seconds')"

// matchGamesColumn is {{match_games}}: the decided games of match m (a
// series'; queries/series.sql) as one JSON array of arrays, read with
// the match in its own statement (parseGames reads it).
const matchGamesColumn = "(SELECT json_group_array(json_array(g.game, g.winner_platform_id, g.result_source, " +
	"g.score_p1, g.score_p2, g.session_nonce, g.decided_at)) FROM match_games g WHERE g.match_id = m.id)"

// sqlList writes values as a SQL list of string literals: ('a', 'b').
func sqlList[T ~string](values []T) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "'" + strings.ReplaceAll(string(v), "'", "''") + "'"
	}
	return "(" + strings.Join(quoted, ", ") + ")"
}

// spell returns a query's text with core's words spelled out; a word it
// does not know is a programming error.
func spell(name, text string) string {
	text = queryWords().Replace(text)
	if strings.Contains(text, "{{") {
		panic(fmt.Sprintf("store: query %q names an unknown word: %s", name, text))
	}
	return text
}

// loadQueries parses every query of fsys (what q finds one at a time);
// a name defined twice panics.
func loadQueries(fsys fs.FS) map[string]string {
	out := map[string]string{}
	files, err := fs.Glob(fsys, "queries/*.sql")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			panic(err)
		}
		var name string
		var body strings.Builder
		flush := func() {
			if name != "" {
				if _, dup := out[name]; dup {
					panic(fmt.Sprintf("store: query %q defined twice", name))
				}
				out[name] = spell(name, strings.TrimSpace(body.String()))
			}
			body.Reset()
		}
		for _, line := range strings.Split(string(b), "\n") {
			if n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- name:"); ok {
				flush()
				name = strings.TrimSpace(n)
				continue
			}
			if name != "" && !strings.HasPrefix(strings.TrimSpace(line), "--") {
				body.WriteString(line)
				body.WriteByte('\n')
			}
		}
		flush()
	}
	return out
}

// q returns the named query; an unknown name is a programming error.
func q(name string) string {
	if s, ok := queries.Load(name); ok {
		return s.(string)
	}
	s, ok := findQuery(queryFiles, name)
	if !ok {
		panic("store: unknown query " + name)
	}
	queries.Store(name, s)
	return s
}

// findQuery returns the text of the query named name in fsys, as
// loadQueries reads it: the lines after its name line up to the next
// one, without comment lines, trimmed.
func findQuery(fsys fs.FS, name string) (string, bool) {
	files, err := fs.Glob(fsys, "queries/*.sql")
	if err != nil {
		panic(err)
	}
	const marker = "-- name:"
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			panic(err)
		}
		text := string(b)
		for at := 0; ; {
			i := strings.Index(text[at:], marker)
			if i < 0 {
				break
			}
			i += at
			line, rest, _ := strings.Cut(text[i+len(marker):], "\n")
			at = i + len(marker)
			if strings.TrimSpace(line) != name || (i > 0 && strings.TrimSpace(text[strings.LastIndexByte(text[:i], '\n')+1:i]) != "") {
				continue
			}
			if end := strings.Index(rest, marker); end >= 0 {
				rest = rest[:end]
			}
			var body strings.Builder
			for _, l := range strings.Split(rest, "\n") {
				if !strings.HasPrefix(strings.TrimSpace(l), "--") {
					body.WriteString(l)
					body.WriteByte('\n')
				}
			}
			return spell(name, strings.TrimSpace(body.String())), true
		}
	}
	return "", false
}
