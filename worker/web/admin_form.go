package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// datetimeLocal is the value layout of <input type="datetime-local">.
// The admin pages render these fields in UTC; the page script shows them
// in the viewer's zone and posts, beside each field <name>, the field
// <name>Offset: the minutes the typed value is ahead of UTC. Without the
// script the offset is 0 and the value UTC, as the field's hint says.
const datetimeLocal = "2006-01-02T15:04"

// maxZoneOffset bounds a time zone's offset from UTC (UTC+14 is the
// furthest; 18 hours is what ISO 8601 allows).
const maxZoneOffset = 18 * 60

// adminFormTime reads the date-time field name in UTC: the value as
// typed, less its <name>Offset. A value that is not a date-time, or an
// offset that is not a zone's, stays as typed (the core draft then says
// what is wrong with it).
func adminFormTime(r *http.Request, name string) string {
	raw := strings.TrimSpace(r.PostFormValue(name))
	offset, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue(name + "Offset")))
	if err != nil || offset == 0 || offset < -maxZoneOffset || offset > maxZoneOffset {
		return raw
	}
	for _, layout := range []string{datetimeLocal, datetimeLocal + ":05"} {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.Add(-time.Duration(offset) * time.Minute).Format(datetimeLocal)
		}
	}
	return raw
}

// adminFormMinutes reads the duration field name in minutes: its number,
// times 60 when its <name>Unit says hours. Text that is not a whole
// number stays as typed (the core draft then says what is wrong with it).
func adminFormMinutes(r *http.Request, name string) string {
	raw := strings.TrimSpace(r.PostFormValue(name))
	n, err := strconv.Atoi(raw)
	if err != nil || r.PostFormValue(name+"Unit") != "hours" {
		return raw
	}
	return strconv.Itoa(n * 60)
}

// adminFormSeconds reads a setting kept in seconds from its number and
// its <name>Unit (minutes or hours; seconds as typed otherwise). Text
// that is not a whole number stays as typed.
func adminFormSeconds(r *http.Request, name string) string {
	raw := strings.TrimSpace(r.PostFormValue(name))
	n, err := strconv.Atoi(raw)
	if err != nil {
		return raw
	}
	switch r.PostFormValue(name + "Unit") {
	case "minutes":
		return strconv.Itoa(n * 60)
	case "hours":
		return strconv.Itoa(n * 3600)
	}
	return raw
}

// adminFormInt reads an optional whole number within r: ok false (with
// core's message set in errs) when it is present but not one.
func adminFormInt(errs views.AdminFieldErrors, field, raw string, r core.Range) (n int, present, ok bool) {
	num := core.NumberText(raw)
	if msg := r.Problem(num, false); msg != "" {
		errs[field] = msg
		return 0, true, false
	}
	return num.N, num.Set, true
}

// adminTimeValue shows an instant in a datetime-local field (UTC).
func adminTimeValue(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(datetimeLocal)
}

// adminTournamentValues reads the tournament form as typed.
func adminTournamentValues(r *http.Request) views.AdminTournamentValues {
	f := func(name string) string { return r.PostFormValue(name) }
	at := func(name string) string { return adminFormTime(r, name) }
	return views.AdminTournamentValues{
		Slug: strings.TrimSpace(f("slug")), Name: f("name"), Description: f("description"), Format: f("format"),
		MaxPlayers: f("maxPlayers"), RegistrationOpensAt: at("registrationOpensAt"),
		RegistrationClosesAt: at("registrationClosesAt"), StartsAt: at("startsAt"), Environment: f("environment"),
		Season: f("season"), TeamMinPlayers: f("teamMinPlayers"), TeamMaxPlayers: f("teamMaxPlayers"),
		GroupCount: f("groupCount"), AdvancePerGroup: f("advancePerGroup"), SmallFinal: f("smallFinal") != "",
		MatchWindowMinutes: adminFormMinutes(r, "matchWindowMinutes"), HandMode: f("handMode"), DelaySeconds: f("delaySeconds"),
		AllowSpectators: f("allowSpectators") != "", GrandFinalReset: f("grandFinalReset") != "",
		SwissRounds: f("swissRounds"), TopCut: f("topCut"), SeedFromRatings: f("seedFromRatings") != "",
		CheckInMinutes: adminFormMinutes(r, "checkInMinutes"), GroupFormat: f("groupFormat"),
		BestOf: f("bestOf"), GroupBestOf: f("groupBestOf"), FinalBestOf: f("finalBestOf"), Pacing: f("pacing"),
		GracePeriodMinutes: adminFormMinutes(r, "gracePeriodMinutes"),
	}
}

