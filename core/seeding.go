package core

import (
	"cmp"
	"context"
	"slices"
)

// Seeding by rating: the organizer asks for every side's seed from the
// arena's Glicko-2 ratings, sees the order, and applies it; manual seeds
// stay possible afterwards (until the draw).

// SeedingBy names what a seeding request seeds by; only the rating.
const SeedingByRating = "rating"

// SeedingDraft is a seeding request as an admin gives it: the body of
// POST /api/v1/admin/tournaments/{slug}/seeds, or the admin page's
// buttons. Preview shows the order without storing it.
type SeedingDraft struct {
	By      string `json:"by"`
	Preview bool   `json:"preview"`
}

// Check returns the draft's problems: by must be "rating".
func (d *SeedingDraft) Check() Problems {
	var p Problems
	if d.By != SeedingByRating {
		p.invalid("by", "Seed by rating: \"rating\".")
	}
	return p
}

// RatingSeed is a side's seed by rating; Rating is nil for an unrated
// side.
type RatingSeed struct {
	PlatformID string
	Seed       int
	Rating     *float64
}

// SeedStore reads the sides and their ratings and stores their seeds.
type SeedStore interface {
	RegistrationStore
	RatingReader
	// SetSeeds sets the sides' seeds (captain -> seed) in one conditional
	// statement while the tournament is before its draw; otherwise
	// CodeSeedsLocked.
	SetSeeds(ctx context.Context, tournamentID int64, seeds map[string]int) error
}

// SeedsByRating orders every side of tour by its captain's rating,
// highest first (equal ratings: the earlier registration first), the
// unrated sides last by registration time, and numbers them 1..n. It
// stores them unless d.Preview. Seeds change only before the draw
// (CodeSeedsLocked).
func SeedsByRating(ctx context.Context, ss SeedStore, tour *Tournament, d SeedingDraft) ([]RatingSeed, error) {
	if err := d.Check().Err(); err != nil {
		return nil, err
	}
	if tour.Status != StatusRegistrationOpen && tour.Status != StatusRegistrationClosed {
		return nil, Errorf(CodeSeedsLocked, "%s is %s", tour.Slug, tour.Status)
	}
	regs, err := ss.Registrations(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(regs))
	for i, r := range regs {
		ids[i] = r.PlatformID
	}
	ratings, err := ss.Ratings(ctx, ids)
	if err != nil {
		return nil, err
	}
	seeds := RatingOrder(regs, ratings)
	if d.Preview || len(seeds) == 0 {
		return seeds, nil
	}
	byCaptain := make(map[string]int, len(seeds))
	for _, s := range seeds {
		byCaptain[s.PlatformID] = s.Seed
	}
	if err := ss.SetSeeds(ctx, tour.ID, byCaptain); err != nil {
		return nil, err
	}
	return seeds, nil
}

// RatingOrder is SeedsByRating's order of the sides regs (in
// registration order) under ratings.
func RatingOrder(regs []Registration, ratings map[string]PlayerRating) []RatingSeed {
	order := slices.Clone(regs)
	slices.SortStableFunc(order, func(a, b Registration) int {
		ra, aRated := ratings[a.PlatformID]
		rb, bRated := ratings[b.PlatformID]
		switch {
		case aRated && bRated:
			return cmp.Compare(rb.Rating.Rating, ra.Rating.Rating)
		case aRated != bRated:
			if aRated {
				return -1
			}
			return 1
		}
		return a.RegisteredAt.Compare(b.RegisteredAt)
	})
	out := make([]RatingSeed, len(order))
	for i, r := range order {
		out[i] = RatingSeed{PlatformID: r.PlatformID, Seed: i + 1}
		if p, ok := ratings[r.PlatformID]; ok {
			rating := p.Rating.Rating
			out[i].Rating = &rating
		}
	}
	return out
}
