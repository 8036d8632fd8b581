package core

import (
	"arena/i18n"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestNumberJSON(t *testing.T) {
	cases := []struct {
		name, body string
		want       Number
		typeErr    bool
	}{
		{"Integer", `{"n":5}`, Int(5), false},
		{"Null", `{"n":null}`, Number{}, false},
		{"Absent", `{}`, Number{}, false},
		{"ErrString", `{"n":"5"}`, Number{}, true},
		{"ErrFraction", `{"n":5.5}`, Number{}, true},
		{"ErrBool", `{"n":true}`, Number{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v struct {
				N Number `json:"n"`
			}
			err := json.Unmarshal([]byte(tc.body), &v)
			var typeErr *json.UnmarshalTypeError
			if tc.typeErr {
				if !errors.As(err, &typeErr) || typeErr.Field != "n" {
					t.Fatalf("want a type error naming n, got %v", err)
				}
				return
			}
			if err != nil || v.N != tc.want {
				t.Fatalf("got %+v, %v; want %+v", v.N, err, tc.want)
			}
		})
	}
}

func TestNumberText(t *testing.T) {
	if n := NumberText(" 42 "); !n.Set || n.N != 42 {
		t.Errorf("42: %+v", n)
	}
	if n := NumberText(""); n.Set || n.bad {
		t.Errorf("empty: %+v", n)
	}
	var p Problems
	Range{Min: 1, Max: 9}.check(&p, "x", NumberText("abc"), false)
	Range{Min: 1, Max: 9}.check(&p, "y", NumberText(""), false)
	Range{Min: 1, Max: 9}.check(&p, "z", NumberText(""), true)
	if got := p.ByField(i18n.For(i18n.DefaultLocale)); len(got) != 2 || got["x"] != "Enter a whole number from 1 to 9." || got["z"] == "" {
		t.Errorf("problems %v: want x (not a number) and z (required)", got)
	}
}

func TestAppIDsJSON(t *testing.T) {
	cases := []struct {
		name, body string
		want       AppIDs
		typeErr    bool
		problem    bool
	}{
		{"Numbers", `[480]`, AppIDs{"480"}, false, false},
		{"Strings", `["480","730"]`, AppIDs{"480", "730"}, false, false},
		{"Mixed", `[480, "730"]`, AppIDs{"480", "730"}, false, false},
		{"ErrExponent", `[4.8e2]`, AppIDs{"4.8e2"}, false, true},
		{"ErrNegative", `[-1]`, AppIDs{"-1"}, false, true},
		{"ErrDuplicate", `[480,"480"]`, AppIDs{"480", "480"}, false, true},
		{"ErrEmpty", `[]`, AppIDs{}, false, true},
		{"ErrBool", `[true]`, nil, true, false},
		{"ErrObject", `{"a":1}`, nil, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v struct {
				IDs AppIDs `json:"appIds"`
			}
			err := json.Unmarshal([]byte(`{"appIds":`+tc.body+`}`), &v)
			var typeErr *json.UnmarshalTypeError
			if tc.typeErr {
				if !errors.As(err, &typeErr) || typeErr.Field != "appIds" {
					t.Fatalf("want a type error naming appIds, got %v", err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(v.IDs, tc.want) {
				t.Fatalf("got %#v, %v; want %#v", v.IDs, err, tc.want)
			}
			var p Problems
			v.IDs.check(&p, "appIds")
			if tc.problem != (len(p) > 0) {
				t.Errorf("problems %v, want a problem: %v", p.ByField(i18n.For(i18n.DefaultLocale)), tc.problem)
			}
		})
	}
}

func TestListText(t *testing.T) {
	if got := ListText(" a,b\nc ;d\r\n"); !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("got %q", got)
	}
	if got := ListText(" \n,"); len(got) != 0 {
		t.Errorf("got %q", got)
	}
}

// TestTournamentDraft checks the one home of the tournament rules: a JSON
// body and the same values typed into the form decode into the same
// draft and give the same tournament, and each broken rule is reported at
// its field.
func TestTournamentDraft(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	seasons := []Season{{ID: 7, Slug: "s1", Name: "Season 1"}}
	body := `{"slug":"cup","name":" Cup ","format":"groups_playoffs","maxPlayers":8,
		"registrationOpensAt":"2026-11-01T10:00:00Z","registrationClosesAt":"2026-11-02T10:00:00Z",
		"startsAt":"2026-11-03T10:00:00Z","season":"s1","cast":{"handMode":"delayed","delaySeconds":90}}`
	var fromJSON TournamentDraft
	if err := json.Unmarshal([]byte(body), &fromJSON); err != nil {
		t.Fatal(err)
	}
	fromForm := TournamentDraft{
		Slug: "cup", Name: " Cup ", Format: FormatGroupsPlayoffs, MaxPlayers: NumberText("8"),
		RegistrationOpensAt:  InstantText("2026-11-01T10:00:00Z"),
		RegistrationClosesAt: InstantText("2026-11-02T10:00:00Z"),
		StartsAt:             InstantText("2026-11-03T10:00:00Z"), Season: "s1",
		TeamMinPlayers: NumberText(""), GroupCount: NumberText(""),
		Cast: &CastDraft{HandMode: "delayed", DelaySeconds: NumberText("90")},
	}
	a, pa := fromJSON.Check(seasons, now)
	b, pb := fromForm.Check(seasons, now)
	if len(pa) > 0 || len(pb) > 0 {
		t.Fatalf("problems: %v %v", pa.ByField(i18n.For(i18n.DefaultLocale)), pb.ByField(i18n.For(i18n.DefaultLocale)))
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("JSON and form differ:\n%+v\n%+v", a, b)
	}
	want := Tournament{Slug: "cup", Name: "Cup", Format: FormatGroupsPlayoffs, Status: StatusDraft, MaxPlayers: 8,
		RegistrationOpensAt: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), RegistrationClosesAt: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC),
		StartsAt: time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC), Environment: EnvironmentDemo, SeasonID: 7, SeasonSlug: "s1",
		TeamMinPlayers: 1, TeamMaxPlayers: 1, GroupCount: 2, AdvancePerGroup: 2, MatchWindowMinutes: 60,
		Cast: CastPolicy{HandMode: HandModeDelayed, DelaySeconds: 90}, AllowSpectators: true, CreatedAt: now, UpdatedAt: now,
		GroupFormat: GroupFormatRoundRobin, BestOf: 1, GroupBestOf: 1, FinalBestOf: 1, Pacing: PacingScheduled}
	if !reflect.DeepEqual(*a, want) {
		t.Fatalf("got %+v\nwant %+v", *a, want)
	}

	cases := []struct {
		name   string
		change func(d *TournamentDraft)
		field  string
		code   string
	}{
		{"ErrSlugMissingAndNoneFromTheName", func(d *TournamentDraft) { d.Slug, d.Name = "", "¡¿!" }, "slug", CodeInvalidField},
		{"ErrSlugReserved", func(d *TournamentDraft) { d.Slug = "new" }, "slug", CodeInvalidField},
		{"ErrNameBlank", func(d *TournamentDraft) { d.Name = "  " }, "name", CodeInvalidField},
		{"ErrFormat", func(d *TournamentDraft) { d.Format = "swiss-cheese" }, "format", CodeInvalidField},
		{"ErrMaxPlayersMissing", func(d *TournamentDraft) { d.MaxPlayers = Number{} }, "maxPlayers", CodeInvalidField},
		{"ErrMaxPlayersHigh", func(d *TournamentDraft) { d.MaxPlayers = Int(1025) }, "maxPlayers", CodeInvalidField},
		{"ErrTimeBad", func(d *TournamentDraft) { d.StartsAt = InstantText("tomorrow") }, "startsAt", CodeInvalidField},
		{"ErrEnvironment", func(d *TournamentDraft) { d.Environment = "prod" }, "environment", CodeInvalidField},
		{"ErrSeason", func(d *TournamentDraft) { d.Season = "s9" }, "season", CodeSeasonNotFound},
		{"ErrTeamMax", func(d *TournamentDraft) { d.TeamMaxPlayers = Int(17) }, "teamMaxPlayers", CodeInvalidField},
		{"ErrWindow", func(d *TournamentDraft) { d.MatchWindowMinutes = Int(4) }, "matchWindowMinutes", CodeInvalidField},
		{"ErrHandMode", func(d *TournamentDraft) { d.Cast.HandMode = "" }, "cast.handMode", CodeInvalidField},
		{"ErrDelay", func(d *TournamentDraft) { d.Cast.DelaySeconds = Int(86401) }, "cast.delaySeconds", CodeInvalidField},
		{"ErrGroupsOnPlayoffsOnly", func(d *TournamentDraft) { d.Format, d.GroupCount = FormatPlayoffsOnly, Int(2) }, "groupCount", CodeInvalidField},
		{"ErrCrossFieldClose", func(d *TournamentDraft) { d.RegistrationClosesAt = d.RegistrationOpensAt }, "registrationClosesAt", CodeInvalidField},
		{"ErrCrossFieldGroups", func(d *TournamentDraft) { d.GroupCount = Int(5) }, "groupCount", CodeInvalidField},
		{"ErrCheckInNegative", func(d *TournamentDraft) { d.CheckInMinutes = Int(-1) }, "checkInMinutes", CodeInvalidField},
		{"ErrCheckInOverADay", func(d *TournamentDraft) { d.CheckInMinutes = Int(24*60 + 1) }, "checkInMinutes", CodeInvalidField},
		{"ErrGroupFormat", func(d *TournamentDraft) { d.GroupFormat = "ladder" }, "groupFormat", CodeInvalidField},
		{"ErrBestOfEven", func(d *TournamentDraft) { d.BestOf = Int(4) }, "bestOf", CodeInvalidField},
		{"ErrGroupBestOfHigh", func(d *TournamentDraft) { d.GroupBestOf = Int(11) }, "groupBestOf", CodeInvalidField},
		{"ErrFinalBestOfZero", func(d *TournamentDraft) { d.FinalBestOf = Int(0) }, "finalBestOf", CodeInvalidField},
		{"ErrGroupFormatOnPlayoffsOnly", func(d *TournamentDraft) {
			d.Format, d.GroupFormat = FormatPlayoffsOnly, GroupFormatGSL
		}, "groupFormat", CodeInvalidField},
		{"ErrGSLGroupsHoldFour", func(d *TournamentDraft) { d.GroupFormat, d.GroupCount = GroupFormatGSL, Int(1) }, "groupCount", CodeInvalidField},
		{"ErrGSLAdvancesTwo", func(d *TournamentDraft) {
			d.GroupFormat, d.AdvancePerGroup = GroupFormatGSL, Int(3)
		}, "advancePerGroup", CodeInvalidField},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := fromJSON
			cast := *fromJSON.Cast
			d.Cast = &cast
			tc.change(&d)
			tour, p := d.Check(seasons, now)
			if tour != nil || len(p) == 0 {
				t.Fatalf("want problems, got %+v", tour)
			}
			e := p[0]
			if e.Field != tc.field || e.Code != tc.code || e.Message == "" {
				t.Errorf("first problem %+v; want %s at %s with a message", e, tc.code, tc.field)
			}
		})
	}
}

