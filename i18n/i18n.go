// Package i18n is the site's languages: the message catalogs every page,
// form, error page, alert, push and calendar text comes from, the viewer's
// locale as a request negotiates it, and the translator that writes a
// message, a number, an ordinal or a time in one locale.
//
// Catalogs are catalog/<area>.<locale>.json, one file per area of the
// site and locale, in go-i18n's format: "id": "text", or for a count
// "id": {"one": ..., "other": ...} with the forms CLDR gives the locale
// (Arabic: zero, one, two, few, many, other; Japanese, Korean, Chinese:
// other). Texts are Go templates over the message's named arguments:
// "{{.Name}} joined". The English files hold every id; TestCatalogs
// holds every other locale to the same ids, forms and arguments.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed catalog/*.json
var catalogFiles embed.FS

// Pseudo is the pseudo-locale the tests render pages in: every message
// is English with its letters accented, between ⟦ and ⟧, so that any
// text on a page outside those brackets (and outside a <bdi> holding
// what a user typed) did not come from a catalog.
const Pseudo = "en-XA"

var (
	loadOnce sync.Once
	bundle   *goi18n.Bundle
	loadErr  error
	trs      sync.Map // locale -> *Tr
	matcher  = language.NewMatcher(localeTags())
)

func localeTags() []language.Tag {
	tags := make([]language.Tag, len(Locales))
	for i, l := range Locales {
		tags[i] = language.MustParse(l)
	}
	return tags
}

// load reads every catalog into the bundle, once.
func load() (*goi18n.Bundle, error) {
	loadOnce.Do(func() {
		b := goi18n.NewBundle(language.English)
		b.RegisterUnmarshalFunc("json", json.Unmarshal)
		loadErr = fs.WalkDir(catalogFiles, "catalog", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			buf, err := catalogFiles.ReadFile(path)
			if err != nil {
				return err
			}
			if _, err := b.ParseMessageFileBytes(buf, path); err != nil {
				return fmt.Errorf("i18n: %s: %w", path, err)
			}
			return nil
		})
		bundle = b
	})
	return bundle, loadErr
}

// Tr writes texts in one locale.
type Tr struct {
	locale string
	pseudo bool
	loc    *goi18n.Localizer
	tag    language.Tag
}

// For is the translator of locale (one of Locales, or Pseudo);
// anything else is English.
func For(locale string) *Tr {
	if v, ok := trs.Load(locale); ok {
		return v.(*Tr)
	}
	b, err := load()
	if err != nil {
		panic(err) // the catalogs are embedded: TestCatalogs reads them
	}
	tr := &Tr{locale: locale}
	switch {
	case locale == Pseudo:
		tr.pseudo = true
		tr.loc, tr.tag = goi18n.NewLocalizer(b, DefaultLocale), language.English
	case IsLocale(locale):
		tr.loc, tr.tag = goi18n.NewLocalizer(b, locale), language.MustParse(locale)
	default:
		tr.locale = DefaultLocale
		tr.loc, tr.tag = goi18n.NewLocalizer(b, DefaultLocale), language.English
	}
	v, _ := trs.LoadOrStore(locale, tr)
	return v.(*Tr)
}

// Locale is the translator's locale, as <html lang> takes it.
func (t *Tr) Locale() string { return t.locale }

// Dir is the locale's direction, as <html dir> takes it.
func (t *Tr) Dir() string { return LocaleDir(t.locale) }

// T is message id with its arguments, given as name, value pairs:
// T("match.vs", "A", a, "B", b). A message the catalog lacks is its id
// (TestCatalogs keeps that from shipping).
func (t *Tr) T(id string, args ...any) string {
	return t.localize(id, nil, args)
}

// N is message id for a count n (its plural form by CLDR's rules for the
// locale), the count as {{.Count}}, with more arguments as T takes them.
func (t *Tr) N(id string, n int, args ...any) string {
	return t.localize(id, n, append(args, "Count", t.Number(n)))
}

func (t *Tr) localize(id string, count any, args []any) string {
	data := make(map[string]any, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		if k, ok := args[i].(string); ok {
			data[k] = args[i+1]
		}
	}
	s, err := t.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if s == "" && err != nil {
		return id
	}
	if t.pseudo {
		return pseudo(s)
	}
	return s
}

// pseudo accents s's ASCII letters and brackets it: "⟦Ŝíĝñ íñ⟧".
func pseudo(s string) string {
	var b strings.Builder
	b.WriteString("⟦")
	for _, r := range s {
		if i := strings.IndexRune(pseudoFrom, r); i >= 0 {
			r = []rune(pseudoTo)[i]
		}
		b.WriteRune(r)
	}
	b.WriteString("⟧")
	return b.String()
}

const (
	pseudoFrom = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	pseudoTo   = "áƀçđéƒĝĥíĵķĺɱñóƥǫŕšŧúʋŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŦÚṼŴẊÝŽ"
)

// Negotiate is the locale a request reads: the language its viewer chose
// with the picker (cookie lang), else the best of its Accept-Language
// that Arena speaks, else the arena's defaultLocale. The picker comes
// first: it is the viewer's own choice on this site, where the browser's
// list is one made once for every site.
func Negotiate(cookie, acceptLanguage, arenaDefault string) string {
	if IsLocale(cookie) || cookie == Pseudo {
		return cookie
	}
	if acceptLanguage != "" {
		if tags, _, err := language.ParseAcceptLanguage(acceptLanguage); err == nil && len(tags) > 0 {
			if _, i, c := matcher.Match(tags...); c != language.No {
				return Locales[i]
			}
		}
	}
	if IsLocale(arenaDefault) {
		return arenaDefault
	}
	return DefaultLocale
}

type ctxKey struct{}

// With is ctx carrying the translator pages render with.
func With(ctx context.Context, t *Tr) context.Context {
	return context.WithValue(ctx, ctxKey{}, t)
}

// Has reports whether ctx carries a translator.
func Has(ctx context.Context) bool {
	_, ok := ctx.Value(ctxKey{}).(*Tr)
	return ok
}

// From is ctx's translator, English when it carries none.
func From(ctx context.Context) *Tr {
	if t, ok := ctx.Value(ctxKey{}).(*Tr); ok {
		return t
	}
	return For(DefaultLocale)
}
