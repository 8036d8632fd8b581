package core

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"strings"
	"time"
)

// Discord (docs/notifications.md "Discord"): the arena's Discord
// application answers slash commands over HTTP interactions (no gateway
// connection), and players link their Discord account to their platform
// account. The commands themselves are core/discordbot's.

// DiscordApp is the arena's Discord application, kept in its database
// (SettingDiscord): the ids Discord's developer portal shows, and two
// secrets that never leave the store (the settings answer says only
// whether each is set).
type DiscordApp struct {
	ApplicationID string `json:"applicationId"`
	PublicKey     string `json:"publicKey"` // hex, as the portal shows it
	BotToken      string `json:"botToken"`  // registers the commands
	// ClientSecret exchanges a linking player's OAuth2 code.
	ClientSecret string `json:"clientSecret"`
}

// SettingDiscord is the arena setting holding its DiscordApp.
const SettingDiscord = "discord"

// Set reports whether the arena has a Discord application.
func (d DiscordApp) Set() bool { return d.ApplicationID != "" && d.PublicKey != "" }

// DiscordChange is the Discord part of a settings change: nil keeps a
// field, "" clears it.
type DiscordChange struct {
	ApplicationID *string `json:"discordApplicationId"`
	PublicKey     *string `json:"discordPublicKey"`
	BotToken      *string `json:"discordBotToken"`
	ClientSecret  *string `json:"discordClientSecret"`
}

// Changed reports whether the change touches the Discord application.
func (c DiscordChange) Changed() bool {
	return c.ApplicationID != nil || c.PublicKey != nil || c.BotToken != nil || c.ClientSecret != nil
}

var (
	discordSnowflake = LazyRegexp(`^[0-9]{17,20}$`)
	discordPublicKey = LazyRegexp(`^[0-9a-f]{64}$`)
	discordSecret    = LazyRegexp(`^[\x21-\x7e]{1,200}$`)
)

// Apply returns app changed by c, or the first problem: 422
// invalid_field naming the field (discordApplicationId: a Discord id,
// 17 to 20 digits; discordPublicKey: 64 hex digits; the token and the
// secret: up to 200 visible ASCII characters). An application needs both
// its id and its public key.
func (c DiscordChange) Apply(app DiscordApp) (DiscordApp, error) {
	bad := func(field, msg string) error { return &Error{Code: CodeInvalidField, Field: field, Message: msg} }
	if c.ApplicationID != nil {
		app.ApplicationID = strings.TrimSpace(*c.ApplicationID)
		if app.ApplicationID != "" && !discordSnowflake().MatchString(app.ApplicationID) {
			return app, bad("discordApplicationId", "A Discord application id is 17 to 20 digits.")
		}
	}
	if c.PublicKey != nil {
		app.PublicKey = strings.ToLower(strings.TrimSpace(*c.PublicKey))
		if app.PublicKey != "" && !discordPublicKey().MatchString(app.PublicKey) {
			return app, bad("discordPublicKey", "A Discord public key is 64 hexadecimal digits.")
		}
	}
	if c.BotToken != nil {
		app.BotToken = strings.TrimSpace(*c.BotToken)
		if app.BotToken != "" && !discordSecret().MatchString(app.BotToken) {
			return app, bad("discordBotToken", "A bot token is up to 200 characters, without spaces.")
		}
	}
	if c.ClientSecret != nil {
		app.ClientSecret = strings.TrimSpace(*c.ClientSecret)
		if app.ClientSecret != "" && !discordSecret().MatchString(app.ClientSecret) {
			return app, bad("discordClientSecret", "A client secret is up to 200 characters, without spaces.")
		}
	}
	if (app.ApplicationID == "") != (app.PublicKey == "") {
		field := "discordPublicKey"
		if app.ApplicationID == "" {
			field = "discordApplicationId"
		}
		return app, bad(field, "A Discord application needs both its id and its public key.")
	}
	return app, nil
}

// VerifyDiscordRequest checks an interaction as Discord's documentation
// asks: the Ed25519 signature (X-Signature-Ed25519, hex) over the
// X-Signature-Timestamp header's bytes followed by the raw body, with the
// application's public key (hex).
func VerifyDiscordRequest(publicKeyHex, signatureHex, timestamp string, body []byte) bool {
	key, err := hex.DecodeString(publicKeyHex)
	if err != nil || len(key) != ed25519.PublicKeySize {
		return false
	}
	sig, err := hex.DecodeString(signatureHex)
	if err != nil || len(sig) != ed25519.SignatureSize || timestamp == "" {
		return false
	}
	msg := make([]byte, 0, len(timestamp)+len(body))
	msg = append(append(msg, timestamp...), body...)
	return ed25519.Verify(key, msg, sig)
}

