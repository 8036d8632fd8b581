package core

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Tournament settings' limits and defaults: the admin API, the admin pages
// and their forms' hints all read them here.
var (
	MaxPlayersRange         = Range{Min: 2, Max: 1024}
	TeamPlayersRange        = Range{Min: 1, Max: 16}
	GroupCountRange         = Range{Min: 1, Max: 512}
	AdvancePerGroupRange    = Range{Min: 1, Max: 16}
	MatchWindowMinutesRange = Range{Min: 5, Max: 20160}
	CastDelaySecondsRange   = Range{Min: 0, Max: 86400}
	SwissRoundsRange        = Range{Min: 1, Max: 16}
	TopCutRange             = Range{Min: 2, Max: 256}
)

// Formats' own caps on maxPlayers: a double-elimination bracket holds up
// to 256 sides, a round robin 64 (2016 matches).
const (
	MaxDoubleEliminationPlayers = 256
	MaxRoundRobinPlayers        = 64
)

// Text limits of a tournament, in characters.
const (
	MaxNameRunes        = 100
	MaxDescriptionRunes = 4000
)

// Tournament defaults applied when a draft leaves a setting out.
const (
	DefaultEnvironment        = EnvironmentDemo
	DefaultMatchWindowMinutes = 60
	DefaultGroupCount         = 2
	DefaultAdvancePerGroup    = 2
	DefaultHandMode           = HandModeHidden
)

// ReservedTournamentSlugs are slugs the admin pages use as paths.
var ReservedTournamentSlugs = map[string]bool{"new": true}

// TournamentDraft is a tournament's settings as an admin gives them: the
// body of POST /api/v1/admin/tournaments, or the admin pages' form read
// into the same type. Check turns it into a tournament with the defaults
// applied, or says what is wrong with each field.
type TournamentDraft struct {
	Slug                 string           `json:"slug"`
	Name                 string           `json:"name"`
	Description          string           `json:"description"`
	Format               TournamentFormat `json:"format"`
	MaxPlayers           Number           `json:"maxPlayers"`
	RegistrationOpensAt  Instant          `json:"registrationOpensAt"`
	RegistrationClosesAt Instant          `json:"registrationClosesAt"`
	StartsAt             Instant          `json:"startsAt"`
	Environment          Environment      `json:"environment"`
	Season               string           `json:"season"`
	TeamMinPlayers       Number           `json:"teamMinPlayers"`
	TeamMaxPlayers       Number           `json:"teamMaxPlayers"`
	GroupCount           Number           `json:"groupCount"`
	AdvancePerGroup      Number           `json:"advancePerGroup"`
	SmallFinal           bool             `json:"smallFinal"`
	MatchWindowMinutes   Number           `json:"matchWindowMinutes"`
	Cast                 *CastDraft       `json:"cast"`
	AllowSpectators      *bool            `json:"allowSpectators"`
	// GrandFinalReset (double elimination only; default true): a second
	// grand final when the losers' bracket champion wins the first.
	GrandFinalReset *bool `json:"grandFinalReset"`
	// SwissRounds (swiss only; default DefaultSwissRounds of the entrants).
	SwissRounds Number `json:"swissRounds"`
	// TopCut (swiss only; default none): the top of the Swiss standings
	// going on to a single-elimination bracket.
	TopCut Number `json:"topCut"`
	// SeedFromRatings seeds the unseeded sides by rating at the draw.
	SeedFromRatings bool `json:"seedFromRatings"`
	// CheckInMinutes (default 0: no check-in): how long before startsAt
	// the sides check in; those that do not are withdrawn at the start.
	CheckInMinutes Number `json:"checkInMinutes"`
	// GroupFormat (groups_playoffs only; default round_robin): gsl plays
	// each group of four as a small double elimination.
	GroupFormat GroupFormat `json:"groupFormat"`
	// BestOf (playoff matches), GroupBestOf (group, Swiss and round-robin
	// matches) and FinalBestOf (the final, the grand final and its reset,
	// the small final; default BestOf): odd, 1 to 9, default 1.
	BestOf      Number `json:"bestOf"`
	GroupBestOf Number `json:"groupBestOf"`
	FinalBestOf Number `json:"finalBestOf"`
	// Pacing (default scheduled): asap opens a match's window the moment
	// both its sides are known.
	Pacing Pacing `json:"pacing"`
	// GracePeriodMinutes (default 0: the arena's grace period): how long
	// a result one side gave waits for the other (grace.go).
	GracePeriodMinutes Number `json:"gracePeriodMinutes"`
}

// CastDraft is the recording-release policy as an admin gives it.
type CastDraft struct {
	HandMode     string `json:"handMode"`
	DelaySeconds Number `json:"delaySeconds"`
}

