// Package streams holds Arena's streaming-provider adapters (core's
// StreamProvider port): the real provider (Twitch's OAuth and Helix API)
// and the mock twin used when the client id or secret is missing.
package streams

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"arena/core"
)

// The provider's public addresses.
const (
	DefaultAuthURL = "https://id.twitch.tv/oauth2"
	DefaultAPIURL  = "https://api.twitch.tv/helix"
)

// Provider is the real streaming provider.
type Provider struct {
	ClientID     string
	ClientSecret string
	// RedirectURL is the one callback address registered with the
	// provider: /stream-provider/callback on the platform's domain.
	RedirectURL string
	// AuthURL and APIURL are the provider's OAuth and API bases;
	// DefaultAuthURL and DefaultAPIURL when empty.
	AuthURL, APIURL string
	// HTTP makes the calls; Now reads the service clock.
	HTTP *http.Client
	Now  func() time.Time
}

var _ core.StreamProvider = (*Provider)(nil)

// FromEnv returns the real provider when STREAM_CLIENT_ID and
// STREAM_CLIENT_SECRET are both set (STREAM_REDIRECT_URL is then
// required; STREAM_AUTH_URL and STREAM_API_URL override the provider's
// addresses), or nil: the server then runs the mock twin.
func FromEnv(getenv func(string) string, client *http.Client, now func() time.Time) (*Provider, error) {
	id, secret := getenv("STREAM_CLIENT_ID"), getenv("STREAM_CLIENT_SECRET")
	if id == "" || secret == "" {
		return nil, nil
	}
	p := &Provider{ClientID: id, ClientSecret: secret, RedirectURL: getenv("STREAM_REDIRECT_URL"),
		AuthURL: getenv("STREAM_AUTH_URL"), APIURL: getenv("STREAM_API_URL"), HTTP: client, Now: now}
	if p.RedirectURL == "" {
		return nil, errors.New("streams: STREAM_REDIRECT_URL (the registered callback address) is required with STREAM_CLIENT_ID")
	}
	return p, nil
}

func (p *Provider) authURL() string {
	return strings.TrimRight(orDefault(p.AuthURL, DefaultAuthURL), "/")
}
func (p *Provider) apiURL() string { return strings.TrimRight(orDefault(p.APIURL, DefaultAPIURL), "/") }

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// Mock implements core.StreamProvider: this is the real provider.
func (p *Provider) Mock() bool { return false }

// AuthorizeURL implements core.StreamProvider.
func (p *Provider) AuthorizeURL(state string) string {
	q := url.Values{
		"client_id": {p.ClientID}, "redirect_uri": {p.RedirectURL},
		"response_type": {"code"}, "scope": {""}, "state": {state},
	}
	return p.authURL() + "/authorize?" + q.Encode()
}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int64  `json:"expires_in"`
}

// token runs a token grant.
func (p *Provider) token(ctx context.Context, form url.Values) (tokenResponse, error) {
	form.Set("client_id", p.ClientID)
	form.Set("client_secret", p.ClientSecret)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.authURL()+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		return tokenResponse{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var out tokenResponse
	if err := p.do(req, &out); err != nil {
		return tokenResponse{}, err
	}
	if out.AccessToken == "" {
		return tokenResponse{}, errors.New("streams: the token answer has no access_token")
	}
	return out, nil
}

// LinkedLogin implements core.StreamProvider: the authorization-code
// grant, then one /users call with the user's token.
func (p *Provider) LinkedLogin(ctx context.Context, code string) (string, error) {
	tok, err := p.token(ctx, url.Values{"code": {code}, "grant_type": {"authorization_code"}, "redirect_uri": {p.RedirectURL}})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.apiURL()+"/users", nil)
	if err != nil {
		return "", err
	}
	p.authorize(req, tok.AccessToken)
	var users struct {
		Data []struct {
			Login string `json:"login"`
		} `json:"data"`
	}
	if err := p.do(req, &users); err != nil {
		return "", err
	}
	if len(users.Data) == 0 || users.Data[0].Login == "" {
		return "", errors.New("streams: /users named no channel")
	}
	return strings.ToLower(users.Data[0].Login), nil
}