func TestTournamentDraftOrganizerDay(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	d := TournamentDraft{Slug: "gsl", Name: "GSL", Format: FormatGroupsPlayoffs, MaxPlayers: Int(16), GroupCount: Int(4),
		RegistrationOpensAt: InstantText("2026-11-01T10:00:00Z"), RegistrationClosesAt: InstantText("2026-11-02T10:00:00Z"),
		StartsAt: InstantText("2026-11-03T10:00:00Z"), GroupFormat: GroupFormatGSL, CheckInMinutes: Int(45)}
	tour, p := d.Check(nil, now)
	if len(p) > 0 {
		t.Fatal(p.ByField(i18n.For(i18n.DefaultLocale)))
	}
	if tour.GroupFormat != GroupFormatGSL || tour.AdvancePerGroup != GSLAdvance || tour.CheckInMinutes != 45 {
		t.Errorf("got %s advancing %d, check-in %d", tour.GroupFormat, tour.AdvancePerGroup, tour.CheckInMinutes)
	}
	d.Format, d.GroupCount, d.GroupFormat, d.CheckInMinutes = FormatDoubleElimination, Number{}, "", Number{}
	if tour, p = d.Check(nil, now); len(p) > 0 || tour.CheckInMinutes != 0 {
		t.Errorf("no check-in by default: %v %+v", p.ByField(i18n.For(i18n.DefaultLocale)), tour)
	}
}

