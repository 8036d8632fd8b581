// Command arena-client drives the reference game client by hand against an
// arena, with mock tickets (MOCK:<id>, accepted by arenas in mock mode).
// Its command line is the same in the Go, C# and TypeScript clients
// (docs/protocol.md):
//
//	arena-client canonical --match 12 --nonce n-7f3a --winner 76561198000000001 < result.json
//	arena-client --base http://localhost:8787 --as 76561198000000001 live
//	arena-client --as 76561198000000001 upcoming
//	arena-client --as 76561198000000001 ready --match 12
//	arena-client --as 76561198000000001 submit --match 12 --opponent 76561198000000002 \
//	    --winner 76561198000000001 --score 3,1 --result '{"rounds":[3,1]}' --role host
//
// canonical, live, upcoming, ready and submit print one JSON line (an
// error as {"error":"<code>"}); exit status 0 on success, 1 when the
// command failed, 2 for a usage error (and a refused canonical form);
// verify-log's 3 is a log that could not be fetched. --match takes a
// match id in decimal, [1-9][0-9]* (042 is a usage error, not 34).
// The Go client's own commands besides:
//
//	arena-client -as 76561198000000001 discover      (the same as live)
//	arena-client -as 76561198000000003 titles
//	arena-client -as 76561198000000003 volunteer -title 2
//	arena-client -as 76561198000000003 challenge -title 1
//	arena-client -as 76561198000000007 respond -challenge 4 -accept
//	arena-client -as 76561198000000001 record -scope full
//	arena-client -as 76561198000000001 record -casual
//	arena-client -as 76561198000000001 record -list
//	arena-client -as 76561198000000002 record -fetch 3 -out replay.gz
//	arena-client -as 76561198000000001 segments -recording 3 -seq 0 -scope full
//	arena-client -as 76561198000000002 segments -recording 3
//	arena-client verify-log --base https://arena.example [--head head.json] > head.json
//
// Environment ARENA_CLIENT_BACKOFF_SCALE (a number, default 1) multiplies
// the submit retry waits; 0 retries at once.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"arena/client"
)

