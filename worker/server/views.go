package server

import (
	"time"

	"arena/core"
	"arena/core/tournamentview"
)

// The public API's JSON objects (spec 2.4). Clients must tolerate extra
// fields, so objects may carry more than the spec lists.

type tournamentSummary struct {
	Slug                 string `json:"slug"`
	Name                 string `json:"name"`
	Description          string `json:"description"`
	Status               string `json:"status"`
	Format               string `json:"format"`
	RegistrationOpensAt  string `json:"registrationOpensAt"`
	RegistrationClosesAt string `json:"registrationClosesAt"`
	StartsAt             string `json:"startsAt"`
	MaxPlayers           int    `json:"maxPlayers"`
}

type tournamentFull struct {
	tournamentSummary
	PlayerCount int                 `json:"playerCount"`
	Players     []tournamentPlayer  `json:"players"`
	Groups      []groupView         `json:"groups"`
	Bracket     []bracketColumnView `json:"bracket"`
	Podium      []podiumView        `json:"podium"`
	// Swiss is a Swiss tournament's progress (its standings and matches
	// are its one group, "Swiss"); absent for other formats.
	Swiss *swissView `json:"swiss,omitempty"`
	// GrandFinalReset says whether a double elimination plays GF2 when the
	// losers' champion wins the grand final; absent for other formats.
	GrandFinalReset *bool `json:"grandFinalReset,omitempty"`
	// CheckInMinutes is how long before startsAt check-in opens (0: no
	// check-in).
	CheckInMinutes int `json:"checkInMinutes"`
	// GroupFormat is how groups_playoffs plays its groups (round_robin or
	// gsl); absent for other formats.
	GroupFormat string `json:"groupFormat,omitempty"`
	// BestOf, GroupBestOf and FinalBestOf are the series' lengths of its
	// playoff, group (and Swiss and round-robin) and final matches.
	BestOf      int `json:"bestOf"`
	GroupBestOf int `json:"groupBestOf"`
	FinalBestOf int `json:"finalBestOf"`
	// Pacing is scheduled or asap.
	Pacing string `json:"pacing"`
	// GracePeriodMinutes is the tournament's own grace period (0: the
	// arena's).
	GracePeriodMinutes int `json:"gracePeriodMinutes"`
}

// tournamentPlayer is a registered side's player object; while check-in
// applies (core.Tournament.CheckInApplies) it says whether the side
// checked in.
type tournamentPlayer struct {
	*core.PlayerProfile
	CheckedIn *bool `json:"checkedIn,omitempty"`
}

// swissView is a Swiss stage's progress: the rounds it plays, the round
// paired last (0 before the draw), the top cut (0: none).
type swissView struct {
	Rounds int `json:"rounds"`
	Round  int `json:"round"`
	TopCut int `json:"topCut"`
}

// swissGroupName names the one group a Swiss stage shows as.
const swissGroupName = "Swiss"

type groupView struct {
	Name      string         `json:"name"`
	Standings []standingView `json:"standings"`
	Matches   []matchView    `json:"matches"`
}

type standingView struct {
	Rank        int                 `json:"rank"`
	Player      *core.PlayerProfile `json:"player"`
	Played      int                 `json:"played"`
	Wins        int                 `json:"wins"`
	Losses      int                 `json:"losses"`
	ScoreDiff   int                 `json:"scoreDiff"`
	Points      int                 `json:"points"`
	SeparatedBy string              `json:"separatedBy"`
	// Swiss standings only: byes and the tie-breaks.
	Byes            *int `json:"byes,omitempty"`
	Buchholz        *int `json:"buchholz,omitempty"`
	SonnebornBerger *int `json:"sonnebornBerger,omitempty"`
}

