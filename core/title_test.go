package core

import (
	"strings"
	"testing"
	"time"
)

var titleNow = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// titleIn returns a title in a named state, as the rules see it.
func titleIn(state string) *Title {
	started := titleNow.Add(-time.Hour)
	held := &Title{ID: 1, Slug: "world", Holder: "holder", ClockStartedAt: &started,
		Lineage: []Reign{{Holder: "holder", Since: started}}}
	switch state {
	case "vacant":
		return &Title{ID: 1, Slug: "world"}
	case "one volunteer":
		return &Title{ID: 1, Slug: "world", Volunteers: []TitleVolunteer{{PlatformID: "first"}}}
	case "coronation":
		return &Title{ID: 1, Slug: "world", Volunteers: []TitleVolunteer{{PlatformID: "first"}, {PlatformID: "second"}},
			Match: &Match{ID: 7, Round: RoundCoronation, P1: "first", P2: "second"}}
	case "held":
		return held
	case "challenged":
		held.OpenChallenge = &TitleChallenge{ID: 3, Challenger: "challenger", Holder: "holder", Status: ChallengePending}
		return held
	case "declined":
		held.OpenChallenge = &TitleChallenge{ID: 3, Challenger: "challenger", Holder: "holder", Status: ChallengeDeclined}
		return held
	case "title match":
		held.Match = &Match{ID: 8, Round: RoundTitleMatch, P1: "holder", P2: "challenger"}
		return held
	case "expired":
		gone := titleNow.Add(-TitleClock)
		held.ClockStartedAt = &gone
		return held
	case "retired":
		held.RetiredAt = &titleNow
		return held
	}
	panic(state)
}

func TestTitleRules(t *testing.T) {
	cases := []struct {
		name, state, player string
		check               func(*Title, string) error
		want                string // code, "" for allowed
	}{
		{"VolunteerVacant", "vacant", "first", (*Title).CheckVolunteer, ""},
		{"VolunteerSecond", "one volunteer", "second", (*Title).CheckVolunteer, ""},
		{"ErrAlreadyVolunteered", "one volunteer", "first", (*Title).CheckVolunteer, CodeAlreadyVolunteered},
		{"ErrCoronationPending", "coronation", "third", (*Title).CheckVolunteer, CodeCoronationPending},
		{"ErrTitleAlreadyHeld", "held", "someone", (*Title).CheckVolunteer, CodeTitleAlreadyHeld},
		{"ErrVolunteerRetired", "retired", "someone", (*Title).CheckVolunteer, CodeTitleRetired},
		{"ChallengeHeld", "held", "challenger", (*Title).CheckChallenge, ""},
		{"ChallengeExpiredClock", "expired", "challenger", (*Title).CheckChallenge, ""},
		{"ErrTitleVacantUseCoronation", "vacant", "challenger", (*Title).CheckChallenge, CodeTitleVacantUseCoronation},
		{"ErrCannotChallengeSelf", "held", "holder", (*Title).CheckChallenge, CodeCannotChallengeSelf},
		{"ErrChallengePending", "challenged", "other", (*Title).CheckChallenge, CodeChallengePending},
		{"ErrChallengeDeclinedStillOpen", "declined", "other", (*Title).CheckChallenge, CodeChallengePending},
		{"ErrTitleMatchBeingPlayed", "title match", "other", (*Title).CheckChallenge, CodeChallengePending},
		{"ErrChallengeRetired", "retired", "challenger", (*Title).CheckChallenge, CodeTitleRetired},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check(titleIn(tc.state), tc.player)
			if got := codeOf(err); got != tc.want {
				t.Fatalf("%s: got %q, want %q", tc.state, got, tc.want)
			}
		})
	}
}

func TestTitleRespondRules(t *testing.T) {
	pending := &TitleChallenge{ID: 3, Status: ChallengePending}
	answered := &TitleChallenge{ID: 3, Status: ChallengeDeclined}
	cases := []struct {
		name, state, player string
		c                   *TitleChallenge
		accept              bool
		want                string
	}{
		{"Accept", "challenged", "holder", pending, true, ""},
		{"Decline", "challenged", "holder", pending, false, ""},
		{"ErrNotHolder", "challenged", "challenger", pending, true, CodeNotHolder},
		{"ErrNotHolderOfVacantTitle", "vacant", "holder", pending, true, CodeNotHolder},
		{"ErrChallengeNotPending", "declined", "holder", answered, true, CodeChallengeNotPending},
		{"ErrTitleClockExpired", "expired", "holder", pending, true, CodeTitleClockExpired},
		{"DeclineAfterTheClock", "expired", "holder", pending, false, ""},
		{"ErrRespondRetired", "retired", "holder", pending, true, CodeTitleRetired},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := titleIn(tc.state).CheckRespond(tc.c, tc.player, tc.accept, titleNow)
			if got := codeOf(err); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTitleClock(t *testing.T) {
	held := titleIn("held")
	if exp := held.ClockExpiresAt(); exp == nil || !exp.Equal(titleNow.Add(-time.Hour+TitleClock)) {
		t.Fatalf("clock expires at %v", exp)
	}
	if held.ClockExpired(titleNow) || !held.ClockExpired(titleNow.Add(TitleClock-time.Hour)) {
		t.Fatal("the clock runs out exactly 48 h after it started")
	}
	if titleIn("vacant").ClockExpiresAt() != nil || titleIn("vacant").ClockExpired(titleNow) {
		t.Fatal("a vacant title has no clock")
	}
	if held.CurrentReign() == nil || titleIn("vacant").CurrentReign() != nil {
		t.Fatal("the current reign is the holder's")
	}
}

func TestTitleDraft(t *testing.T) {
	cases := []struct {
		name  string
		draft TitleDraft
		field string // "" for valid
	}{
		{"Valid", TitleDraft{Slug: "world", Name: "World Title"}, ""},
		{"ValidEnvironment", TitleDraft{Slug: "beta-belt", Name: "Beta Belt", Environment: EnvironmentBeta}, ""},
		{"ErrNoSlug", TitleDraft{Name: "World"}, "slug"},
		{"ErrBadSlug", TitleDraft{Slug: "World Title", Name: "World"}, "slug"},
		{"ErrReservedSlug", TitleDraft{Slug: "new", Name: "World"}, "slug"},
		{"ErrNoName", TitleDraft{Slug: "world", Name: "  "}, "name"},
		{"ErrLongName", TitleDraft{Slug: "world", Name: strings.Repeat("x", MaxNameRunes+1)}, "name"},
		{"ErrEnvironment", TitleDraft{Slug: "world", Name: "World", Environment: "prod"}, "environment"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			title, problems := tc.draft.Check(titleNow)
			if tc.field == "" {
				if len(problems) > 0 || title == nil {
					t.Fatalf("problems %v", problems)
				}
				if title.Environment == "" || !title.Vacant() {
					t.Fatalf("title %+v", title)
				}
				return
			}
			if len(problems) == 0 || problems[0].Field != tc.field || problems[0].Code != CodeInvalidField {
				t.Fatalf("problems %v, want one on %s", problems, tc.field)
			}
		})
	}
}

func TestChallengeStatusOpen(t *testing.T) {
	for s, open := range map[ChallengeStatus]bool{
		ChallengePending: true, ChallengeDeclined: true, ChallengeAccepted: false, ChallengeExpired: false, ChallengeVoid: false,
	} {
		if s.Open() != open {
			t.Errorf("%s open = %v", s, s.Open())
		}
	}
}

func codeOf(err error) string {
	if err == nil {
		return ""
	}
	return ErrorCode(err)
}
