package tournamentview_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/core/tournamentview"
)

// memoryStore is an arena in memory that counts its reads.
type memoryStore struct {
	tournaments []core.Tournament
	regs        []core.Registration
	matches     []core.Match
	podium      []core.PodiumPlace
	players     map[string]core.PlayerProfile
	reads       map[string]int
	asked       [][]string // the ids of each Players call
}

func (s *memoryStore) read(what string) {
	if s.reads == nil {
		s.reads = map[string]int{}
	}
	s.reads[what]++
}

func (s *memoryStore) Tournament(_ context.Context, slug string) (*core.Tournament, error) {
	return s.tournament(func(t *core.Tournament) bool { return t.Slug == slug })
}

func (s *memoryStore) TournamentByID(_ context.Context, id int64) (*core.Tournament, error) {
	return s.tournament(func(t *core.Tournament) bool { return t.ID == id })
}

// tournament returns a copy of the first tournament that is, or
// CodeTournamentNotFound.
func (s *memoryStore) tournament(is func(*core.Tournament) bool) (*core.Tournament, error) {
	s.read("tournament")
	for i := range s.tournaments {
		if is(&s.tournaments[i]) {
			t := s.tournaments[i]
			return &t, nil
		}
	}
	return nil, core.Errorf(core.CodeTournamentNotFound, "no such tournament")
}

func (s *memoryStore) Registrations(context.Context, int64) ([]core.Registration, error) {
	s.read("registrations")
	return s.regs, nil
}

func (s *memoryStore) Matches(context.Context, int64) ([]core.Match, error) {
	s.read("matches")
	return append([]core.Match(nil), s.matches...), nil
}

func (s *memoryStore) Podium(context.Context, int64) ([]core.PodiumPlace, error) {
	s.read("podium")
	return s.podium, nil
}

func (s *memoryStore) Players(_ context.Context, ids []string) (map[string]core.PlayerProfile, error) {
	s.read("players")
	s.asked = append(s.asked, ids)
	out := map[string]core.PlayerProfile{}
	for _, id := range ids {
		if p, ok := s.players[id]; ok {
			out[id] = p
		}
	}
	return out, nil
}

// TournamentParts reads every part at once, as one read.
func (s *memoryStore) TournamentParts(_ context.Context, slug string, id int64) (*tournamentview.Parts, error) {
	s.read("parts")
	for i := range s.tournaments {
		if t := s.tournaments[i]; (slug != "" && t.Slug == slug) || (slug == "" && t.ID == id) {
			players := map[string]core.PlayerProfile{}
			for _, r := range s.regs {
				if p, ok := s.players[r.PlatformID]; ok {
					players[r.PlatformID] = p
				}
			}
			return &tournamentview.Parts{Tournament: &t, Registrations: s.regs, Matches: append([]core.Match(nil), s.matches...),
				Podium: s.podium, Players: players}, nil
		}
	}
	return nil, core.Errorf(core.CodeTournamentNotFound, "no such tournament")
}

// cup is a four-player playoffs_only tournament in its playoffs: both
// semifinals drawn, the final waiting for their winners.
func cup(status core.TournamentStatus) *memoryStore {
	st := &memoryStore{
		tournaments: []core.Tournament{
			{ID: 1, Slug: "cup", Name: "Cup", Status: status, Format: core.FormatPlayoffsOnly},
			{ID: 2, Slug: "secret", Name: "Secret", Status: core.StatusDraft, Format: core.FormatPlayoffsOnly},
		},
		players: map[string]core.PlayerProfile{"a": {PlatformID: "a", PersonaName: "Ada"}, "b": {PlatformID: "b"}},
		podium:  []core.PodiumPlace{{Rank: 1, PlayerID: "a"}},
	}
	ids := []string{"a", "b", "c", "d"}
	for i, id := range ids {
		st.regs = append(st.regs, core.Registration{PlatformID: id, Seed: i + 1})
	}
	plan, err := core.PlanBracket(ids, false)
	if err != nil {
		panic(err)
	}
	for i, bm := range plan.Matches {
		st.matches = append(st.matches, core.Match{ID: int64(10 + i), TournamentID: 1, Stage: bm.Stage, Round: bm.Round,
			RoundNumber: bm.RoundNumber, BracketSlot: bm.BracketSlot, Status: core.MatchScheduled,
			P1: bm.P1.PlayerID, P2: bm.P2.PlayerID, WinnerTo: bm.WinnerTo, LoserTo: bm.LoserTo})
	}
	return st
}

func TestFind(t *testing.T) {
	st := cup(core.StatusPlayoffs)
	ctx := context.Background()
	t.Run("Public", func(t *testing.T) {
		tour, err := tournamentview.Find(ctx, st, "cup")
		require.NoError(t, err)
		assert.Equal(t, "Cup", tour.Name)
	})
	t.Run("DraftIsNotFound", func(t *testing.T) {
		_, err := tournamentview.Find(ctx, st, "secret")
		assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
		_, err = tournamentview.Read(ctx, st, "secret")
		assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
		_, err = tournamentview.ReadSchedule(ctx, st, "secret")
		assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
	})
	t.Run("UnknownIsNotFound", func(t *testing.T) {
		_, err := tournamentview.Find(ctx, st, "nope")
		assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
	})
	t.Run("DraftMatchIsNotFound", func(t *testing.T) {
		_, err := tournamentview.MatchTournament(ctx, st, &core.Match{ID: 7, TournamentID: 2})
		assert.Equal(t, core.CodeMatchNotFound, core.ErrorCode(err))
		tour, err := tournamentview.MatchTournament(ctx, st, &core.Match{ID: 8, TournamentID: 1})
		require.NoError(t, err)
		assert.Equal(t, "cup", tour.Slug)
	})
}

