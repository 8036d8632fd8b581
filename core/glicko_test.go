package core

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGlickoPaperExample is the worked example of Glickman's "Example of
// the Glicko-2 system": a 1500 player (deviation 200, volatility 0.06,
// tau 0.5) beats a 1400 (30) and loses to a 1550 (100) and a 1700 (300).
// The paper's numbers to its 4 decimals: mu, phi, each g(phi_j), each E
// (printed to 3), phi*, and the results mu' = -0.2069 and phi' = 0.8722
// (rating 1464.05, deviation 151.52). The paper computes v and delta from
// its E rounded to 3 decimals (1.7785 and -0.4834); unrounded they are
// 1.7790 and -0.4839, and the new volatility 0.059996 (printed 0.05999),
// which is what the paper's own final figures need: its r' 1464.06 is
// its mu' -0.2069 rounded before scaling.
func TestGlickoPaperExample(t *testing.T) {
	player := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	opponents := []Rating{{Rating: 1400, Deviation: 30}, {Rating: 1550, Deviation: 100}, {Rating: 1700, Deviation: 300}}
	results := []GlickoResult{{Opponent: opponents[0], Score: 1}, {Opponent: opponents[1], Score: 0}, {Opponent: opponents[2], Score: 0}}
	s := glickoSteps(player, results, 0.5)
	assert.InDelta(t, 0, s.mu, 0.00005, "mu")
	assert.InDelta(t, 1.1513, s.phi, 0.00005, "phi")
	for i, want := range [][2]float64{{0.9955, 0.639}, {0.9531, 0.432}, {0.7242, 0.303}} {
		g, e := glickoGE(s.mu, opponents[i])
		assert.InDelta(t, want[0], g, 0.00005, "g(phi_%d)", i+1)
		assert.InDelta(t, want[1], e, 0.0005, "E_%d", i+1)
	}
	assert.InDelta(t, 1.7785, s.v, 0.0005, "v (the paper's from rounded E)")
	assert.InDelta(t, -0.4834, s.delta, 0.0006, "delta (the paper's from rounded E)")
	assert.InDelta(t, 0.059996, s.sigma, 0.0000005, "sigma'")
	assert.InDelta(t, 1.1529, s.phiStar, 0.00005, "phi*")
	assert.InDelta(t, 0.8722, s.newPhi, 0.00005, "phi'")
	assert.InDelta(t, -0.2069, s.newMu, 0.00005, "mu'")
	assert.Equal(t, Rating{Rating: 1464.05, Deviation: 151.52, Volatility: 0.059996}, GlickoUpdate(player, results, 0.5).Rounded())
}

// TestGlickoIdle: a period without matches grows the deviation by the
// volatility (the paper's step 6), never beyond an unrated player's.
func TestGlickoIdle(t *testing.T) {
	r := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	one := GlickoUpdate(r, nil, GlickoTau)
	assert.InDelta(t, 200.2714, one.Deviation, 0.00005)
	assert.Equal(t, 1500.0, one.Rating)
	assert.InDelta(t, one.Deviation, r.Idle(1).Deviation, 1e-9)
	assert.Equal(t, r, r.Idle(0))
	assert.Equal(t, DefaultDeviation, r.Idle(100000).Deviation)
}

// ratingsFake is a hand-written RatingStore over memory.
type ratingsFake struct {
	stored  map[string]PlayerRating
	matches map[time.Time][]RatedMatch // by resolution time
	periods map[time.Time]time.Time    // start -> end
}

func (f *ratingsFake) Ratings(_ context.Context, ids []string) (map[string]PlayerRating, error) {
	out := map[string]PlayerRating{}
	for _, id := range ids {
		if p, ok := f.stored[id]; ok {
			out[id] = p
		}
	}
	return out, nil
}

func (f *ratingsFake) RatingLadder(context.Context) ([]PlayerRating, error) { return nil, nil }

