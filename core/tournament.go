package core

import (
	"fmt"
	"slices"
	"time"
)

// TournamentStatus is a tournament's place in its lifecycle.
type TournamentStatus string

// Tournament statuses. Draft tournaments are never public.
const (
	StatusDraft              TournamentStatus = "draft"
	StatusRegistrationOpen   TournamentStatus = "registration_open"
	StatusRegistrationClosed TournamentStatus = "registration_closed"
	StatusGroupStage         TournamentStatus = "group_stage"
	StatusPlayoffs           TournamentStatus = "playoffs"
	StatusCompleted          TournamentStatus = "completed"
	StatusCancelled          TournamentStatus = "cancelled"
)

// TournamentStatuses lists every status, in lifecycle order.
var TournamentStatuses = []TournamentStatus{StatusDraft, StatusRegistrationOpen, StatusRegistrationClosed,
	StatusGroupStage, StatusPlayoffs, StatusCompleted, StatusCancelled}

// ValidStepTarget reports whether s names a status a lifecycle step can
// move a tournament to: any status but draft (NextStatusAllowed decides
// whether the step is legal from where the tournament stands).
func ValidStepTarget(s string) bool {
	st := TournamentStatus(s)
	return st.Public() && slices.Contains(TournamentStatuses, st)
}

// Public reports whether tournaments in this status appear publicly.
func (s TournamentStatus) Public() bool { return s != StatusDraft && s != "" }

// Final reports whether nothing can follow this status.
func (s TournamentStatus) Final() bool { return s == StatusCompleted || s == StatusCancelled }

// TournamentFormat is how a tournament is played.
type TournamentFormat string

// Formats: round-robin groups then playoffs, or playoffs seeded from
// registration; double elimination (winners and losers brackets and a
// grand final), Swiss rounds (optionally cut to a single-elimination
// bracket), and one round-robin group whose standings decide the podium.
const (
	FormatGroupsPlayoffs    TournamentFormat = "groups_playoffs"
	FormatPlayoffsOnly      TournamentFormat = "playoffs_only"
	FormatDoubleElimination TournamentFormat = "double_elimination"
	FormatSwiss             TournamentFormat = "swiss"
	FormatRoundRobin        TournamentFormat = "round_robin"
)

// Formats are the formats the service runs, in the order the admin's
// form offers them: the one list the draft's check and the form read.
var Formats = []TournamentFormat{FormatGroupsPlayoffs, FormatPlayoffsOnly, FormatDoubleElimination, FormatSwiss, FormatRoundRobin}

// HasGroupStage reports whether the format starts with a stage of
// rounds (status group_stage): groups, Swiss rounds or the round robin.
func (f TournamentFormat) HasGroupStage() bool {
	return f == FormatGroupsPlayoffs || f == FormatSwiss || f == FormatRoundRobin
}

// StartsWithBracket reports whether the format goes from registration
// straight to its bracket (status playoffs).
func (f TournamentFormat) StartsWithBracket() bool {
	return f == FormatPlayoffsOnly || f == FormatDoubleElimination
}

// Environment is the channel a tournament is surfaced to (spec 5.1.6).
type Environment string

// Environments: demo is public; rec and beta are internal test channels.
const (
	EnvironmentDemo Environment = "demo"
	EnvironmentRec  Environment = "rec"
	EnvironmentBeta Environment = "beta"
)

// Environments are the channels, the public one first.
var Environments = []Environment{EnvironmentDemo, EnvironmentRec, EnvironmentBeta}

// Hand modes of the recording-release policy (spec 2.1 cast.handMode).
const (
	HandModeHidden  = "hidden"
	HandModeDelayed = "delayed"
	HandModeShown   = "shown"
)

// HandModes are the recording-release policy's hand modes, the most
// private first.
var HandModes = []string{HandModeHidden, HandModeDelayed, HandModeShown}

// CastPolicy is a tournament's recording-release policy.
type CastPolicy struct {
	HandMode     string `json:"handMode"`
	DelaySeconds int    `json:"delaySeconds"`
}

