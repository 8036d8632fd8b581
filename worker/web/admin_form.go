package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"arena/core"
	"arena/views"
)

// datetimeLocal is the value layout of <input type="datetime-local">; the
// admin pages read it as UTC.
const datetimeLocal = "2006-01-02T15:04"

// adminFormInt reads an optional whole number between min and max: ok
// false (with the message set in errs) when it is present but not one.
func adminFormInt(errs views.AdminFieldErrors, field, raw string, min, max int) (n int, present, ok bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return 0, false, true
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < min || n > max {
		errs[field] = "Enter a whole number from " + strconv.Itoa(min) + " to " + strconv.Itoa(max) + "."
		return 0, true, false
	}
	return n, true, true
}

// adminFormTime reads a required datetime-local value as UTC.
func adminFormTime(errs views.AdminFieldErrors, field, raw string) (time.Time, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		errs[field] = "Enter a date and time (UTC)."
		return time.Time{}, false
	}
	for _, layout := range []string{datetimeLocal, datetimeLocal + ":05", time.RFC3339} {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.UTC(), true
		}
	}
	errs[field] = "Enter a date and time as YYYY-MM-DDTHH:MM (UTC)."
	return time.Time{}, false
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
	return views.AdminTournamentValues{
		Slug: strings.TrimSpace(f("slug")), Name: f("name"), Description: f("description"), Format: f("format"),
		MaxPlayers: f("maxPlayers"), RegistrationOpensAt: f("registrationOpensAt"),
		RegistrationClosesAt: f("registrationClosesAt"), StartsAt: f("startsAt"), Environment: f("environment"),
		Season: f("season"), TeamMinPlayers: f("teamMinPlayers"), TeamMaxPlayers: f("teamMaxPlayers"),
		GroupCount: f("groupCount"), AdvancePerGroup: f("advancePerGroup"), SmallFinal: f("smallFinal") != "",
		MatchWindowMinutes: f("matchWindowMinutes"), HandMode: f("handMode"), DelaySeconds: f("delaySeconds"),
		AllowSpectators: f("allowSpectators") != "",
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
	}
	if t.Format == core.FormatGroupsPlayoffs {
		v.GroupCount, v.AdvancePerGroup = strconv.Itoa(t.GroupCount), strconv.Itoa(t.AdvancePerGroup)
	}
	return v
}

// adminNewTournamentValues are the create form's starting values: the
// admin API's defaults, registration opening within the hour for a week,
// the tournament starting a day after it closes. Groups and advancing
// stay empty (2 and 2 for groups then playoffs), so that choosing playoffs
// only needs no other change.
func adminNewTournamentValues(now time.Time) views.AdminTournamentValues {
	opens := now.UTC().Truncate(time.Hour).Add(time.Hour)
	return views.AdminTournamentValues{
		Format: string(core.FormatGroupsPlayoffs), MaxPlayers: "16", Environment: string(core.EnvironmentDemo),
		RegistrationOpensAt: adminTimeValue(opens), RegistrationClosesAt: adminTimeValue(opens.Add(7 * 24 * time.Hour)),
		StartsAt: adminTimeValue(opens.Add(8 * 24 * time.Hour)), TeamMinPlayers: "1", TeamMaxPlayers: "1",
		SmallFinal: true, MatchWindowMinutes: "60",
		HandMode: core.HandModeHidden, DelaySeconds: "0", AllowSpectators: true,
	}
}

