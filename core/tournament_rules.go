package core

import "fmt"

// CheckRules returns every cross-field rule a tournament's settings break,
// in this order, as invalid_field errors whose Message is for people:
// registration closes after it opens; the tournament starts no earlier than
// registration closes; team rosters' maximum is not below their minimum;
// for groups_playoffs, GSL groups hold exactly four sides each, and in
// round-robin groups every group can hold two sides and the groups send 2
// to maxPlayers sides to the playoffs; a double elimination holds at most
// MaxDoubleEliminationPlayers sides and a round robin MaxRoundRobinPlayers;
// Swiss rounds can all be paired without a rematch for maxPlayers sides
// (MaxSwissRounds) and the top cut is at most maxPlayers. The admin API
// answers the first;
// the admin pages show them all next to their fields.
func (t *Tournament) CheckRules() []*Error {
	var errs []*Error
	add := func(field, format string, args ...any) {
		errs = append(errs, &Error{Code: CodeInvalidField, Field: field, Message: fmt.Sprintf(format, args...), format: format, args: args})
	}
	if !t.RegistrationClosesAt.After(t.RegistrationOpensAt) {
		add("registrationClosesAt", "Registration must close after it opens.")
	}
	if t.StartsAt.Before(t.RegistrationClosesAt) {
		add("startsAt", "The tournament cannot start before registration closes.")
	}
	if t.TeamMaxPlayers < t.TeamMinPlayers {
		add("teamMaxPlayers", "At most must not be below at least.")
	}
	if t.Format == FormatGroupsPlayoffs && t.GroupFormat == GroupFormatGSL {
		if t.GroupCount*GSLGroupSize != t.MaxPlayers {
			add("groupCount", "GSL groups hold %d sides each: the groups × %d must equal the maximum number of sides (%d).", GSLGroupSize, GSLGroupSize, t.MaxPlayers)
		}
	} else if t.Format == FormatGroupsPlayoffs {
		if t.GroupCount*2 > t.MaxPlayers {
			add("groupCount", "Too many groups: each needs at least two of the %d sides.", t.MaxPlayers)
		}
		if n := t.AdvancePerGroup * t.GroupCount; n > t.MaxPlayers || n < 2 {
			add("advancePerGroup", "Groups × advancing must be between 2 and the maximum number of sides.")
		}
	}
	switch {
	case t.Format == FormatDoubleElimination && t.MaxPlayers > MaxDoubleEliminationPlayers:
		add("maxPlayers", "A double elimination holds at most %d sides.", MaxDoubleEliminationPlayers)
	case t.Format == FormatRoundRobin && t.MaxPlayers > MaxRoundRobinPlayers:
		add("maxPlayers", "A round robin holds at most %d sides.", MaxRoundRobinPlayers)
	}
	if t.Format == FormatSwiss {
		if max := MaxSwissRounds(t.MaxPlayers); t.SwissRounds > max {
			add("swissRounds", "%d sides can play at most %d Swiss rounds without a rematch.", t.MaxPlayers, max)
		}
		if t.TopCut > t.MaxPlayers {
			add("topCut", "The top cut cannot be larger than the maximum number of sides (%d).", t.MaxPlayers)
		}
	}
	return errs
}
