package web_test

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/arenatest"
)

var webhookSecretPattern = regexp.MustCompile(`whsec_[A-Za-z0-9+/=]{32}`)

var webhookIDPattern = regexp.MustCompile(`wh_[0-9a-f]{16}`)

// TestAdminWebhooksPages: an admin subscribes a URL to event types, sees
// the secret once, pauses, resumes, reads the delivery log, replays and
// deletes; bad input is marked and changes nothing; players and other
// sites cannot.
func TestAdminWebhooksPages(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	var received atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		received.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(hook.Close)
	c := e.SignedIn(t, arenatest.Ada)

	page := c.Get(t, "/admin/webhooks")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<a href="/admin/webhooks" aria-current="page">Webhooks</a>`)
	assert.Contains(t, page.Body, `<label for="url">`)
	assert.Contains(t, page.Body, `<legend>Event types</legend>`)
	assert.Contains(t, page.Body, `value="match.confirmed"`)
	assert.Contains(t, page.Body, `<label for="format">`)
	assert.Contains(t, c.Get(t, "/admin/settings").Body, `<a href="/admin/webhooks">Webhooks</a>`, "linked from the settings")

	t.Run("ErrFieldsAreMarked", func(t *testing.T) {
		res := c.Post(t, "/admin/webhooks", url.Values{"url": {"https://10.0.0.1/x"}, "events": {"match.confirmed"}, "format": {"standard"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-url">A webhook cannot point at a private network address.`)
		res = c.Post(t, "/admin/webhooks", url.Values{"url": {"https://hooks.example.com/"}, "format": {"standard"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-events">Choose at least one event type.`)
		assert.Contains(t, res.Body, `value="https://hooks.example.com/"`, "the form keeps what was typed")
		assert.NotRegexp(t, webhookSecretPattern, res.Body)
		assert.Contains(t, c.Get(t, "/admin/webhooks").Body, "No webhooks yet.")
	})

	t.Run("EveryEventDescribedAndAllAtOnce", func(t *testing.T) {
		en := i18n.With(context.Background(), i18n.For(core.DefaultLocale))
		for _, typ := range core.EventLogTypes {
			described := views.EventDescription(en, typ)
			assert.NotEmpty(t, described, "%s is described", typ)
			assert.Contains(t, page.Body, html.EscapeString(described))
		}
		assert.Contains(t, page.Body, `name="allEvents"`)
		res := c.Post(t, "/admin/webhooks", url.Values{"url": {"https://10.0.0.2/x"}, "allEvents": {"on"}, "format": {"standard"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status, "refused for its address, not for its events")
		assert.NotContains(t, res.Body, `id="err-events"`)
		assert.Equal(t, len(core.EventLogTypes), strings.Count(res.Body, `name="events" value=`), "every type offered")
		assert.Equal(t, len(core.EventLogTypes), strings.Count(res.Body, `checked> <span class="mono">`), "every type kept ticked")
	})

	res := c.Post(t, "/admin/webhooks", url.Values{"url": {hook.URL + "/in"}, "events": {"match.confirmed", "match.resolved"}, "format": {"standard"}})
	require.Equal(t, http.StatusCreated, res.Status, res.Notices())
	secret := webhookSecretPattern.FindString(res.Body)
	require.NotEmpty(t, secret, "the secret is shown")
	id := webhookIDPattern.FindString(res.Body)
	require.NotEmpty(t, id)
	list := c.Get(t, "/admin/webhooks").Body
	assert.Contains(t, list, id)
	assert.NotContains(t, list, secret, "shown once")

	t.Run("PauseAndResume", func(t *testing.T) {
		loc := c.PostOK(t, "/admin/webhooks/"+id+"/paused", url.Values{"paused": {"true"}})
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "Webhook paused")
		assert.Contains(t, body, `<span class="badge">Paused</span>`)
		loc = c.PostOK(t, "/admin/webhooks/"+id+"/paused", url.Values{"paused": {"false"}})
		assert.Contains(t, c.Get(t, loc).Body, "Webhook resumed")
	})

	t.Run("DeliveryLogAndReplays", func(t *testing.T) {
		m := e.Playable(t, "winter-cup")[0]
		e.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"winner": *m.P1}, http.StatusOK)
		e.Tick(t)
		require.Equal(t, int32(2), received.Load(), "confirmed and resolved")
		body := c.Get(t, "/admin/webhooks/"+id).Body
		assert.Contains(t, body, "<caption>The latest deliveries, newest event first</caption>")
		assert.Contains(t, body, "<td>sent</td>")
		assert.Contains(t, body, "<td>204</td>")
		action := regexp.MustCompile(`action="(/admin/webhooks/` + id + `/deliveries/[0-9]+/replay)"`).FindStringSubmatch(body)
		require.NotNil(t, action)
		loc := c.PostOK(t, action[1], nil)
		assert.Contains(t, c.Get(t, loc).Body, "Replay queued")
		e.Tick(t)
		assert.Equal(t, int32(3), received.Load(), "one delivery again")
		seqs := regexp.MustCompile(`<td>([0-9]+)</td><td class="mono">msg_`).FindAllStringSubmatch(body, -1)
		require.Len(t, seqs, 2)
		first, err := strconv.Atoi(seqs[1][1]) // newest first
		require.NoError(t, err)
		c.PostOK(t, "/admin/webhooks/"+id+"/replay", url.Values{"after": {strconv.Itoa(first - 1)}})
		e.Tick(t)
		assert.Equal(t, int32(5), received.Load(), "both again")
		res := c.Post(t, "/admin/webhooks/"+id+"/replay", url.Values{"after": {"-1"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, `id="err-after">`)
		assert.Equal(t, http.StatusNotFound, c.Get(t, "/admin/webhooks/wh_none").Status)
		assert.Equal(t, http.StatusNotFound, c.Post(t, "/admin/webhooks/"+id+"/deliveries/999999/replay", nil).Status)
	})

	t.Run("TestEvent", func(t *testing.T) {
		before := received.Load()
		list := c.Get(t, "/admin/webhooks").Body
		assert.Contains(t, list, `action="/admin/webhooks/`+id+`/test"`, "a button on the list")
		res := c.Post(t, "/admin/webhooks/"+id+"/test", nil)
		require.Equal(t, http.StatusOK, res.Status)
		assert.Regexp(t, `Test event delivered: the receiver answered 204 in [0-9]+ ms\.`, res.Body)
		assert.Equal(t, before+1, received.Load(), "sent at once")
		assert.Equal(t, http.StatusNotFound, c.Post(t, "/admin/webhooks/wh_none/test", nil).Status)
		assert.Equal(t, http.StatusForbidden, e.SignedIn(t, arenatest.Blaise).Post(t, "/admin/webhooks/"+id+"/test", nil).Status)
		assert.Equal(t, before+1, received.Load(), "refused: nothing sent")
	})

	t.Run("PlayersAndOtherSitesCannot", func(t *testing.T) {
		player := e.SignedIn(t, arenatest.Blaise)
		assert.Equal(t, http.StatusForbidden, player.Get(t, "/admin/webhooks").Status)
		assert.Equal(t, http.StatusForbidden, player.Post(t, "/admin/webhooks/"+id+"/delete", nil).Status)
		assert.Equal(t, http.StatusForbidden, c.PostCrossSite(t, "/admin/webhooks/"+id+"/delete", nil).Status)
		assert.Equal(t, http.StatusForbidden, c.PostCrossSite(t, "/admin/webhooks", url.Values{"url": {"https://hooks.example.com/"}, "events": {"match.live"}}).Status)
		assert.Contains(t, c.Get(t, "/admin/webhooks").Body, id, "not deleted")
	})

	t.Run("Deletes", func(t *testing.T) {
		loc := c.PostOK(t, "/admin/webhooks/"+id+"/delete", nil)
		body := c.Get(t, loc).Body
		assert.Contains(t, body, "Webhook deleted.")
		assert.NotContains(t, body, id)
		assert.Equal(t, http.StatusNotFound, c.Post(t, "/admin/webhooks/"+id+"/delete", nil).Status)
	})
}
