package core

import (
	"context"
	"fmt"
	"time"
)

// Reopening a decided match (DESIGN.md "Series and the pace of results"):
// an organizer takes back a mistyped decision while nothing downstream
// started. The match goes back to scheduled with a fresh window from now,
// no result and no games; the sides it advanced leave the matches they
// were seated in (a grand final's reset is dropped); a completed
// tournament whose deciding match it was is playing again (podium,
// placements and ladder points withdrawn); standings follow from the
// matches, and ratings are rated again from the start by the scheduled
// job when the match was rated. The store does it in one batch claimed
// by a token, so a concurrent ready, submission or decision downstream
// either comes first (CodeDownstreamStarted) or finds the match reopened.

// CodeDownstreamStarted: a match the reopened match fed has a ready, a
// submission, a report or a decision, or its stage moved on (409).
const CodeDownstreamStarted = "downstream_started"

// ReopenStore reopens a decided match and reads it back.
type ReopenStore interface {
	// ReopenMatch reopens the decided match m at now (window now .. now
	// + window), as the package comment says, in one batch, logging
	// match.reopened naming by; false when downstream play started (or
	// the match changed) meanwhile: then nothing changed.
	ReopenMatch(ctx context.Context, t *Tournament, m *Match, now time.Time, token, by string) (bool, error)
	// Match returns the match with the id, or CodeMatchNotFound.
	Match(ctx context.Context, id int64) (*Match, error)
}

// ReopenMatch reopens the decided match m of t. Checks, in order: m is
// decided by a decision that can be taken back, not a bye nor a title
// match (CodeInvalidTransition), nothing downstream started (the store:
// CodeDownstreamStarted). It returns the match as it is afterwards.
func ReopenMatch(ctx context.Context, st ReopenStore, t *Tournament, m *Match, by string, deps Deps) (*Match, error) {
	switch {
	case !m.Status.Resolved():
		return nil, Errorf(CodeInvalidTransition, "match %d is %s: nothing to reopen", m.ID, m.Status)
	case m.ResultSource == SourceBye:
		return nil, Errorf(CodeInvalidTransition, "match %d is a bye", m.ID)
	case t.Format == FormatTitle:
		return nil, Errorf(CodeInvalidTransition, "a title match's result moved the title")
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return nil, err
	}
	ok, err := st.ReopenMatch(ctx, t, m, deps.Now, token, by)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &Error{Code: CodeDownstreamStarted,
			Message: fmt.Sprintf("A match that match %d fed has started, or its stage moved on.", m.ID)}
	}
	return st.Match(ctx, m.ID)
}
