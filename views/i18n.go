package views

import (
	"context"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"arena/i18n"
)

// The pages' texts come from the catalogs (i18n/catalog), in the locale
// the request negotiated (i18n.From(ctx)): msg for a text, msgN for a
// count's, msgHTML for a sentence holding what a user typed (each such
// argument typed(...), isolated in a <bdi>). Names a user typed shown on
// their own go in <bdi> in the template. No page holds literal English:
// TestPagesHoldNoLiteralText renders them in i18n.Pseudo.

// tr is the page's translator.
func tr(ctx context.Context) *i18n.Tr { return i18n.From(ctx) }

// msg is message id with its arguments as name, value pairs.
func msg(ctx context.Context, id string, args ...any) string { return i18n.From(ctx).T(id, args...) }

// msgN is message id for the count n ({{.Count}}).
func msgN(ctx context.Context, id string, n int, args ...any) string {
	return i18n.From(ctx).N(id, n, args...)
}

// typed marks a message argument as what a user typed (a name, a
// tournament's title): msgHTML isolates it in a <bdi>, so that a name in
// a right-to-left script does not reorder the sentence around it.
type typed string

// msgHTML is message id as HTML: the catalog's text and every argument
// escaped, each typed argument in a <bdi>. A count, when the message has
// plural forms, is the argument "Count" given as an int.
func msgHTML(ctx context.Context, id string, args ...any) templ.Component {
	return messageHTML(ctx, id, html.EscapeString, args)
}

// messageHTML is msgHTML with the catalog's text escaped by escape (the
// admin pages' adminText keeps an apostrophe as it is).
func messageHTML(ctx context.Context, id string, escape func(string) string, args []any) templ.Component {
	tr := i18n.From(ctx)
	marks := make([]string, 0, len(args)/2)
	plain := make([]any, 0, len(args))
	count, counted := 0, false
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		v := args[i+1]
		if n, ok := v.(int); ok && name == "Count" {
			count, counted = n, true
			continue
		}
		// Each argument stands in the text as a mark no catalog holds,
		// replaced by its escaped HTML once the text is escaped.
		mark := "\x00" + strconv.Itoa(len(marks)) + "\x00"
		switch v := v.(type) {
		case typed:
			marks = append(marks, "<bdi>"+html.EscapeString(string(v))+"</bdi>")
		case templ.Component:
			var b strings.Builder
			_ = v.Render(ctx, &b)
			marks = append(marks, b.String())
		default:
			marks = append(marks, html.EscapeString(toString(v)))
		}
		plain = append(plain, name, mark)
	}
	var text string
	if counted {
		text = tr.N(id, count, plain...)
	} else {
		text = tr.T(id, plain...)
	}
	out := escape(text)
	for i, m := range marks {
		out = strings.ReplaceAll(out, "\x00"+strconv.Itoa(i)+"\x00", m)
	}
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, out)
		return err
	})
}

func toString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case interface{ String() string }:
		return v.String()
	}
	return ""
}

// codeLabel is the catalog's name for code (a status, a format) under
// prefix, or code itself when the catalog has none.
func codeLabel(ctx context.Context, prefix, code string) string {
	if s := msg(ctx, prefix+code); s != prefix+code {
		return s
	}
	return code
}