// AppToken implements core.StreamProvider: the client-credentials grant.
func (p *Provider) AppToken(ctx context.Context) (core.AppToken, error) {
	tok, err := p.token(ctx, url.Values{"grant_type": {"client_credentials"}})
	if err != nil {
		return core.AppToken{}, err
	}
	return core.AppToken{Token: tok.AccessToken, ExpiresAt: p.Now().Add(time.Duration(tok.ExpiresIn) * time.Second)}, nil
}

// LiveStreams implements core.StreamProvider: /streams with user_login
// repeated (at most core.StreamBatchSize).
func (p *Provider) LiveStreams(ctx context.Context, token string, logins []string) ([]core.LiveStream, error) {
	if len(logins) > core.StreamBatchSize {
		return nil, fmt.Errorf("streams: %d logins in one query (at most %d)", len(logins), core.StreamBatchSize)
	}
	q := url.Values{"first": {strconv.Itoa(core.StreamBatchSize)}, "user_login": logins}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.apiURL()+"/streams?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	p.authorize(req, token)
	var streams struct {
		Data []struct {
			ID        string `json:"id"`
			UserLogin string `json:"user_login"`
			Type      string `json:"type"`
			StartedAt string `json:"started_at"`
		} `json:"data"`
	}
	if err := p.do(req, &streams); err != nil {
		return nil, err
	}
	out := make([]core.LiveStream, 0, len(streams.Data))
	for _, s := range streams.Data {
		if s.Type != "live" || s.UserLogin == "" {
			continue
		}
		started, _ := time.Parse(time.RFC3339, s.StartedAt)
		out = append(out, core.LiveStream{Login: strings.ToLower(s.UserLogin), StreamID: s.ID, StartedAt: started.UTC()})
	}
	return out, nil
}

func (p *Provider) authorize(req *http.Request, token string) {
	req.Header.Set("Client-Id", p.ClientID)
	req.Header.Set("Authorization", "Bearer "+token)
}

// maxAnswerBytes bounds what is read of a provider answer.
const maxAnswerBytes = 1 << 20

// do sends req and decodes a 200 answer's JSON into v. A 429 is a
// *core.StreamRateLimited (Ratelimit-Reset: unix seconds), a 401 on the
// API core.ErrStreamTokenRefused.
func (p *Provider) do(req *http.Request, v any) error {
	client := p.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("streams: %s: %w", req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return fmt.Errorf("streams: %s: %w", req.URL.Path, err)
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		reset := p.Now().Add(time.Minute)
		if sec, err := strconv.ParseInt(resp.Header.Get("Ratelimit-Reset"), 10, 64); err == nil {
			reset = time.Unix(sec, 0).UTC()
		}
		return &core.StreamRateLimited{Reset: reset}
	case resp.StatusCode == http.StatusUnauthorized && req.Method == http.MethodGet:
		return core.ErrStreamTokenRefused
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("streams: %s answered %d", req.URL.Path, resp.StatusCode)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("streams: %s: %w", req.URL.Path, err)
	}
	return nil
}

// Mock is the mock twin: linking takes the login from the form (no
// external call) and the live set is Live's (the dev controls' set,
// natively; empty on the edge).
type Mock struct {
	Live func() []core.LiveStream
}

var _ core.StreamProvider = Mock{}

// Mock implements core.StreamProvider.
func (Mock) Mock() bool { return true }

// AuthorizeURL implements core.StreamProvider; the mock links without it.
func (Mock) AuthorizeURL(string) string { return "" }

// LinkedLogin implements core.StreamProvider; the mock has no callback.
func (Mock) LinkedLogin(context.Context, string) (string, error) {
	return "", errors.New("streams: the mock provider links from the form")
}

// AppToken implements core.StreamProvider.
func (Mock) AppToken(context.Context) (core.AppToken, error) {
	return core.AppToken{Token: "mock", ExpiresAt: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)}, nil
}

// LiveStreams implements core.StreamProvider: which of logins are in
// the live set.
func (m Mock) LiveStreams(_ context.Context, _ string, logins []string) ([]core.LiveStream, error) {
	if m.Live == nil {
		return nil, nil
	}
	asked := map[string]bool{}
	for _, l := range logins {
		asked[l] = true
	}
	var out []core.LiveStream
	for _, l := range m.Live() {
		if asked[l.Login] {
			out = append(out, l)
		}
	}
	return out, nil
}
