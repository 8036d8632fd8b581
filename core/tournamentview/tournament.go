// Package tournamentview is a tournament as its readers see it: the one
// read model that the JSON API, the pages, the embed, the bracket
// picture, the broadcast view and the calendar feed render. A read takes
// the store once, through Store, and the model holds the decisions:
// which tournaments and matches the public sees (drafts only when the
// organizer asks), the players' names, the group tables, the Swiss stage,
// the bracket and the podium. Renderers only turn it into JSON or HTML.
package tournamentview

import (
	"context"
	"time"

	"arena/core"
)

// Store is what the read model reads of an arena.
type Store interface {
	// Tournament returns the tournament with the slug, drafts included,
	// or CodeTournamentNotFound.
	Tournament(ctx context.Context, slug string) (*core.Tournament, error)
	// TournamentByID returns the tournament with the id, or
	// CodeTournamentNotFound.
	TournamentByID(ctx context.Context, id int64) (*core.Tournament, error)
	Matches(ctx context.Context, tournamentID int64) ([]core.Match, error)
	PlayerReader
	// TournamentParts reads what Build builds from, together (one round
	// trip to a remote database): the tournament with the slug (drafts
	// included, titles' rows not), or with the id when slug is "", or
	// CodeTournamentNotFound.
	TournamentParts(ctx context.Context, slug string, id int64) (*Parts, error)
}

// Parts are what a tournament's read model is built from, read together.
type Parts struct {
	Tournament    *core.Tournament
	Registrations []core.Registration // in registration order
	Matches       []core.Match
	Podium        []core.PodiumPlace // by rank
	// Players are the registered sides' captains' profiles, by id.
	Players map[string]core.PlayerProfile
	// Casters are the casters seated on its matches, Streams the players'
	// own streams of them, active ones.
	Casters []core.CasterSeat
	Streams []core.MatchStream
}

// FrontParts are what the arena's front page is built from, read
// together (one round trip to a remote database), whatever the number of
// tournaments.
type FrontParts struct {
	// Tournaments are the public ones, titles' rows left out, newest start
	// first.
	Tournaments []core.Tournament
	// Matches are the running tournaments' matches not resolved yet.
	Matches []core.Match
	// Players are those matches' sides' profiles, by id.
	Players map[string]core.PlayerProfile
	// Casters and Streams are the active casters' seats and the players'
	// own streams of matches not resolved yet.
	Casters []core.CasterSeat
	Streams []core.MatchStream
	// Live and LivePolledAt are the live set as last polled
	// (core.StreamStore's LiveSet; core.FreshLive tells whether it holds).
	Live         map[string]core.LiveStream
	LivePolledAt time.Time
}

// MatchParts are what a match's readers see, read together (one round
// trip to a remote database).
type MatchParts struct {
	// State is the match as the protocol sees it; LogSeq the event log's
	// last seq when it was read (where a live view of it starts).
	State  *core.MatchState
	LogSeq int64
	// Tournament is its tournament's row (a title's for a title match).
	Tournament *core.Tournament
	// Players are its sides', their rosters' and its casters' profiles.
	Players map[string]core.PlayerProfile
	// Casters are its active casters' seats, Streams its players' own
	// streams; Live and LivePolledAt the live set as last polled.
	Casters      []core.CasterSeat
	Streams      []core.MatchStream
	Live         map[string]core.LiveStream
	LivePolledAt time.Time
}

// MatchStore reads a match's parts.
type MatchStore interface {
	// MatchParts reads the match with the id and what its readers see of
	// it, or CodeMatchNotFound.
	MatchParts(ctx context.Context, id int64) (*MatchParts, error)
}

// ReadMatch is the public match with the id: a draft's match is
// CodeMatchNotFound, as MatchTournament decides.
func ReadMatch(ctx context.Context, st MatchStore, id int64) (*MatchParts, error) {
	p, err := st.MatchParts(ctx, id)
	if err != nil {
		return nil, err
	}
	if !p.Tournament.Status.Public() {
		return nil, core.Errorf(core.CodeMatchNotFound, "match %d of a draft", id)
	}
	return p, nil
}

