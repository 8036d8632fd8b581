// Package discordbot answers the arena's Discord interactions (Discord's
// documented wire format, HTTP interactions: no gateway): PING, the
// slash commands /arena next, /arena checkin, /arena bracket and /arena
// standings, and the tournament option's autocomplete. An answer is made
// from the arena's own reads within the request, well inside Discord's 3
// seconds; one that takes longer (a slow database) is deferred and
// finished after the answer (worker/server/discord.go). Names a player
// typed are never turned into mentions (allowed_mentions is empty).
package discordbot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"arena/core"
	"arena/core/tournamentview"
	"arena/i18n"
)

// Interaction types and the callback types answering them.
const (
	TypePing         = 1
	TypeCommand      = 2
	TypeAutocomplete = 4

	CallbackPong         = 1
	CallbackMessage      = 4 // CHANNEL_MESSAGE_WITH_SOURCE
	CallbackDeferred     = 5 // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
	CallbackAutocomplete = 8 // APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
)

// FlagEphemeral makes a message seen only by whoever ran the command.
const FlagEphemeral = 1 << 6

// Option types of the command's definition.
const (
	optionSubcommand = 1
	optionString     = 3
)

// maxContent is the length Discord takes in a message's content (2000
// characters; counted in bytes here, which is never more).
const maxContent = 2000

// Interaction is what Discord posts (the fields Arena reads).
type Interaction struct {
	ID            string `json:"id"`
	ApplicationID string `json:"application_id"`
	Type          int    `json:"type"`
	Token         string `json:"token"`
	GuildID       string `json:"guild_id,omitempty"`
	Data          *struct {
		Name    string   `json:"name"`
		Options []Option `json:"options"`
	} `json:"data,omitempty"`
	Member *struct {
		User User `json:"user"`
	} `json:"member,omitempty"`
	User *User `json:"user,omitempty"`
}

// Option is a command option as given.
type Option struct {
	Name    string          `json:"name"`
	Type    int             `json:"type"`
	Value   json.RawMessage `json:"value,omitempty"`
	Options []Option        `json:"options,omitempty"`
	Focused bool            `json:"focused,omitempty"`
}

// User is a Discord user.
type User = core.DiscordUser

// Invoker is who ran the interaction: the guild member's user, or the
// user of a direct message.
func (in *Interaction) Invoker() User {
	if in.Member != nil {
		return in.Member.User
	}
	if in.User != nil {
		return *in.User
	}
	return User{}
}

// Response is the interaction's answer.
type Response struct {
	Type int      `json:"type"`
	Data *Message `json:"data,omitempty"`
}

// Message is an answer's message, or an autocomplete's choices.
type Message struct {
	Content         string           `json:"content,omitempty"`
	Flags           int              `json:"flags,omitempty"`
	AllowedMentions *AllowedMentions `json:"allowed_mentions,omitempty"`
	Choices         []Choice         `json:"choices,omitempty"`
}

// AllowedMentions limits what a message pings: Arena pings nobody.
type AllowedMentions struct {
	Parse []string `json:"parse"`
}

// Choice is one autocomplete choice.
type Choice struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Store is what the commands read and write: the caller's linked
// account and matches, the tournaments, their read model, and check-in.
type Store interface {
	core.CheckInStore
	tournamentview.Store
	// DiscordLinkOf returns the platform account the Discord user linked,
	// "" when none.
	DiscordLinkOf(ctx context.Context, discordUserID string) (string, error)
	// PlayerMatches returns the decided matches (both sides known) in the
	// given statuses of every side the player is on, earliest window first.
	PlayerMatches(ctx context.Context, platformID string, statuses ...core.MatchStatus) ([]core.MatchState, error)
	// Tournaments lists the arena's tournaments (public ones unless
	// withDrafts), in the store's order.
	Tournaments(ctx context.Context, withDrafts bool) ([]core.Tournament, error)
}