// adminTournamentFrom turns the form into a tournament with the admin
// API's rules and defaults (POST /api/v1/admin/tournaments): every field
// is checked and every problem reported at its field, so one round trip
// shows them all. The tournament is returned only when errs is empty.
func adminTournamentFrom(v views.AdminTournamentValues, seasons []core.Season, now time.Time) (*core.Tournament, views.AdminFieldErrors) {
	errs := views.AdminFieldErrors{}
	t := &core.Tournament{
		Slug: v.Slug, Name: strings.TrimSpace(v.Name), Description: v.Description,
		Format: core.TournamentFormat(v.Format), Environment: core.Environment(v.Environment),
		SmallFinal: v.SmallFinal, AllowSpectators: v.AllowSpectators, CreatedAt: now, UpdatedAt: now,
	}
	switch {
	case t.Slug == "":
		errs["slug"] = "Enter a slug."
	case !core.ValidSlug(t.Slug):
		errs["slug"] = "Use 1 to 40 lowercase letters, digits and inner hyphens."
	case t.Slug == "new":
		errs["slug"] = "This slug is reserved by the admin pages; choose another."
	}
	switch {
	case t.Name == "":
		errs["name"] = "Enter a name."
	case utf8.RuneCountInString(v.Name) > 100:
		errs["name"] = "At most 100 characters."
	}
	if utf8.RuneCountInString(t.Description) > 4000 {
		errs["description"] = "At most 4000 characters."
	}
	if t.Format != core.FormatGroupsPlayoffs && t.Format != core.FormatPlayoffsOnly {
		errs["format"] = "Choose a format."
	}
	if strings.TrimSpace(v.MaxPlayers) == "" {
		errs["maxPlayers"] = "Enter the maximum number of sides (2 to 1024)."
	} else {
		t.MaxPlayers, _, _ = adminFormInt(errs, "maxPlayers", v.MaxPlayers, 2, 1024)
	}
	opens, okOpens := adminFormTime(errs, "registrationOpensAt", v.RegistrationOpensAt)
	closes, okCloses := adminFormTime(errs, "registrationClosesAt", v.RegistrationClosesAt)
	starts, okStarts := adminFormTime(errs, "startsAt", v.StartsAt)
	t.RegistrationOpensAt, t.RegistrationClosesAt, t.StartsAt = opens, closes, starts
	switch t.Environment {
	case "":
		t.Environment = core.EnvironmentDemo
	case core.EnvironmentDemo, core.EnvironmentRec, core.EnvironmentBeta:
	default:
		errs["environment"] = "Choose demo, rec or beta."
	}
	if v.Season != "" {
		for _, se := range seasons {
			if se.Slug == v.Season {
				t.SeasonID, t.SeasonSlug = se.ID, se.Slug
			}
		}
		if t.SeasonID == 0 {
			errs["season"] = "There is no such season."
		}
	}
	teamMin, hasMin, okMin := adminFormInt(errs, "teamMinPlayers", v.TeamMinPlayers, 1, 16)
	teamMax, hasMax, okMax := adminFormInt(errs, "teamMaxPlayers", v.TeamMaxPlayers, 1, 16)
	t.TeamMinPlayers, t.TeamMaxPlayers = 1, 1
	if hasMin {
		t.TeamMinPlayers = teamMin
	}
	if hasMax {
		t.TeamMaxPlayers = teamMax
	}
	groups, hasGroups, okGroups := adminFormInt(errs, "groupCount", v.GroupCount, 1, 512)
	advance, hasAdvance, okAdvance := adminFormInt(errs, "advancePerGroup", v.AdvancePerGroup, 1, 16)
	t.MatchWindowMinutes = 60
	if n, has, _ := adminFormInt(errs, "matchWindowMinutes", v.MatchWindowMinutes, 5, 20160); has {
		t.MatchWindowMinutes = n
	}
	t.Cast.HandMode = v.HandMode
	switch v.HandMode {
	case core.HandModeHidden, core.HandModeDelayed, core.HandModeShown:
	default:
		errs["handMode"] = "Choose hidden, delayed or shown."
	}
	if n, has, _ := adminFormInt(errs, "delaySeconds", v.DelaySeconds, 0, 86400); has {
		t.Cast.DelaySeconds = n
	}
	if t.Cast.HandMode != core.HandModeDelayed {
		t.Cast.DelaySeconds = 0
	}

	switch t.Format {
	case core.FormatGroupsPlayoffs:
		t.GroupCount, t.AdvancePerGroup = 2, 2
		if hasGroups {
			t.GroupCount = groups
		}
		if hasAdvance {
			t.AdvancePerGroup = advance
		}
	case core.FormatPlayoffsOnly:
		if hasGroups && okGroups {
			errs["groupCount"] = "Only for groups then playoffs: leave it empty."
		}
		if hasAdvance && okAdvance {
			errs["advancePerGroup"] = "Only for groups then playoffs: leave it empty."
		}
	}
	// The cross-field rules (core's, as the admin API applies them), on
	// fields that are themselves valid.
	_, badMax := errs["maxPlayers"]
	valid := map[string]bool{
		"registrationClosesAt": okOpens && okCloses,
		"startsAt":             okCloses && okStarts,
		"teamMaxPlayers":       okMin && okMax,
		"groupCount":           okGroups && !badMax,
		"advancePerGroup":      okGroups && okAdvance && !badMax,
	}
	for _, e := range t.CheckRules() {
		if _, taken := errs[e.Field]; valid[e.Field] && !taken {
			errs[e.Field] = e.Message
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return t, nil
}

// adminSeasonOptions lists the seasons for the season select.
func adminSeasonOptions(seasons []core.Season) []views.AdminOption {
	out := make([]views.AdminOption, 0, len(seasons))
	for _, se := range seasons {
		out = append(out, views.AdminOption{Value: se.Slug, Label: se.Name})
	}
	return out
}

// adminIDList splits a list of account ids typed one per line (commas and
// spaces work too).
func adminIDList(raw string) []string {
	return strings.FieldsFunc(raw, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\n' || r == '\r' || r == '\t'
	})
}
