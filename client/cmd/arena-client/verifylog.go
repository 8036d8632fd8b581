package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"arena/client"
	"arena/core"
)

// verifyLog is the verify-log command: it checks the arena's event log
// and signed head (client.VerifyLog) and prints the head as one JSON line,
// the file a later run's --head takes.
func verifyLog(ctx context.Context, base string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify-log", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&base, "base", base, "arena origin")
	headFile := fs.String("head", "", "a head saved by an earlier verify-log: the log must still extend it")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
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
	c, err := client.New(settings, client.Deps{})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return usageError(stdout)
	}
	head, err := c.VerifyLog(ctx, saved)
	if err != nil {
		return failure(stdout, stderr, err)
	}
	writeLine(stdout, head)
	return 0
}
