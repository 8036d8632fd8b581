package core

import "sort"

// CodeTooFewEntrants is returned when a draw or bracket cannot be built from
// the entrants it was given (a bracket needs 2, each group needs 2).
const CodeTooFewEntrants = "too_few_entrants"

// Entrant is one player entered in a tournament's draw.
type Entrant struct {
	ID   string `json:"platformId"`     // platform account id (17 digits in production)
	Seed int    `json:"seed,omitempty"` // 1 is the strongest; 0 or less means unseeded
}

// seedRank orders seeds for sorting: seeded entrants by seed, every
// unseeded entrant after all seeded ones.
func (e Entrant) seedRank() int {
	if e.Seed <= 0 {
		return int(^uint(0) >> 1)
	}
	return e.Seed
}

// SeedOrder returns a copy of entrants, given in registration order, sorted
// strongest first: seeded entrants by ascending seed, then unseeded entrants.
// Equal seeds and unseeded entrants keep their registration order.
func SeedOrder(entrants []Entrant) []Entrant {
	out := append([]Entrant(nil), entrants...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].seedRank() < out[j].seedRank() })
	return out
}

// RegistrationsBySeed returns regs in seed order (SeedOrder): the seeded
// sides by seed, then the unseeded in the order given (registration
// order): how the organizer's list shows them.
func RegistrationsBySeed(regs []Registration) []Registration {
	entrants := make([]Entrant, len(regs))
	at := make(map[string]int, len(regs))
	for i, r := range regs {
		entrants[i], at[r.PlatformID] = Entrant{ID: r.PlatformID, Seed: r.Seed}, i
	}
	out := make([]Registration, 0, len(regs))
	for _, e := range SeedOrder(entrants) {
		out = append(out, regs[at[e.ID]])
	}
	return out
}

// EntrantIDs returns the ids of entrants in the order given.
func EntrantIDs(entrants []Entrant) []string {
	ids := make([]string, len(entrants))
	for i, e := range entrants {
		ids[i] = e.ID
	}
	return ids
}
