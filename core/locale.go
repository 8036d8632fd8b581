package core

import (
	"context"

	"arena/i18n"
)

// The site's languages live in i18n, the leaf package that writes every
// text in them (DESIGN.md "Languages"); core checks an arena's
// defaultLocale against them and writes alerts with them.
var (
	Locales     = i18n.Locales
	LocaleNames = i18n.LocaleNames
	IsLocale    = i18n.IsLocale
	LocaleDir   = i18n.LocaleDir
)

// DefaultLocale is an arena's defaultLocale until its admin sets one.
const DefaultLocale = i18n.DefaultLocale

// LocaleStore keeps the language each player reads alerts and pushes in.
type LocaleStore interface {
	// SetPlayerLocale keeps locale (one of Locales) as the player's.
	SetPlayerLocale(ctx context.Context, id, locale string) error
}

// PlayerLocale is the language p reads alerts and pushes in: theirs, else
// the arena's defaultLocale.
func PlayerLocale(a *Arena, p PlayerProfile) string {
	if IsLocale(p.Locale) {
		return p.Locale
	}
	return a.Locale()
}
