package core

import "time"

// Clock returns the current time. Every window, delay and grace period
// reads the service's Clock, never time.Now, so tests and dev mode can
// move time.
type Clock func() time.Time

// CodeClockOverflow (409) refuses moving the dev clock further than a
// time.Duration reaches (about 292 years ahead of the real clock).
const CodeClockOverflow = "clock_overflow"
