package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arena/worker/web"
)

// Demo players (mock-mode ids seeded by the demo arena).
const (
	acctAda    = "76561198000000001" // the demo arena's admin
	acctBlaise = "76561198000000002"
)

// acctSiteEnv is newSiteEnv with the site's configuration given (the
// platform endpoints of the OpenID and summary tests), returning the site.
func acctSiteEnv(t *testing.T, cfg web.Config) (*siteEnv, *web.Site) {
	t.Helper()
	return buildSiteEnv(t, siteOptions{cfg: cfg})
}

// acctAnyHost is a browser that reaches the test server whatever host a URL
// names (http://real.test/... goes to the arena with that host), keeping
// cookies per host like a browser; it does not follow redirects.
func (e *siteEnv) acctAnyHost(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	addr := e.http.Listener.Addr().String()
	dial := &net.Dialer{}
	return &http.Client{
		Jar: jar,
		Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dial.DialContext(ctx, network, addr)
		}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// acctResponse is an answer with its body read.
type acctResponse struct {
	*http.Response
	body string
}

// acctSend makes a request; values (when not nil) is the urlencoded body;
// header pairs are added.
func acctSend(t *testing.T, c *http.Client, method, rawURL string, values url.Values, header ...string) acctResponse {
	t.Helper()
	var body io.Reader
	if values != nil {
		body = strings.NewReader(values.Encode())
	}
	req, err := http.NewRequest(method, rawURL, body)
	require.NoError(t, err)
	if values != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return acctResponse{Response: resp, body: string(b)}
}

// acctForm posts a form from the site at base itself (same-origin).
func acctForm(t *testing.T, c *http.Client, base, path string, values url.Values) acctResponse {
	t.Helper()
	if values == nil {
		values = url.Values{}
	}
	return acctSend(t, c, http.MethodPost, base+path, values, "Origin", base, "Sec-Fetch-Site", "same-origin")
}

// acctSignIn signs c in on the demo arena with the mock form.
func (e *siteEnv) acctSignIn(t *testing.T, c *http.Client, id string) {
	t.Helper()
	resp := acctForm(t, c, e.http.URL, "/auth/mock", url.Values{"platformId": {id}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
}

// acctSignedInAs returns the name the sign-in page greets c with on base, or
// "" for a visitor.
func acctSignedInAs(t *testing.T, c *http.Client, base string) string {
	t.Helper()
	resp := acctSend(t, c, http.MethodGet, base+"/signin", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	_, rest, ok := strings.Cut(resp.body, "Signed in as <strong>")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "</strong>")
	return name
}

// acctAPI calls the JSON API (token: a bearer token or "") and decodes
// the answer into out, requiring the status.
func (e *siteEnv) acctAPI(t *testing.T, method, path, token string, body any, status int, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.http.URL+path, rd)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, status, resp.StatusCode, string(b))
	if out != nil {
		require.NoError(t, json.Unmarshal(b, out), string(b))
	}
}

// acctAdmin calls the demo arena's admin API.
func (e *siteEnv) acctAdmin(t *testing.T, method, path string, body any, status int, out any) {
	t.Helper()
	e.acctAPI(t, method, path, "Bearer "+e.adminToken, body, status, out)
}

// acctCreateArena creates another arena through the operator API, answering
// on host; a publisher key puts it in real mode.
func (e *siteEnv) acctCreateArena(t *testing.T, slug, host, publisherKey string) {
	t.Helper()
	e.acctAPI(t, http.MethodPost, "/api/v1/operator/arenas", "Bearer operator", map[string]any{
		"slug": slug, "name": "Arena " + slug, "hosts": []string{host}, "plan": "free",
		"appIds": []string{"480"}, "publisherKey": publisherKey,
	}, http.StatusCreated, nil)
}

// acctAdvance moves the service clock forward.
func (e *siteEnv) acctAdvance(t *testing.T, d time.Duration) {
	t.Helper()
	e.acctAPI(t, http.MethodPost, "/__dev/clock", "", map[string]any{"advanceSeconds": int64(d.Seconds())}, http.StatusOK, nil)
}

// acctTick runs the scheduled jobs once.
func (e *siteEnv) acctTick(t *testing.T) {
	t.Helper()
	e.acctAPI(t, http.MethodPost, "/__dev/tick", "", nil, http.StatusOK, nil)
}

// acctAdminMatch is a match as the admin API lists it.
type acctAdminMatch struct {
	ID           int64   `json:"id"`
	Stage        string  `json:"stage"`
	Round        string  `json:"round"`
	Group        *string `json:"group"`
	BracketSlot  *string `json:"bracketSlot"`
	Status       string  `json:"status"`
	P1           *string `json:"p1PlatformId"`
	P2           *string `json:"p2PlatformId"`
	OpensAt      string  `json:"opensAt"`
	ClosesAt     string  `json:"closesAt"`
	SessionNonce string  `json:"sessionNonce"`
	Winner       *string `json:"winner"`
	Score        *struct {
		P1 int `json:"p1"`
		P2 int `json:"p2"`
	} `json:"score"`
	ResultSource *string `json:"resultSource"`
}

// acctMatches lists a tournament's matches through the admin API.
func (e *siteEnv) acctMatches(t *testing.T, slug string) []acctAdminMatch {
	t.Helper()
	var out struct {
		Matches []acctAdminMatch `json:"matches"`
	}
	e.acctAdmin(t, http.MethodGet, "/api/v1/admin/tournaments/"+slug+"/matches", nil, http.StatusOK, &out)
	return out.Matches
}

// acctMatch returns one match through the admin API.
func (e *siteEnv) acctMatch(t *testing.T, id int64) acctAdminMatch {
	t.Helper()
	var out acctAdminMatch
	e.acctAdmin(t, http.MethodGet, "/api/v1/admin/matches/"+acctItoa(id), nil, http.StatusOK, &out)
	return out
}

func acctItoa(id int64) string {
	b, _ := json.Marshal(id)
	return string(b)
}

// acctPublicTournament is the public API's full tournament, as far as the
// tests read it.
type acctPublicTournament struct {
	Status      string `json:"status"`
	PlayerCount int    `json:"playerCount"`
	Groups      []struct {
		Name      string `json:"name"`
		Standings []struct {
			Player struct {
				PlatformID string `json:"platformId"`
			} `json:"player"`
			Played int `json:"played"`
			Wins   int `json:"wins"`
			Points int `json:"points"`
		} `json:"standings"`
		Matches []acctPublicMatch `json:"matches"`
	} `json:"groups"`
	Bracket []struct {
		Label   string            `json:"label"`
		Matches []acctPublicMatch `json:"matches"`
	} `json:"bracket"`
	Podium []struct {
		Rank   int `json:"rank"`
		Player struct {
			PlatformID string `json:"platformId"`
		} `json:"player"`
	} `json:"podium"`
}

type acctPublicPlayer struct {
	PlatformID  string `json:"platformId"`
	PersonaName string `json:"personaName"`
	AvatarURL   string `json:"avatarUrl"`
}

type acctPublicMatch struct {
	ID           int64             `json:"id"`
	BracketSlot  *string           `json:"bracketSlot"`
	Status       string            `json:"status"`
	Player1      *acctPublicPlayer `json:"player1"`
	Player2      *acctPublicPlayer `json:"player2"`
	Winner       *acctPublicPlayer `json:"winner"`
	Score        *struct{ P1, P2 int }
	ResultSource *string `json:"resultSource"`
}

// acctTournament reads the public API's full tournament.
func (e *siteEnv) acctTournament(t *testing.T, slug string) acctPublicTournament {
	t.Helper()
	var out acctPublicTournament
	e.acctAPI(t, http.MethodGet, "/api/v1/tournaments/"+slug, "", nil, http.StatusOK, &out)
	return out
}

// match finds a match in the public tournament.
func (p acctPublicTournament) match(id int64) *acctPublicMatch {
	for _, g := range p.Groups {
		for i := range g.Matches {
			if g.Matches[i].ID == id {
				return &g.Matches[i]
			}
		}
	}
	for _, c := range p.Bracket {
		for i := range c.Matches {
			if c.Matches[i].ID == id {
				return &c.Matches[i]
			}
		}
	}
	return nil
}
