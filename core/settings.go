package core

import (
	"context"
	"strings"
	"unicode/utf8"
)

// Arena settings' limits.
var (
	GracePeriodSecondsRange = Range{Min: 0, Max: int(MaxGracePeriod.Seconds())}
	RatePerMinuteRange      = Range{Min: 0, Max: 1000000}
	PlacePointsRange        = Range{Min: 0, Max: 100000}
	PlaceThroughRange       = Range{Min: 1, Max: 4096}
)

// Limits of an arena's texts and lists.
const (
	MaxIdentityRunes     = 64
	MaxPublisherKeyBytes = 200
	MaxPlacementTiers    = 32
)

// CodeOperatorOnly: the setting is the operator's to change (an arena's
// plan), not the arena admin's (403).
const CodeOperatorOnly = "operator_only"

// SettingsChange is a change to an arena's settings as it is given: the
// body of PUT /api/v1/admin/settings, or the admin settings page's form
// read into the same type, and the operator's creation and PATCH of an
// arena. Absent (nil, unset) fields keep their value. The plan is the
// operator's alone (CheckByAdmin).
type SettingsChange struct {
	Name               *string               `json:"name"`
	RefereeEnabled     *bool                 `json:"refereeEnabled"`
	GracePeriodSeconds Number                `json:"gracePeriodSeconds"`
	Plan               *Plan                 `json:"plan"`
	AppIDs             AppIDs                `json:"appIds"`
	PublisherKey       *string               `json:"publisherKey"` // "" removes it
	Identity           *string               `json:"identity"`     // "" means DefaultIdentity
	PlacementPoints    *PlacementPointsDraft `json:"placementPoints"`
	RateLimits         *RateLimitsDraft      `json:"rateLimits"`
	// WebhookURL is the arena's webhook address ("" removes it); the
	// arena database keeps it (see CheckWebhookURL).
	WebhookURL *string `json:"webhookUrl"`
	// UpcomingAlertMinutes is the upcoming-match alert's lead time.
	UpcomingAlertMinutes Number `json:"upcomingAlertMinutes"`
	// StaleMatchMinutes is the stale-match delay (stale.go; kept in the
	// arena's database, SettingStaleMatchMinutes).
	StaleMatchMinutes Number `json:"staleMatchMinutes"`
	// LoopbackWebhooks is set by the server, never decoded: dev mode lets
	// webhooks point at this machine.
	LoopbackWebhooks bool `json:"-"`
	// RatingPeriodHours is the Glicko-2 rating period's length (kept in
	// the arena's database, SettingRatingPeriodHours).
	RatingPeriodHours Number `json:"ratingPeriodHours"`
	// CasualRecordingsPerDay is kept in the arena's database
	// (SettingCasualRecordingsPerDay); Apply checks it.
	CasualRecordingsPerDay Number `json:"casualRecordingsPerDay"`
	// DefaultLocale is the language the arena's pages speak to a viewer
	// whose browser and cookie name none of Locales.
	DefaultLocale *string `json:"defaultLocale"`
	// DiscordChange is the arena's Discord application (discord.go; kept
	// in the arena's database, SettingDiscord): discordApplicationId,
	// discordPublicKey, discordBotToken, discordClientSecret.
	DiscordChange
}

// PlacementPointsDraft is a ladder points table as it is given.
type PlacementPointsDraft struct {
	Tiers  []PlacementTierDraft `json:"tiers"`
	Played Number               `json:"played"`
}

// PlacementTierDraft is one row of a points table as it is given.
type PlacementTierDraft struct {
	Through Number `json:"through"`
	Points  Number `json:"points"`
}

// RateLimitsDraft is the public read limits as they are given.
type RateLimitsDraft struct {
	AnonymousPerMinute Number `json:"anonymousPerMinute"`
	KeyPerMinute       Number `json:"keyPerMinute"`
}

// CheckByAdmin refuses what an arena's admin may not change: the plan
// (CodeOperatorOnly, field plan).
func (c *SettingsChange) CheckByAdmin() error {
	if c.Plan != nil {
		return &Error{Code: CodeOperatorOnly, Field: "plan", Message: "The plan is changed by the service's operator."}
	}
	return nil
}

