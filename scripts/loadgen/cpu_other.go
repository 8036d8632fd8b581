//go:build !unix

package main

import "time"

// cpuTimes reports nothing where there is no getrusage or /proc.
func (g *gen) cpuTimes() (server, self time.Duration) { return 0, 0 }
