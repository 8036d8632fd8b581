package core

// GroupFormat is how a groups_playoffs tournament plays its groups.
type GroupFormat string

// Group formats: every side meets every other (the default), or GSL
// groups of four played as a small double elimination (opening matches,
// winners' match, elimination match, decider), two advancing.
const (
	GroupFormatRoundRobin GroupFormat = "round_robin"
	GroupFormatGSL        GroupFormat = "gsl"
)

// GSLGroupSize is the sides in a GSL group; GSLAdvance how many go on.
const (
	GSLGroupSize = 4
	GSLAdvance   = 2
)

// ValidGroupFormat reports whether f is a group format the service runs.
func ValidGroupFormat(f GroupFormat) bool {
	return f == GroupFormatRoundRobin || f == GroupFormatGSL
}