// Tournament is a tournament as its readers see it, built once per read
// (Build) and shared by every view of it: it must not be changed.
type Tournament struct {
	*core.Tournament
	// Registrations are the sides, in registration order.
	Registrations []core.Registration
	// Entrants are the sides as the page lists them: seeded ones first,
	// by seed.
	Entrants []core.Entrant
	// Players names every registered side.
	Players Players
	// Groups are the group tables, in group order; none before the group
	// stage (and in formats without groups).
	Groups []Group
	// Swiss is a Swiss tournament's stage; nil for other formats.
	Swiss *Swiss
	// Bracket is the playoff bracket; nil before the playoffs.
	Bracket *Bracket
	// Podium is a completed tournament's podium, by rank; empty before.
	Podium []core.PodiumPlace
	// Casters and Streams are its matches' casters and players' streams,
	// as read (who shows them decides by the tournament's settings).
	Casters []core.CasterSeat
	Streams []core.MatchStream
}

// Find reads the public tournament with the slug: an unknown slug and a
// draft (which only its organizer sees) are CodeTournamentNotFound.
func Find(ctx context.Context, st Store, slug string) (*core.Tournament, error) {
	t, err := st.Tournament(ctx, slug)
	if err != nil {
		return nil, err
	}
	if !t.Status.Public() {
		return nil, core.Errorf(core.CodeTournamentNotFound, "draft")
	}
	return t, nil
}

// MatchTournament reads the tournament of a public match: the match of a
// draft is CodeMatchNotFound; an unknown tournament is
// CodeTournamentNotFound.
func MatchTournament(ctx context.Context, st Store, m *core.Match) (*core.Tournament, error) {
	t, err := st.TournamentByID(ctx, m.TournamentID)
	if err != nil {
		return nil, err
	}
	if !t.Status.Public() {
		return nil, core.Errorf(core.CodeMatchNotFound, "match %d of a draft", m.ID)
	}
	return t, nil
}

// Read is the public tournament with the slug (Find) as its readers see
// it (Build).
func Read(ctx context.Context, st Store, slug string) (*Tournament, error) {
	parts, err := st.TournamentParts(ctx, slug, 0)
	if err != nil {
		return nil, err
	}
	if !parts.Tournament.Status.Public() {
		return nil, core.Errorf(core.CodeTournamentNotFound, "draft")
	}
	return build(parts.Tournament, parts)
}

// Build reads t's row again with its sides, matches, podium (once
// completed), players' names, casters and streams (one read), and builds
// what its readers see. It shows t whatever its status:
// a public read finds t with Find first; the organizer's reads show
// drafts too.
func Build(ctx context.Context, st Store, t *core.Tournament) (*Tournament, error) {
	parts, err := st.TournamentParts(ctx, "", t.ID)
	if err != nil {
		return nil, err
	}
	return build(parts.Tournament, parts)
}

// ReadAny is the tournament with the slug, drafts included (the
// organizer's read), as its readers see it: one read.
func ReadAny(ctx context.Context, st Store, slug string) (*Tournament, error) {
	parts, err := st.TournamentParts(ctx, slug, 0)
	if err != nil {
		return nil, err
	}
	return build(parts.Tournament, parts)
}

// New is a tournament just created as its readers see it, with no read:
// it has no sides, matches, podium or casters yet.
func New(t *core.Tournament) (*Tournament, error) {
	return build(t, &Parts{Tournament: t})
}

// build builds t's read model from its parts.
func build(t *core.Tournament, parts *Parts) (*Tournament, error) {
	regs, matches := parts.Registrations, parts.Matches
	var podium []core.PodiumPlace
	if t.Status == core.StatusCompleted {
		podium = parts.Podium
	}
	sides := make([]core.Entrant, 0, len(regs))
	for _, r := range regs {
		sides = append(sides, core.Entrant{ID: r.PlatformID, Seed: r.Seed})
	}
	players := Players(parts.Players)
	var err error
	v := &Tournament{Casters: parts.Casters, Streams: parts.Streams, Tournament: t, Registrations: regs, Entrants: core.SeedOrder(sides), Players: players, Podium: podium}
	if v.Groups, err = groups(t, regs, matches); err != nil {
		return nil, err
	}
	if t.Format == core.FormatSwiss {
		if v.Swiss, err = swiss(t, regs, matches); err != nil {
			return nil, err
		}
	}
	v.Bracket = bracket(matches)
	return v, nil
}
