package core

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Casters, POV streams and follows (spec 2.6, 4.3).
//
// A caster seat is a channel casting a match: community (a signed-in
// player with a linked channel claims it), invited (a participant invites
// a player with a linked channel) or arena (the arena's official channel,
// added by an admin; no player). Casting needs a tournament that allows
// spectators and a match not decided yet; a seat ends with the match (the
// deciding batch ends it) or when its caster retires it. A POV stream is
// a participant's own channel on their match, one per player per match.

// Caster sources.
const (
	CasterCommunity = "community"
	CasterInvited   = "invited"
	CasterArena     = "arena"
)

// Follow kinds.
const (
	FollowTournament = "tournament"
	FollowPlayer     = "player"
)

// MaxCastersPerMatch bounds a match's active caster seats.
const MaxCastersPerMatch = 8

// Casting errors.
const (
	// CodeSpectatorsNotAllowed: the tournament does not allow spectators,
	// so nobody casts its matches (409).
	CodeSpectatorsNotAllowed = "spectators_not_allowed"
	// CodeCastersFull: the match has MaxCastersPerMatch casters (409).
	CodeCastersFull = "casters_full"
	// CodeCastOwnMatch: a participant streams their own match as a POV
	// stream, not as a caster (409).
	CodeCastOwnMatch = "cast_own_match"
)

// CasterSeat is an active caster of a match.
type CasterSeat struct {
	MatchID     int64
	StreamLogin string
	Source      string
	PlatformID  string // "" for the arena's official caster
	InvitedBy   string
	CreatedAt   time.Time
}

// MatchStream is a participant's POV stream.
type MatchStream struct {
	MatchID     int64
	PlatformID  string
	StreamLogin string
}

// Follow is one thing a player follows.
type Follow struct {
	Kind     string
	TargetID string
}

// CastStore is what seating the arena's channel and the caster
// directory read and write: the caster seats and the linked channels.
type CastStore interface {
	// AddCaster seats the caster (reopening an ended seat of the same
	// channel) while the match is undecided and has fewer than
	// MaxCastersPerMatch active seats, in one statement; CodeCastersFull
	// or CodeAlreadyResolved otherwise.
	AddCaster(ctx context.Context, seat CasterSeat) error
	// ActiveCasting returns every active seat of the arena and the POV
	// streams of undecided matches.
	ActiveCasting(ctx context.Context) ([]CasterSeat, []MatchStream, error)
	// LinkedChannels returns every linked login with its player.
	LinkedChannels(ctx context.Context) (map[string]string, error)
}

// castableMatch checks that st's match can take a caster. (A match's
// tournament is never a draft: matches are drawn when it starts.)
func castableMatch(st *MatchState) error {
	switch {
	case st.Status.Resolved():
		return Errorf(CodeAlreadyResolved, "match %d is decided", st.ID)
	case !st.Tournament.AllowSpectators:
		return Errorf(CodeSpectatorsNotAllowed, "%s does not allow spectators", st.Tournament.Slug)
	}
	return nil
}

// linkedLogin returns the player's linked login or CodeStreamNotLinked.
func linkedLogin(ctx context.Context, cs CastingStore, platformID string) (string, error) {
	login, err := cs.StreamLogin(ctx, platformID)
	if err != nil {
		return "", err
	}
	if login == "" {
		return "", Errorf(CodeStreamNotLinked, "%s has no linked channel", platformID)
	}
	return login, nil
}

// CastingStore is what the casting use cases read and write: the match's
// state, the caster seats and POV streams, the players' channels and, for
// an invitation, the invited player's alert. The arena's store serves it.
type CastingStore interface {
	MatchStateReader
	EventRecorder
	// AddCaster seats the caster as CastStore.AddCaster does.
	AddCaster(ctx context.Context, seat CasterSeat) error
	// RetireCaster ends the player's seat on the match (none is no error).
	RetireCaster(ctx context.Context, matchID int64, platformID string, at time.Time) error
	// SetMatchStream stores the player's POV stream of the match (login
	// "" retires it).
	SetMatchStream(ctx context.Context, matchID int64, platformID, login string, at time.Time) error
	// StreamLogin returns the player's linked login, or "".
	StreamLogin(ctx context.Context, platformID string) (string, error)
}

