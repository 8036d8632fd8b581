package core

import (
	"context"
	"time"
)

// E-sport titles (spec 1.8, 2.7; DESIGN.md "Titles"). A title is unique
// and has at most one holder.
//
//   - Vacant (no holder, no clock): players volunteer; the second
//     volunteer triggers the coronation match between the first two.
//   - Held: the holder's 48 h clock (TitleClock) runs from the start of the
//     reign or its last successful defense. Any other player may challenge
//     while no challenge is open and no title match is; the holder accepts
//     (an organized title match, window now .. +TitleMatchWindow) or
//     declines (the clock keeps running).
//   - A decided title match changes its title in the decision's own
//     batch, whatever decided it: sql/queries/decided.sql, title_result to
//     title_result_applied (a defense, a lost reign, a coronation).
//   - The clock running out (RunTitleClocks, a scheduled job):
//     sql/queries/titles.sql, strip_to_volunteer to restart_title_clock
//     (stripped, or the clock restarts).
//
// A title is backed by a tournaments row of FormatTitle (its slug, name
// and environment), so its matches are ordinary organized matches: nonce,
// seed, ready, dual-attested results, reports, grace periods, the
// window-close forfeit and the admin's resolve all apply unchanged, and
// discovery names the title as the match's tournament. Titles and
// tournaments share one slug namespace.

// The title clock and the window of a title match (spec 8).
const (
	TitleClock       = 48 * time.Hour
	TitleMatchWindow = 48 * time.Hour
)

// FormatTitle is the format of a title's tournaments row; such rows are
// never listed as tournaments.
const FormatTitle TournamentFormat = "title"

// StageTitle is the stage of every title match.
const StageTitle MatchStage = "title"

// Round labels of the two kinds of title match.
const (
	RoundCoronation = "Coronation"
	RoundTitleMatch = "Title match"
)

// Title errors (spec 7 leaves their list open; DESIGN.md "Titles").
const (
	CodeTitleNotFound            = "title_not_found"             // 404: no such title (or the environment gate hides it)
	CodeTitleAlreadyHeld         = "title_already_held"          // 409: volunteering for a held title
	CodeTitleVacantUseCoronation = "title_vacant_use_coronation" // 409: challenging a vacant title
	CodeChallengePending         = "challenge_pending"           // 409: a challenge is open or a title match is being played
	CodeCannotChallengeSelf      = "cannot_challenge_self"       // 409: the holder challenging
	CodeNotHolder                = "not_holder"                  // 403: only the holder answers a challenge
	CodeChallengeNotFound        = "challenge_not_found"         // 404: no such challenge (or its title is hidden)
	CodeChallengeNotPending      = "challenge_not_pending"       // 409: the challenge was answered, expired or voided
	CodeTitleClockExpired        = "title_clock_expired"         // 409: accepting after the clock ran out
	CodeAlreadyVolunteered       = "already_volunteered"         // 409: the caller is queued already
	CodeCoronationPending        = "coronation_pending"          // 409: the coronation match is being played
	CodeTitleRetired             = "title_retired"               // 409: a retired title takes no action
)

// ChallengeStatus is where a challenge stands.
type ChallengeStatus string

// Challenge statuses: pending until the holder answers; accepted (a title
// match was created), declined; expired when the clock ran out on it (the
// holder was stripped); void when the title was retired.
const (
	ChallengePending  ChallengeStatus = "pending"
	ChallengeAccepted ChallengeStatus = "accepted"
	ChallengeDeclined ChallengeStatus = "declined"
	ChallengeExpired  ChallengeStatus = "expired"
	ChallengeVoid     ChallengeStatus = "void"
)

// Open reports whether the challenge still weighs on the holder: pending,
// or declined (it strips the holder when the clock runs out).
func (s ChallengeStatus) Open() bool { return s == ChallengePending || s == ChallengeDeclined }

// How a reign ended (lineage "ended").
const (
	ReignLost     = "lost"     // a challenger won a title match
	ReignStripped = "stripped" // the clock ran out on an unanswered or declined challenge
)

// Reign is one holder's time with a title.
type Reign struct {
	Holder   string
	Since    time.Time
	Until    *time.Time // nil for the current reign
	Defenses int
	Ended    string // "" for the current reign, else ReignLost or ReignStripped
}