type matchView struct {
	ID           int64               `json:"id"`
	Stage        string              `json:"stage"`
	Round        string              `json:"round"`
	BracketSlot  *string             `json:"bracketSlot"`
	Status       string              `json:"status"`
	OpensAt      string              `json:"opensAt"`
	ClosesAt     string              `json:"closesAt"`
	Player1      *core.PlayerProfile `json:"player1"`
	Player2      *core.PlayerProfile `json:"player2"`
	Winner       *core.PlayerProfile `json:"winner"`
	Score        *core.OutcomeScore  `json:"score"`
	ResultSource *string             `json:"resultSource"`
	BestOf       int                 `json:"bestOf"`
	SeriesScore  core.SeriesScore    `json:"seriesScore"`
	Games        []gameView          `json:"games"`
	// Casters and Streams (POV) are shown when the match has some.
	Casters []core.CasterView `json:"casters,omitempty"`
	Streams []matchStreamView `json:"streams,omitempty"`
}

type bracketColumnView struct {
	Label string `json:"label"`
	Side  string `json:"side"`
	// Section is a double elimination's part: winners, losers or
	// grand_final (absent for single elimination).
	Section string      `json:"section,omitempty"`
	Matches []matchView `json:"matches"`
}

type podiumView struct {
	Rank   int                 `json:"rank"`
	Player *core.PlayerProfile `json:"player"`
}

// isoTime formats a timestamp as the API shows it: ISO-8601 UTC.
func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optionalInt is n, or null for 0 (unset).
func optionalInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func summaryOf(t *core.Tournament) tournamentSummary {
	return tournamentSummary{
		Slug: t.Slug, Name: t.Name, Description: t.Description, Status: string(t.Status), Format: string(t.Format),
		RegistrationOpensAt: isoTime(t.RegistrationOpensAt), RegistrationClosesAt: isoTime(t.RegistrationClosesAt),
		StartsAt: isoTime(t.StartsAt), MaxPlayers: t.MaxPlayers,
	}
}

// playerBook names players as the API shows them
// (tournamentview.Players.Profile).
type playerBook tournamentview.Players

func (b playerBook) player(id string) *core.PlayerProfile {
	return tournamentview.Players(b).Profile(id)
}

func (b playerBook) match(m *core.Match) matchView {
	v := matchView{
		ID: m.ID, Stage: string(m.Stage), Round: m.Round, BracketSlot: optional(m.BracketSlot), Status: string(m.Status),
		OpensAt: isoTime(m.OpensAt), ClosesAt: isoTime(m.ClosesAt),
		Player1: b.player(m.P1), Player2: b.player(m.P2), Score: m.Score, ResultSource: optional(m.ResultSource),
		BestOf: m.SeriesLen(), SeriesScore: m.Series(), Games: []gameView{},
	}
	if m.Status.Resolved() {
		v.Winner = b.player(m.Winner)
	}
	for _, g := range m.GamesShown() {
		gv := gameViewOf(g)
		gv.Winner = b.player(g.Winner)
		v.Games = append(v.Games, gv)
	}
	return v
}

// gameView is one game of a match as the public API shows it (winner a
// player object) and the admin's (winner a platform id).
type gameView struct {
	Game         int                `json:"game"`
	Status       string             `json:"status"`
	Winner       any                `json:"winner"`
	ResultSource *string            `json:"resultSource"`
	Score        *core.OutcomeScore `json:"score"`
	DecidedAt    *string            `json:"decidedAt"`
}

// gameViewOf is g with its winner as a platform id (null while
// undecided).
func gameViewOf(g core.Game) gameView {
	v := gameView{Game: g.Game, Status: string(g.Status), ResultSource: optional(g.ResultSource), Score: g.Score}
	if g.Winner != "" {
		v.Winner = g.Winner
	}
	if g.DecidedAt != nil {
		at := isoTime(*g.DecidedAt)
		v.DecidedAt = &at
	}
	return v
}

