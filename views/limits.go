package views

import (
	"strconv"

	"github.com/a-h/templ"

	"arena/core"
)

// rangeAttrs are a number input's min and max from the rule's core.Range
// (the limits the admin API applies), plus extra attributes.
func rangeAttrs(r core.Range, extra templ.Attributes) templ.Attributes {
	out := templ.Attributes{"min": strconv.Itoa(r.Min), "max": strconv.Itoa(r.Max)}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// rangeText is "min to max" for a field's hint.
// RangeText says a range as a sentence does ("1 to 4096").
func RangeText(r core.Range) string { return rangeText(r) }

func rangeText(r core.Range) string { return strconv.Itoa(r.Min) + " to " + strconv.Itoa(r.Max) }

// platformIDAttrs are a platform account id input's attributes (the
// pattern and length core.ValidPlatformID checks), plus extra ones.
func platformIDAttrs(extra templ.Attributes) templ.Attributes {
	out := templ.Attributes{"inputmode": "numeric", "pattern": core.PlatformIDInputPattern,
		"maxlength": strconv.Itoa(core.PlatformIDDigits)}
	for k, v := range extra {
		out[k] = v
	}
	return out
}