// Command is the one slash command Arena registers, with its four
// subcommands: Discord's application command object, as PUT to the
// application's commands.
func Command() []map[string]any {
	tournament := map[string]any{"type": optionString, "name": "tournament", "description": "The tournament's name or slug",
		"required": true, "autocomplete": true, "max_length": 100}
	optional := map[string]any{"type": optionString, "name": "tournament", "description": "The tournament (the one whose check-in is open when left out)",
		"required": false, "autocomplete": true, "max_length": 100}
	return []map[string]any{{
		"name": "arena", "type": 1, "description": "This arena's tournaments",
		"options": []map[string]any{
			{"type": optionSubcommand, "name": "next", "description": "Your next match"},
			{"type": optionSubcommand, "name": "checkin", "description": "Check in for your tournament", "options": []any{optional}},
			{"type": optionSubcommand, "name": "bracket", "description": "Where a tournament's bracket stands", "options": []any{tournament}},
			{"type": optionSubcommand, "name": "standings", "description": "A tournament's standings", "options": []any{tournament}},
		},
	}}
}

// Answer answers an interaction that verified (core.VerifyDiscordRequest)
// for arena a at now.
func Answer(ctx context.Context, st Store, a *core.Arena, in *Interaction, now time.Time) (Response, error) {
	switch in.Type {
	case TypePing:
		return Response{Type: CallbackPong}, nil
	case TypeAutocomplete:
		return autocomplete(ctx, st, in)
	case TypeCommand:
	default:
		return say("Arena answers its slash commands only.", true), nil
	}
	if in.Data == nil || in.Data.Name != "arena" || len(in.Data.Options) == 0 {
		return say("Unknown command: try /arena next.", true), nil
	}
	sub := in.Data.Options[0]
	b := bot{st: st, a: a, now: now, origin: core.ArenaOrigin(a)}
	switch sub.Name {
	case "next":
		return b.next(ctx, in.Invoker())
	case "checkin":
		return b.checkIn(ctx, in.Invoker(), optionValue(sub.Options, "tournament"))
	case "bracket":
		return b.bracket(ctx, optionValue(sub.Options, "tournament"))
	case "standings":
		return b.standings(ctx, optionValue(sub.Options, "tournament"))
	}
	return say("Unknown command: try /arena next.", true), nil
}

// Deferred is the answer to a command that is finished later: "thinking"
// where its answer will show (privately for next and checkin).
func Deferred(in *Interaction) Response {
	m := &Message{}
	if in.Data != nil && len(in.Data.Options) > 0 {
		if sub := in.Data.Options[0].Name; sub == "next" || sub == "checkin" {
			m.Flags = FlagEphemeral
		}
	}
	return Response{Type: CallbackDeferred, Data: m}
}

// Failed is what a deferred command is finished with when it could not
// be answered.
func Failed() Response {
	return say("Arena could not answer just now. Please try again in a moment.", true)
}

// bot is one command's context.
type bot struct {
	st     Store
	a      *core.Arena
	now    time.Time
	origin string
}

// say is a message answer; ephemeral ones only the invoker sees.
func say(content string, ephemeral bool) Response {
	m := &Message{Content: core.ClipBytes(content, maxContent), AllowedMentions: &AllowedMentions{Parse: []string{}}}
	if ephemeral {
		m.Flags = FlagEphemeral
	}
	return Response{Type: CallbackMessage, Data: m}
}

// optionValue is a string option's value, "" when absent.
func optionValue(opts []Option, name string) string {
	for _, o := range opts {
		if o.Name == name {
			var s string
			if json.Unmarshal(o.Value, &s) == nil {
				return strings.TrimSpace(s)
			}
		}
	}
	return ""
}

// stamp is a time as Discord shows it in each reader's own zone and
// language: the date and time, and how far away it is.
func stamp(t time.Time) string {
	return fmt.Sprintf("<t:%d:f> (<t:%d:R>)", t.Unix(), t.Unix())
}

