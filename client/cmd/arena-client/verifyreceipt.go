package main

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"arena/client"
)

// exitReceiptInvalid: verify-receipt's receipt does not verify (the
// other statuses are verify-log's: 2 usage, 3 the key could not be
// fetched).
const exitReceiptInvalid = 1

// verifyReceipt is the verify-receipt command: it checks a match's
// receipt (a .tlog-proof file) offline against the arena's log key
// (--key, or fetched from --base's GET /api/v1) and prints the event it
// proves as one JSON line.
func verifyReceipt(ctx context.Context, base string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify-receipt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&base, "base", base, "arena origin (its GET /api/v1 gives the log key when --key is not given)")
	keyFlag := fs.String("key", "", "the arena's log public key (log.publicKey, base64): verify offline")
	origin := fs.String("origin", "", "the log's origin (log.origin, <first host>/log); default: the checkpoint's, which the key's signature covers")
	apiKey := fs.String("api-key", os.Getenv("ARENA_API_KEY"), "a public-API key of the arena (default $ARENA_API_KEY)")
	// The file may come before or after the flags.
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return usageError(stdout)
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 || file == "" {
		return usageError(stdout)
	}
	receipt, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return usageError(stdout)
	}
	var pub ed25519.PublicKey
	if *keyFlag != "" {
		raw, err := base64.StdEncoding.DecodeString(*keyFlag)
		if err != nil || len(raw) != ed25519.PublicKeySize {
			fmt.Fprintln(stderr, "verify-receipt: --key is not a base64 Ed25519 public key")
			return usageError(stdout)
		}
		pub = raw
	} else {
		settings := client.NewSettings(base)
		settings.Enabled = false
		c, err := client.New(settings, client.Deps{Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }})
		if err != nil {
			fmt.Fprintln(stderr, err)
			return usageError(stdout)
		}
		o, key, err := c.LogKey(ctx, client.VerifyLogOptions{APIKey: *apiKey})
		if err != nil {
			failure(stdout, stderr, err)
			return exitNoFetch
		}
		pub = key
		if *origin == "" {
			*origin = o
		}
	}
	e, err := client.VerifyReceipt(receipt, *origin, pub)
	if err != nil {
		failure(stdout, stderr, err)
		if errors.Is(err, client.ErrReceiptInvalid) {
			return exitReceiptInvalid
		}
		return exitNoFetch
	}
	writeLine(stdout, e)
	return 0
}