// checkSlug records the problem of a tournament's or a title's slug (they
// share one namespace).
func checkSlug(p *Problems, field, slug string) {
	switch {
	case slug == "":
		p.invalid(field, "Enter a slug.")
	case !ValidSlug(slug):
		p.invalid(field, "Use 1 to 40 lowercase letters, digits and inner hyphens.")
	case ReservedTournamentSlugs[slug]:
		p.invalid(field, "This slug is reserved by the admin pages; choose another.")
	}
}

// ValidFormat reports whether f is a format the service runs.
func ValidFormat(f TournamentFormat) bool { return slices.Contains(Formats, f) }

// ValidEnvironment reports whether e is one of the environments.
func ValidEnvironment(e Environment) bool { return slices.Contains(Environments, e) }

// ValidHandMode reports whether m is one of the cast hand modes.
func ValidHandMode(m string) bool { return slices.Contains(HandModes, m) }

// Check returns the draft as a tournament (status draft, created at now)
// with the defaults applied: the slug made from the name when empty
// (SlugFromName), environment demo, 1v1, 2 groups advancing 2
// for groups_playoffs, a grand-final reset for double elimination,
// 60-minute windows, hidden hands, spectators allowed, the season found
// among seasons by slug. A format's own settings given for another
// format are problems. Otherwise it returns
// every problem, field by field in the body's order, then the cross-field
// rules (CheckRules) on fields that are themselves valid.
func (d *TournamentDraft) Check(seasons []Season, now time.Time) (*Tournament, Problems) {
	var p Problems
	t := &Tournament{
		Slug: strings.TrimSpace(d.Slug), Name: strings.TrimSpace(d.Name), Description: d.Description,
		Format: d.Format, Status: StatusDraft, MaxPlayers: d.MaxPlayers.N, Environment: d.Environment,
		RegistrationOpensAt: d.RegistrationOpensAt.T, RegistrationClosesAt: d.RegistrationClosesAt.T, StartsAt: d.StartsAt.T,
		TeamMinPlayers: d.TeamMinPlayers.Or(1), TeamMaxPlayers: d.TeamMaxPlayers.Or(1),
		SmallFinal: d.SmallFinal, MatchWindowMinutes: d.MatchWindowMinutes.Or(DefaultMatchWindowMinutes),
		SeedFromRatings: d.SeedFromRatings, CheckInMinutes: d.CheckInMinutes.N,
		GroupFormat:     GroupFormatRoundRobin,
		Cast:            CastPolicy{HandMode: DefaultHandMode},
		AllowSpectators: d.AllowSpectators == nil || *d.AllowSpectators,
		CreatedAt:       now, UpdatedAt: now,
	}
	if t.Slug == "" {
		t.Slug = SlugFromName(t.Name)
	}
	checkSlug(&p, "slug", t.Slug)
	checkName(&p, "name", t.Name, "Enter a name.")
	if utf8.RuneCountInString(t.Description) > MaxDescriptionRunes {
		p.invalid("description", "At most %d characters.", MaxDescriptionRunes)
	}
	if !ValidFormat(t.Format) {
		p.invalid("format", "Choose a format.")
	}
	MaxPlayersRange.check(&p, "maxPlayers", d.MaxPlayers, true)
	d.RegistrationOpensAt.check(&p, "registrationOpensAt", true)
	d.RegistrationClosesAt.check(&p, "registrationClosesAt", true)
	d.StartsAt.check(&p, "startsAt", true)
	if t.Environment == "" {
		t.Environment = DefaultEnvironment
	} else if !ValidEnvironment(t.Environment) {
		p.invalid("environment", "Choose demo, rec or beta.")
	}
	if d.Season != "" {
		for _, se := range seasons {
			if se.Slug == d.Season {
				t.SeasonID, t.SeasonSlug = se.ID, se.Slug
			}
		}
		if t.SeasonID == 0 {
			p.add(CodeSeasonNotFound, "season", "There is no such season.")
		}
	}
	TeamPlayersRange.check(&p, "teamMinPlayers", d.TeamMinPlayers, false)
	TeamPlayersRange.check(&p, "teamMaxPlayers", d.TeamMaxPlayers, false)
	GroupCountRange.check(&p, "groupCount", d.GroupCount, false)
	AdvancePerGroupRange.check(&p, "advancePerGroup", d.AdvancePerGroup, false)
	MatchWindowMinutesRange.check(&p, "matchWindowMinutes", d.MatchWindowMinutes, false)
	CheckInMinutesRange.check(&p, "checkInMinutes", d.CheckInMinutes, false)
	GracePeriodMinutesRange.check(&p, "gracePeriodMinutes", d.GracePeriodMinutes, false)
	t.GracePeriodMinutes = d.GracePeriodMinutes.N
	checkBestOf(&p, "bestOf", d.BestOf)
	checkBestOf(&p, "groupBestOf", d.GroupBestOf)
	checkBestOf(&p, "finalBestOf", d.FinalBestOf)
	t.BestOf, t.GroupBestOf = d.BestOf.Or(DefaultBestOf), d.GroupBestOf.Or(DefaultBestOf)
	t.FinalBestOf = d.FinalBestOf.Or(t.BestOf)
	t.Pacing = PacingScheduled
	if d.Pacing != "" {
		t.Pacing = d.Pacing
	}
	if !ValidPacing(t.Pacing) {
		p.invalid("pacing", "Choose scheduled or asap.")
	}
	if d.Cast != nil {
		t.Cast = CastPolicy{HandMode: d.Cast.HandMode, DelaySeconds: d.Cast.DelaySeconds.N}
		if !ValidHandMode(t.Cast.HandMode) {
			p.invalid("cast.handMode", "Choose hidden, delayed or shown.")
		}
		CastDelaySecondsRange.check(&p, "cast.delaySeconds", d.Cast.DelaySeconds, false)
	}
	if t.Cast.HandMode != HandModeDelayed {
		t.Cast.DelaySeconds = 0
	}
	d.checkFormatSettings(&p, t)
	// The cross-field rules, on fields that are themselves valid.
	valid := map[string]bool{
		"registrationClosesAt": !p.Has("registrationOpensAt") && !p.Has("registrationClosesAt"),
		"startsAt":             !p.Has("registrationClosesAt") && !p.Has("startsAt"),
		"teamMaxPlayers":       !p.Has("teamMinPlayers") && !p.Has("teamMaxPlayers"),
		"groupCount":           !p.Has("groupCount") && !p.Has("maxPlayers") && !p.Has("groupFormat"),
		"advancePerGroup":      !p.Has("groupCount") && !p.Has("advancePerGroup") && !p.Has("maxPlayers"),
		"maxPlayers":           !p.Has("maxPlayers") && !p.Has("format"),
		"swissRounds":          !p.Has("swissRounds") && !p.Has("maxPlayers"),
		"topCut":               !p.Has("topCut") && !p.Has("maxPlayers"),
	}
	for _, e := range t.CheckRules() {
		if valid[e.Field] {
			p.keep(e)
		}
	}
	if len(p) > 0 {
		return nil, p
	}
	return t, nil
}

