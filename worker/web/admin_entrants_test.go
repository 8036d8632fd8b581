package web_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestEntrantsList: the organizer pastes a list (ids and names, seeds
// after a comma) or sends a CSV file; the preview says whom each line
// names and refuses what it cannot add, nobody added; the add registers
// everyone at once; a refusal at the add marks its line.
func TestEntrantsList(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	e.OpenCup(t, arenatest.Cup{Slug: "night", MaxPlayers: 4})
	registered := func() int {
		return len(e.API(t, "GET", "/api/v1/tournaments/night", "", nil, 200)["players"].([]any))
	}
	const path = "/admin/tournaments/night/entrants"

	page := admin.Get(t, "/admin/tournaments/night")
	assert.Contains(t, page.Body, `action="`+path+`"`, "the list's card is on the page")

	t.Run("Refused", func(t *testing.T) {
		p := admin.Post(t, path, url.Values{"entrants": {"Blaise Pascal, 1\n12345\nNobody Atall\n" + arenatest.Blaise + "\nCharles Babbage, 0"}})
		assert.Equal(t, http.StatusUnprocessableEntity, p.Status)
		assert.Contains(t, p.Body, "An account id has 17 digits.")
		assert.Contains(t, p.Body, "No player of this arena has this name")
		assert.Contains(t, p.Body, "The same player as line 1.")
		assert.Contains(t, p.Body, "The seed is a whole number, 1 to 4096.")
		assert.NotContains(t, p.Body, `name="add"`, "nothing to add until every line is good")
		assert.Equal(t, 0, registered())
	})

	t.Run("PreviewThenAdd", func(t *testing.T) {
		p := admin.Post(t, path, url.Values{"entrants": {"blaise pascal, 2\n\n" + arenatest.CupPlayer(7) + ", 1\nCharles Babbage"}})
		require.Equal(t, http.StatusOK, p.Status, p.Notices())
		assert.Contains(t, p.Body, "Add 3 entrants")
		assert.Contains(t, p.Body, arenatest.Blaise, "a name resolved to its player, whatever the case")
		assert.Contains(t, p.Body, "(a new player)")
		assert.Equal(t, 0, registered(), "a preview adds nobody")
		resolved := arenatest.Blaise + ", 2\n" + arenatest.CupPlayer(7) + ", 1\n" + arenatest.Charles
		for _, line := range strings.Split(resolved, "\n") {
			assert.Contains(t, p.Body, `<input type="hidden" name="entrants" value="`+line+`">`)
		}
		assert.Equal(t, "/admin/tournaments/night?done=entrants", strings.TrimSuffix(admin.PostOK(t, path, url.Values{"entrants": {resolved}, "add": {"1"}}), "#registrations"))
		players := e.API(t, "GET", "/api/v1/tournaments/night", "", nil, 200)["players"].([]any)
		require.Len(t, players, 3)
	})

	t.Run("FullAtTheAdd", func(t *testing.T) {
		p := admin.Post(t, path, url.Values{"entrants": {arenatest.CupPlayer(8) + "\n" + arenatest.CupPlayer(9)}, "add": {"1"}})
		assert.Equal(t, http.StatusConflict, p.Status)
		assert.Contains(t, p.Body, "The tournament is full from this line on.")
		assert.Contains(t, p.Notices(), "Nobody was added")
		assert.Equal(t, 3, registered(), "all or none")
	})

	t.Run("CSVFile", func(t *testing.T) {
		var body bytes.Buffer
		form := multipart.NewWriter(&body)
		part, err := form.CreateFormFile("file", "entrants.csv")
		require.NoError(t, err)
		_, err = part.Write([]byte("player,seed\n" + arenatest.CupPlayer(8) + ",4\n"))
		require.NoError(t, err)
		require.NoError(t, form.WriteField("entrants", ""))
		require.NoError(t, form.Close())
		req, err := http.NewRequest(http.MethodPost, e.URL+path, &body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", form.FormDataContentType())
		resp, err := admin.Client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out bytes.Buffer
		_, _ = out.ReadFrom(resp.Body)
		require.Equal(t, http.StatusOK, resp.StatusCode, out.String())
		assert.Contains(t, out.String(), "Add 1 entrants")
		assert.Contains(t, out.String(), `value="`+arenatest.CupPlayer(8)+`, 4"`, "the header row skipped, the seed read")
	})
}