// adminValuesOf fills the tournament form from a stored tournament.
func adminValuesOf(t *core.Tournament) views.AdminTournamentValues {
	v := views.AdminTournamentValues{
		Slug: t.Slug, Name: t.Name, Description: t.Description, Format: string(t.Format),
		MaxPlayers: strconv.Itoa(t.MaxPlayers), RegistrationOpensAt: adminTimeValue(t.RegistrationOpensAt),
		RegistrationClosesAt: adminTimeValue(t.RegistrationClosesAt), StartsAt: adminTimeValue(t.StartsAt),
		Environment: string(t.Environment), Season: t.SeasonSlug, TeamMinPlayers: strconv.Itoa(t.TeamMinPlayers),
		TeamMaxPlayers: strconv.Itoa(t.TeamMaxPlayers), SmallFinal: t.SmallFinal,
		MatchWindowMinutes: strconv.Itoa(t.MatchWindowMinutes), HandMode: t.Cast.HandMode,
		DelaySeconds: strconv.Itoa(t.Cast.DelaySeconds), AllowSpectators: t.AllowSpectators,
		GrandFinalReset: t.GrandFinalReset || t.Format != core.FormatDoubleElimination, SeedFromRatings: t.SeedFromRatings,
		BestOf: strconv.Itoa(t.SeriesLength(core.StagePlayoff)), GroupBestOf: strconv.Itoa(t.SeriesLength(core.StageGroup)),
		FinalBestOf: strconv.Itoa(t.SeriesLength(core.StageFinal)), Pacing: string(t.PacingOrDefault()),
	}
	if t.Format == core.FormatGroupsPlayoffs {
		v.GroupCount, v.AdvancePerGroup = strconv.Itoa(t.GroupCount), strconv.Itoa(t.AdvancePerGroup)
		v.GroupFormat = string(t.GroupFormat)
		if t.GroupFormat == core.GroupFormatGSL {
			v.AdvancePerGroup = ""
		}
	}
	if t.CheckInMinutes > 0 {
		v.CheckInMinutes = strconv.Itoa(t.CheckInMinutes)
	}
	v.GracePeriodMinutes = adminMinutesOrEmpty(t.GracePeriodMinutes)
	if t.SwissRounds > 0 {
		v.SwissRounds = strconv.Itoa(t.SwissRounds)
	}
	if t.TopCut > 0 {
		v.TopCut = strconv.Itoa(t.TopCut)
	}
	return v
}

// adminNewTournamentValues are the create form's starting values: the
// admin API's defaults, registration open from now (to the minute) for a
// week, so that opening registration lets players in at once,
// the tournament starting a day after it closes. Groups and advancing
// stay empty (2 and 2 for groups then playoffs), so that choosing playoffs
// only needs no other change.
func adminNewTournamentValues(now time.Time) views.AdminTournamentValues {
	opens := now.UTC().Truncate(time.Minute)
	return views.AdminTournamentValues{
		Format: string(core.FormatGroupsPlayoffs), MaxPlayers: "16", Environment: string(core.DefaultEnvironment),
		RegistrationOpensAt: adminTimeValue(opens), RegistrationClosesAt: adminTimeValue(opens.Add(7 * 24 * time.Hour)),
		StartsAt: adminTimeValue(opens.Add(8 * 24 * time.Hour)), TeamMinPlayers: "1", TeamMaxPlayers: "1",
		SmallFinal: true, MatchWindowMinutes: strconv.Itoa(core.DefaultMatchWindowMinutes),
		HandMode: core.DefaultHandMode, DelaySeconds: "0", AllowSpectators: true, GrandFinalReset: true,
		GroupFormat: string(core.GroupFormatRoundRobin),
		BestOf:      strconv.Itoa(core.DefaultBestOf), GroupBestOf: strconv.Itoa(core.DefaultBestOf), Pacing: string(core.Pacings[0]),
	}
}

// adminFormInstant reads a datetime-local value (UTC) as an instant for a
// core draft: "" is unset, anything unreadable is bad (the draft's Check
// says so at the field).
func adminFormInstant(raw string) core.Instant {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return core.Instant{}
	}
	for _, layout := range []string{datetimeLocal, datetimeLocal + ":05", time.RFC3339} {
		if t, err := time.Parse(layout, raw); err == nil {
			return core.At(t)
		}
	}
	return core.BadInstant()
}