// Tournament is one tournament of an arena.
type Tournament struct {
	ID                   int64
	Slug                 string
	Name                 string
	Description          string
	Format               TournamentFormat
	Status               TournamentStatus
	MaxPlayers           int
	RegistrationOpensAt  time.Time
	RegistrationClosesAt time.Time
	StartsAt             time.Time
	Environment          Environment
	SeasonID             int64 // 0: no season
	SeasonSlug           string
	TeamMinPlayers       int
	TeamMaxPlayers       int
	GroupCount           int
	AdvancePerGroup      int
	SmallFinal           bool
	MatchWindowMinutes   int
	Cast                 CastPolicy
	AllowSpectators      bool
	// GrandFinalReset: in double elimination, a second grand final (GF2)
	// is played when the losers' bracket champion wins the first.
	GrandFinalReset bool
	// SwissRounds is the Swiss rounds configured; 0 plays
	// DefaultSwissRounds of the entrants.
	SwissRounds int
	// TopCut is how many of the Swiss standings' top go on to a
	// single-elimination bracket; 0 for none.
	TopCut int
	// SeedFromRatings seeds the draw's unseeded sides by their rating.
	SeedFromRatings bool
	// CheckInMinutes is how long before StartsAt check-in opens; 0 for
	// no check-in (checkin.go).
	CheckInMinutes int
	// GroupFormat is how groups_playoffs plays its groups: round robin
	// or GSL (gsl.go).
	GroupFormat GroupFormat
	// BestOf, GroupBestOf and FinalBestOf are the series' lengths of its
	// playoff, group and final matches (SeriesLength).
	BestOf, GroupBestOf, FinalBestOf int
	// Pacing is when matches' windows open (pacing.go).
	Pacing Pacing
	// GracePeriodMinutes is the tournament's own grace period; 0 for the
	// arena's (grace.go).
	GracePeriodMinutes int
	PlayerCount        int // registrations (sides)
	CreatedAt          time.Time
	UpdatedAt          time.Time
	CompletedAt        *time.Time
	// FirstMatchAt is when its first match opens (or opened): when play
	// really starts, which an admin's early or late start moves away from
	// StartsAt. Nil until a stage is drawn.
	FirstMatchAt *time.Time
	// LogSeq is the event log's last seq when the row was read (in the
	// same statement): a live view of what was read follows the log from
	// there, missing nothing that happened after.
	LogSeq int64 `json:"-"`
}

// PlayStartedAt is when the tournament's play started, as of now: its
// first match's opening once that has come; nil before.
func (t *Tournament) PlayStartedAt(now time.Time) *time.Time {
	if t.FirstMatchAt == nil || t.FirstMatchAt.After(now) {
		return nil
	}
	return t.FirstMatchAt
}

// IsTeam reports whether sides are teams (teamMaxPlayers > 1).
func (t *Tournament) IsTeam() bool { return t.TeamMaxPlayers > 1 }

// MatchWindow returns the length of one match window.
func (t *Tournament) MatchWindow() time.Duration {
	return time.Duration(t.MatchWindowMinutes) * time.Minute
}

// Lifecycle errors.
const (
	CodeInvalidTransition  = "invalid_transition"
	CodeMatchesUnresolved  = "matches_unresolved"
	CodeTournamentNotFound = "tournament_not_found"
	// CodeTournamentNotDraft: only a draft tournament's settings change.
	CodeTournamentNotDraft = "tournament_not_draft"
	// CodeSeedsLocked: seeds change only before the draw (status
	// registration_open or registration_closed).
	CodeSeedsLocked = "seeds_locked"
)