// ClaimCast seats the signed-in player as a community caster of the match
// (off: retires their seat, whatever its source). Checks, in order: the
// match exists (CodeMatchNotFound), is undecided (CodeAlreadyResolved),
// its tournament allows spectators (CodeSpectatorsNotAllowed), the player
// is not on it (CodeCastOwnMatch), has a linked channel
// (CodeStreamNotLinked), and a seat is free (CodeCastersFull).
func ClaimCast(ctx context.Context, cs CastingStore, matchID int64, platformID string, off bool, now time.Time) error {
	st, err := cs.MatchState(ctx, matchID)
	if err != nil {
		return err
	}
	if off {
		return cs.RetireCaster(ctx, matchID, platformID, now)
	}
	if err := castableMatch(st); err != nil {
		return err
	}
	if st.SideOf(platformID) != 0 {
		return Errorf(CodeCastOwnMatch, "players stream their own match as a POV stream")
	}
	login, err := linkedLogin(ctx, cs, platformID)
	if err != nil {
		return err
	}
	return cs.AddCaster(ctx, CasterSeat{MatchID: matchID, StreamLogin: login, Source: CasterCommunity, PlatformID: platformID, CreatedAt: now})
}

// InviteCaster seats a player with a linked channel as an invited caster,
// at a participant's invitation, and tells the invited player. Checks:
// the match (as ClaimCast), the inviter plays in it (CodeNotParticipant),
// the invited id (CodeInvalidSteamID), the invited player does not play
// in it (CodeCastOwnMatch) and has a linked channel (CodeStreamNotLinked).
func InviteCaster(ctx context.Context, cs CastingStore, matchID int64, inviter, invited string, now time.Time) error {
	st, err := cs.MatchState(ctx, matchID)
	if err != nil {
		return err
	}
	if err := castableMatch(st); err != nil {
		return err
	}
	if st.SideOf(inviter) == 0 {
		return Errorf(CodeNotParticipant, "only the match's players invite casters")
	}
	if !ValidPlatformID(invited) {
		return &Error{Code: CodeInvalidSteamID, Field: "platformId", Message: "Enter a platform account id: exactly 17 digits."}
	}
	if st.SideOf(invited) != 0 {
		return Errorf(CodeCastOwnMatch, "players stream their own match as a POV stream")
	}
	login, err := linkedLogin(ctx, cs, invited)
	if err != nil {
		return err
	}
	if err := cs.AddCaster(ctx, CasterSeat{MatchID: matchID, StreamLogin: login, Source: CasterInvited, PlatformID: invited, InvitedBy: inviter, CreatedAt: now}); err != nil {
		return err
	}
	return cs.RecordEvent(ctx, Event{Kind: EventCasterInvited, Key: fmt.Sprintf("caster_invited:%d:%s", matchID, invited),
		MatchID: matchID, TournamentID: st.TournamentID, PlayerID: invited, CreatedAt: now})
}

// AddArenaCaster seats the arena's official channel on the match (the
// admin's POST /api/v1/admin/matches/{id}/casters and the admin match
// page). Checks: the login's shape (invalid_field streamLogin), then the
// match as ClaimCast.
func AddArenaCaster(ctx context.Context, ps MatchStateReader, cs CastStore, matchID int64, login string, now time.Time) (CasterSeat, error) {
	l, err := NormalizeStreamLogin(login)
	if err != nil {
		return CasterSeat{}, err
	}
	st, err := ps.MatchState(ctx, matchID)
	if err != nil {
		return CasterSeat{}, err
	}
	if err := castableMatch(st); err != nil {
		return CasterSeat{}, err
	}
	seat := CasterSeat{MatchID: matchID, StreamLogin: l, Source: CasterArena, CreatedAt: now}
	return seat, cs.AddCaster(ctx, seat)
}

