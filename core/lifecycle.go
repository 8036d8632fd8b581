package core

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// LifecycleStore is what stepping a tournament through its lifecycle
// reads and writes: its sides and their ratings (the draw), its matches
// (the playoffs' seeding), the status change with the stage it starts,
// and its completion.
type LifecycleStore interface {
	RegistrationStore
	RatingReader
	MatchReader
	CompletionStore
	// SetTournamentStatus moves t from `from` to `to` if it still is in
	// `from`; otherwise CodeInvalidTransition.
	SetTournamentStatus(ctx context.Context, t *Tournament, from, to TournamentStatus, at time.Time) error
	// StartStage moves t from `from` to `to` and, in the same batch, stores
	// the step's group assignments (captain -> group), seeds and matches,
	// all guarded by token (fresh for the call). When another request
	// moved t first it stores nothing and answers CodeInvalidTransition.
	StartStage(ctx context.Context, t *Tournament, from, to TournamentStatus, stage StageStart, at time.Time, token string) error
}

// ChangeTournamentStatus moves t one legal lifecycle step to `to` at deps.Now:
// entering group_stage draws the stage (groups by snake draw and their
// round robins, the round robin's one group, or the first Swiss round);
// entering playoffs seeds the bracket (from the group standings, the
// Swiss standings' top cut, or registration seeds for playoffs_only and
// double_elimination), resolving byes at once; leaving registration, it
// withdraws the sides that did not check in (checkin.go); completed needs the
// deciding matches resolved. The draw seeds by rating when the tournament
// says so, and stores the seeds it used. The step is one batch guarded by
// a token from deps.Random; a concurrent second step gets CodeInvalidTransition.
// Asking for the status t already has changes nothing and is no error (an
// admin's script may complete a tournament that its final's result
// completed already).
func ChangeTournamentStatus(ctx context.Context, st LifecycleStore, t *Tournament, to TournamentStatus, deps Deps) error {
	_, err := StepTournament(ctx, st, t, to, deps)
	return err
}

// StepTournament is ChangeTournamentStatus answering the captains of the
// sides the step withdrew for not checking in (none but when a stage
// starts from registration closed after check-in opened).
func StepTournament(ctx context.Context, st LifecycleStore, t *Tournament, to TournamentStatus, deps Deps) (withdrawn []string, err error) {
	return StepTournamentOf(ctx, st, t, nil, to, deps)
}

// StepTournamentOf is StepTournament with t's sides read already (in
// registration order; nil: read them when the step needs them), as a
// route that read the tournament with its parts has them.
func StepTournamentOf(ctx context.Context, st LifecycleStore, t *Tournament, sides []Registration, to TournamentStatus, deps Deps) (withdrawn []string, err error) {
	if t.Status == to {
		return nil, nil
	}
	if err := t.NextStatusAllowed(to); err != nil {
		return nil, err
	}
	from := t.Status
	switch to {
	case StatusGroupStage, StatusPlayoffs:
		regs := sides
		if regs == nil {
			if regs, err = st.Registrations(ctx, t.ID); err != nil {
				return nil, err
			}
		}
		var absent []Registration
		if from == StatusRegistrationClosed {
			regs, absent = absentSides(t, regs, deps.Now)
		}
		var seeds map[string]int
		if from == StatusRegistrationClosed && t.SeedFromRatings {
			if seeds, err = ratingSeeds(ctx, st, regs); err != nil {
				return nil, err
			}
			for i := range regs {
				regs[i].Seed = seeds[regs[i].PlatformID]
			}
		}
		var groups map[string]string
		var matches []Match
		if to == StatusGroupStage {
			groups, matches, err = planGroupStage(t, regs, deps.Now)
		} else {
			matches, err = planPlayoffs(ctx, st, t, regs, deps.Now)
		}
		if err != nil {
			return nil, err
		}
		token, err := RandomHex(deps.Random, 16)
		if err != nil {
			return nil, err
		}
		if err := st.StartStage(ctx, t, from, to, StageStart{Groups: groups, Seeds: seeds, Matches: matches, Absent: absent}, deps.Now, token); err != nil {
			return nil, err
		}
		withdrawn = make([]string, len(absent))
		for i, r := range absent {
			withdrawn[i] = r.PlatformID
		}
		return withdrawn, nil
	case StatusCompleted:
		done, err := CompleteIfDecided(ctx, st, t, deps.Now, deps.Points())
		if err != nil {
			return nil, err
		}
		if !done {
			return nil, Errorf(CodeMatchesUnresolved, "the deciding matches are not resolved")
		}
		return nil, nil
	}
	return nil, st.SetTournamentStatus(ctx, t, from, to, deps.Now)
}

