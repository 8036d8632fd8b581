package core

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// An organizer's tools on a tournament that is under way: taking a side
// out (removed before the draw, disqualified after it), editing the
// details and schedule after registration opened.

// Organizer errors.
const (
	// CodeScheduleFixed: the schedule changes only until the tournament
	// starts (group stage or playoffs).
	CodeScheduleFixed = "schedule_fixed"
	// CodeTournamentOver: a completed or cancelled tournament changes no
	// more.
	CodeTournamentOver = "tournament_over"
)

// OrganizerStore is what editing a tournament changes: its details and
// schedule, in one conditional statement.
type OrganizerStore interface {
	// UpdateTournamentDetails stores t's name, description and schedule
	// while t is still in status `status`; otherwise CodeInvalidTransition.
	UpdateTournamentDetails(ctx context.Context, t *Tournament, status TournamentStatus) error
}

// SideRemovalStore is what taking sides out reads and writes: the sides,
// their removal or disqualification, the forfeits of the disqualified
// sides' matches and, for the consequences, the tournament
// (DecidedByIDStore). Each change is one conditional statement or batch.
// One value, the arena's store, serves it.
type SideRemovalStore interface {
	RegistrationStore
	DecidedByIDStore
	// RemoveSide deletes the captain's side (registration and roster) while
	// t is still before its draw (registration_open or
	// registration_closed); otherwise CodeInvalidTransition.
	RemoveSide(ctx context.Context, t *Tournament, captain string) error
	// DisqualifySide marks the captain's side disqualified at `at` while t
	// is running (group_stage or playoffs); otherwise
	// CodeInvalidTransition. Marking it again changes nothing.
	DisqualifySide(ctx context.Context, t *Tournament, captain string, at time.Time) error
	// DisqualifiedMatches returns the undecided matches (both sides known)
	// of running tournaments that have a disqualified side.
	DisqualifiedMatches(ctx context.Context) ([]int64, error)
	// ForfeitDisqualified forfeits such a match to its side that is not
	// disqualified (result source admin), seating winner and loser as
	// every decision does; false when it was decided meanwhile (token
	// tells this call's decision from a racing one's).
	ForfeitDisqualified(ctx context.Context, matchID int64, at time.Time, token string) (bool, error)
}

// RemoveSide takes the captain's side out of tour, by its admin: before
// the draw the side is removed (as a withdrawal is, whatever the
// registration window); once groups or the bracket are drawn it is
// disqualified: every match it has not finished is forfeited to its
// opponent, now and whenever it is seated in another one (a semifinal's
// loser in the small final), and it qualifies for nothing. It returns how
// many matches it decided. Errors: CodeNotRegistered, CodeTournamentOver.
func RemoveSide(ctx context.Context, ts SideRemovalStore, tour *Tournament, captain string, deps Deps) (int, error) {
	regs, err := ts.Registrations(ctx, tour.ID)
	if err != nil {
		return 0, err
	}
	reg := SideOfPlayer(regs, captain)
	if reg == nil || reg.PlatformID != captain {
		return 0, Errorf(CodeNotRegistered, "%s captains no side of %s", captain, tour.Slug)
	}
	switch tour.Status {
	case StatusRegistrationOpen, StatusRegistrationClosed:
		return 0, ts.RemoveSide(ctx, tour, captain)
	case StatusGroupStage, StatusPlayoffs:
	default:
		return 0, Errorf(CodeTournamentOver, "%s is %s", tour.Slug, tour.Status)
	}
	if err := ts.DisqualifySide(ctx, tour, captain, deps.Now); err != nil {
		return 0, err
	}
	return ForfeitDisqualified(ctx, ts, deps)
}

// maxForfeitPasses bounds ForfeitDisqualified: each pass can seat a
// disqualified side in one more match (a semifinal's loser in the small
// final), so a few passes settle any bracket.
const maxForfeitPasses = 16

// ForfeitDisqualified forfeits every undecided match of a disqualified
// side to its opponent, through the one decision path (seats in the
// decision's batch, then MatchDecided), pass after pass until none is
// left. It returns how many it decided; the scheduled jobs run it too, so
// running it again changes nothing more.
func ForfeitDisqualified(ctx context.Context, ts SideRemovalStore, deps Deps) (int, error) {
	done := 0
	for range maxForfeitPasses {
		ids, err := ts.DisqualifiedMatches(ctx)
		if err != nil || len(ids) == 0 {
			return done, err
		}
		decided := 0
		for _, id := range ids {
			token, err := RandomHex(deps.Random, 12)
			if err != nil {
				return done, err
			}
			ok, err := ts.ForfeitDisqualified(ctx, id, deps.Now, token)
			if err != nil {
				return done, err
			}
			if ok {
				decided++
				if err := decidedByID(ctx, ts, id, deps.Now, deps.Points); err != nil {
					return done + decided, err
				}
			}
		}
		done += decided
		if decided == 0 {
			return done, nil
		}
	}
	return done, nil
}