// TitleChallenge is a player's challenge of a title's holder.
type TitleChallenge struct {
	ID          int64
	TitleID     int64
	Challenger  string
	Holder      string // the holder challenged
	Status      ChallengeStatus
	At          time.Time
	RespondedAt *time.Time
	MatchID     int64 // the title match of an accepted challenge, else 0
}

// TitleVolunteer is a player queued for a vacant title.
type TitleVolunteer struct {
	PlatformID string
	At         time.Time
}

// Title is a title with its state: holder and clock, the open challenge,
// the title match being played, the volunteers, the lineage.
type Title struct {
	ID           int64
	Slug         string
	Name         string
	TournamentID int64
	Environment  Environment
	// Holder is the current holder's account id; "" while vacant.
	Holder string
	// ClockStartedAt is when the holder's clock last started; nil while
	// vacant or retired.
	ClockStartedAt *time.Time
	// OpenChallenge is the pending or declined challenge, if any.
	OpenChallenge *TitleChallenge
	// Match is the title's undecided match (a coronation or a challenge's
	// title match), if any.
	Match *Match
	// Volunteers are queued for the vacant title, first first.
	Volunteers []TitleVolunteer
	// Lineage is every reign, oldest first; the current one is last.
	Lineage   []Reign
	RetiredAt *time.Time
	// BestOf is its title matches' series length (1: one game).
	BestOf    int
	CreatedAt time.Time
}

// Vacant reports whether the title has no holder.
func (t *Title) Vacant() bool { return t.Holder == "" }

// CurrentReign returns the holder's reign, or nil while vacant.
func (t *Title) CurrentReign() *Reign {
	if t.Vacant() || len(t.Lineage) == 0 {
		return nil
	}
	r := &t.Lineage[len(t.Lineage)-1]
	if r.Until != nil {
		return nil
	}
	return r
}

// ClockExpiresAt returns when the holder's clock runs out, or nil while
// vacant or retired.
func (t *Title) ClockExpiresAt() *time.Time {
	if t.ClockStartedAt == nil {
		return nil
	}
	at := t.ClockStartedAt.Add(TitleClock)
	return &at
}

// ClockExpired reports whether the holder's clock has run out at now.
func (t *Title) ClockExpired(now time.Time) bool {
	exp := t.ClockExpiresAt()
	return exp != nil && !now.Before(*exp)
}

// Volunteered reports whether the player is queued for the title.
func (t *Title) Volunteered(platformID string) bool {
	for _, v := range t.Volunteers {
		if v.PlatformID == platformID {
			return true
		}
	}
	return false
}

// Players returns the account ids a title names: holder, challenger, the
// match's players, volunteers, every reign's holder ("" and repeats
// included).
func (t *Title) Players() []string {
	ids := []string{t.Holder}
	if c := t.OpenChallenge; c != nil {
		ids = append(ids, c.Challenger)
	}
	if m := t.Match; m != nil {
		ids = append(ids, m.P1, m.P2)
	}
	for _, v := range t.Volunteers {
		ids = append(ids, v.PlatformID)
	}
	for _, r := range t.Lineage {
		ids = append(ids, r.Holder)
	}
	return ids
}

// CheckVolunteer returns why the player may not volunteer for the title,
// checked in this order: the title is retired (CodeTitleRetired), held
// (CodeTitleAlreadyHeld), the player is queued (CodeAlreadyVolunteered),
// the coronation is being played (CodeCoronationPending). nil: they may.
func (t *Title) CheckVolunteer(platformID string) error {
	switch {
	case t.RetiredAt != nil:
		return Errorf(CodeTitleRetired, "%s is retired", t.Slug)
	case !t.Vacant():
		return Errorf(CodeTitleAlreadyHeld, "%s has a holder: challenge them", t.Slug)
	case t.Volunteered(platformID):
		return Errorf(CodeAlreadyVolunteered, "already queued for %s", t.Slug)
	case t.Match != nil:
		return Errorf(CodeCoronationPending, "the coronation of %s is being played", t.Slug)
	}
	return nil
}

// CheckChallenge returns why the player may not challenge the title's
// holder, in this order: retired (CodeTitleRetired), vacant
// (CodeTitleVacantUseCoronation), the player holds it
// (CodeCannotChallengeSelf), a challenge is open or a title match is being
// played (CodeChallengePending). nil: they may.
func (t *Title) CheckChallenge(platformID string) error {
	switch {
	case t.RetiredAt != nil:
		return Errorf(CodeTitleRetired, "%s is retired", t.Slug)
	case t.Vacant():
		return Errorf(CodeTitleVacantUseCoronation, "%s is vacant: volunteer for its coronation", t.Slug)
	case t.Holder == platformID:
		return Errorf(CodeCannotChallengeSelf, "the holder cannot challenge themselves")
	case t.OpenChallenge != nil || t.Match != nil:
		return Errorf(CodeChallengePending, "%s already has a challenge or a title match", t.Slug)
	}
	return nil
}