// DiscordUser is a Discord account as Discord's API gives it.
type DiscordUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name,omitempty"`
}

// Shown is how Arena shows the account: its display name, else its
// username.
func (u DiscordUser) Shown() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// DiscordLink is a player's linked Discord account.
type DiscordLink struct {
	PlatformID    string
	DiscordUserID string
	Username      string
	LinkedAt      time.Time
}

// DiscordLinkTTL is how long a link under way may take at Discord.
const DiscordLinkTTL = 10 * time.Minute

// Discord linking errors.
const (
	// CodeDiscordNotSet: the arena has no Discord application (409).
	CodeDiscordNotSet = "discord_not_set"
	// CodeDiscordUnavailable: Discord's API refused or did not answer
	// (502).
	CodeDiscordUnavailable = "discord_unavailable"
)

// DiscordLinkStore is what linking a Discord account reads and writes:
// the links under way, and the link.
type DiscordLinkStore interface {
	// LinkDiscord links the accounts, dropping either one's earlier link.
	LinkDiscord(ctx context.Context, l DiscordLink) error
	// AddDiscordLinkState stores a link's state, sweeping those from
	// before staleBefore.
	AddDiscordLinkState(ctx context.Context, state, platformID string, at, staleBefore time.Time) error
	// TakeDiscordLinkState returns the state's player and forgets it; ""
	// for an unknown state or one from before since.
	TakeDiscordLinkState(ctx context.Context, state string, since time.Time) (string, error)
}

// DiscordAPI is what Arena asks of Discord's HTTP API (worker/discord).
type DiscordAPI interface {
	// AuthorizeURL is where a linking player's browser goes: Discord's
	// OAuth2 consent for scope identify, coming back to redirectURI.
	AuthorizeURL(app DiscordApp, redirectURI, state string) string
	// User exchanges the OAuth2 code and reads the account it is for.
	User(ctx context.Context, app DiscordApp, code, redirectURI string) (DiscordUser, error)
	// RegisterCommands replaces the application's global commands.
	RegisterCommands(ctx context.Context, app DiscordApp, commands any) error
	// EditOriginal finishes a deferred interaction: its message, through
	// the interaction's token (valid 15 minutes; no bot token needed).
	EditOriginal(ctx context.Context, app DiscordApp, token string, message any) error
}

// StartDiscordLink begins linking the player's Discord account: the
// state the consent page carries back. CodeDiscordNotSet without an
// application able to link (its client secret set).
func StartDiscordLink(ctx context.Context, s DiscordLinkStore, app DiscordApp, platformID string, deps Deps) (string, error) {
	if !app.Set() || app.ClientSecret == "" {
		return "", Errorf(CodeDiscordNotSet, "the arena has no Discord application to link with")
	}
	b := make([]byte, 16)
	if _, err := io.ReadFull(deps.Random, b); err != nil {
		return "", err
	}
	state := hex.EncodeToString(b)
	return state, s.AddDiscordLinkState(ctx, state, platformID, deps.Now, deps.Now.Add(-DiscordLinkTTL))
}

// FinishDiscordLink completes a link that came back from Discord with
// state and code, for the signed-in player: the state must be theirs and
// fresh (else false, nothing linked), the code is exchanged for the
// account (CodeDiscordUnavailable when Discord refuses).
func FinishDiscordLink(ctx context.Context, s DiscordLinkStore, api DiscordAPI, app DiscordApp, platformID, state, code, redirectURI string, now time.Time) (bool, error) {
	owner, err := s.TakeDiscordLinkState(ctx, state, now.Add(-DiscordLinkTTL))
	if err != nil || owner == "" || owner != platformID || code == "" {
		return false, err
	}
	u, err := api.User(ctx, app, code, redirectURI)
	if err != nil {
		return false, err
	}
	if !discordSnowflake().MatchString(u.ID) {
		return false, Errorf(CodeDiscordUnavailable, "Discord gave no account id")
	}
	name := strings.TrimSpace(DisplayText(u.Shown()))
	if name == "" {
		name = u.ID
	}
	return true, s.LinkDiscord(ctx, DiscordLink{PlatformID: platformID, DiscordUserID: u.ID, Username: name, LinkedAt: now})
}
