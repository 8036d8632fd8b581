package store

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"arena/core"
)

//go:embed queries/*.sql
var queryFiles embed.FS

// queries maps a query's name (its "-- name: X" line in queries/*.sql) to
// its text, with the words of core's definitions spelled out.
var queries = loadQueries(queryFiles)

// queryWords are the names a query may use for a list core defines, in
// double braces: "status IN {{resolved}}" is the SQL of
// core.MatchStatus.Resolved.
var queryWords = strings.NewReplacer("{{resolved}}", sqlList(core.ResolvedStatuses))

// sqlList writes values as a SQL list of string literals: ('a', 'b').
func sqlList[T ~string](values []T) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "'" + strings.ReplaceAll(string(v), "'", "''") + "'"
	}
	return "(" + strings.Join(quoted, ", ") + ")"
}

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
				text := queryWords.Replace(strings.TrimSpace(body.String()))
				if strings.Contains(text, "{{") {
					panic(fmt.Sprintf("store: query %q names an unknown word: %s", name, text))
				}
				out[name] = text
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
	s, ok := queries[name]
	if !ok {
		panic("store: unknown query " + name)
	}
	return s
}