// adminTournamentDraft reads the tournament form into the admin API's
// draft (core.TournamentDraft): the same rules and defaults then apply.
// The reset's checkbox counts for a double elimination only (a checkbox
// cannot be left out), where it is always given.
func adminTournamentDraft(v views.AdminTournamentValues) core.TournamentDraft {
	allow := v.AllowSpectators
	// The group format's select always posts a value: it counts for
	// groups then playoffs only, as the reset's checkbox does below.
	var groupFormat core.GroupFormat
	if core.TournamentFormat(v.Format) == core.FormatGroupsPlayoffs {
		groupFormat = core.GroupFormat(v.GroupFormat)
	}
	var reset *bool
	if core.TournamentFormat(v.Format) == core.FormatDoubleElimination {
		reset = &v.GrandFinalReset
	}
	return core.TournamentDraft{
		Slug: v.Slug, Name: v.Name, Description: v.Description, Format: core.TournamentFormat(v.Format),
		MaxPlayers:           core.NumberText(v.MaxPlayers),
		RegistrationOpensAt:  adminFormInstant(v.RegistrationOpensAt),
		RegistrationClosesAt: adminFormInstant(v.RegistrationClosesAt),
		StartsAt:             adminFormInstant(v.StartsAt),
		Environment:          core.Environment(v.Environment), Season: v.Season,
		TeamMinPlayers: core.NumberText(v.TeamMinPlayers), TeamMaxPlayers: core.NumberText(v.TeamMaxPlayers),
		GroupCount: core.NumberText(v.GroupCount), AdvancePerGroup: core.NumberText(v.AdvancePerGroup),
		SmallFinal: v.SmallFinal, MatchWindowMinutes: core.NumberText(v.MatchWindowMinutes),
		Cast:            &core.CastDraft{HandMode: v.HandMode, DelaySeconds: core.NumberText(v.DelaySeconds)},
		AllowSpectators: &allow, GrandFinalReset: reset,
		SwissRounds: core.NumberText(v.SwissRounds), TopCut: core.NumberText(v.TopCut), SeedFromRatings: v.SeedFromRatings,
		CheckInMinutes: core.NumberText(v.CheckInMinutes), GroupFormat: groupFormat,
		BestOf: core.NumberText(v.BestOf), GroupBestOf: core.NumberText(v.GroupBestOf),
		FinalBestOf: core.NumberText(v.FinalBestOf), Pacing: core.Pacing(v.Pacing),
		GracePeriodMinutes: core.NumberText(v.GracePeriodMinutes),
	}
}

// adminFormFields names the form's inputs whose names differ from the
// API's field paths.
var adminFormFields = map[string]string{
	"cast.handMode": "handMode", "cast.delaySeconds": "delaySeconds",
	"score.p1": "scoreP1", "score.p2": "scoreP2",
	"rateLimits.anonymousPerMinute": "anonymousPerMinute", "rateLimits.keyPerMinute": "keyPerMinute",
	"placementPoints.played": "played",
}

// adminProblems shows a core input's problems next to the form's fields.
func adminProblems(tr *i18n.Tr, p core.Problems) views.AdminFieldErrors {
	errs := views.AdminFieldErrors{}
	for field, msg := range p.ByField(tr) {
		if name, ok := adminFormFields[field]; ok {
			field = name
		}
		errs[field] = msg
	}
	return errs
}

// adminTournamentFrom turns the form into a tournament with the admin
// API's rules and defaults: every problem is reported at its field, so one
// round trip shows them all. The tournament is returned only when errs is
// empty.
func adminTournamentFrom(tr *i18n.Tr, v views.AdminTournamentValues, seasons []core.Season, now time.Time) (*core.Tournament, views.AdminFieldErrors) {
	draft := adminTournamentDraft(v)
	t, problems := draft.Check(seasons, now)
	if len(problems) > 0 {
		return nil, adminProblems(tr, problems)
	}
	return t, nil
}

// adminSeasonOptions lists the seasons for the season select.
func adminSeasonOptions(seasons []core.Season) []views.AdminOption {
	out := make([]views.AdminOption, 0, len(seasons))
	for _, se := range seasons {
		out = append(out, views.AdminOption{Value: se.Slug, Label: se.Name, Typed: true})
	}
	return out
}

// adminFormStatus is the status of a form refused for its problems: the
// first problem's code's (422 invalid_field, 409 slug_taken, ...).
func adminFormStatus(problems core.Problems) int {
	return server.StatusOf(problems[0].Code)
}
