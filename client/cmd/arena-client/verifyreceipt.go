package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"arena/client"
)

// verifyReceipt is the verify-receipt command: it checks a receipt (a
// .tlog-proof file; client.VerifyReceiptOf) with the arena's log key
// (--key, or --base's GET /api/v1) and prints what it proves as one JSON
// line: index, tree size, root, origin, verified and the entry.
func verifyReceipt(ctx context.Context, base string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify-receipt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := addTlogFlags(fs, base)
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
	c, opts, ok := f.client(stderr)
	if !ok {
		return usageError(stdout)
	}
	r, err := c.VerifyReceiptOf(ctx, receipt, opts)
	return verified(stdout, stderr, r, err, client.ErrReceiptInvalid)
}