// StageStart is what a lifecycle step stores with its status change: the
// group of each captain, the seeds the draw used (when it seeded by
// rating), and the step's matches.
type StageStart struct {
	Groups  map[string]string
	Seeds   map[string]int
	Matches []Match
	// Absent are the sides withdrawn for not checking in (their rosters
	// told why, once).
	Absent []Registration
}

// entrants returns the tournament's sides as draw entrants, in
// registration order.
func entrants(regs []Registration) []Entrant {
	out := make([]Entrant, len(regs))
	for i, r := range regs {
		out[i] = Entrant{ID: r.PlatformID, Seed: r.Seed}
	}
	return out
}

// ratingSeeds seeds every side for a draw by rating: sides the admin
// seeded keep their order first, then the others by rating, highest
// first (an unrated side counts as DefaultRating; equal ratings keep
// registration order). Seeds run 1..n.
func ratingSeeds(ctx context.Context, st RatingReader, regs []Registration) (map[string]int, error) {
	ids := make([]string, len(regs))
	for i, r := range regs {
		ids[i] = r.PlatformID
	}
	ratings, err := st.Ratings(ctx, ids)
	if err != nil {
		return nil, err
	}
	rating := func(id string) float64 {
		if p, ok := ratings[id]; ok {
			return p.Rating.Rating
		}
		return DefaultRating
	}
	order := SeedOrder(entrants(regs))
	firstUnseeded := len(order)
	for i, e := range order {
		if e.Seed <= 0 {
			firstUnseeded = i
			break
		}
	}
	slices.SortStableFunc(order[firstUnseeded:], func(a, b Entrant) int { return cmp.Compare(rating(b.ID), rating(a.ID)) })
	seeds := make(map[string]int, len(order))
	for i, e := range order {
		seeds[e.ID] = i + 1
	}
	return seeds, nil
}

// GroupTables returns each group's standings, groups in name order (a
// round robin's one group among them). GSL groups are ordered by the
// places their matches decided.
func GroupTables(t *Tournament, regs []Registration, matches []Match) (map[string][]StandingRow, []string, error) {
	members := map[string][]Entrant{}
	var names []string
	for _, r := range regs {
		if r.GroupName == "" {
			continue
		}
		if _, ok := members[r.GroupName]; !ok {
			names = append(names, r.GroupName)
		}
		members[r.GroupName] = append(members[r.GroupName], Entrant{ID: r.PlatformID, Seed: r.Seed})
	}
	sortGroupNames(names)
	outcomes := map[string][]MatchOutcome{}
	for i := range matches {
		if m := &matches[i]; m.Stage == StageGroup || m.Stage == StageRoundRobin {
			outcomes[m.GroupName] = append(outcomes[m.GroupName], m.Outcome())
		}
	}
	gsl := t.Format == FormatGroupsPlayoffs && t.GroupFormat == GroupFormatGSL
	tables := map[string][]StandingRow{}
	for _, g := range names {
		rows, err := Standings(strconv.FormatInt(t.ID, 10), members[g], outcomes[g])
		if err != nil {
			return nil, nil, fmt.Errorf("core: standings of group %s: %w", g, err)
		}
		if gsl {
			rows = orderGSL(rows, GSLPlaces(g, matches))
		}
		tables[g] = rows
	}
	return tables, names, nil
}

// sortGroupNames orders "A".."Z","AA".. as drawn: shorter names first.
func sortGroupNames(names []string) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && groupLess(names[j], names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}

func groupLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// ResolveStore is what an admin's decision reads and writes: the
// decision, stored, and its consequences (DecidedStore).
type ResolveStore interface {
	DecidedStore
	// ResolveMatch records res (with its Token) if the match is not
	// resolved yet and both sides are known, seating its winner and loser
	// in the same batch, and returns the resolved match;
	// CodeAlreadyResolved when another decision came first.
	ResolveMatch(ctx context.Context, id int64, res Resolution) (*Match, error)
	// ResolveGame decides game res.Game of a best-of-N match that is not
	// resolved (queries/series.sql) in one batch: the match goes back to
	// scheduled for the next game, or is decided when the game wins the
	// series (seating its winner and loser as every decision does).
	// CodeAlreadyResolved when the match was resolved meanwhile;
	// CodeGameNotCurrent when that game was decided meanwhile.
	ResolveGame(ctx context.Context, id int64, res Resolution) (*Match, error)
}

// ResolveMatch records an admin's decision (res, from
// ResolutionDraft.Check): the winner must be one of the match's two
// sides. The store decides the match and seats its winner and loser in one
// batch (tokened from deps.Random, so one of two racing admins wins); then
// MatchDecided moves the tournament on, as for every way a match is
// decided.
func ResolveMatch(ctx context.Context, st ResolveStore, t *Tournament, m *Match, res Resolution, deps Deps) (*Match, error) {
	if m.Status.Resolved() {
		return nil, Errorf(CodeAlreadyResolved, "match %d is resolved", m.ID)
	}
	if m.P1 == "" || m.P2 == "" {
		return nil, &Error{Code: CodeInvalidWinner, Field: "winner", Message: "Both sides must be known before the match is decided."}
	}
	if res.Winner != m.P1 && res.Winner != m.P2 {
		return nil, &Error{Code: CodeInvalidWinner, Field: "winner", Message: "The winner must be one of the two sides."}
	}
	if res.Game > 0 && m.SeriesLen() == 1 {
		res.Game = 0 // game 1 of a best of 1 is the match
	}
	if res.Game > 0 && res.Game != m.CurrentGame() {
		return nil, &Error{Code: CodeGameNotCurrent, Field: "game",
			Message: fmt.Sprintf("Game %d is the one to decide now.", m.CurrentGame())}
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return nil, err
	}
	res.Token = token
	var resolved *Match
	if res.Game > 0 {
		resolved, err = st.ResolveGame(ctx, m.ID, res)
	} else {
		resolved, err = st.ResolveMatch(ctx, m.ID, res)
	}
	if err != nil {
		return nil, err
	}
	if !resolved.Status.Resolved() {
		return resolved, nil
	}
	if err := MatchDecided(ctx, st, resolved, res.At, deps.Points); err != nil {
		return nil, err
	}
	return resolved, nil
}

// StoredBracket rebuilds the bracket plan from a tournament's stored
// playoff matches (group, Swiss and round-robin matches are skipped), with
// players and winners as they stand. Double-elimination slots (W1M1, L2M1,
// GF) make a double-elimination plan, its sections read from the slots.
func StoredBracket(matches []Match) BracketPlan {
	plan := BracketPlan{}
	for _, m := range matches {
		if !IsBracketStage(m.Stage) {
			continue
		}
		bye := m.ResultSource == SourceBye
		bm := BracketMatch{
			Stage: m.Stage, Round: m.Round, RoundNumber: m.RoundNumber, BracketSlot: m.BracketSlot,
			P1: BracketSeat{PlayerID: m.P1}, P2: BracketSeat{PlayerID: m.P2, Bye: bye},
			Bye: bye, Winner: m.Winner, WinnerTo: m.WinnerTo, LoserTo: m.LoserTo,
		}
		if section, r, _, ok := ParseBracketSlot(m.BracketSlot); ok {
			plan.Double, bm.Section, bm.SectionRound = true, section, r
			if section == BracketSectionWinners && r > plan.Rounds {
				plan.Rounds = r
			}
			if m.BracketSlot == BracketSlotGrandFinalReset {
				plan.Reset = true
			}
		} else if m.RoundNumber > plan.Rounds {
			plan.Rounds = m.RoundNumber
		}
		plan.Matches = append(plan.Matches, bm)
	}
	plan.Size = 1 << plan.Rounds
	return plan
}

// IsBracketStage reports whether a match stage is part of a bracket.
func IsBracketStage(stage MatchStage) bool {
	return stage == StagePlayoff || stage == StageFinal || stage == StageSmallFinal
}
