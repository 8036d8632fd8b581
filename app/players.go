package app

import (
	"context"
	"slices"

	"arena/core"
	"arena/core/tournamentview"
)

// A player as the public sees them: the card the player API answers and
// the player page starts from, the page's own reads, and the books of
// names the pages show.

// playerMatchStatuses are every match status: a player's whole history.
var playerMatchStatuses = []core.MatchStatus{
	core.MatchScheduled, core.MatchLive, core.MatchAwaitingResult,
	core.MatchConfirmed, core.MatchDisputed, core.MatchForfeited,
}

// PlayerBook is the profiles of the players with the ids ("" and repeats
// are skipped) in one read, or none when no id is left.
func (s *Session) PlayerBook(ctx context.Context, ids []string) (tournamentview.Players, error) {
	return tournamentview.ReadPlayers(ctx, s.store, ids)
}

// PlayerCard is a player's public card, read with the arena's rating
// period (one round trip), its rating brought to now: its deviation
// grown for the rating periods they sat out. core.CodePlayerNotFound
// when there is no such player.
func (s *Session) PlayerCard(ctx context.Context, id string) (*core.PlayerCard, error) {
	s.store.PlanSetting(ctx, core.SettingRatingPeriodHours)
	c, err := s.store.PlayerCard(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.Rating != nil {
		c.Rating.Rating = c.Rating.Now(s.Deps.Now, s.RatingPeriodHours(ctx))
	}
	return c, nil
}

// PlanPlayerPage plans the player page's reads keyed by the player's id
// to go with its first (the player's card): its matches, the titles it
// holds, its entries and the tournaments, the seasons of the ladder, its
// channel. What depends on them (the other sides' names, the ladder's
// rows) follows.
func (s *Session) PlanPlayerPage(ctx context.Context, id string) {
	s.store.PlanPlayerMatches(ctx, id, playerMatchStatuses...)
	s.store.PlanTitlesHeldBy(ctx, id)
	s.store.PlanRosterCaptains(ctx, id)
	s.store.PlanTournaments(ctx, false)
	s.store.PlanSeasons(ctx)
	s.store.PlanStreamLogin(ctx, id)
}

// PlayerPage is what a player's page shows besides their card: a page
// of their history, their titles, entries, place on the ladder and
// channel.
type PlayerPage struct {
	// Upcoming are the player's matches not decided yet, as read, at
	// most the page's limit of them.
	Upcoming []*core.MatchState
	// Recent are the page's decided matches, newest first.
	Recent []*core.MatchState
	// Page is the page of the history shown (1 the newest; the last
	// when the one asked for is beyond it), and HasOlder whether older
	// decided matches follow it.
	Page     int
	HasOlder bool
	// Players are the profiles of the sides of Upcoming and Recent.
	Players tournamentview.Players
	// Titles are the titles the player holds.
	Titles []core.Title
	// Entries are the tournaments not over the player is entered in, in
	// the tournaments' order, and Captains the profiles of their captains
	// other than the player.
	Entries  []PlayerEntry
	Captains tournamentview.Players
	// Ladder is the latest season's ladder (no Season when the arena has
	// none).
	Ladder core.SeasonLadder
	// Channel is the player's linked stream login, "" when none.
	Channel string
}

// PlayerEntry is a tournament a player is entered in, with the captain
// of their side (the player's own id when they lead it).
type PlayerEntry struct {
	Tournament *core.Tournament
	Captain    string
}

// PlayerPage reads the player's page (PlanPlayerPage planned its first
// reads): page page of their decided matches, perPage a page, newest
// first, and the first upcoming of the others, with the sides' names;
// the titles they hold; the tournaments they are entered in, with the
// captains' names; the latest season's ladder; their channel.
func (s *Session) PlayerPage(ctx context.Context, id string, page, perPage, upcoming int) (*PlayerPage, error) {
	matches, err := s.store.PlayerMatches(ctx, id, playerMatchStatuses...)
	if err != nil {
		return nil, err
	}
	var out PlayerPage
	for i := range matches {
		if matches[i].Status.Resolved() {
			out.Recent = append(out.Recent, &matches[i])
		} else {
			out.Upcoming = append(out.Upcoming, &matches[i])
		}
	}
	slices.Reverse(out.Recent) // newest first
	page = max(1, page)
	pages := max(1, (len(out.Recent)+perPage-1)/perPage)
	if page > pages {
		page = pages
	}
	out.Page, out.HasOlder = page, len(out.Recent) > page*perPage
	out.Recent = out.Recent[(page-1)*perPage : min(len(out.Recent), page*perPage)]
	out.Upcoming = out.Upcoming[:min(len(out.Upcoming), upcoming)]
	var ids []string
	for _, st := range slices.Concat(out.Recent, out.Upcoming) {
		ids = append(ids, st.P1, st.P2)
	}
	if out.Players, err = s.PlayerBook(ctx, ids); err != nil {
		return nil, err
	}
	if out.Titles, err = s.store.TitlesHeldBy(ctx, id); err != nil {
		return nil, err
	}
	if out.Entries, out.Captains, err = s.playerEntries(ctx, id); err != nil {
		return nil, err
	}
	if out.Ladder, err = core.Ladder(ctx, s.store, ""); err != nil {
		return nil, err
	}
	if out.Channel, err = s.store.StreamLogin(ctx, id); err != nil {
		return nil, err
	}
	return &out, nil
}

// playerEntries are the tournaments not over the player is entered in,
// and the profiles of their captains other than the player.
func (s *Session) playerEntries(ctx context.Context, id string) ([]PlayerEntry, tournamentview.Players, error) {
	captains, err := s.store.RosterCaptains(ctx, id)
	if err != nil || len(captains) == 0 {
		return nil, nil, err
	}
	list, err := s.store.Tournaments(ctx, false)
	if err != nil {
		return nil, nil, err
	}
	var out []PlayerEntry
	var others []string
	for i := range list {
		tour := &list[i]
		captain, ok := captains[tour.ID]
		if !ok || tour.Status.Final() {
			continue
		}
		out = append(out, PlayerEntry{Tournament: tour, Captain: captain})
		if captain != id {
			others = append(others, captain)
		}
	}
	book, err := s.PlayerBook(ctx, others)
	if err != nil {
		return nil, nil, err
	}
	return out, book, nil
}

// PlayerSchedule is every match of the player, as read, with the
// profiles of the sides they name: what their calendar lists.
func (s *Session) PlayerSchedule(ctx context.Context, id string) ([]core.MatchState, tournamentview.Players, error) {
	states, err := s.store.PlayerMatches(ctx, id, playerMatchStatuses...)
	if err != nil {
		return nil, nil, err
	}
	var ids []string
	for i := range states {
		ids = append(ids, states[i].P1, states[i].P2)
	}
	book, err := s.PlayerBook(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	return states, book, nil
}
