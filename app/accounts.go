package app

import (
	"context"
	"time"

	"arena/core"
	"arena/core/playerview"
	"arena/core/tournamentview"
)

// The signed-in player's account: website sessions and sign-in, the
// account page, the stream link and name, and the social actions
// (follows, POV streams, caster seats).

// StartWebSession stores a new website session with the id for the
// player until expires (mock: started with the mock sign-in form), and
// sweeps the sessions expired by now; a player with no language yet
// takes locale ("" keeps none) for alerts and pushes.
func (s *Session) StartWebSession(ctx context.Context, id, platformID string, mock bool, expires time.Time, locale string) error {
	return s.store.StartWebSession(ctx, id, platformID, mock, s.Deps.Now, expires, locale)
}

// EndWebSession ends the website session with the id (signing out); an
// unknown id is no error.
func (s *Session) EndWebSession(ctx context.Context, id string) error {
	return s.store.EndWebSession(ctx, id)
}

// PlanWebSession plans the read of the website session with the id (with
// what every page's frame shows of its player) on the request's first
// batch of reads; WebSession of the same id is then that read. The
// function returned gives the session.
func (s *Session) PlanWebSession(ctx context.Context, id string) func(context.Context) (*core.WebSession, error) {
	return s.store.PlanWebSession(ctx, id, s.Deps.Now)
}

// WebSession is the website session with the id that is still open, with
// its player's name, avatar, admin flag, unread alerts, channel and
// follows; nil when there is none (never started, signed out or
// expired).
func (s *Session) WebSession(ctx context.Context, id string) (*core.WebSession, error) {
	return s.store.WebSession(ctx, id, s.Deps.Now)
}

// PlanViewerParts plans the read of the own things (matches in statuses,
// reports, sides) of the player of the open website session with the id
// on the request's first batch of reads. The function returned gives
// them (empty for a session that is not open).
func (s *Session) PlanViewerParts(ctx context.Context, id string, statuses ...core.MatchStatus) func(context.Context) (*playerview.Parts, error) {
	return s.store.PlanViewerParts(ctx, id, s.Deps.Now, statuses...)
}

// SignInMockPlayer stores a player signed in with the mock form: a new
// player gets p's placeholder name and avatar; a known one keeps their
// name and gains the avatar if they had none.
func (s *Session) SignInMockPlayer(ctx context.Context, p core.PlayerProfile) error {
	return s.store.SignInMockPlayer(ctx, p, s.Deps.Now)
}

// ClaimOpenIDNonce records a platform sign-in's response nonce, seen at
// at, and reports whether it was new (an assertion signs a player in
// once); nonces seen before keepSince are swept.
func (s *Session) ClaimOpenIDNonce(ctx context.Context, nonce string, at, keepSince time.Time) (bool, error) {
	return s.store.ClaimOpenIDNonce(ctx, nonce, at, keepSince)
}

// Account is what a player's account page shows besides their session:
// their webhook, what they follow, their push devices and the kinds of
// push they turned off, and their Discord link.
type Account struct {
	// Webhook is the player's own webhook; nil when they have none.
	Webhook *core.Webhook
	// Follows are what the player follows, in order; a followed
	// tournament the arena no longer has is left out.
	Follows []Followed
	// Players are the profiles of the followed players.
	Players tournamentview.Players
	// PushDevices are the player's push subscriptions; MutedPushKinds
	// the kinds of push they do not want.
	PushDevices    []core.PushSubscription
	MutedPushKinds []core.PushKind
	// DiscordApp is the arena's Discord application as stored;
	// DiscordLink the player's linked Discord account, nil when none.
	DiscordApp  core.DiscordApp
	DiscordLink *core.DiscordLink
}

// Followed is one thing a player follows.
type Followed struct {
	core.Follow
	// Tournament is the followed tournament; nil when the follow is not
	// a tournament's.
	Tournament *core.Tournament
}

// Account reads the account page of the player: their webhook, their
// follows (with the followed players' profiles and tournaments), their
// push devices and muted kinds, and the arena's Discord application with
// their link. The first read that fails ends it.
func (s *Session) Account(ctx context.Context, platformID string) (*Account, error) {
	var a Account
	var err error
	if a.Webhook, err = s.store.Webhook(ctx, platformID); err != nil {
		return nil, err
	}
	follows, err := s.store.Follows(ctx, platformID)
	if err != nil {
		return nil, err
	}
	var players []string
	for _, f := range follows {
		if f.Kind == core.FollowPlayer {
			players = append(players, f.TargetID)
		}
	}
	if a.Players, err = tournamentview.ReadPlayers(ctx, s.store, players); err != nil {
		return nil, err
	}
	for _, f := range follows {
		item := Followed{Follow: f}
		if f.Kind == core.FollowTournament {
			id, err := core.ParseMatchID(f.TargetID) // a positive id, as match ids are
			if err != nil {
				continue
			}
			tour, err := s.store.TournamentByID(ctx, id)
			if core.ErrorCode(err) == core.CodeTournamentNotFound {
				continue
			}
			if err != nil {
				return nil, err
			}
			item.Tournament = tour
		}
		a.Follows = append(a.Follows, item)
	}
	if a.PushDevices, err = s.store.PushSubscriptions(ctx, platformID); err != nil {
		return nil, err
	}
	if a.MutedPushKinds, err = s.store.MutedPushKinds(ctx, platformID); err != nil {
		return nil, err
	}
	if _, err := s.store.Setting(ctx, core.SettingDiscord, &a.DiscordApp); err != nil {
		return nil, err
	}
	if a.DiscordLink, err = s.store.DiscordLinkFor(ctx, platformID); err != nil {
		return nil, err
	}
	return &a, nil
}

