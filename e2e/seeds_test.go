//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestSeedingByHand: on the admin tournament page the organizer moves a
// side with the arrow keys and drags another by its handle (a pointer,
// as a finger does on the phone); the seed boxes follow the list's
// order, "Save seeds" stores it, and the page comes back in seed order.
func TestSeedingByHand(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		slug := "seeds-" + map[bool]string{true: "phone", false: "desk"}[t.Name() == "TestSeedingByHand/phone"]
		phoneSized := func(t *testing.T, ctx context.Context) bool { return eval[int](t, ctx, `window.innerWidth`) < 600 }
		base := a.OpenCup(t, arenatest.Cup{Slug: slug, MaxPlayers: 8})
		names := []string{"Alba", "Bruno", "Carla", "Dario", "Elena", "Fabio"}
		for i, id := range arenatest.CupPlayers(6) {
			body := map[string]any{"platformId": id, "personaName": names[i] + " " + slug}
			if i < 3 {
				body["seed"] = i + 1
			}
			a.Admin(t, http.MethodPost, base+"/registrations", body, http.StatusCreated)
		}
		ctx := open(t)
		signIn(t, ctx, a.URL, arenatest.Ada)
		openPage(t, ctx, a.URL+"/admin/tournaments/"+slug)
		order := func() []string {
			return eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table[data-seed-order] tbody tr"), r => r.dataset.name.split(" ")[0])`)
		}
		seeds := func() []string {
			return eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table[data-seed-order] tbody tr input.seed"), i => i.value)`)
		}
		handle := func(name string) string {
			return fmt.Sprintf(`tr[data-name=%q] .seed-handle`, name+" "+slug)
		}
		require.Equal(t, names, order(), "in seed order")
		require.Equal(t, 6, count(t, ctx, ".seed-handle"), "a handle per side")

		within(t, ctx, chromedp.Focus(chromedp.CSS(handle("Bruno"))), chromedp.KeyEvent(kb.ArrowUp))
		assert.Equal(t, []string{"Bruno", "Alba", "Carla", "Dario", "Elena", "Fabio"}, order(), "up one with the keyboard")
		assert.Equal(t, []string{"1", "2", "3", "", "", ""}, seeds())
		assert.Equal(t, "Bruno "+slug+" is now seed 1 of 6. Save seeds to keep the order.", text(t, ctx, "#seed-status"))
		assert.True(t, eval[bool](t, ctx, `document.activeElement.matches(".seed-handle")`), "the handle keeps the focus")

		// Dragged onto another side's handle: up to second on the desktop;
		// on the phone, whose rows are taller, one up.
		onto, want := "Alba", []string{"Bruno", "Elena", "Alba", "Carla", "Dario", "Fabio"}
		if phoneSized(t, ctx) {
			onto, want = "Dario", []string{"Bruno", "Alba", "Carla", "Elena", "Dario", "Fabio"}
		}
		within(t, ctx, chromedp.DragAndDrop(chromedp.CSS(handle("Elena")), chromedp.CSS(handle(onto))))
		assert.Equal(t, want, order(), "dragged by its handle")
		assert.Equal(t, []string{"1", "2", "3", "4", "", ""}, seeds(), "the seeds follow down to the moved side")

		within(t, ctx, chromedp.Click(chromedp.CSS(`form[action="/admin/tournaments/`+slug+`/seeds"] button[type="submit"]:not([formaction])`)),
			chromedp.WaitVisible(chromedp.CSS(".notice")))
		openPage(t, ctx, a.URL+"/admin/tournaments/"+slug)
		assert.Equal(t, want, order(), "saved, and listed by seed")
		assert.Equal(t, []string{"1", "2", "3", "4", "", ""}, seeds())
	})
}
