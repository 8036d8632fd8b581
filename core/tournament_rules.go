package core

import "fmt"

// CheckRules returns every cross-field rule a tournament's settings break,
// in this order, as invalid_field errors whose Message is for people:
// registration closes after it opens; the tournament starts no earlier than
// registration closes; team rosters' maximum is not below their minimum;
// for groups_playoffs, every group can hold two sides and the groups send 2
// to maxPlayers sides to the playoffs. The admin API answers the first;
// the admin pages show them all next to their fields.
func (t *Tournament) CheckRules() []*Error {
	var errs []*Error
	add := func(field, format string, args ...any) {
		errs = append(errs, &Error{Code: CodeInvalidField, Field: field, Message: fmt.Sprintf(format, args...)})
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
	if t.Format == FormatGroupsPlayoffs {
		if t.GroupCount*2 > t.MaxPlayers {
			add("groupCount", "Too many groups: each needs at least two of the %d sides.", t.MaxPlayers)
		}
		if n := t.AdvancePerGroup * t.GroupCount; n > t.MaxPlayers || n < 2 {
			add("advancePerGroup", "Groups × advancing must be between 2 and the maximum number of sides.")
		}
	}
	return errs
}
