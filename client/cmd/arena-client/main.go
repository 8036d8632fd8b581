// Command arena-client drives the reference game client by hand against an
// arena, with mock tickets (MOCK:<id>, accepted by arenas in mock mode):
//
//	arena-client -base http://localhost:8787 -as 76561198000000001 discover
//	arena-client -as 76561198000000001 upcoming
//	arena-client -as 76561198000000001 ready -match 12
//	arena-client -as 76561198000000001 submit -opponent 76561198000000002 \
//	    -winner 76561198000000001 -result '{"score":[3,1]}' -role host
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
//
// Answers go to stdout, errors to stderr with a non-zero exit status.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"arena/client"
)

const usage = `usage: arena-client [-base URL] -as ID [-appid N] <command> [flags]

commands:
  discover                      print the live match, or "no live match"
  upcoming                      print the upcoming match, or "no upcoming match"
  ready -match ID               mark yourself ready for a match
  submit -opponent ID -winner ID [-result JSON] [-role host|guest] [-attempts N]
                                submit a result (empty -winner: a draw, nothing sent)
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

global flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command and returns the exit status: 0 on success, 1
// when the command failed, 2 for a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
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
	if global.NArg() == 0 || *as == "" {
		global.Usage()
		return 2
	}
	settings := client.NewSettings(*base)
	settings.MockSteamID = *as
	settings.AppID = *appID

	cmd, rest := global.Arg(0), global.Args()[1:]
	sub := flag.NewFlagSet(cmd, flag.ContinueOnError)
	sub.SetOutput(stderr)
	matchID := sub.Int64("match", 0, "match id (ready)")
	opponent := sub.String("opponent", "", "opponent actually played (submit, 1v1)")
	winner := sub.String("winner", "", "winner's account id; empty is a draw (submit)")
	result := sub.String("result", "{}", "the game's result object as JSON (submit)")
	role := sub.String("role", "", "clientRole: host or guest (submit)")
	attempts := sub.Int("attempts", client.DefaultMaxSubmitAttempts, "submit attempts, 1 to 5 (submit)")
	titleID := sub.Int64("title", 0, "title id (volunteer, challenge)")
	challengeID := sub.Int64("challenge", 0, "challenge id (respond)")
	accept := sub.Bool("accept", false, "accept the challenge (respond)")
	decline := sub.Bool("decline", false, "decline the challenge (respond)")
	var rf recordFlags
	sub.StringVar(&rf.file, "file", "", "a game.replay.v1 file (record, segments)")
	sub.BoolVar(&rf.casual, "casual", false, "a casual recording: no match (record, segments)")
	sub.StringVar(&rf.scope, "scope", client.ScopePublic, "public or full (record, segments)")
	sub.StringVar(&rf.build, "build", "arena-client", "gameBuild of a sample (record, segments)")
	sub.StringVar(&rf.spool, "spool", "", "keep a failed submission in this directory (record)")
	sub.BoolVar(&rf.list, "list", false, "list your recordings (record)")
	sub.Int64Var(&rf.fetch, "fetch", 0, "fetch this recording (record)")
	sub.StringVar(&rf.token, "token", "", "a share link's token (record -fetch, segments)")
	sub.StringVar(&rf.out, "out", "", "download a fetched recording into this file (record -fetch)")
	sub.Int64Var(&rf.share, "share", 0, "share this recording by link (record)")
	sub.StringVar(&rf.resubmit, "resubmit", "", "resubmit the spooled files of this directory (record)")
	sub.Int64Var(&rf.recording, "recording", 0, "recording id (segments)")
	sub.Int64Var(&rf.after, "after", -1, "list segments after this seq (segments)")
	sub.Int64Var(&rf.seq, "seq", -1, "send this segment (segments)")
	if err := sub.Parse(rest); err != nil {
		return 2
	}
	settings.ClientRole = *role
	settings.MaxSubmitAttempts = *attempts

	c, err := client.New(settings, client.Deps{Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}

	switch cmd {
	case "discover":
		m, err := c.LiveMatch(ctx)
		return answer(stdout, stderr, m, m == nil, "no live match", err)
	case "upcoming":
		m, err := c.UpcomingMatch(ctx)
		return answer(stdout, stderr, m, m == nil, "no upcoming match", err)
	case "ready":
		if *matchID <= 0 {
			fmt.Fprintln(stderr, "ready: -match is required")
			return 2
		}
		st, err := c.Ready(ctx, *matchID)
		return answer(stdout, stderr, st, false, "", err)
	case "submit":
		return submit(ctx, c, *as, *opponent, *winner, *result, stdout, stderr)
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

func submit(ctx context.Context, c *client.Client, local, opponent, winner, result string, stdout, stderr io.Writer) int {
	var game map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(result)))
	dec.UseNumber() // keep big integers exact
	if err := dec.Decode(&game); err != nil || !json.Valid([]byte(result)) {
		fmt.Fprintf(stderr, "submit: -result must be one JSON object: %q\n", result)
		return 2
	}
	sub, err := c.Submit(ctx, local, opponent, game, winner)
	if errors.Is(err, client.ErrDraw) {
		fmt.Fprintln(stdout, "draw: nothing submitted")
		return 0
	}
	if sub != nil {
		fmt.Fprintf(stdout, "result:     %s\nresultHash: %s\nattempts:   %d\n", sub.Result, sub.ResultHash, sub.Attempts)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "status:     %s\nmatch:      %s\n", sub.Status, sub.MatchStatus)
	return 0
}
