package client

import (
	"slices"
	"strconv"

	"arena/core"
)

// Cast hand modes (spec 2.1): when full-scope material (both players'
// hidden information) may be released.
const (
	HandHidden  = "hidden"
	HandDelayed = "delayed"
	HandShown   = "shown"
)

// Tournament names the tournament a match belongs to.
type Tournament struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// Cast is a match's recording-release policy.
type Cast struct {
	HandMode     string `json:"handMode"`     // hidden, delayed or shown; empty means hidden
	DelaySeconds int    `json:"delaySeconds"` // for delayed: seconds after capture; 0 otherwise
}

// Caster is one active caster of a match.
type Caster struct {
	PlatformID string `json:"platformId"`
	StreamURL  string `json:"streamUrl"`
	Source     string `json:"source"` // community, invited or arena
}

// RefereeM0 is present on a live match only when the arena runs the AI
// referee.
type RefereeM0 struct {
	Enabled         bool   `json:"enabled"`
	ConsentComplete bool   `json:"consentComplete"` // both players granted training consent
	TraceProtocol   string `json:"traceProtocol"`   // svc.gameplay.v1
	CaptureProtocol string `json:"captureProtocol"` // svc.capture.v1
}

// LiveMatch is the caller's live match as returned by discovery (spec
// 2.1). Unknown fields sent by newer servers are ignored.
type LiveMatch struct {
	MatchID int64 `json:"matchId"`
	// GameSeed is the fairness seed of an organized match; 0 means absent
	// (a casual session, the game uses its own seed).
	GameSeed           int64      `json:"gameSeed,omitempty"`
	Slot               int        `json:"slot"` // the caller's side: 1 or 2
	SessionNonce       string     `json:"sessionNonce"`
	P1PlatformID       string     `json:"p1PlatformId"` // slot-1 side (captain in team mode)
	P2PlatformID       string     `json:"p2PlatformId"` // slot-2 side (captain in team mode)
	OpponentPlatformID string     `json:"opponentPlatformId"`
	Tournament         Tournament `json:"tournament"`
	WindowClosesAt     string     `json:"windowClosesAt"` // ISO-8601 UTC
	AllowSpectators    bool       `json:"allowSpectators"`
	Cast               Cast       `json:"cast"`
	Casters            []Caster   `json:"casters"`
	CasterPlatformID   *string    `json:"casterPlatformId"` // mirrors casters[0]; nil when none
	StreamURL          *string    `json:"streamUrl"`        // mirrors casters[0]; nil when none
	P1Roster           []string   `json:"p1Roster"`
	P2Roster           []string   `json:"p2Roster"`
	TeamMinPlayers     int        `json:"teamMinPlayers"`
	TeamMaxPlayers     int        `json:"teamMaxPlayers"`
	ResultProtocol     string     `json:"resultProtocol"`
	RefereeM0          *RefereeM0 `json:"refereeM0,omitempty"` // nil: do not trace or capture
	Series
}

// Series is where a match's series stands, as discovery shows it
// (docs/series.md): Game is the game being (or next to be) played, from 1;
// BestOf the series' length (1 for a single match; 0 from an arena that
// predates series, read as 1); SeriesScore the games each side won so far.
type Series struct {
	Game        int         `json:"game"`
	BestOf      int         `json:"bestOf"`
	SeriesScore SeriesScore `json:"seriesScore"`
}

// IsSeries reports whether the match is played as a series of more than
// one game.
func (s Series) IsSeries() bool { return s.BestOf > 1 }

// SeriesScore is the games each side has won in a series, slot order.
type SeriesScore struct {
	P1 int `json:"p1"`
	P2 int `json:"p2"`
}

// IsCasual reports whether the match has no fairness seed (gameSeed 0 or
// absent): the game then seeds the session itself.
func (m *LiveMatch) IsCasual() bool { return m.GameSeed == 0 }

// CastPolicy returns the hand mode, treating an empty or absent one as
// HandHidden.
func (m *LiveMatch) CastPolicy() string {
	if m.Cast.HandMode == "" {
		return HandHidden
	}
	return m.Cast.HandMode
}

// IsTeam reports whether the match belongs to a team tournament
// (teamMaxPlayers > 1).
func (m *LiveMatch) IsTeam() bool { return m.TeamMaxPlayers > 1 }

// Valid reports whether the client can report a result on m: it has a
// positive matchId, a sessionNonce, slot 1 or 2, and resultProtocol
// svc.result.v3. WaitForLiveMatch keeps polling past invalid matches.
func (m *LiveMatch) Valid() bool {
	return m != nil && m.MatchID > 0 && m.SessionNonce != "" &&
		(m.Slot == 1 || m.Slot == 2) && m.ResultProtocol == ResultProtocol
}