// TournamentEdit changes a tournament's details after it left draft (the
// body of PATCH /api/v1/admin/tournaments/{slug}, or the admin page's
// form): absent fields keep their value. The name and description change
// until the tournament is over; the schedule until it starts.
type TournamentEdit struct {
	Name                 *string `json:"name"`
	Description          *string `json:"description"`
	RegistrationOpensAt  Instant `json:"registrationOpensAt"`
	RegistrationClosesAt Instant `json:"registrationClosesAt"`
	StartsAt             Instant `json:"startsAt"`
	// CheckInMinutes is part of the schedule: a check-in can be added,
	// changed or removed until the tournament starts.
	CheckInMinutes Number `json:"checkInMinutes"`
	// GracePeriodMinutes (0: the arena's) changes until the tournament is
	// over; the results waiting then wait the new one.
	GracePeriodMinutes Number `json:"gracePeriodMinutes"`
}

// Apply returns a copy of t with the edit applied at now, or its
// problems: the texts' limits, the schedule (check-in included) only
// before the start (CodeScheduleFixed), then the schedule's cross-field
// rules.
func (e *TournamentEdit) Apply(t Tournament, now time.Time) (*Tournament, Problems) {
	var p Problems
	if t.Status.Final() {
		p.add(CodeTournamentOver, "status", "A %s tournament changes no more.", t.Status)
		return nil, p
	}
	if e.Name != nil {
		t.Name = strings.TrimSpace(*e.Name)
		checkName(&p, "name", t.Name, "Enter a name.")
	}
	if e.Description != nil {
		t.Description = *e.Description
		if utf8.RuneCountInString(t.Description) > MaxDescriptionRunes {
			p.invalid("description", "At most %d characters.", MaxDescriptionRunes)
		}
	}
	started := t.Status != StatusDraft && t.Status != StatusRegistrationOpen && t.Status != StatusRegistrationClosed
	for _, f := range []struct {
		field string
		in    Instant
		dst   *time.Time
	}{
		{"registrationOpensAt", e.RegistrationOpensAt, &t.RegistrationOpensAt},
		{"registrationClosesAt", e.RegistrationClosesAt, &t.RegistrationClosesAt},
		{"startsAt", e.StartsAt, &t.StartsAt},
	} {
		if !f.in.Set && !f.in.bad {
			continue
		}
		if started {
			p.add(CodeScheduleFixed, f.field, "The schedule is fixed once the tournament has started.")
			continue
		}
		f.in.check(&p, f.field, true)
		*f.dst = f.in.T
	}
	if e.CheckInMinutes.Set || e.CheckInMinutes.bad {
		if started {
			p.add(CodeScheduleFixed, "checkInMinutes", "The schedule is fixed once the tournament has started.")
		} else {
			CheckInMinutesRange.check(&p, "checkInMinutes", e.CheckInMinutes, true)
			t.CheckInMinutes = e.CheckInMinutes.N
		}
	}
	if e.GracePeriodMinutes.Set || e.GracePeriodMinutes.bad {
		GracePeriodMinutesRange.check(&p, "gracePeriodMinutes", e.GracePeriodMinutes, true)
		t.GracePeriodMinutes = e.GracePeriodMinutes.N
	}
	if len(p) == 0 {
		for _, rule := range t.CheckRules() {
			if rule.Field == "registrationClosesAt" || rule.Field == "startsAt" {
				p.keep(rule)
			}
		}
	}
	if len(p) > 0 {
		return nil, p
	}
	t.UpdatedAt = now
	return &t, nil
}

// EditTournament applies the edit to tour at now and stores it while the
// tournament keeps its status (a concurrent lifecycle step wins:
// CodeInvalidTransition).
func EditTournament(ctx context.Context, os OrganizerStore, tour *Tournament, e *TournamentEdit, now time.Time) (*Tournament, error) {
	edited, problems := e.Apply(*tour, now)
	if err := problems.Err(); err != nil {
		return nil, err
	}
	if err := os.UpdateTournamentDetails(ctx, edited, tour.Status); err != nil {
		return nil, err
	}
	return edited, nil
}

// disqualifiedSides returns the captains of the disqualified sides.
func disqualifiedSides(regs []Registration) map[string]bool {
	out := map[string]bool{}
	for _, r := range regs {
		if r.DisqualifiedAt != nil {
			out[r.PlatformID] = true
		}
	}
	return out
}
