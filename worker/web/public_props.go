package web

import (
	"context"
	"time"

	"arena/core"
	"arena/core/tournamentview"
	"arena/views"
	"arena/worker/server"
)

// publicBook names players as the pages show them
// (tournamentview.Players.Named); "" is an undecided side.
type publicBook tournamentview.Players

// publicPlayers looks up the profiles of ids ("" and repeats are skipped)
// in one query (tournamentview.ReadPlayers).
func publicPlayers(ctx context.Context, t *server.Tenant, ids []string) (publicBook, error) {
	players, err := t.PlayerBook(ctx, ids)
	return publicBook(players), err
}

// player returns the player with the id; the id must not be "".
func (b publicBook) player(id string) views.PlayerRef {
	p := tournamentview.Players(b).Named(id)
	return views.PlayerRef{PlatformID: p.PlatformID, Name: p.PersonaName, AvatarURL: p.AvatarURL}
}

// side returns the player with the id, or nil for an undecided side.
func (b publicBook) side(id string) *views.PlayerRef {
	if id == "" {
		return nil
	}
	p := b.player(id)
	return &p
}

// summary is a match as lists show it at now.
func (b publicBook) summary(m *core.Match, tour views.TournamentRef, now time.Time) views.MatchSummary {
	p1Ready, p2Ready := m.ReadySides()
	out := views.MatchSummary{
		ID: m.ID, Tournament: tour, Stage: string(m.Stage), Round: m.Round, GroupName: m.GroupName,
		Status: m.Status, OpensAt: m.OpensAt, ClosesAt: m.ClosesAt, Window: m.Window(now),
		P1: b.side(m.P1), P2: b.side(m.P2), P1Ready: p1Ready, P2Ready: p2Ready,
		Winner: publicWinnerSlot(m), Score: publicScore(m.Score), ResultSource: m.ResultSource,
	}
	if m.SeriesLen() > 1 {
		out.BestOf, out.Games = m.SeriesLen(), publicGames(m)
		so := m.Series()
		out.Series = views.Score{P1: so.P1, P2: so.P2}
	}
	return out
}

// publicGames are a series' games as the pages show them (core's
// GamesShown: the decided games, then the one under way).
func publicGames(m *core.Match) []views.GameLine {
	shown := m.GamesShown()
	out := make([]views.GameLine, 0, len(shown))
	for _, g := range shown {
		line := views.GameLine{Number: g.Game, Status: g.Status, Score: publicScore(g.Score), Source: g.ResultSource}
		switch {
		case g.Winner == "":
		case g.Winner == m.P1:
			line.Winner = 1
		case g.Winner == m.P2:
			line.Winner = 2
		}
		out = append(out, line)
	}
	return out
}

// publicWinnerSlot is the slot (1 or 2) of a resolved match's winner, 0
// while unresolved.
func publicWinnerSlot(m *core.Match) int {
	if !m.Status.Resolved() || m.Winner == "" {
		return 0
	}
	switch m.Winner {
	case m.P1:
		return 1
	case m.P2:
		return 2
	}
	return 0
}

func publicScore(s *core.OutcomeScore) *views.Score {
	if s == nil {
		return nil
	}
	return &views.Score{P1: s.P1, P2: s.P2}
}

// publicCard is a tournament in a list, as of now.
func publicCard(t *core.Tournament, now time.Time) views.TournamentCard {
	starts := t.StartsAt
	if t.FirstMatchAt != nil {
		starts = *t.FirstMatchAt
	}
	return views.TournamentCard{
		Slug: t.Slug, Name: t.Name, Description: t.Description, Status: t.Status, Format: string(t.Format),
		CheckInOpen:         t.CheckInOpenAt(now),
		RegistrationOpensAt: t.RegistrationOpensAt, RegistrationClosesAt: t.RegistrationClosesAt,
		RegistrationSoon: t.Status == core.StatusRegistrationOpen && now.Before(t.RegistrationOpensAt),
		StartsAt:         starts, StartedAt: t.PlayStartedAt(now), CompletedAt: t.CompletedAt, PlayerCount: t.PlayerCount, MaxPlayers: t.MaxPlayers,
	}
}
