package core

import "time"

// Clock returns the current time. Every window, delay and grace period
// reads the service's Clock, never time.Now, so tests and dev mode can
// move time.
type Clock func() time.Time
