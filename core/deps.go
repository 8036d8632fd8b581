package core

import (
	"io"
	"time"
)

// Deps is what a use case runs with besides its store and its input: the
// instant it runs at (read once from the service's Clock by the caller),
// the randomness its tokens, nonces and draws come from, and the arena's
// placement points, read only when a tournament completes. A use case
// reads the fields it needs; the others may be left zero.
type Deps struct {
	Now    time.Time
	Random io.Reader
	Points func() PlacementPoints
}
