package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"arena/client"
	"arena/core"
)

// verify-log's exit statuses, the same in the Go, C# and TypeScript
// clients (docs/protocol.md, "Verifying the event log"): 0 the log
// verified, 1 it does not (forged or rewritten: log_invalid), 2 a usage
// error, 3 it could not be fetched (network, 429 after the retries, any
// other refusal or a malformed answer), which says nothing of the log.
const (
	exitLogInvalid = 1
	exitNoFetch    = 3
)

// verifyLog is the verify-log command: it checks the arena's event log
// and signed head (client.VerifyLog) and prints the head as one JSON line,
// the file a later run's --head takes.
func verifyLog(ctx context.Context, base string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify-log", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&base, "base", base, "arena origin")
	headFile := fs.String("head", "", "a head saved by an earlier verify-log: the log must still extend it; only the events from its seq on are read")
	apiKey := fs.String("api-key", os.Getenv("ARENA_API_KEY"), "a public-API key of the arena (default $ARENA_API_KEY): reads count against its limit")
	retries := fs.Int("retries", client.DefaultReadRetries, "how many times a read answered 429 is repeated after its Retry-After (0: none)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *retries < 0 {
		return usageError(stdout)
	}
	var saved *core.LogHead
	if *headFile != "" {
		raw, err := os.ReadFile(*headFile)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return usageError(stdout)
		}
		saved = new(core.LogHead)
		if err := json.Unmarshal(raw, saved); err != nil {
			fmt.Fprintf(stderr, "verify-log: %s is not a saved head: %v\n", *headFile, err)
			return usageError(stdout)
		}
	}
	settings := client.NewSettings(base)
	settings.Enabled = false // public reads only: no ticket
	c, err := client.New(settings, client.Deps{Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return usageError(stdout)
	}
	opts := client.VerifyLogOptions{Saved: saved, APIKey: *apiKey, Retries: *retries}
	if *retries == 0 {
		opts.Retries = -1
	}
	head, err := c.VerifyLog(ctx, opts)
	if err != nil {
		failure(stdout, stderr, err)
		if errors.Is(err, client.ErrLogInvalid) {
			return exitLogInvalid
		}
		return exitNoFetch
	}
	writeLine(stdout, head)
	return 0
}