func TestSettingsChange(t *testing.T) {
	base := Arena{Name: "Old", Plan: PlanFree, AppIDs: []string{"480"}, Identity: "x", GracePeriodSeconds: 60}
	name, identity := " New ", ""
	change := SettingsChange{Name: &name, AppIDs: AppIDs{"480", "730"}, Identity: &identity, GracePeriodSeconds: Int(120),
		PlacementPoints: &PlacementPointsDraft{Tiers: []PlacementTierDraft{{Through: Int(1), Points: Int(10)}}, Played: Int(1)}}
	a, points, p := change.Apply(base)
	if len(p) > 0 {
		t.Fatal(p.ByField(i18n.For(i18n.DefaultLocale)))
	}
	if a.Name != "New" || a.Identity != DefaultIdentity || a.GracePeriodSeconds != 120 || len(a.AppIDs) != 2 || a.Plan != PlanFree {
		t.Errorf("applied: %+v", a)
	}
	if points == nil || points.Points(1) != 10 || points.Points(2) != 1 {
		t.Errorf("points: %+v", points)
	}
	if _, _, p := (&SettingsChange{}).Apply(base); len(p) > 0 {
		t.Errorf("an empty change has problems: %v", p.ByField(i18n.For(i18n.DefaultLocale)))
	}
	bad := Plan("gold")
	blank := " "
	for field, c := range map[string]SettingsChange{
		"name":                          {Name: &blank},
		"plan":                          {Plan: &bad},
		"gracePeriodSeconds":            {GracePeriodSeconds: Int(-1)},
		"appIds":                        {AppIDs: AppIDs{}},
		"rateLimits.keyPerMinute":       {RateLimits: &RateLimitsDraft{AnonymousPerMinute: Int(1)}},
		"placementPoints":               {PlacementPoints: &PlacementPointsDraft{Played: Int(0), Tiers: []PlacementTierDraft{{Through: Int(2), Points: Int(1)}, {Through: Int(2), Points: Int(1)}}}},
		"rateLimits.anonymousPerMinute": {RateLimits: &RateLimitsDraft{AnonymousPerMinute: Int(-5), KeyPerMinute: Int(1)}},
	} {
		if _, _, p := c.Apply(base); len(p) == 0 || p[0].Field != field {
			t.Errorf("%s: problems %v", field, p.ByField(i18n.For(i18n.DefaultLocale)))
		}
	}
}

func TestParseMatchID(t *testing.T) {
	for _, ok := range []string{"1", "42", "999999999999999999"} {
		if _, err := ParseMatchID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0", "01", "-1", "+1", " 1", "1e3", "1.0", "abc", "1000000000000000000"} {
		if _, err := ParseMatchID(bad); ErrorCode(err) != CodeMatchNotFound {
			t.Errorf("%q: %v, want match_not_found", bad, err)
		}
	}
}

func TestPickSeason(t *testing.T) {
	seasons := []Season{{ID: 2, Slug: "s2"}, {ID: 1, Slug: "s1"}}
	for want, id := range map[string]int64{"": 2, "s1": 1, "s2": 2, "nope": 2, SeasonAll: 0} {
		if got := PickSeason(seasons, want); got == nil || got.ID != id {
			t.Errorf("%q: %+v, want season %d", want, got, id)
		}
	}
	if PickSeason(nil, "") != nil || PickSeason(nil, SeasonAll) == nil {
		t.Error("no seasons: nil, except all")
	}
}
