// Package discord is Arena's client of Discord's HTTP API
// (core.DiscordAPI): the OAuth2 code grant that links a player's Discord
// account (scope identify) and the registration of the arena's slash
// command. Interactions come the other way (worker/server/discord.go).
package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"arena/core"
)

// DefaultBase is Discord's origin.
const DefaultBase = "https://discord.com"

// API reaches Discord at Base (DefaultBase; a twin in tests and in dev
// mode) with HTTP.
type API struct {
	Base string
	HTTP *http.Client
}

func (a API) base() string {
	if a.Base == "" {
		return DefaultBase
	}
	return strings.TrimSuffix(a.Base, "/")
}

func (a API) client() *http.Client {
	if a.HTTP == nil {
		return http.DefaultClient
	}
	return a.HTTP
}

// AuthorizeURL implements core.DiscordAPI.
func (a API) AuthorizeURL(app core.DiscordApp, redirectURI, state string) string {
	q := url.Values{"client_id": {app.ApplicationID}, "response_type": {"code"}, "scope": {"identify"},
		"redirect_uri": {redirectURI}, "state": {state}, "prompt": {"consent"}}
	return a.base() + "/oauth2/authorize?" + q.Encode()
}

// User implements core.DiscordAPI: the token endpoint, then /users/@me
// with the token (which is then dropped: Arena keeps only the id and the
// name).
func (a API) User(ctx context.Context, app core.DiscordApp, code, redirectURI string) (core.DiscordUser, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base()+"/api/v10/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return core.DiscordUser{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(app.ApplicationID, app.ClientSecret)
	var token struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := a.do(req, &token); err != nil {
		return core.DiscordUser{}, err
	}
	if token.AccessToken == "" {
		return core.DiscordUser{}, core.Errorf(core.CodeDiscordUnavailable, "Discord gave no access token")
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodGet, a.base()+"/api/v10/users/@me", nil)
	if err != nil {
		return core.DiscordUser{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token.AccessToken)
	var u core.DiscordUser
	return u, a.do(req, &u)
}

// RegisterCommands implements core.DiscordAPI: a bulk overwrite of the
// application's global commands, with its bot token.
func (a API) RegisterCommands(ctx context.Context, app core.DiscordApp, commands any) error {
	if app.BotToken == "" {
		return core.Errorf(core.CodeDiscordNotSet, "the arena has no bot token")
	}
	body, err := json.Marshal(commands)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut,
		a.base()+"/api/v10/applications/"+url.PathEscape(app.ApplicationID)+"/commands", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bot "+app.BotToken)
	return a.do(req, nil)
}

// EditOriginal implements core.DiscordAPI: PATCH the interaction's
// original message through its webhook.
func (a API) EditOriginal(ctx context.Context, app core.DiscordApp, token string, message any) error {
	body, err := json.Marshal(message)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, a.base()+"/api/v10/webhooks/"+url.PathEscape(app.ApplicationID)+
		"/"+url.PathEscape(token)+"/messages/@original", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return a.do(req, nil)
}

// do sends req and decodes a 2xx answer into out; anything else is
// CodeDiscordUnavailable with Discord's message.
func (a API) do(req *http.Request, out any) error {
	req.Header.Set("User-Agent", "DiscordBot (Arena, 1)")
	res, err := a.client().Do(req)
	if err != nil {
		return core.Errorf(core.CodeDiscordUnavailable, "Discord did not answer: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return core.Errorf(core.CodeDiscordUnavailable, "Discord answered %d: %s", res.StatusCode, bytes.TrimSpace(body))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return core.Errorf(core.CodeDiscordUnavailable, "Discord's answer is not JSON: %v", err)
	}
	return nil
}

var _ core.DiscordAPI = API{}

// String names the API for logs.
func (a API) String() string { return fmt.Sprintf("discord api at %s", a.base()) }
