package i18n

import "slices"

// The site's languages (DESIGN.md "Languages"): the locales its pages,
// alerts and pushes are written in, as BCP 47 tags. The JSON API speaks
// none of them: it answers codes, not sentences.
var Locales = []string{"en", "de", "fr", "es", "pt-BR", "ja", "ko", "zh-Hans", "ar"}

// DefaultLocale is an arena's defaultLocale until its admin sets one:
// the language a viewer whose browser and cookie name none of Locales
// reads.
const DefaultLocale = "en"

// LocaleNames names each locale in itself, as the language picker lists
// it.
var LocaleNames = map[string]string{
	"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español",
	"pt-BR": "Português (Brasil)", "ja": "日本語", "ko": "한국어",
	"zh-Hans": "简体中文", "ar": "العربية",
}

// IsLocale reports whether l is one of Locales, spelled as it is there.
func IsLocale(l string) bool { return slices.Contains(Locales, l) }

// LocaleDir is the direction l's script is written in: "rtl" or "ltr".
func LocaleDir(l string) string {
	if l == "ar" {
		return "rtl"
	}
	return "ltr"
}