// CheckRespond returns why the player may not answer challenge c of the
// title, in this order: retired (CodeTitleRetired), the player is not the
// holder (CodeNotHolder), c is no longer pending (CodeChallengeNotPending),
// and to accept, the clock has run out (CodeTitleClockExpired: the holder
// is stripped instead). nil: they may.
func (t *Title) CheckRespond(c *TitleChallenge, platformID string, accept bool, now time.Time) error {
	switch {
	case t.RetiredAt != nil:
		return Errorf(CodeTitleRetired, "%s is retired", t.Slug)
	case t.Vacant() || t.Holder != platformID:
		return Errorf(CodeNotHolder, "only the holder of %s answers its challenges", t.Slug)
	case c.Status != ChallengePending:
		return Errorf(CodeChallengeNotPending, "challenge %d is %s", c.ID, c.Status)
	case accept && t.ClockExpired(now):
		return Errorf(CodeTitleClockExpired, "the clock of %s ran out", t.Slug)
	}
	return nil
}

// ParseTitleID reads a title or challenge id from a path the way match ids
// are read; anything else is notFound.
func ParseTitleID(s, notFound string) (int64, error) {
	id, err := ParseMatchID(s)
	if err != nil {
		return 0, Errorf(notFound, "id %q", s)
	}
	return id, nil
}

// TitleStore keeps an arena's titles. Every change two requests can race
// on is one conditional batch; a change that finds the title moved on
// stores nothing and reports false, and the caller's rules say why.
type TitleStore interface {
	// CreateTitle stores t (vacant) with its tournaments row in one batch
	// and sets its ID and TournamentID; CodeSlugTaken when a title or a
	// tournament has the slug.
	CreateTitle(ctx context.Context, t *Title) error
	// Titles returns every title with its state, in creation order.
	Titles(ctx context.Context) ([]Title, error)
	// Title returns one title with its state, or CodeTitleNotFound.
	Title(ctx context.Context, id int64) (*Title, error)
	// TitleChallenge returns a challenge, or CodeChallengeNotFound.
	TitleChallenge(ctx context.Context, id int64) (*TitleChallenge, error)

	// AddVolunteer queues v for the title while it is vacant, unretired and
	// has no coronation being played, and, when that makes two volunteers,
	// creates the coronation match between the first two (window opens ..
	// closes), all in one batch. false: nothing was stored.
	AddVolunteer(ctx context.Context, titleID int64, v TitleVolunteer, opens, closes time.Time, token string) (bool, error)
	// AddChallenge stores c (pending) while the title is held by someone
	// else than c.Challenger, unretired, with no open challenge and no
	// title match; in the same batch a clock that ran out (started at or
	// before clockCutoff) with no challenge open restarts at c.At, as the
	// scheduled job would. It sets c.ID and c.Holder. false: nothing was
	// stored.
	AddChallenge(ctx context.Context, c *TitleChallenge, clockCutoff time.Time, token string) (bool, error)
	// AnswerChallenge answers pending challenge id for holder at `at`:
	// declined, or accepted with a title match (holder in slot 1, window
	// at .. closes) created in the same batch while the holder's clock
	// started after clockCutoff. false: nothing was changed.
	AnswerChallenge(ctx context.Context, id int64, holder string, accept bool, at, closes, clockCutoff time.Time, token string) (bool, error)
	// ExpiredTitleClocks returns the unretired held titles whose clock
	// started at or before cutoff.
	ExpiredTitleClocks(ctx context.Context, cutoff time.Time) ([]int64, error)
	// ExpireTitleClock applies the clock's expiry to the title at now, in
	// one batch, if its clock still started at or before cutoff
	// (sql/queries/titles.sql, strip_to_volunteer to restart_title_clock).
	// A title no longer expired (another run applied it) is left as it is.
	ExpireTitleClock(ctx context.Context, titleID int64, now, cutoff time.Time) error
	// RetireTitle retires the title at `at` (once): its clock stops, open
	// challenges become void and its volunteers leave. CodeTitleNotFound.
	RetireTitle(ctx context.Context, id int64, at time.Time) error
}