// checkFormatSettings applies the format's own settings to t, and records
// a problem for each setting given to a format it does not belong to.
func (d *TournamentDraft) checkFormatSettings(p *Problems, t *Tournament) {
	onlyFor := func(field string, given bool, what string) {
		if given && !slices.Contains(FormatFields[field], t.Format) && ValidFormat(t.Format) {
			p.invalid(field, "Only for %s: leave it empty.", what)
		}
	}
	onlyFor("groupCount", d.GroupCount.Set || d.GroupCount.bad, "groups then playoffs")
	onlyFor("advancePerGroup", d.AdvancePerGroup.Set || d.AdvancePerGroup.bad, "groups then playoffs")
	onlyFor("groupFormat", d.GroupFormat != "", "groups then playoffs")
	onlyFor("grandFinalReset", d.GrandFinalReset != nil, "double elimination")
	onlyFor("swissRounds", d.SwissRounds.Set || d.SwissRounds.bad, "Swiss")
	onlyFor("topCut", d.TopCut.Set || d.TopCut.bad, "Swiss")
	switch t.Format {
	case FormatGroupsPlayoffs:
		t.GroupCount, t.AdvancePerGroup = d.GroupCount.Or(DefaultGroupCount), d.AdvancePerGroup.Or(DefaultAdvancePerGroup)
		if d.GroupFormat != "" {
			t.GroupFormat = d.GroupFormat
		}
		switch {
		case !ValidGroupFormat(t.GroupFormat):
			p.invalid("groupFormat", "Choose round_robin or gsl.")
		case t.GroupFormat == GroupFormatGSL:
			if d.AdvancePerGroup.Set && d.AdvancePerGroup.N != GSLAdvance {
				p.invalid("advancePerGroup", "GSL groups send exactly %d on: leave it empty.", GSLAdvance)
			}
			t.AdvancePerGroup = GSLAdvance
		}
	case FormatDoubleElimination:
		t.GrandFinalReset = d.GrandFinalReset == nil || *d.GrandFinalReset
	case FormatSwiss:
		SwissRoundsRange.check(p, "swissRounds", d.SwissRounds, false)
		TopCutRange.check(p, "topCut", d.TopCut, false)
		t.SwissRounds, t.TopCut = d.SwissRounds.N, d.TopCut.N
	}
	if t.SmallFinal && (t.Format == FormatDoubleElimination || t.Format == FormatRoundRobin ||
		(t.Format == FormatSwiss && !d.TopCut.Set)) {
		p.invalid("smallFinal", "Only for a single-elimination bracket: leave it off.")
	}
}