// fullTournamentOf renders the read model as the spec's full tournament
// object: players, groups with standings, bracket columns and podium.
func fullTournamentOf(v *tournamentview.Tournament) *tournamentFull {
	t, book := v.Tournament, playerBook(v.Players)
	out := &tournamentFull{
		tournamentSummary: summaryOf(t), PlayerCount: len(v.Registrations),
		Players: make([]tournamentPlayer, 0, len(v.Registrations)), Groups: make([]groupView, 0, len(v.Groups)),
		Bracket: []bracketColumnView{}, Podium: make([]podiumView, 0, len(v.Podium)), CheckInMinutes: t.CheckInMinutes,
		BestOf: t.SeriesLength(core.StagePlayoff), GroupBestOf: t.SeriesLength(core.StageGroup),
		FinalBestOf: t.SeriesLength(core.StageFinal), Pacing: string(t.PacingOrDefault()),
		GracePeriodMinutes: t.GracePeriodMinutes,
	}
	if t.Format == core.FormatGroupsPlayoffs {
		out.GroupFormat = string(t.GroupFormat)
	}
	for _, r := range v.Registrations {
		p := tournamentPlayer{PlayerProfile: book.player(r.PlatformID)}
		if t.CheckInApplies() {
			in := r.CheckedInAt != nil
			p.CheckedIn = &in
		}
		out.Players = append(out.Players, p)
	}
	for _, g := range v.Groups {
		gv := groupView{Name: g.Name, Standings: make([]standingView, 0, len(g.Standings)), Matches: make([]matchView, 0, len(g.Matches))}
		for _, row := range g.Standings {
			gv.Standings = append(gv.Standings, standingView{
				Rank: row.Rank, Player: book.player(row.PlayerID), Played: row.Played, Wins: row.Wins,
				Losses: row.Losses, ScoreDiff: row.ScoreDiff, Points: row.Points, SeparatedBy: string(row.SeparatedBy),
			})
		}
		for _, m := range g.Matches {
			gv.Matches = append(gv.Matches, book.match(m))
		}
		out.Groups = append(out.Groups, gv)
	}
	switch t.Format {
	case core.FormatSwiss:
		out.Swiss = &swissView{Rounds: v.Swiss.Rounds, Round: v.Swiss.Round, TopCut: v.Swiss.TopCut}
		if len(v.Swiss.Matches) > 0 {
			out.Groups = append(out.Groups, swissGroup(v.Swiss, book))
		}
	case core.FormatDoubleElimination:
		out.GrandFinalReset = &t.GrandFinalReset
	}
	if v.Bracket != nil {
		for _, col := range v.Bracket.Columns {
			cv := bracketColumnView{Label: col.Label, Side: col.Side, Section: col.Section, Matches: make([]matchView, 0, len(col.Boxes))}
			for _, box := range col.Boxes {
				cv.Matches = append(cv.Matches, book.match(box.Match))
			}
			out.Bracket = append(out.Bracket, cv)
		}
	}
	for _, p := range v.Podium {
		out.Podium = append(out.Podium, podiumView{Rank: p.Rank, Player: book.player(p.PlayerID)})
	}
	return out
}

// swissGroup shows a Swiss stage as one group, "Swiss": its standings
// (with byes, Buchholz and Sonneborn-Berger) and every Swiss match, round
// by round.
func swissGroup(sw *tournamentview.Swiss, book playerBook) groupView {
	gv := groupView{Name: swissGroupName, Standings: make([]standingView, 0, len(sw.Standings)), Matches: make([]matchView, 0, len(sw.Matches))}
	for _, row := range sw.Standings {
		byes, buchholz, sb := row.Byes, row.Buchholz, row.SonnebornBerger
		gv.Standings = append(gv.Standings, standingView{
			Rank: row.Rank, Player: book.player(row.PlayerID), Played: row.Played, Wins: row.Wins, Losses: row.Losses,
			ScoreDiff: row.ScoreDiff, Points: row.Points, SeparatedBy: string(row.SeparatedBy),
			Byes: &byes, Buchholz: &buchholz, SonnebornBerger: &sb,
		})
	}
	for i := range sw.Matches {
		gv.Matches = append(gv.Matches, book.match(&sw.Matches[i]))
	}
	return gv
}
