package core

import (
	"testing"
	"time"
)

func TestCheckRules(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	valid := func() *Tournament {
		return &Tournament{Format: FormatGroupsPlayoffs, MaxPlayers: 8, GroupCount: 2, AdvancePerGroup: 2,
			TeamMinPlayers: 1, TeamMaxPlayers: 1,
			RegistrationOpensAt: t0, RegistrationClosesAt: t0.Add(time.Hour), StartsAt: t0.Add(time.Hour)}
	}
	cases := []struct {
		name   string
		change func(*Tournament)
		fields []string
	}{
		{"Valid", func(*Tournament) {}, nil},
		{"ClosesBeforeOpens", func(t *Tournament) { t.RegistrationClosesAt = t0 }, []string{"registrationClosesAt"}},
		{"StartsBeforeClose", func(t *Tournament) { t.StartsAt = t0 }, []string{"startsAt"}},
		{"TeamMaxBelowMin", func(t *Tournament) { t.TeamMinPlayers = 3 }, []string{"teamMaxPlayers"}},
		{"TooManyGroups", func(t *Tournament) { t.GroupCount = 5 }, []string{"groupCount", "advancePerGroup"}},
		{"TooFewAdvancing", func(t *Tournament) { t.GroupCount, t.AdvancePerGroup = 1, 1 }, []string{"advancePerGroup"}},
		{"PlayoffsOnlyIgnoresGroups", func(t *Tournament) { t.Format, t.GroupCount = FormatPlayoffsOnly, 99 }, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tour := valid()
			tc.change(tour)
			errs := tour.CheckRules()
			var fields []string
			for _, e := range errs {
				if e.Code != CodeInvalidField || e.Message == "" {
					t.Errorf("error %+v: want invalid_field with a message", e)
				}
				fields = append(fields, e.Field)
			}
			if len(fields) != len(tc.fields) {
				t.Fatalf("fields %v, want %v", fields, tc.fields)
			}
			for i := range fields {
				if fields[i] != tc.fields[i] {
					t.Fatalf("fields %v, want %v", fields, tc.fields)
				}
			}
		})
	}
}

// TestValidStepTarget: a lifecycle step names a known status other than
// draft; the API's validation reads this list, not a copy of it.
func TestValidStepTarget(t *testing.T) {
	for _, s := range TournamentStatuses {
		if got, want := ValidStepTarget(string(s)), s != StatusDraft; got != want {
			t.Errorf("ValidStepTarget(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"", "bogus", "Playoffs", "draft"} {
		if ValidStepTarget(s) {
			t.Errorf("ValidStepTarget(%q) accepted", s)
		}
	}
}
