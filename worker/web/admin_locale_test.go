package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestAdminSettingsDefaultLocale: the settings form offers every locale
// Arena speaks, each named in itself, the arena's own selected; saving
// one changes the language a visitor who chose none and whose browser
// asks for none reads; a language Arena does not speak is refused next
// to its field, in the admin's language, and changes nothing.
func TestAdminSettingsDefaultLocale(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	visitor := e.Browser(t)
	form := func(locale string) url.Values {
		return url.Values{
			"name": {"Demo Arena"}, "refereeEnabled": {"on"}, "gracePeriodSeconds": {"7200"},
			"appIds": {"480"}, "publisherKey": {""}, "anonymousPerMinute": {"30"}, "keyPerMinute": {"300"},
			"through": {"1", "4"}, "points": {"100", "30"}, "played": {"5"}, "defaultLocale": {locale},
		}
	}
	locale := func() any {
		out := e.API(t, "GET", "/api/v1/operator/arenas", "Bearer "+e.OperatorToken, nil, http.StatusOK)
		for _, a := range out["arenas"].([]any) {
			if a := a.(map[string]any); a["slug"] == "demo" {
				return a["defaultLocale"]
			}
		}
		t.Fatal("no demo arena")
		return nil
	}

	page := c.Get(t, "/admin/settings")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<select id="defaultLocale" name="defaultLocale">`)
	assert.Contains(t, page.Body, `<option value="en" lang="en" translate="no" selected>English</option>`)
	assert.Contains(t, page.Body, `<option value="de" lang="de" translate="no">Deutsch</option>`)
	assert.Contains(t, page.Body, `<option value="ar" lang="ar" translate="no">العربية</option>`)
	assert.Contains(t, visitor.Get(t, "/").Body, `<html lang="en" dir="ltr">`)

	t.Run("ErrRefusesALanguageArenaDoesNotSpeak", func(t *testing.T) {
		f := form("xx")
		f.Set("name", "Renamed Arena")
		res := c.Post(t, "/admin/settings", f)
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-defaultLocale">Choose one of the languages in the list.</p>`)
		assert.Contains(t, res.Body, `aria-describedby="err-defaultLocale" aria-invalid="true"`)
		assert.Contains(t, res.Body, "The settings were not saved: see the marked fields.")
		assert.Equal(t, "en", locale(), "nothing changed")
		home := visitor.Get(t, "/").Body
		assert.Contains(t, home, `<html lang="en" dir="ltr">`)
		assert.NotContains(t, home, "Renamed Arena", "nothing else was saved either")

		de := c.Send(t, http.MethodPost, "/admin/settings", form(""), "Accept-Language", "de")
		assert.Equal(t, http.StatusUnprocessableEntity, de.Status, "an empty language is refused too")
		assert.Contains(t, de.Body, `id="err-defaultLocale">Wähle eine der Sprachen aus der Liste.</p>`, "in the admin's language")
		assert.Equal(t, "en", locale())
	})

	t.Run("SavingItChangesTheVisitorsLanguage", func(t *testing.T) {
		loc := c.PostOK(t, "/admin/settings", form("de"))
		assert.Equal(t, "/admin/settings?done=settings", loc)
		assert.Equal(t, "de", locale())
		assert.Contains(t, c.Get(t, loc).Body, `<option value="de" lang="de" translate="no" selected>Deutsch</option>`)

		home := e.Browser(t).Get(t, "/")
		require.Equal(t, http.StatusOK, home.Status)
		assert.Contains(t, home.Body, `<html lang="de" dir="ltr">`, "a visitor without cookie or Accept-Language")
		assert.Contains(t, home.Body, ">Turniere<")
		assert.Contains(t, e.Browser(t).Send(t, http.MethodGet, "/", nil, "Accept-Language", "fr").Body, `<html lang="fr" dir="ltr">`,
			"the browser's language still comes first")

		c.PostOK(t, "/admin/settings", form("ar"))
		assert.Contains(t, e.Browser(t).Get(t, "/").Body, `<html lang="ar" dir="rtl">`)

		kept := form("")
		delete(kept, "defaultLocale")
		c.PostOK(t, "/admin/settings", kept)
		assert.Equal(t, "ar", locale(), "a form without the field keeps the language")
	})
}