// LinkStream links the player's channel login (mock mode, or the login
// the stream provider confirmed) and returns it as stored.
func (s *Session) LinkStream(ctx context.Context, platformID, login string) (string, error) {
	return core.LinkStream(ctx, s.store, platformID, login, s.Deps.Now)
}

// StartStreamLink starts linking the player's channel with the stream
// provider: a new link state, stored, that brings the browser back to
// returnTo (this host's origin).
func (s *Session) StartStreamLink(ctx context.Context, platformID, returnTo string) (core.LinkState, error) {
	ls, err := core.NewLinkState(s.Arena.Slug, platformID, returnTo, s.Deps)
	if err != nil {
		return ls, err
	}
	if err := s.store.SaveLinkState(ctx, ls); err != nil {
		return ls, err
	}
	return ls, nil
}

// TakeLinkState uses the stream link's state: the link it started, or
// nil when the state is unknown, used or expired.
func (s *Session) TakeLinkState(ctx context.Context, state string) (*core.LinkState, error) {
	return s.store.TakeLinkState(ctx, state, s.Deps.Now)
}

// UnlinkStream clears the player's channel.
func (s *Session) UnlinkStream(ctx context.Context, platformID string) error {
	return s.store.SetStreamLogin(ctx, platformID, "", s.Deps.Now)
}

// SetDisplayName names the player as drafted (an arena with mock
// profiles only).
func (s *Session) SetDisplayName(ctx context.Context, platformID string, d core.DisplayNameDraft) error {
	return core.SetDisplayName(ctx, s.store, s.Arena, platformID, d, s.Deps.Now)
}

// SaveWebhook saves a webhook's address as changed (an empty address
// removes it; Renew draws a new secret).
func (s *Session) SaveWebhook(ctx context.Context, c core.WebhookChange) error {
	return core.SaveWebhook(ctx, s.store, c, s.Deps)
}

// SetPlayerLocale makes locale the language of the player's alerts and
// pushes.
func (s *Session) SetPlayerLocale(ctx context.Context, platformID, locale string) error {
	return s.store.SetPlayerLocale(ctx, platformID, locale)
}

// Follow makes the player follow (off: unfollow) the tournament or the
// player (kind core.FollowPlayer) with the id.
func (s *Session) Follow(ctx context.Context, platformID, kind, id string, off bool) error {
	follow := core.FollowTournamentByID
	if kind == core.FollowPlayer {
		follow = core.FollowPlayerByID
	}
	return follow(ctx, s.store, platformID, id, off, s.Deps.Now)
}

// SetPOVStream advertises (off: retires) the participant's own stream of
// the match.
func (s *Session) SetPOVStream(ctx context.Context, matchID int64, platformID string, off bool) error {
	return core.SetPOVStream(ctx, s.store, matchID, platformID, off, s.Deps.Now)
}

// ClaimCast claims (off: retires) a community caster seat of the match
// for the player.
func (s *Session) ClaimCast(ctx context.Context, matchID int64, platformID string, off bool) error {
	return core.ClaimCast(ctx, s.store, matchID, platformID, off, s.Deps.Now)
}

// InviteCaster seats the invited player as a caster of the match at a
// participant's (inviter's) request.
func (s *Session) InviteCaster(ctx context.Context, matchID int64, inviter, invited string) error {
	return core.InviteCaster(ctx, s.store, matchID, inviter, invited, s.Deps.Now)
}

// CasterDirectory lists the arena's channels (live ones from live), each
// with the undecided matches it casts or streams described as people
// know them.
func (s *Session) CasterDirectory(ctx context.Context, live map[string]core.LiveStream) ([]core.DirectoryEntry, error) {
	list, err := core.CasterDirectory(ctx, s.store, live)
	if err != nil {
		return nil, err
	}
	if err := core.DescribeCastMatches(ctx, s.store, list); err != nil {
		return nil, err
	}
	return list, nil
}
