package views

import (
	"context"
	"html"
	"io"
	"strings"

	"github.com/a-h/templ"

	"arena/core"
)

// adminOptions is a select's options: core's list of values, in core's
// order (the list the value's check reads), each with its label.
func adminOptions[T ~string](values []T, labels map[T]string) []AdminOption {
	out := make([]AdminOption, 0, len(values))
	for _, v := range values {
		out = append(out, AdminOption{Value: string(v), Label: labelOr(labels, v)})
	}
	return out
}

// adminCatalogOptions is a select's options as adminOptions, each label
// the catalog's message prefix+value, in the page's locale
// (adminOptionText).
func adminCatalogOptions[T ~string](values []T, prefix string) []AdminOption {
	out := make([]AdminOption, 0, len(values))
	for _, v := range values {
		out = append(out, AdminOption{Value: string(v), LabelID: prefix + string(v)})
	}
	return out
}

// adminOptionText is an option's label in the page's locale: its
// catalog message when it names one, else its Label.
func adminOptionText(ctx context.Context, o AdminOption) string {
	if o.LabelID != "" {
		return msg(ctx, o.LabelID)
	}
	return o.Label
}

// adminOptionLabel is the label of value among options, or value itself
// when none offers it.
func adminOptionLabel(ctx context.Context, options []AdminOption, value string) string {
	for _, o := range options {
		if o.Value == value {
			return adminOptionText(ctx, o)
		}
	}
	return value
}

// adminTypedAttrs are the attributes of an element holding only what a
// user typed where a <bdi> cannot go (an <option>): isolated, and not a
// text to translate.
func adminTypedAttrs(typed bool) templ.Attributes {
	if !typed {
		return templ.Attributes{}
	}
	return templ.Attributes{"dir": "auto", "translate": "no"}
}

// labelOr is v's label, or v itself when it has none.
func labelOr[T ~string](labels map[T]string, v T) string {
	if l, ok := labels[v]; ok {
		return l
	}
	return string(v)
}

// adminText is message id as msgHTML makes it, but with the catalog's
// text escaped as templ writes a template's own text: only &, < and >
// (an apostrophe stays one). Its arguments are escaped as msgHTML's, a
// typed one in a <bdi>, a templ.Component rendered in place, a "Count"
// int choosing the plural form.
func adminText(ctx context.Context, id string, args ...any) templ.Component {
	return messageHTML(ctx, id, textEscaper.Replace, args)
}

// AdminHTML is message id as HTML, for a sentence an admin handler builds
// (a step's effects): msgHTML's escaping, each AdminName argument in a
// <bdi>, a templ.Component argument rendered in place.
func AdminHTML(ctx context.Context, id string, args ...any) templ.Component {
	return msgHTML(ctx, id, args...)
}

// AdminName marks an AdminHTML argument as a name a user typed.
func AdminName(name string) any { return typed(name) }

// AdminNames is a list of names a user typed, each in a <bdi>, joined
// as the locale joins a list ("Ada, Blaise").
func AdminNames(ctx context.Context, names []string) templ.Component {
	sep := html.EscapeString(msg(ctx, "admin.tournament.listSeparator"))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "<bdi>" + html.EscapeString(n) + "</bdi>"
	}
	out := strings.Join(parts, sep)
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, out)
		return err
	})
}

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// adminRange is a field's bounds in its hint: "1 to 4096" (the numbers
// as an input takes them, ungrouped).
func adminRange(ctx context.Context, r core.Range) string {
	return msg(ctx, "admin.tournament.form.range", "Min", r.Min, "Max", r.Max)
}

// adminDurationIn says a number of minutes as an organizer would: "45
// minutes", "2 hours", "1 hour 30 minutes".
func adminDurationIn(ctx context.Context, minutes int) string {
	h, m := minutes/60, minutes%60
	switch {
	case h == 0:
		return msgN(ctx, "admin.tournament.duration.minutes", m)
	case m == 0:
		return msgN(ctx, "admin.tournament.duration.hours", h)
	}
	return msg(ctx, "admin.tournament.duration.hoursMinutes",
		"Hours", msgN(ctx, "admin.tournament.duration.hours", h), "Minutes", msgN(ctx, "admin.tournament.duration.minutes", m))
}

// adminDurationTextIn is a limit in minutes said in words ("5 minutes",
// "14 days"): whole days in days.
func adminDurationTextIn(ctx context.Context, minutes int) string {
	if minutes >= 24*60 && minutes%(24*60) == 0 {
		return msgN(ctx, "admin.tournament.duration.days", minutes/(24*60))
	}
	return adminDurationIn(ctx, minutes)
}

// adminYesNo is a setting that is on or off, in words.
func adminYesNo(ctx context.Context, b bool) string {
	if b {
		return msg(ctx, "admin.tournament.yes")
	}
	return msg(ctx, "admin.tournament.no")
}
