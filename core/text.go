package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ValidDisplayText reports whether s is valid UTF-8 without a character
// that can make a name display as another: Unicode controls (Cc) and the
// bidirectional embeddings, overrides and isolates (U+202A to U+202E,
// U+2066 to U+2069), which reorder the text around them.
func ValidDisplayText(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, hiddenControl) < 0
}

// DisplayText is s made displayable: invalid bytes replaced and the
// characters ValidDisplayText refuses dropped (for a text Arena is given
// rather than one a person types into a form: a device's label, a name
// another service gives).
func DisplayText(s string) string {
	return strings.Map(func(r rune) rune {
		if hiddenControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// ClipBytes returns s when it has at most n bytes, else its start cut at
// a character boundary and ended with "…", n bytes at most (a push's
// text, a Discord message).
func ClipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func hiddenControl(r rune) bool {
	return unicode.IsControl(r) || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// checkText records a problem at field unless text is displayable
// (ValidDisplayText) and at most maxRunes characters long.
func checkText(p *Problems, field, text string, maxRunes int) {
	switch {
	case !ValidDisplayText(text):
		p.invalid(field, "Use letters, digits, spaces and punctuation only.")
	case utf8.RuneCountInString(text) > maxRunes:
		p.invalid(field, "At most %d characters.", maxRunes)
	}
}