// NextStatusAllowed returns nil when the tournament may move from its
// status to `to` in one legal step, else an invalid_transition error:
//
//	draft -> registration_open -> registration_closed
//	registration_closed -> group_stage (groups_playoffs, swiss, round_robin)
//	registration_closed -> playoffs (playoffs_only, double_elimination)
//	group_stage -> playoffs (groups_playoffs, swiss with a top cut)
//	group_stage -> completed (swiss without a top cut, round_robin)
//	playoffs -> completed
//	any status but completed and cancelled -> cancelled
func (t *Tournament) NextStatusAllowed(to TournamentStatus) error {
	from := t.Status
	ok := false
	switch to {
	case StatusRegistrationOpen:
		ok = from == StatusDraft
	case StatusRegistrationClosed:
		ok = from == StatusRegistrationOpen
	case StatusGroupStage:
		ok = from == StatusRegistrationClosed && t.Format.HasGroupStage()
	case StatusPlayoffs:
		ok = (from == StatusGroupStage && t.hasPlayoffsAfterGroupStage()) ||
			(from == StatusRegistrationClosed && t.Format.StartsWithBracket())
	case StatusCompleted:
		ok = from == StatusPlayoffs || (from == StatusGroupStage && !t.hasPlayoffsAfterGroupStage())
	case StatusCancelled:
		ok = !from.Final()
	}
	if !ok {
		return Errorf(CodeInvalidTransition, "%s cannot move from %s to %s", t.Slug, from, to)
	}
	return nil
}

// hasPlayoffsAfterGroupStage reports whether the group stage leads to a
// bracket: groups then playoffs, or Swiss rounds with a top cut.
func (t *Tournament) hasPlayoffsAfterGroupStage() bool {
	return t.Format == FormatGroupsPlayoffs || (t.Format == FormatSwiss && t.TopCut > 0)
}

// Season is a ladder season.
type Season struct {
	ID        int64
	Slug      string
	Name      string
	StartsAt  time.Time
	EndsAt    time.Time
	CreatedAt time.Time
}

// Registration is one side of a tournament: the captain (the player in
// 1v1) and the roster, captain included.
type Registration struct {
	TournamentID int64
	PlatformID   string
	PersonaName  string
	Seed         int // 0: unseeded
	GroupName    string
	Roster       []string
	RegisteredAt time.Time
	// DisqualifiedAt is when the admin disqualified the side (RemoveSide
	// after the draw): it loses every match it has left and qualifies for
	// nothing. Nil for a side in good standing.
	DisqualifiedAt *time.Time
	// CheckedInAt is when the side checked in; nil until it does.
	CheckedInAt *time.Time
}

// Registration errors (spec 4.2 and DESIGN's admin contract).
const (
	CodeInvalidSteamID     = "invalid_steam_id"
	CodeTournamentFull     = "tournament_full"
	CodeRegistrationClosed = "registration_closed"
	CodeAlreadyRegistered  = "already_registered"
	CodeInvalidRoster      = "invalid_roster"
	CodeSeasonNotFound     = "season_not_found"
)

// CheckRoster validates a side's roster for the tournament: 1v1 sides are
// the captain alone; team rosters hold the captain, have between
// TeamMinPlayers and TeamMaxPlayers distinct 17-digit ids.
func (t *Tournament) CheckRoster(captain string, roster []string) ([]string, error) {
	if !ValidPlatformID(captain) {
		return nil, FieldError(CodeInvalidSteamID, "platformId")
	}
	out := []string{captain}
	seen := map[string]bool{captain: true}
	for _, id := range roster {
		if !ValidPlatformID(id) {
			return nil, FieldError(CodeInvalidSteamID, "roster")
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	min, max := t.TeamMinPlayers, t.TeamMaxPlayers
	if min < 1 {
		min = 1
	}
	if max < 1 {
		max = 1
	}
	if len(out) < min || len(out) > max {
		return nil, &Error{Code: CodeInvalidRoster, Field: "roster",
			Message: fmt.Sprintf("A side has %d to %d players, the captain included.", min, max)}
	}
	return out, nil
}

// RegistrationOpenAt reports whether the tournament takes registrations
// at now: status registration_open and now inside the window.
func (t *Tournament) RegistrationOpenAt(now time.Time) bool {
	return t.Status == StatusRegistrationOpen && !now.Before(t.RegistrationOpensAt) && now.Before(t.RegistrationClosesAt)
}

// PlaceholderName is the display name of a player the arena knows only by
// account id: "Player" and the id's last four digits.
func PlaceholderName(platformID string) string {
	if len(platformID) < 4 {
		return "Player " + platformID
	}
	return "Player " + platformID[len(platformID)-4:]
}