// Apply returns a copy of a with the change applied, and the new points
// table when the change sets one (nil otherwise); or the change's
// problems, field by field, when any rule is broken.
func (c *SettingsChange) Apply(a Arena) (Arena, *PlacementPoints, Problems) {
	var p Problems
	if c.Name != nil {
		a.Name = strings.TrimSpace(*c.Name)
		checkName(&p, "name", a.Name, "Enter the arena's name.")
	}
	if c.RefereeEnabled != nil {
		a.RefereeEnabled = *c.RefereeEnabled
	}
	if c.GracePeriodSeconds.Set || c.GracePeriodSeconds.bad {
		GracePeriodSecondsRange.check(&p, "gracePeriodSeconds", c.GracePeriodSeconds, true)
		a.GracePeriodSeconds = c.GracePeriodSeconds.N
	}
	if c.Plan != nil {
		a.Plan = *c.Plan
		if !a.Plan.Valid() {
			p.invalid("plan", "Choose free, indie or studio.")
		}
	}
	if c.AppIDs != nil {
		c.AppIDs.check(&p, "appIds")
		a.AppIDs = c.AppIDs
	}
	if c.PublisherKey != nil {
		if len(*c.PublisherKey) > MaxPublisherKeyBytes {
			p.invalid("publisherKey", "At most %d characters.", MaxPublisherKeyBytes)
		}
		a.PublisherKey = *c.PublisherKey
	}
	if c.Identity != nil {
		a.Identity = strings.TrimSpace(*c.Identity)
		if utf8.RuneCountInString(a.Identity) > MaxIdentityRunes {
			p.invalid("identity", "At most %d characters.", MaxIdentityRunes)
		}
		if a.Identity == "" {
			a.Identity = DefaultIdentity
		}
	}
	if c.DefaultLocale != nil {
		a.DefaultLocale = *c.DefaultLocale
		if !IsLocale(a.DefaultLocale) {
			p.invalid("defaultLocale", "Choose one of %s.", strings.Join(Locales, ", "))
		}
	}
	if c.RateLimits != nil {
		RatePerMinuteRange.check(&p, "rateLimits.anonymousPerMinute", c.RateLimits.AnonymousPerMinute, true)
		RatePerMinuteRange.check(&p, "rateLimits.keyPerMinute", c.RateLimits.KeyPerMinute, true)
		a.RateLimits = RateLimits{AnonymousPerMinute: c.RateLimits.AnonymousPerMinute.N, KeyPerMinute: c.RateLimits.KeyPerMinute.N}
	}
	if c.WebhookURL != nil {
		*c.WebhookURL = strings.TrimSpace(*c.WebhookURL)
		if *c.WebhookURL != "" {
			if err := CheckWebhookURL(*c.WebhookURL, "webhookUrl", c.LoopbackWebhooks); err != nil {
				p = append(p, err.(*Error))
			}
		}
	}
	if c.UpcomingAlertMinutes.Set || c.UpcomingAlertMinutes.bad {
		UpcomingAlertMinutesRange.check(&p, "upcomingAlertMinutes", c.UpcomingAlertMinutes, true)
	}
	if c.StaleMatchMinutes.Set || c.StaleMatchMinutes.bad {
		StaleMatchMinutesRange.check(&p, "staleMatchMinutes", c.StaleMatchMinutes, true)
	}
	if c.RatingPeriodHours.Set || c.RatingPeriodHours.bad {
		RatingPeriodHoursRange.check(&p, "ratingPeriodHours", c.RatingPeriodHours, true)
	}
	if c.CasualRecordingsPerDay.Set || c.CasualRecordingsPerDay.bad {
		CasualRecordingsPerDayRange.check(&p, "casualRecordingsPerDay", c.CasualRecordingsPerDay, true)
	}
	var points *PlacementPoints
	if c.PlacementPoints != nil {
		points = c.PlacementPoints.check(&p)
	}
	if len(p) > 0 {
		return Arena{}, nil, p
	}
	return a, points, nil
}

// checkName records a problem unless name (trimmed) is displayable text
// of 1 to MaxNameRunes characters; empty says what to enter.
func checkName(p *Problems, field, name, empty string) {
	if name == "" {
		p.keep(&Error{Code: CodeInvalidField, Field: field, Message: empty, format: empty})
		return
	}
	checkText(p, field, name, MaxNameRunes)
}

// check returns the table, or records the first broken rule at
// placementPoints.played or placementPoints (1 to MaxPlacementTiers rows,
// places going up from row to row within PlaceThroughRange, points within
// PlacePointsRange).
func (d *PlacementPointsDraft) check(p *Problems) *PlacementPoints {
	PlacePointsRange.check(p, "placementPoints.played", d.Played, true)
	const field = "placementPoints"
	switch {
	case len(d.Tiers) == 0:
		p.invalid(field, "Give at least one row.")
		return nil
	case len(d.Tiers) > MaxPlacementTiers:
		p.invalid(field, "At most %d rows.", MaxPlacementTiers)
		return nil
	}
	out := &PlacementPoints{Played: d.Played.N}
	for i, row := range d.Tiers {
		n := i + 1
		switch {
		case !row.Through.Set || row.Through.N < PlaceThroughRange.Min || row.Through.N > PlaceThroughRange.Max:
			p.invalid(field, "Row %d: the place must be a whole number from %d to %d.", n, PlaceThroughRange.Min, PlaceThroughRange.Max)
			return nil
		case !row.Points.Set || row.Points.N < PlacePointsRange.Min || row.Points.N > PlacePointsRange.Max:
			p.invalid(field, "Row %d: the points must be a whole number from %d to %d.", n, PlacePointsRange.Min, PlacePointsRange.Max)
			return nil
		case i > 0 && row.Through.N <= out.Tiers[i-1].Through:
			p.invalid(field, "Row %d: places must go up from row to row.", n)
			return nil
		}
		out.Tiers = append(out.Tiers, PlacementTier{Through: row.Through.N, Points: row.Points.N})
	}
	return out
}

// SettingStore reads an arena's settings, each a JSON value under a key.
type SettingStore interface {
	// Setting reads an arena setting's JSON into v; ok false when unset.
	Setting(ctx context.Context, key string, v any) (ok bool, err error)
}