const usage = `usage: arena-client [--base URL] [--as ID] [--appid N] <command> [flags]

commands:
  canonical --match N --nonce S --winner W
                                the canonical result of the game's result JSON on stdin:
                                {"canonical":"...","sha256":"..."} or {"error":"<reason>"} (exit 2)
  live                          print the live match, or {"none":true} (discover: the same)
  upcoming                      print the upcoming match, or {"none":true}
  ready --match N               mark yourself ready for a match
  submit [--match N [--game G]] [--held LIVE] --opponent ID --winner ID [--score P1,P2] [--result JSON]
         [--role host|guest] [--attempts N]
                                submit a result (the game's result JSON on stdin without
                                --result; an empty --winner is a draw, nothing sent); --game:
                                the game of the series played (a series' lost answer after a
                                restart); in a series the answer carries game, bestOf and
                                seriesScore, and matchStatus scheduled means: ready again;
                                --held: the live match the game holds (live's line), posted
                                on without a fresh discovery (one round trip)
  titles                        list the titles: holders, clocks, challenges, lineage
  volunteer -title ID           volunteer for a vacant title
  challenge -title ID           challenge a title's holder
  respond -challenge ID -accept|-decline
                                answer a challenge of your title
  record [-file F] [-casual] [-scope public|full] [-build B] [-spool DIR]
                                submit a game.replay.v1 file (init, upload, finalize); without
                                -file, a short sample of the live match (-casual: a casual game);
                                with -spool a failed submission is kept in DIR
  record -list | -fetch ID [-token T] [-out F] | -share ID | -resubmit DIR
                                list yours; fetch one (download to F); share one by link;
                                resubmit the files spooled in DIR
  segments -recording ID [-after K] [-token T]
                                list a recording's released segments (live or ended)
  segments -recording ID -seq N [-file F]
                                send segment N of your pending recording (a sample without -file)
  verify-log [--base URL] [--head FILE] [--api-key KEY] [--retries N]
                                verify the arena's event log and signed head (no --as needed); print
                                the head as JSON; --head: a head saved earlier the log must extend
                                (only the events from its seq on are read); --api-key (default
                                $ARENA_API_KEY): read under the key's limit; a 429 is retried after
                                its Retry-After up to N times (default 5); exit 1: the log does not
                                verify, 3: it could not be fetched
  verify-receipt FILE [--key BASE64 | --base URL] [--origin O]
                                verify a match's receipt (.tlog-proof) offline against the arena's
                                log key (--key, or log.publicKey from --base's GET /api/v1); print
                                the event it proves; exit 1 {"error":"receipt_invalid"}: it does not
                                verify, 2: usage (the file cannot be read), 3: the key could not be fetched

N (--match) is a match id in decimal: [1-9][0-9]*, no sign, no leading zero (042 is refused).

global flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command and returns the exit status: 0 on success, 1
// when the command failed, 2 for a usage error.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	global := flag.NewFlagSet("arena-client", flag.ContinueOnError)
	global.SetOutput(stderr)
	global.Usage = func() {
		fmt.Fprint(stderr, usage)
		global.PrintDefaults()
	}
	base := global.String("base", "http://localhost:8787", "arena origin")
	as := global.String("as", "", "platform account id to play as (17 digits; sent as mock ticket MOCK:<id>)")
	appID := global.String("appid", "", "X-Platform-AppId ordering hint")
	if err := global.Parse(args); err != nil {
		return 2
	}
	if global.Arg(0) == "verify-log" {
		return verifyLog(ctx, *base, global.Args()[1:], stdout, stderr)
	}
	if global.Arg(0) == "verify-receipt" {
		return verifyReceipt(ctx, *base, global.Args()[1:], stdout, stderr)
	}
	if global.NArg() == 0 || (*as == "" && global.Arg(0) != "canonical") {
		global.Usage()
		return 2
	}
	settings := client.NewSettings(*base)
	settings.MockSteamID = *as
	settings.AppID = *appID

	cmd, rest := global.Arg(0), global.Args()[1:]
	sub := flag.NewFlagSet(cmd, flag.ContinueOnError)
	sub.SetOutput(stderr)
	var matchID decimalID
	sub.Var(&matchID, "match", "match id, decimal digits without a leading zero (canonical, ready, submit)")
	game := new(int64)
	sub.Var(decimal{game, false}, "game", "the game of the series the result is for (submit, with --match)")
	nonce := sub.String("nonce", "", "session nonce (canonical)")
	opponent := sub.String("opponent", "", "opponent actually played (submit, 1v1)")
	winner := sub.String("winner", "", "winner's account id; empty is a draw (submit)")
	result := sub.String("result", "", "the game's result object as JSON; default: read stdin (submit)")
	score := sub.String("score", "", "score metadata P1,P2 in slot order, never hashed (submit)")
	role := sub.String("role", "", "clientRole: host or guest (submit)")
	held := sub.String("held", "", "the live match the game holds, as live printed it: submit on it without a fresh discovery (submit)")
	attempts := sub.Int("attempts", client.DefaultMaxSubmitAttempts, "submit attempts, 1 to 5 (submit)")
	titleID, challengeID := new(int64), new(int64)
	sub.Var(decimal{titleID, false}, "title", "title id (volunteer, challenge)")
	sub.Var(decimal{challengeID, false}, "challenge", "challenge id (respond)")
	accept := sub.Bool("accept", false, "accept the challenge (respond)")
	decline := sub.Bool("decline", false, "decline the challenge (respond)")
	var rf recordFlags
	sub.StringVar(&rf.file, "file", "", "a game.replay.v1 file (record, segments)")
	sub.BoolVar(&rf.casual, "casual", false, "a casual recording: no match (record, segments)")
	sub.StringVar(&rf.scope, "scope", client.ScopePublic, "public or full (record, segments)")
	sub.StringVar(&rf.build, "build", "arena-client", "gameBuild of a sample (record, segments)")
	sub.StringVar(&rf.spool, "spool", "", "keep a failed submission in this directory (record)")
	sub.BoolVar(&rf.list, "list", false, "list your recordings (record)")
	sub.Var(decimal{&rf.fetch, false}, "fetch", "fetch this recording (record)")
	sub.StringVar(&rf.token, "token", "", "a share link's token (record -fetch, segments)")
	sub.StringVar(&rf.out, "out", "", "download a fetched recording into this file (record -fetch)")
	sub.Var(decimal{&rf.share, false}, "share", "share this recording by link (record)")
	sub.StringVar(&rf.resubmit, "resubmit", "", "resubmit the spooled files of this directory (record)")
	sub.Var(decimal{&rf.recording, false}, "recording", "recording id (segments)")
	rf.after, rf.seq = -1, -1
	sub.Var(decimal{&rf.after, true}, "after", "list segments after this seq (segments)")
	sub.Var(decimal{&rf.seq, true}, "seq", "send this segment (segments)")
	if err := sub.Parse(rest); err != nil {
		return usageError(stdout)
	}
	if cmd == "canonical" {
		return canonical(stdin, stdout, stderr, int64(matchID), *nonce, *winner)
	}
	settings.ClientRole = *role
	settings.MaxSubmitAttempts = *attempts

	scale, err := backoffScale()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return usageError(stdout)
	}
	c, err := client.New(settings, client.Deps{
		Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) },
		Sleep: func(ctx context.Context, d time.Duration) error {
			return client.SleepContext(ctx, time.Duration(float64(d)*scale))
		},
	})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return usageError(stdout)
	}

	switch cmd {
	case "live", "discover":
		m, err := c.LiveMatch(ctx)
		return line(stdout, stderr, m, m == nil, err)
	case "upcoming":
		m, err := c.UpcomingMatch(ctx)
		return line(stdout, stderr, m, m == nil, err)
	case "ready":
		if int64(matchID) <= 0 {
			fmt.Fprintln(stderr, "ready: --match is required")
			return usageError(stdout)
		}
		st, err := c.Ready(ctx, int64(matchID))
		return line(stdout, stderr, st, false, err)
	case "submit":
		if *game > 0 && int64(matchID) <= 0 || *game > math.MaxInt32 {
			fmt.Fprintln(stderr, "submit: --game needs --match (and is a game number)")
			return usageError(stdout)
		}
		req := client.SubmitRequest{LocalAccountID: *as, ActualOpponentID: *opponent, MatchID: int64(matchID), Game: int(*game), Winner: *winner}
		if *score != "" {
			sc, ok := parseScore(*score)
			if !ok {
				fmt.Fprintf(stderr, "submit: --score must be P1,P2 (non-negative integers): %q\n", *score)
				return usageError(stdout)
			}
			req.Score = sc
		}
		if *held != "" {
			req.Held = new(client.LiveMatch)
			if err := json.Unmarshal([]byte(*held), req.Held); err != nil {
				fmt.Fprintf(stderr, "submit: --held must be the live match as live printed it: %v\n", err)
				return usageError(stdout)
			}
		}
		req.Result = []byte(*result)
		if !flagSet(sub, "result") {
			if req.Result, err = io.ReadAll(stdin); err != nil {
				fmt.Fprintln(stderr, err)
				return usageError(stdout)
			}
		}
		return submit(ctx, c, req, stdout, stderr)
	case "titles":
		list, err := c.Titles(ctx)
		return answer(stdout, stderr, list, len(list) == 0 && err == nil, "no titles", err)
	case "volunteer", "challenge":
		if *titleID <= 0 {
			fmt.Fprintf(stderr, "%s: -title is required\n", cmd)
			return 2
		}
		if cmd == "volunteer" {
			v, err := c.Volunteer(ctx, *titleID)
			return answer(stdout, stderr, v, false, "", err)
		}
		ch, err := c.Challenge(ctx, *titleID)
		return answer(stdout, stderr, ch, false, "", err)
	case "respond":
		if *challengeID <= 0 || *accept == *decline {
			fmt.Fprintln(stderr, "respond: -challenge and one of -accept or -decline are required")
			return 2
		}
		ch, err := c.RespondToChallenge(ctx, *challengeID, *accept)
		return answer(stdout, stderr, ch, false, "", err)
	case "record":
		return record(ctx, c, rf, stdout, stderr)
	case "segments":
		return segments(ctx, c, rf, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "unknown command %q\n", cmd)
		global.Usage()
		return 2
	}
}

// answer prints v as indented JSON, or none when absent, or err.
func answer(stdout, stderr io.Writer, v any, absent bool, none string, err error) int {
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if absent {
		fmt.Fprintln(stdout, none)
		return 0
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	fmt.Fprintln(stdout, string(out))
	return 0
}

// line prints v as one JSON line, {"none":true} when absent, or err as
// {"error":"<code>"} with exit status 1.
func line(stdout, stderr io.Writer, v any, absent bool, err error) int {
	if err != nil {
		return failure(stdout, stderr, err)
	}
	if absent {
		v = map[string]bool{"none": true}
	}
	writeLine(stdout, v)
	return 0
}

func writeLine(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// failure prints err's code as one JSON line (the detail on stderr) and
// returns exit status 1.
func failure(stdout, stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, err)
	writeLine(stdout, map[string]string{"error": errorCode(err)})
	return 1
}

func usageError(stdout io.Writer) int {
	writeLine(stdout, map[string]string{"error": "usage"})
	return 2
}

// errorCode is the code of a failed command: the server's error code, a
// canonical form refusal's reason, or the client's own code for a local
// refusal (docs/protocol.md, "Command line").
func errorCode(err error) string {
	var apiErr *client.APIError
	var canonErr *client.CanonicalError
	switch {
	case errors.As(err, &canonErr):
		return canonErr.Reason
	case errors.Is(err, client.ErrRetriesExhausted):
		return "retries_exhausted"
	case errors.As(err, &apiErr) && apiErr.Code != "":
		return apiErr.Code
	case errors.As(err, &apiErr):
		return fmt.Sprintf("http_%d", apiErr.Status)
	case errors.Is(err, client.ErrNoLiveMatch):
		return "no_live_match"
	case errors.Is(err, client.ErrInvalidLiveMatch):
		return "invalid_live_match"
	case errors.Is(err, client.ErrMatchMismatch):
		return "match_mismatch"
	case errors.Is(err, client.ErrNotParticipant):
		return "not_participant"
	case errors.Is(err, client.ErrOpponentMismatch):
		return "opponent_mismatch"
	case errors.Is(err, client.ErrWinnerNotOnSide):
		return "winner_not_on_side"
	case errors.Is(err, client.ErrBadResponse):
		return "bad_response"
	case errors.Is(err, client.ErrLogInvalid):
		return "log_invalid"
	case errors.Is(err, client.ErrReceiptInvalid):
		return "receipt_invalid"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "cancelled"
	}
	return "network_error"
}

// canonical prints the canonical form of the game's result JSON on stdin.
func canonical(stdin io.Reader, stdout, stderr io.Writer, matchID int64, nonce, winner string) int {
	game, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return usageError(stdout)
	}
	out, err := client.CanonicalResultJSON(game, matchID, nonce, winner)
	var canonErr *client.CanonicalError
	if errors.As(err, &canonErr) {
		fmt.Fprintln(stderr, err)
		writeLine(stdout, map[string]string{"error": canonErr.Reason})
		return 2
	}
	writeLine(stdout, map[string]string{"canonical": string(out), "sha256": client.ResultHash(out)})
	return 0
}

func submit(ctx context.Context, c *client.Client, req client.SubmitRequest, stdout, stderr io.Writer) int {
	sub, err := c.SubmitJSON(ctx, req)
	if errors.Is(err, client.ErrDraw) {
		writeLine(stdout, map[string]string{"status": "draw"})
		return 0
	}
	if sub != nil && sub.Result != "" {
		fmt.Fprintf(stderr, "result:     %s\nresultHash: %s\nattempts:   %d\n", sub.Result, sub.ResultHash, sub.Attempts)
	}
	if err != nil {
		return failure(stdout, stderr, err)
	}
	out := submitLine{Status: sub.Status, MatchStatus: sub.MatchStatus, Winner: sub.Winner, Won: sub.Won}
	if sub.IsSeries() {
		out.Game, out.BestOf, out.SeriesScore = sub.Game, sub.BestOf, &sub.SeriesScore
	}
	writeLine(stdout, out)
	return 0
}

// submitLine is submit's answer (docs/protocol.md, "Series"): the series
// fields only for a series (bestOf > 1), so a best of 1 prints as before.
type submitLine struct {
	Status      string              `json:"status"`
	MatchStatus string              `json:"matchStatus"`
	Winner      string              `json:"winner,omitempty"` // StatusDecided only
	Won         *bool               `json:"won,omitempty"`    // StatusDecided after a restart, when known
	Game        int                 `json:"game,omitempty"`   // 0 after a restart without --game
	BestOf      int                 `json:"bestOf,omitempty"`
	SeriesScore *client.SeriesScore `json:"seriesScore,omitempty"`
}

// parseScore reads --score P1,P2.
func parseScore(s string) (*client.Score, bool) {
	p1, p2, ok := strings.Cut(s, ",")
	a, err1 := strconv.ParseInt(strings.TrimSpace(p1), 10, 64)
	b, err2 := strconv.ParseInt(strings.TrimSpace(p2), 10, 64)
	if !ok || err1 != nil || err2 != nil || a < 0 || b < 0 {
		return nil, false
	}
	return &client.Score{P1: a, P2: b}, true
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// decimalID is a flag holding a positive id written in decimal,
// [1-9][0-9]* within int64: flag.Int64 would read 042 as octal 34 and
// 0x2a as 42, another match than the one the player meant.
type decimalID int64

func (d *decimalID) String() string { return strconv.FormatInt(int64(*d), 10) }

func (d *decimalID) Set(s string) error {
	n, ok := client.ParseMatchID(s)
	if !ok {
		return fmt.Errorf("not a match id: %q (decimal digits, no sign, no leading zero)", s)
	}
	*d = decimalID(n)
	return nil
}

// decimal is a flag holding a number written in decimal without a sign
// or a leading zero (0 itself when zero is allowed): the other ids and
// seqs of the command line, read as --match is.
type decimal struct {
	p    *int64
	zero bool
}

func (d decimal) String() string {
	if d.p == nil {
		return ""
	}
	return strconv.FormatInt(*d.p, 10)
}

func (d decimal) Set(s string) error {
	if d.zero && s == "0" {
		*d.p = 0
		return nil
	}
	n, ok := client.ParseMatchID(s)
	if !ok {
		return fmt.Errorf("not a decimal number: %q (digits, no sign, no leading zero)", s)
	}
	*d.p = n
	return nil
}

// backoffScale reads ARENA_CLIENT_BACKOFF_SCALE (default 1).
func backoffScale() (float64, error) {
	v := os.Getenv("ARENA_CLIENT_BACKOFF_SCALE")
	if v == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("ARENA_CLIENT_BACKOFF_SCALE must be a non-negative number: %q", v)
	}
	return f, nil
}