// linked is the invoker's platform account, or the answer telling them
// to link it first.
func (b bot) linked(ctx context.Context, u User) (string, *Response, error) {
	id, err := b.st.DiscordLinkOf(ctx, u.ID)
	if err != nil || id != "" {
		return id, nil, err
	}
	r := say(fmt.Sprintf("Link your Discord account to your %s account first: %s/account#discord", b.a.Name, b.origin), true)
	return "", &r, nil
}

// next answers /arena next: the invoker's live match, else their next
// scheduled one.
func (b bot) next(ctx context.Context, u User) (Response, error) {
	id, ask, err := b.linked(ctx, u)
	if err != nil || ask != nil {
		return deref(ask), err
	}
	matches, err := b.st.PlayerMatches(ctx, id, core.MatchLive, core.MatchAwaitingResult, core.MatchScheduled)
	if err != nil {
		return Response{}, err
	}
	var best *core.MatchState
	for i := range matches {
		m := &matches[i]
		if m.Status == core.MatchScheduled && !b.now.Before(m.ClosesAt) {
			continue
		}
		if best == nil || (m.Status != core.MatchScheduled && best.Status == core.MatchScheduled) ||
			(m.Status == best.Status && m.OpensAt.Before(best.OpensAt)) {
			best = m
		}
	}
	if best == nil {
		return say(fmt.Sprintf("You have no match coming up in %s.", b.a.Name), true), nil
	}
	opponent := best.P2Name
	if best.SideOf(id) == 2 {
		opponent = best.P1Name
	}
	if opponent == "" {
		opponent = "TBD"
	}
	link := fmt.Sprintf("%s/matches/%d", b.origin, best.ID)
	var line string
	switch {
	case best.Status != core.MatchScheduled:
		line = fmt.Sprintf("You are playing %s now in %s (%s). %s", opponent, best.Tournament.Name, best.Round, link)
	case b.now.Before(best.OpensAt):
		line = fmt.Sprintf("Your next match: against %s in %s (%s). The window opens %s. %s", opponent, best.Tournament.Name, best.Round, stamp(best.OpensAt), link)
	default:
		line = fmt.Sprintf("Your next match: against %s in %s (%s). The window is open: ready up before it closes %s. %s", opponent, best.Tournament.Name, best.Round, stamp(best.ClosesAt), link)
	}
	return say(line, true), nil
}

// checkIn answers /arena checkin: the invoker's side checked in to the
// tournament named, or to every tournament of theirs whose check-in is
// open.
func (b bot) checkIn(ctx context.Context, u User, named string) (Response, error) {
	id, ask, err := b.linked(ctx, u)
	if err != nil || ask != nil {
		return deref(ask), err
	}
	var tours []core.Tournament
	if named != "" {
		t, err := b.find(ctx, named)
		if core.ErrorCode(err) == core.CodeTournamentNotFound {
			return say(fmt.Sprintf("There is no tournament %q in %s.", named, b.a.Name), true), nil
		}
		if err != nil {
			return Response{}, err
		}
		tours = []core.Tournament{*t.Tournament}
	} else {
		all, err := b.st.Tournaments(ctx, false)
		if err != nil {
			return Response{}, err
		}
		for _, t := range all {
			if t.CheckInOpenAt(b.now) {
				tours = append(tours, t)
			}
		}
	}
	var lines []string
	for i := range tours {
		t := &tours[i]
		err := core.CheckIn(ctx, b.st, t, id, b.now)
		switch code := core.ErrorCode(err); {
		case err == nil:
			lines = append(lines, fmt.Sprintf("You are checked in for %s. It starts %s.", t.Name, stamp(t.StartsAt)))
		case code == core.CodeNotRegistered && named == "":
			// Not theirs: nothing to say.
		case code == core.CodeNotRegistered:
			lines = append(lines, fmt.Sprintf("You are not registered in %s.", t.Name))
		case code == core.CodeCheckInClosed:
			lines = append(lines, fmt.Sprintf("%s takes no check-in now.", t.Name))
		default:
			return Response{}, err
		}
	}
	if len(lines) == 0 {
		return say("None of your tournaments has check-in open right now.", true), nil
	}
	return say(strings.Join(lines, "\n"), true), nil
}

