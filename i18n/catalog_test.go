package i18n

import (
	"encoding/json"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// catalogEntry is one message of a catalog file: its text, or its
// plural forms.
type catalogEntry map[string]string

func readCatalogs(t *testing.T) map[string]map[string]catalogEntry {
	t.Helper()
	out := map[string]map[string]catalogEntry{} // locale -> id -> forms
	err := fs.WalkDir(catalogFiles, "catalog", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		parts := strings.Split(strings.TrimSuffix(d.Name(), ".json"), ".")
		if len(parts) != 2 {
			t.Errorf("%s: name it <area>.<locale>.json", path)
			return nil
		}
		locale := parts[1]
		if !IsLocale(locale) {
			t.Errorf("%s: %q is not one of Locales", path, locale)
			return nil
		}
		buf, err := catalogFiles.ReadFile(path)
		if err != nil {
			return err
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(buf, &raw); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		if out[locale] == nil {
			out[locale] = map[string]catalogEntry{}
		}
		for id, v := range raw {
			if _, dup := out[locale][id]; dup {
				t.Errorf("%s: %s is in two files", path, id)
			}
			var s string
			if json.Unmarshal(v, &s) == nil {
				out[locale][id] = catalogEntry{"other": s}
				continue
			}
			var forms map[string]string
			if err := json.Unmarshal(v, &forms); err != nil {
				t.Errorf("%s: %s: neither a text nor plural forms", path, id)
				continue
			}
			delete(forms, "description")
			out[locale][id] = forms
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var argPattern = regexp.MustCompile(`\{\{\s*\.([A-Za-z]+)\s*\}\}`)

func args(s string) []string {
	var out []string
	for _, m := range argPattern.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// cardinalForms are the plural forms CLDR gives locale for counts.
func cardinalForms(locale string) []string {
	tag := language.MustParse(locale)
	names := map[plural.Form]string{plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many", plural.Other: "other"}
	seen := map[string]bool{}
	for n := range 1000 {
		seen[names[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)]] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// TestCatalogs: every locale holds every English id, each with the
// plural forms CLDR gives it (when English's has forms) and the same
// arguments as English's text; no locale holds an id English lacks; the
// bundle loads them all.
func TestCatalogs(t *testing.T) {
	if _, err := load(); err != nil {
		t.Fatal(err)
	}
	cats := readCatalogs(t)
	en := cats[DefaultLocale]
	if len(en) == 0 {
		t.Fatal("no English catalog")
	}
	for _, locale := range Locales {
		cat := cats[locale]
		need := cardinalForms(locale)
		for _, id := range slices.Sorted(maps.Keys(en)) {
			want := en[id]
			got, ok := cat[id]
			if !ok && strings.HasPrefix(id, "ordinal.") && id != "ordinal.other" {
				continue // the ordinal forms a locale has are its own (CLDR)
			}
			if !ok {
				t.Errorf("%s: %s is missing", locale, id)
				continue
			}
			wantArgs := args(want["other"])
			if id == "time.date" { // each locale writes a day its way: from any of these
				wantArgs = nil
				for _, a := range []string{"D", "M", "Mon", "Y"} {
					if !slices.Contains(args(got["other"]), a) && a != "M" && a != "Mon" {
						t.Errorf("%s: time.date leaves out {{.%s}}", locale, a)
					}
				}
				continue
			}
			if len(want) > 1 && !strings.HasPrefix(id, "ordinal.") { // a count's message
				for _, f := range need {
					if _, ok := got[f]; !ok {
						t.Errorf("%s: %s lacks the plural form %q", locale, id, f)
					}
				}
			}
			for form, text := range got {
				if text == "" {
					t.Errorf("%s: %s %s is empty", locale, id, form)
				}
				have := args(text)
				for _, a := range have {
					if !slices.Contains(wantArgs, a) && !slices.Contains(args(strings.Join(slices.Collect(maps.Values(want)), " ")), a) {
						t.Errorf("%s: %s %s uses {{.%s}}, which English's does not give", locale, id, form, a)
					}
				}
				if form == "other" {
					for _, a := range wantArgs {
						if a != "Count" && !slices.Contains(have, a) {
							t.Errorf("%s: %s leaves out {{.%s}}", locale, id, a)
						}
					}
				}
			}
		}
		for id := range cat {
			if _, ok := en[id]; !ok && !strings.HasPrefix(id, "ordinal.") {
				t.Errorf("%s: %s is not an English id", locale, id)
			}
		}
	}
}

func TestNegotiate(t *testing.T) {
	for _, c := range []struct{ cookie, accept, arena, want string }{
		{"", "", "", "en"},
		{"", "", "ja", "ja"},
		{"", "de-AT,de;q=0.9,en;q=0.5", "en", "de"},
		{"", "pt-BR", "en", "pt-BR"},
		{"", "zh-CN,zh;q=0.9", "en", "zh-Hans"},
		{"", "ar-EG", "en", "ar"},
		{"", "sv-SE", "fr", "fr"}, // a language Arena does not speak: the arena's
		{"ko", "de", "en", "ko"},  // the picker's choice first
		{"xx", "es", "en", "es"},  // a cookie that names no locale is ignored
		{"", "not a header;;", "de", "de"},
	} {
		if got := Negotiate(c.cookie, c.accept, c.arena); got != c.want {
			t.Errorf("Negotiate(%q, %q, %q) = %q, want %q", c.cookie, c.accept, c.arena, got, c.want)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		locale string
		n      int
		want   string
	}{{"en", 1, "1st"}, {"en", 2, "2nd"}, {"en", 3, "3rd"}, {"en", 4, "4th"}, {"en", 11, "11th"}, {"en", 22, "22nd"}} {
		if got := For(c.locale).Ordinal(c.n); got != c.want {
			t.Errorf("%s Ordinal(%d) = %q, want %q", c.locale, c.n, got, c.want)
		}
	}
	if got := For("en").Number(12345); got != "12,345" {
		t.Errorf("en Number = %q", got)
	}
	if got := For("de").Number(12345); got != "12.345" {
		t.Errorf("de Number = %q", got)
	}
	if got := For(Pseudo).T("layout.signIn"); got != "⟦Šíĝñ íñ⟧" {
		t.Errorf("pseudo = %q", got)
	}
}

func TestOrdinalsByLocale(t *testing.T) {
	for locale, want := range map[string]string{"de": "1.", "fr": "1er", "ja": "第1位", "ar": "المركز 1", "pt-BR": "1º"} {
		if got := For(locale).Ordinal(1); got != want {
			t.Errorf("%s Ordinal(1) = %q, want %q", locale, got, want)
		}
	}
	if got := For("fr").Ordinal(2); got != "2e" {
		t.Errorf("fr Ordinal(2) = %q", got)
	}
}