func (f *ratingsFake) RatingWork(_ context.Context, before time.Time) (time.Time, *time.Time, error) {
	var through time.Time
	for _, end := range f.periods {
		if end.After(through) {
			through = end
		}
	}
	var next *time.Time
	for at := range f.matches {
		if !at.Before(through) && at.Before(before) && (next == nil || at.Before(*next)) {
			at := at
			next = &at
		}
	}
	return through, next, nil
}

func (f *ratingsFake) RatedMatches(_ context.Context, from, to time.Time) ([]RatedMatch, error) {
	var out []RatedMatch
	for at, ms := range f.matches {
		if !at.Before(from) && at.Before(to) {
			out = append(out, ms...)
		}
	}
	return out, nil
}

func (f *ratingsFake) ApplyRatingPeriod(_ context.Context, from, to time.Time, _ int, ratings []PlayerRating, _ time.Time) (bool, error) {
	if _, done := f.periods[from]; done {
		return false, nil
	}
	f.periods[from] = to
	for _, p := range ratings {
		f.stored[p.PlatformID] = p
	}
	return true, nil
}

// TestRunRatingPeriods rates finished periods once each, oldest first,
// leaves the current period alone, and grows an idle player's deviation
// for the periods they sat out.
func TestRunRatingPeriods(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	a, b, c := "a", "b", "c"
	f := &ratingsFake{stored: map[string]PlayerRating{}, periods: map[time.Time]time.Time{}, matches: map[time.Time][]RatedMatch{
		day.Add(10 * time.Hour):      {{P1: a, P2: b, Winner: a}},
		day.Add(11 * time.Hour):      {{P1: b, P2: c, Winner: b}},
		day.Add(72*time.Hour + 5):    {{P1: a, P2: c, Winner: c}},
		day.Add(96*time.Hour + 3600): {{P1: b, P2: c, Winner: b}}, // today: not yet
	}}
	ctx := context.Background()
	now := day.Add(96*time.Hour + 2*time.Hour)
	n, err := RunRatingPeriods(ctx, f, 24, now)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "day 1 and day 4")
	assert.Len(t, f.periods, 2)
	assert.Equal(t, day.Add(24*time.Hour), f.periods[day])
	assert.Equal(t, 2, f.stored[b].Matches)
	assert.Equal(t, day.Add(4*24*time.Hour), f.stored[a].RatedThrough)

	// Day 1 alone: a beat b, b beat c, all new.
	first := &ratingsFake{stored: map[string]PlayerRating{}, periods: map[time.Time]time.Time{}, matches: map[time.Time][]RatedMatch{
		day.Add(10 * time.Hour): {{P1: a, P2: b, Winner: a}}, day.Add(11 * time.Hour): {{P1: b, P2: c, Winner: b}}}}
	_, err = RunRatingPeriods(ctx, first, 24, now)
	require.NoError(t, err)
	afterDay1 := first.stored[a]
	assert.Greater(t, afterDay1.Rating.Rating, DefaultRating)
	// Day 4: a played nothing on days 2 and 3; the update starts from
	// the deviation grown for those two periods.
	grown := afterDay1.Rating.Idle(2)
	want := GlickoUpdate(grown, []GlickoResult{{Opponent: first.stored[c].Rating.Idle(2), Score: 0}}, GlickoTau)
	assert.InDelta(t, want.Rating, f.stored[a].Rating.Rating, 1e-9)
	assert.InDelta(t, want.Deviation, f.stored[a].Rating.Deviation, 1e-9)

	n, err = RunRatingPeriods(ctx, f, 24, now)
	require.NoError(t, err)
	assert.Zero(t, n, "idempotent")
	n, err = RunRatingPeriods(ctx, f, 24, now.Add(24*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "today, once it is over")

	// The profile's deviation grows to now.
	p := f.stored[a]
	assert.InDelta(t, p.Rating.Idle(3).Deviation, p.Now(p.RatedThrough.Add(3*24*time.Hour+time.Hour), 24).Deviation, 1e-9)
}
