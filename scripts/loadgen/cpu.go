//go:build unix

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuTimes is the CPU time (user and system) the server and this process
// have used so far; the server's is zero without -pid or /proc.
func (g *gen) cpuTimes() (server, self time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if g.pid == 0 {
		return 0, self
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", g.pid))
	if err != nil {
		return 0, self
	}
	// Fields after the command's closing parenthesis: utime and stime are
	// the 14th and 15th of the line, in clock ticks (USER_HZ, 100).
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0, self
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond, self
}