// find reads the public tournament a user named: its slug, or its name
// (any case).
func (b bot) find(ctx context.Context, named string) (*tournamentview.Tournament, error) {
	v, err := tournamentview.Read(ctx, b.st, strings.ToLower(named))
	if core.ErrorCode(err) != core.CodeTournamentNotFound {
		return v, err
	}
	all, err := b.st.Tournaments(ctx, false)
	if err != nil {
		return nil, err
	}
	for _, t := range all {
		if strings.EqualFold(t.Name, named) {
			return tournamentview.Read(ctx, b.st, t.Slug)
		}
	}
	return nil, core.Errorf(core.CodeTournamentNotFound, "%q", named)
}

// bracket answers /arena bracket: the tournament's status and where it
// stands (the bracket's current round, or the group or Swiss matches
// still to play), for everyone in the channel.
func (b bot) bracket(ctx context.Context, named string) (Response, error) {
	return b.about(ctx, named, func(v *tournamentview.Tournament) []string {
		var lines []string
		if v.Bracket != nil {
			col := currentColumn(v.Bracket)
			lines = append(lines, col.Label+":")
			for _, box := range col.Boxes {
				lines = append(lines, "- "+b.matchLine(v, box.Match))
			}
		} else if open := undecided(v); len(open) > 0 {
			lines = append(lines, "Matches to play:")
			for i, m := range open {
				if i == 8 {
					lines = append(lines, fmt.Sprintf("- and %d more", len(open)-i))
					break
				}
				lines = append(lines, "- "+b.matchLine(v, m))
			}
		} else if v.Status == core.StatusRegistrationOpen || v.Status == core.StatusRegistrationClosed {
			lines = append(lines, fmt.Sprintf("%d registered; it starts %s.", len(v.Registrations), stamp(v.StartsAt)))
		}
		if len(v.Podium) > 0 {
			lines = append(lines, podiumLine(v))
		}
		return lines
	})
}

// about answers a public command about the tournament named: its name
// and status, the lines lines makes, and its page, for the channel (or,
// privately, that there is no such tournament).
func (b bot) about(ctx context.Context, named string, lines func(v *tournamentview.Tournament) []string) (Response, error) {
	v, err := b.find(ctx, named)
	if core.ErrorCode(err) == core.CodeTournamentNotFound {
		return say(fmt.Sprintf("There is no tournament %q in %s.", named, b.a.Name), true), nil
	}
	if err != nil {
		return Response{}, err
	}
	out := []string{fmt.Sprintf("**%s**: %s.", v.Name, core.TournamentStatusWords(i18n.For(i18n.DefaultLocale), v.Status))}
	out = append(append(out, lines(v)...), fmt.Sprintf("%s/tournaments/%s", b.origin, v.Slug))
	return say(strings.Join(out, "\n"), false), nil
}

// undecided are a group or Swiss stage's matches still to decide, in the
// stage's order.
func undecided(v *tournamentview.Tournament) []*core.Match {
	var out []*core.Match
	for _, g := range v.Groups {
		for _, m := range g.Matches {
			if !m.Status.Resolved() {
				out = append(out, m)
			}
		}
	}
	if v.Swiss != nil {
		for i := range v.Swiss.Matches {
			if m := &v.Swiss.Matches[i]; !m.Status.Resolved() {
				out = append(out, m)
			}
		}
	}
	return out
}

// currentColumn is the bracket's first column with a match to decide,
// else its last.
func currentColumn(br *tournamentview.Bracket) tournamentview.Column {
	for _, c := range br.Columns {
		for _, box := range c.Boxes {
			if box.Match != nil && !box.Match.Status.Resolved() {
				return c
			}
		}
	}
	return br.Columns[len(br.Columns)-1]
}