// Side returns the side (1 or 2) accountID plays on, or 0 when on
// neither. In 1v1 the sides are p1PlatformId and p2PlatformId; in team
// mode they are the rosters. An empty id is on no side.
func (m *LiveMatch) Side(accountID string) int {
	if accountID == "" {
		return 0
	}
	if m.IsTeam() {
		switch {
		case slices.Contains(m.P1Roster, accountID):
			return 1
		case slices.Contains(m.P2Roster, accountID):
			return 2
		}
		return 0
	}
	switch accountID {
	case m.P1PlatformID:
		return 1
	case m.P2PlatformID:
		return 2
	}
	return 0
}

// UpcomingMatch is the caller's next match before it goes live (spec
// 2.2). The spec names these fields without types; the types here are
// the natural ones (ids as numbers, flags as booleans, times as strings).
type UpcomingMatch struct {
	MatchID            int64      `json:"matchId"`
	Slot               int        `json:"slot"`
	OpponentPlatformID string     `json:"opponentPlatformId"`
	OpponentName       string     `json:"opponentName"`
	Tournament         Tournament `json:"tournament"`
	WindowOpensAt      string     `json:"windowOpensAt"`
	WindowClosesAt     string     `json:"windowClosesAt"`
	WindowOpen         bool       `json:"windowOpen"`
	SelfReady          bool       `json:"selfReady"`
	OpponentReady      bool       `json:"opponentReady"`
	Series
}

// ReadyState is the answer to a ready call: Live is true once both sides
// are ready and the match went live.
type ReadyState struct {
	Status        string `json:"status"`
	Live          bool   `json:"live"`
	OpponentReady bool   `json:"opponentReady"`
}

// PublicPlayer is a player object of the public API (spec 2.4).
type PublicPlayer struct {
	PlatformID  string `json:"platformId"`
	PersonaName string `json:"personaName"`
	AvatarURL   string `json:"avatarUrl"`
}

// Score is a match's score in slot order: the public match's score and
// the optional score metadata of a submission (never hashed).
type Score struct {
	P1 int64 `json:"p1"`
	P2 int64 `json:"p2"`
}

// PublicMatch is the public match object of GET /api/v1/matches/{id}
// (spec 2.4's match object plus its tournament, nil for a title match).
type PublicMatch struct {
	ID           int64         `json:"id"`
	Stage        string        `json:"stage"`
	Round        string        `json:"round"`
	BracketSlot  *string       `json:"bracketSlot"`
	Status       string        `json:"status"`
	OpensAt      string        `json:"opensAt"`
	ClosesAt     string        `json:"closesAt"`
	Player1      *PublicPlayer `json:"player1"`
	Player2      *PublicPlayer `json:"player2"`
	Winner       *PublicPlayer `json:"winner"`
	Score        *Score        `json:"score"`
	ResultSource *string       `json:"resultSource"`
	Tournament   *Tournament   `json:"tournament"`
	BestOf       int           `json:"bestOf"`
	SeriesScore  SeriesScore   `json:"seriesScore"`
	// Games are the decided games, then the game under way (winner nil).
	// A best of 1 lists its one game once it went live.
	Games []Game `json:"games"`
}

// Game is one game of a match's series as the public match shows it.
type Game struct {
	Game         int           `json:"game"` // from 1
	Status       string        `json:"status"`
	Winner       *PublicPlayer `json:"winner"` // nil while the game is undecided
	ResultSource *string       `json:"resultSource"`
	Score        *Score        `json:"score"`
	DecidedAt    *string       `json:"decidedAt"`
}

// DecidedGame returns game n when it is decided (has a winner), else nil.
func (m *PublicMatch) DecidedGame(n int) *Game {
	for i := range m.Games {
		if g := &m.Games[i]; g.Game == n && g.Winner != nil {
			return g
		}
	}
	return nil
}

// side returns the slot (1 or 2) of a player named in the public match,
// 0 when it names neither (the public match names the captains only).
func (m *PublicMatch) side(id string) int {
	switch {
	case id == "":
	case m.Player1 != nil && id == m.Player1.PlatformID:
		return 1
	case m.Player2 != nil && id == m.Player2.PlatformID:
		return 2
	}
	return 0
}

// Decided reports whether the match is resolved: confirmed or forfeited.
func (m *PublicMatch) Decided() bool {
	return core.MatchStatus(m.Status).Resolved()
}

// ParseMatchID reads a match id as the command lines take it: decimal
// digits without a sign or a leading zero ([1-9][0-9]*), within int64.
// "042" is refused, never read as octal 34 (nor "0x2a" as 42).
func ParseMatchID(s string) (int64, bool) {
	if s == "" || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// add counts a game won by side (1 or 2); any other side changes nothing.
func (s *SeriesScore) add(side int) {
	switch side {
	case 1:
		s.P1++
	case 2:
		s.P2++
	}
}
