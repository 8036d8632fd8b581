package core

import "strings"

// What the tournament form needs from the rules: which settings belong to
// which formats (the form shows them by format; Check refuses them for
// another), and the slug a name makes.

// FormatFields are the settings that belong to some formats only, by the
// draft's field name: Check refuses each for any other format, and the
// admin form shows each only for its formats.
var FormatFields = map[string][]TournamentFormat{
	"groupCount":      {FormatGroupsPlayoffs},
	"advancePerGroup": {FormatGroupsPlayoffs},
	"groupFormat":     {FormatGroupsPlayoffs},
	"grandFinalReset": {FormatDoubleElimination},
	"swissRounds":     {FormatSwiss},
	"topCut":          {FormatSwiss},
	// A single-elimination bracket's: Swiss plays one only with a top cut.
	"smallFinal": {FormatGroupsPlayoffs, FormatPlayoffsOnly, FormatSwiss},
}

// MaxSlugLength is the longest slug.
const MaxSlugLength = 40

// SlugFromName makes a slug of a name: lowercase ASCII letters and
// digits, every other run of characters one hyphen, no hyphen at either
// end, at most MaxSlugLength characters. It is "" when the name has no
// letter or digit of that kind.
func SlugFromName(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		default:
			hyphen = true
		}
		if b.Len() >= MaxSlugLength {
			break
		}
	}
	return strings.TrimRight(b.String()[:min(b.Len(), MaxSlugLength)], "-")
}