// matchLine says one match: the sides and the result or the state.
func (b bot) matchLine(v *tournamentview.Tournament, m *core.Match) string {
	if m == nil {
		return "to be decided"
	}
	name := func(id string) string {
		if id == "" {
			return "TBD"
		}
		return v.Players.Named(id).PersonaName
	}
	vs := name(m.P1) + " vs " + name(m.P2)
	switch {
	case m.Status.Resolved() && m.Winner != "":
		return fmt.Sprintf("%s: %s won", vs, name(m.Winner))
	case m.Status == core.MatchLive || m.Status == core.MatchAwaitingResult:
		return vs + ": live now"
	case m.Status == core.MatchDisputed:
		return vs + ": disputed, the admin decides"
	case m.P1 != "" && m.P2 != "":
		return fmt.Sprintf("%s: window opens %s", vs, stamp(m.OpensAt))
	}
	return vs
}

// podiumLine says a completed tournament's podium.
func podiumLine(v *tournamentview.Tournament) string {
	var parts []string
	for _, p := range v.Podium {
		parts = append(parts, fmt.Sprintf("%d. %s", p.Rank, v.Players.Named(p.PlayerID).PersonaName))
	}
	return "Podium: " + strings.Join(parts, ", ")
}

// standings answers /arena standings: the group tables or the Swiss
// standings (the top of each), or the podium.
func (b bot) standings(ctx context.Context, named string) (Response, error) {
	return b.about(ctx, named, func(v *tournamentview.Tournament) []string {
		var lines []string
		const top = 8
		for _, g := range v.Groups {
			lines = append(lines, "Group "+g.Name+":")
			for _, s := range g.Standings[:min(top, len(g.Standings))] {
				lines = append(lines, standingLine(v, s.Rank, s.PlayerID, s.Wins, s.Losses, s.Points))
			}
		}
		if v.Swiss != nil {
			for _, s := range v.Swiss.Standings[:min(top, len(v.Swiss.Standings))] {
				lines = append(lines, standingLine(v, s.Rank, s.PlayerID, s.Wins, s.Losses, s.Points))
			}
		}
		if len(v.Podium) > 0 {
			lines = append(lines, podiumLine(v))
		}
		if len(lines) == 0 {
			lines = append(lines, "No standings yet: an elimination bracket ranks its players at the end.")
		}
		return lines
	})
}

// standingLine is one line of a table: "1. Ada: 3 W 0 L, 9 pts".
func standingLine(v *tournamentview.Tournament, rank int, id string, wins, losses, points int) string {
	return fmt.Sprintf("%d. %s: %d W %d L, %d pts", rank, v.Players.Named(id).PersonaName, wins, losses, points)
}

// autocomplete offers the public tournaments whose name or slug holds
// what the user typed, from the end of the store's list (at most 25,
// Discord's limit).
func autocomplete(ctx context.Context, st Store, in *Interaction) (Response, error) {
	typed := ""
	if in.Data != nil && len(in.Data.Options) > 0 {
		for _, o := range in.Data.Options[0].Options {
			if o.Focused {
				_ = json.Unmarshal(o.Value, &typed)
			}
		}
	}
	typed = strings.ToLower(strings.TrimSpace(typed))
	all, err := st.Tournaments(ctx, false)
	if err != nil {
		return Response{}, err
	}
	choices := []Choice{}
	for i := len(all) - 1; i >= 0 && len(choices) < 25; i-- {
		t := all[i]
		if strings.Contains(strings.ToLower(t.Name), typed) || strings.Contains(t.Slug, typed) {
			choices = append(choices, Choice{Name: clip(t.Name, 100), Value: t.Slug})
		}
	}
	return Response{Type: CallbackAutocomplete, Data: &Message{Choices: choices}}, nil
}

// clip cuts s to at most n characters (a choice's name has 100).
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// deref is the answer a helper made, or none.
func deref(r *Response) Response {
	if r == nil {
		return Response{}
	}
	return *r
}
