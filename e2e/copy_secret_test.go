//go:build !js

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"

	"arena/worker/arenatest"
)

// TestCopyTheOneTimeSecret: a minted key's secret is copied with a
// button, with no inline handler for the site's policy to block (the
// field's select-on-focus was one); the field is selected and the status
// line says what happened.
func TestCopyTheOneTimeSecret(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	ctx := browser(t)
	recordPolicyViolations(t, ctx)
	signIn(t, ctx, a.URL, arenatest.Ada)
	openPage(t, ctx, a.URL+"/admin/api-keys")
	within(t, ctx, chromedp.Click(chromedp.CSS(`form[action="/admin/api-keys"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#minted-secret")))
	assert.Zero(t, count(t, ctx, "[onfocus], [onclick]"), "no inline handler")
	assert.True(t, shown(t, ctx, `button[data-copy="minted-secret"]`), "the button shows with script")
	within(t, ctx, chromedp.Click(chromedp.CSS(`button[data-copy="minted-secret"]`)))
	waitFor(t, ctx, "the copy's status", `document.getElementById("minted-secret-copied").textContent !== ""`, seen)
	assert.Equal(t, eval[string](t, ctx, `document.getElementById("minted-secret").value`),
		eval[string](t, ctx, `String(window.getSelection()) || document.getElementById("minted-secret").value.substring(document.getElementById("minted-secret").selectionStart, document.getElementById("minted-secret").selectionEnd)`),
		"the secret is selected")
	assert.Empty(t, policyViolations(t, ctx))
}
