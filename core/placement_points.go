package core

// SettingPlacementPoints is the arena setting holding its ladder points
// table (PlacementPoints as JSON).
const SettingPlacementPoints = "placement_points"

// PlacementPoints is a season-ladder table: how many points a tournament
// finish is worth.
type PlacementPoints struct {
	// Tiers in ascending Through order; a place earns the points of the
	// first tier whose Through is at least the place.
	Tiers []PlacementTier `json:"tiers"`
	// Played is what any other participant earns: a place beyond the last
	// tier, or no place (0) for a player knocked out in the group stage.
	Played int `json:"played"`
}

// PlacementTier awards Points to every place up to and including Through
// not covered by an earlier tier.
type PlacementTier struct {
	Through int `json:"through"`
	Points  int `json:"points"`
}

// DefaultPlacementPoints is the ladder table used unless a season sets its
// own: 1st 100, 2nd 70, 3rd 50, 4th 40, 5th-8th 25, 9th-16th 10, and 5 for
// anyone else who played. Places come from BracketPlacements, so both
// semifinal losers of a bracket without a small final earn 3rd's 50, and
// quarterfinal losers (place 5) earn 25.
func DefaultPlacementPoints() PlacementPoints {
	return PlacementPoints{
		Tiers: []PlacementTier{
			{Through: 1, Points: 100},
			{Through: 2, Points: 70},
			{Through: 3, Points: 50},
			{Through: 4, Points: 40},
			{Through: 8, Points: 25},
			{Through: 16, Points: 10},
		},
		Played: 5,
	}
}

// Points returns what place is worth; place 0 or less means the player took
// part without a playoff place and earns Played.
func (t PlacementPoints) Points(place int) int {
	if place > 0 {
		for _, tier := range t.Tiers {
			if place <= tier.Through {
				return tier.Points
			}
		}
	}
	return t.Played
}