func TestRead(t *testing.T) {
	ctx := context.Background()
	t.Run("ReadsEachOnce", func(t *testing.T) {
		st := cup(core.StatusPlayoffs)
		v, err := tournamentview.Read(ctx, st, "cup")
		require.NoError(t, err)
		assert.Equal(t, map[string]int{"parts": 1}, st.reads, "one read of every part")
		assert.Empty(t, v.Podium, "no podium before the end")
		assert.Nil(t, v.Groups)
		assert.Nil(t, v.Swiss)
	})
	t.Run("CompletedReadsThePodium", func(t *testing.T) {
		st := cup(core.StatusCompleted)
		v, err := tournamentview.Read(ctx, st, "cup")
		require.NoError(t, err)
		assert.Equal(t, map[string]int{"parts": 1}, st.reads)
		assert.Equal(t, []core.PodiumPlace{{Rank: 1, PlayerID: "a"}}, v.Podium)
	})
	t.Run("Bracket", func(t *testing.T) {
		v, err := tournamentview.Read(ctx, cup(core.StatusPlayoffs), "cup")
		require.NoError(t, err)
		require.NotNil(t, v.Bracket)
		var final *tournamentview.Box
		seeds := map[string]int{}
		for _, col := range v.Bracket.Columns {
			for i, box := range col.Boxes {
				if box.Match.BracketSlot == core.BracketSlotFinal {
					final = &col.Boxes[i]
				}
				for _, seat := range box.Seats {
					if seat.PlayerID != "" {
						seeds[seat.PlayerID] = seat.Seed
					}
				}
			}
		}
		assert.Equal(t, map[string]int{"a": 1, "b": 2, "c": 3, "d": 4}, seeds)
		require.NotNil(t, final)
		assert.Equal(t, [2]tournamentview.Seat{{FromSlot: "SF1"}, {FromSlot: "SF2"}}, final.Seats)
	})
	t.Run("NoBracketBeforeThePlayoffs", func(t *testing.T) {
		st := cup(core.StatusRegistrationClosed)
		st.matches = nil
		v, err := tournamentview.Read(ctx, st, "cup")
		require.NoError(t, err)
		assert.Nil(t, v.Bracket)
	})
	t.Run("ScheduleNamesTheMatchSides", func(t *testing.T) {
		st := cup(core.StatusPlayoffs)
		sched, err := tournamentview.ReadSchedule(ctx, st, "cup")
		require.NoError(t, err)
		assert.Len(t, sched.Matches, 3)
		assert.Equal(t, map[string]int{"tournament": 1, "matches": 1, "players": 1}, st.reads)
		assert.ElementsMatch(t, []string{"a", "b", "c", "d"}, st.asked[0], "each side once, no undecided side")
	})
}

func TestPlayers(t *testing.T) {
	st := &memoryStore{players: map[string]core.PlayerProfile{"a": {PlatformID: "a", PersonaName: "Ada", AvatarURL: "https://a"}, "b": {PlatformID: "b", AvatarURL: "https://b"}}}
	t.Run("NoIDsNoQuery", func(t *testing.T) {
		p, err := tournamentview.ReadPlayers(context.Background(), st, []string{"", ""})
		require.NoError(t, err)
		assert.Empty(t, p)
		assert.Zero(t, st.reads["players"])
	})
	p, err := tournamentview.ReadPlayers(context.Background(), st, []string{"a", "", "b", "a", "c"})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"a", "b", "c"}}, st.asked)
	t.Run("Profile", func(t *testing.T) {
		assert.Nil(t, p.Profile(""), "an undecided side")
		assert.Equal(t, &core.PlayerProfile{PlatformID: "a", PersonaName: "Ada", AvatarURL: "https://a"}, p.Profile("a"))
		assert.Equal(t, &core.PlayerProfile{PlatformID: "b", AvatarURL: "https://b"}, p.Profile("b"), "as stored")
		assert.Equal(t, &core.PlayerProfile{PlatformID: "c", PersonaName: core.PlaceholderName("c")}, p.Profile("c"))
	})
	t.Run("Named", func(t *testing.T) {
		assert.Equal(t, core.PlayerProfile{PlatformID: "a", PersonaName: "Ada", AvatarURL: "https://a"}, p.Named("a"))
		assert.Equal(t, core.PlayerProfile{PlatformID: "b", PersonaName: core.PlaceholderName("b")}, p.Named("b"), "no name: the placeholder")
		assert.Equal(t, core.PlayerProfile{PlatformID: "c", PersonaName: core.PlaceholderName("c")}, p.Named("c"))
	})
}
