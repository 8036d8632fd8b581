package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"arena/client"
)

// verify-log's and verify-receipt's exit statuses, the same in the Go, C#
// and TypeScript clients (docs/protocol.md, "verify-log"): 0 it verified,
// 1 it does not (log_invalid, receipt_invalid), 2 a usage error, 3 it
// could not be fetched (network, 429 after the retries, any other
// refusal or a malformed answer), which says nothing of the log.
const (
	exitLogInvalid = 1
	exitNoFetch    = 3
)

// tlogFlags are the flags verify-log and verify-receipt share.
type tlogFlags struct {
	base, key, origin, apiKey *string
	retries                   *int
}

func addTlogFlags(fs *flag.FlagSet, base string) tlogFlags {
	return tlogFlags{
		base:    fs.String("base", base, "arena origin"),
		key:     fs.String("key", "", "the log key: log.publicKey (base64), or a signed-note verifier key <origin>+<hash>+<base64>; default: the arena's GET /api/v1"),
		origin:  fs.String("origin", "", "the origin the checkpoints must have (<arena host>/log)"),
		apiKey:  fs.String("api-key", os.Getenv("ARENA_API_KEY"), "a public-API key of the arena (default $ARENA_API_KEY): reads count against its limit"),
		retries: fs.Int("retries", client.DefaultReadRetries, "how many times a read answered 429 is repeated after its Retry-After (0: none)"),
	}
}

// options and client of the flags; ok false for a usage error.
func (f tlogFlags) client(stderr io.Writer) (*client.Client, client.TlogOptions, bool) {
	opts := client.TlogOptions{Key: *f.key, Origin: *f.origin, APIKey: *f.apiKey, Retries: *f.retries}
	if *f.retries < 0 {
		return nil, opts, false
	}
	if *f.retries == 0 {
		opts.Retries = -1
	}
	settings := client.NewSettings(*f.base)
	settings.Enabled = false // public reads only: no ticket
	c, err := client.New(settings, client.Deps{Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, opts, false
	}
	return c, opts, true
}

// verified ends verify-log and verify-receipt: the line and 0; invalid
// (the code of a log or receipt that does not verify) is 1; a bad key is
// a usage error; anything else could not be fetched: 3.
func verified(stdout, stderr io.Writer, v any, err, invalid error) int {
	switch {
	case err == nil:
		writeLine(stdout, v)
		return 0
	case errors.Is(err, client.ErrInvalidKey):
		fmt.Fprintln(stderr, err)
		return usageError(stdout)
	case errors.Is(err, invalid):
		failure(stdout, stderr, err)
		return exitLogInvalid
	}
	failure(stdout, stderr, err)
	return exitNoFetch
}

// verifyLog is the verify-log command: it checks the arena's log as a
// transparency log (client.VerifyTiles) and prints the checkpoint it
// verified as one JSON line, the file a later run's --head takes.
func verifyLog(ctx context.Context, base string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify-log", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := addTlogFlags(fs, base)
	headFile := fs.String("head", "", "a checkpoint saved earlier (verify-log's line, or the checkpoint itself): the tree must extend it")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return usageError(stdout)
	}
	c, opts, ok := f.client(stderr)
	if !ok {
		return usageError(stdout)
	}
	if *headFile != "" {
		head, err := savedHead(*headFile)
		if err != nil {
			fmt.Fprintf(stderr, "verify-log: %v\n", err)
			return usageError(stdout)
		}
		opts.Head = head
	}
	tree, err := c.VerifyTiles(ctx, opts)
	return verified(stdout, stderr, tree, err, client.ErrLogInvalid)
}

// savedHead reads a head saved earlier: verify-log's line (an object
// whose checkpoint is the signed note) or the checkpoint itself.
func savedHead(file string) ([]byte, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(strings.TrimSpace(string(raw)), "{") {
		return raw, nil
	}
	var line struct {
		Checkpoint *string `json:"checkpoint"`
	}
	if err := json.Unmarshal(raw, &line); err != nil || line.Checkpoint == nil {
		return nil, fmt.Errorf("%s is not a saved checkpoint (verify-log's output, or a checkpoint)", file)
	}
	return []byte(*line.Checkpoint), nil
}