// SetPOVStream advertises the participant's own stream of the match (off:
// retires it). Checks: the match exists (CodeMatchNotFound), the
// player plays in it (CodeNotParticipant), and, to advertise, the match
// is undecided (CodeAlreadyResolved) and the player has a linked channel
// (CodeStreamNotLinked).
func SetPOVStream(ctx context.Context, cs CastingStore, matchID int64, platformID string, off bool, now time.Time) error {
	st, err := cs.MatchState(ctx, matchID)
	if err != nil {
		return err
	}
	switch {
	case st.SideOf(platformID) == 0:
		return Errorf(CodeNotParticipant, "only the match's players stream it")
	case off:
		return cs.SetMatchStream(ctx, matchID, platformID, "", now)
	case st.Status.Resolved():
		return Errorf(CodeAlreadyResolved, "match %d is decided", matchID)
	}
	login, err := linkedLogin(ctx, cs, platformID)
	if err != nil {
		return err
	}
	return cs.SetMatchStream(ctx, matchID, platformID, login, now)
}

// FollowStore is what following reads and writes: the followed
// tournament or player, and the follows. One value, the arena's store,
// serves it.
type FollowStore interface {
	TournamentReader
	// Player returns one profile, or CodePlayerNotFound.
	Player(ctx context.Context, id string) (*PlayerProfile, error)
	// SetFollow follows (on) or unfollows the target.
	SetFollow(ctx context.Context, platformID string, f Follow, on bool, at time.Time) error
}

// FollowTournamentByID follows (or with off unfollows) a public tournament by
// id; CodeTournamentNotFound for an unknown id or a draft.
func FollowTournamentByID(ctx context.Context, cs FollowStore, platformID, id string, off bool, now time.Time) error {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return Errorf(CodeTournamentNotFound, "tournament %q", id)
	}
	t, err := cs.TournamentByID(ctx, n)
	if err != nil {
		return err
	}
	if !t.Status.Public() {
		return Errorf(CodeTournamentNotFound, "tournament %q", id)
	}
	return cs.SetFollow(ctx, platformID, Follow{Kind: FollowTournament, TargetID: strconv.FormatInt(t.ID, 10)}, !off, now)
}

// FollowPlayerByID follows (or with off unfollows) a player the arena knows;
// CodeInvalidSteamID for a malformed id, CodePlayerNotFound for an
// unknown one.
func FollowPlayerByID(ctx context.Context, cs FollowStore, platformID, id string, off bool, now time.Time) error {
	if !ValidPlatformID(id) {
		return Errorf(CodeInvalidSteamID, "player id %q", id)
	}
	if _, err := cs.Player(ctx, id); err != nil {
		return err
	}
	return cs.SetFollow(ctx, platformID, Follow{Kind: FollowPlayer, TargetID: id}, !off, now)
}

// CasterView is a caster as the API and pages show it.
type CasterView struct {
	PlatformID  *string `json:"platformId"`
	StreamLogin string  `json:"streamLogin"`
	StreamURL   string  `json:"streamUrl"`
	Source      string  `json:"source"`
	Live        bool    `json:"live"`
}

// CasterViews returns the seats as shown, with live badges from live.
func CasterViews(seats []CasterSeat, live map[string]LiveStream) []CasterView {
	out := make([]CasterView, 0, len(seats))
	for _, s := range seats {
		v := CasterView{StreamLogin: s.StreamLogin, StreamURL: StreamURL(s.StreamLogin), Source: s.Source}
		if s.PlatformID != "" {
			id := s.PlatformID
			v.PlatformID = &id
		}
		_, v.Live = live[s.StreamLogin]
		out = append(out, v)
	}
	return out
}

// DirectoryEntry is one channel of the caster directory.
type DirectoryEntry struct {
	PlatformID  *string `json:"platformId"`
	StreamLogin string  `json:"streamLogin"`
	StreamURL   string  `json:"streamUrl"`
	Live        bool    `json:"live"`
	Matches     []int64 `json:"matches"`
	// MatchDetails names each of Matches, in the same order, as people
	// know it (DescribeCastMatches fills it).
	MatchDetails []CastMatch `json:"matchDetails"`
}

// CastMatch is a cast or streamed match as a spectator knows it: its
// tournament (or title), round and players.
type CastMatch struct {
	ID         int64          `json:"id"`
	Tournament CastTournament `json:"tournament"`
	Stage      MatchStage     `json:"stage"`
	Round      string         `json:"round"`
	Group      string         `json:"group,omitempty"`
	Status     string         `json:"status"`
	Player1    *PlayerProfile `json:"player1"`
	Player2    *PlayerProfile `json:"player2"`
	// State is the match as read, for the website's own labels.
	State *MatchState `json:"-"`
}

// CastTournament names a cast match's tournament; Title is set when the
// match is a title's.
type CastTournament struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Title bool   `json:"title,omitempty"`
}

// DescribeCastMatches fills each entry's MatchDetails: one read of each
// match the directory names (the directory lists the arena's few
// undecided casts).
func DescribeCastMatches(ctx context.Context, ps MatchStateReader, entries []DirectoryEntry) error {
	seen := map[int64]*CastMatch{}
	for i := range entries {
		e := &entries[i]
		e.MatchDetails = make([]CastMatch, 0, len(e.Matches))
		for _, id := range e.Matches {
			cm, ok := seen[id]
			if !ok {
				st, err := ps.MatchState(ctx, id)
				if err != nil {
					return err
				}
				cm = &CastMatch{ID: id, Stage: st.Stage, Round: st.Round, Group: st.GroupName, Status: string(st.Status), State: st,
					Tournament: CastTournament{Slug: st.Tournament.Slug, Name: st.Tournament.Name, Title: st.Tournament.Format == FormatTitle},
					Player1:    castPlayer(st.P1, st.P1Name), Player2: castPlayer(st.P2, st.P2Name)}
				seen[id] = cm
			}
			e.MatchDetails = append(e.MatchDetails, *cm)
		}
	}
	return nil
}

// castPlayer is a side as the directory names it; nil while undecided.
func castPlayer(id, name string) *PlayerProfile {
	if id == "" {
		return nil
	}
	if name == "" {
		name = PlaceholderName(id)
	}
	return &PlayerProfile{PlatformID: id, PersonaName: name}
}

// CasterDirectory lists the arena's channels: every linked player's and
// every active caster's (the arena's official ones too), with whether it
// is live and the undecided matches it casts or streams (seats and POV
// streams). Live channels come first, then those with matches, then by
// login.
func CasterDirectory(ctx context.Context, cs CastStore, live map[string]LiveStream) ([]DirectoryEntry, error) {
	seats, streams, err := cs.ActiveCasting(ctx)
	if err != nil {
		return nil, err
	}
	linked, err := cs.LinkedChannels(ctx)
	if err != nil {
		return nil, err
	}
	byLogin := map[string]*DirectoryEntry{}
	entry := func(login, platformID string) *DirectoryEntry {
		e, ok := byLogin[login]
		if !ok {
			e = &DirectoryEntry{StreamLogin: login, StreamURL: StreamURL(login), Matches: []int64{}}
			_, e.Live = live[login]
			byLogin[login] = e
		}
		if e.PlatformID == nil && platformID != "" {
			id := platformID
			e.PlatformID = &id
		}
		return e
	}
	for login, id := range linked {
		entry(login, id)
	}
	addMatch := func(e *DirectoryEntry, id int64) {
		if !slices.Contains(e.Matches, id) {
			e.Matches = append(e.Matches, id)
		}
	}
	for _, s := range seats {
		addMatch(entry(s.StreamLogin, s.PlatformID), s.MatchID)
	}
	for _, s := range streams {
		addMatch(entry(s.StreamLogin, s.PlatformID), s.MatchID)
	}
	out := make([]DirectoryEntry, 0, len(byLogin))
	for _, e := range byLogin {
		slices.Sort(e.Matches)
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b DirectoryEntry) int {
		if a.Live != b.Live {
			if a.Live {
				return -1
			}
			return 1
		}
		if (len(a.Matches) > 0) != (len(b.Matches) > 0) {
			if len(a.Matches) > 0 {
				return -1
			}
			return 1
		}
		return strings.Compare(a.StreamLogin, b.StreamLogin)
	})
	return out, nil
}
