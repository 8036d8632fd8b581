package core

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"arena/i18n"
)

// Alerts (spec 6). Whatever happens is first an Event in the arena's
// outbox, recorded with the state change that caused it and keyed so it
// happens once:
//
//   - a match decided (result_confirmed) or disputed (result_disputed): by
//     the deciding batch itself (the one decision path, decided.go);
//   - a match gone live (match_live) and a tournament's new status
//     (tournament_status): read from the match and tournament rows by the
//     scheduled job (ready and the lifecycle stay one statement each);
//   - an upcoming match (match_upcoming): stamped once per match through
//     upcomingAlertAt by the scheduled job, when its window opens within
//     the arena's lead time;
//   - a followed player streaming (player_streaming): by the live poll,
//     once per stream session;
//   - a caster invited (caster_invited) and a webhook turned off
//     (webhook_disabled): by the action that did it;
//   - a side withdrawn for not checking in (check_in_missed): by the
//     lifecycle step that withdrew it;
//   - a tournament's check-in opening (check_in_open): read from the
//     tournament rows by the scheduled job while the window is open, once
//     per tournament (by key), so once per registered player;
//   - a side ready while the other is not (opponent_ready) and a result
//     reported on the site (result_reported): read from the match rows
//     and the pending reports by the scheduled job, once per side and
//     per report, for the other side alone;
//   - a stale match, a window closing with nothing reported and a match
//     overdue that no closing alert told of (match_stale,
//     match_window_closing, match_overdue): stamped once per match by the
//     scheduled job (stale.go).
//
// The scheduled job then fans each pending event out (FanOutEvents): an
// alert in the inbox of every player it concerns, a queued delivery for
// each of their enabled webhooks and the arena's, and a push to each
// device of the people it speaks to in the second person (push.go).

// Event kinds.
const (
	EventMatchUpcoming    = "match_upcoming"
	EventMatchLive        = "match_live"
	EventResultConfirmed  = "result_confirmed"
	EventResultDisputed   = "result_disputed"
	EventTournamentStatus = "tournament_status"
	EventPlayerStreaming  = "player_streaming"
	EventCasterInvited    = "caster_invited"
	EventWebhookDisabled  = "webhook_disabled"
	// EventCheckInMissed: a side was withdrawn at the start for not
	// checking in (one per roster member, by the lifecycle's batch).
	EventCheckInMissed = "check_in_missed"
	// EventMatchStale and EventMatchWindowClosing tell the organizer of a
	// match that needs a look (stale.go), once each per match.
	EventMatchStale         = "match_stale"
	EventMatchWindowClosing = "match_window_closing"
	// EventMatchOverdue: a match past its window with nothing reported
	// that no window-closing alert told of (stale.go).
	EventMatchOverdue = "match_overdue"
	// EventCheckInOpen: a tournament's check-in window opened (read from
	// the tournament rows by the scheduled job, once per tournament); its
	// registered players hear of it.
	EventCheckInOpen = "check_in_open"
	// EventOpponentReady: one side of a scheduled match is ready and the
	// other is not (read from the match rows by the scheduled job, once
	// per match and side; Detail is the ready side); the other side hears
	// of it.
	EventOpponentReady = "opponent_ready"
	// EventResultReported: a side reported a result on the site (read
	// from the pending reports by the scheduled job, once per report;
	// Detail is the reporting side); the other side is asked to confirm.
	EventResultReported = "result_reported"
)

// sidesOnly reports whether an event of kind concerns only the match's
// sides (a prompt to one of them): the arena's webhook does not announce
// it.
func sidesOnly(kind string) bool {
	return kind == EventOpponentReady || kind == EventResultReported
}

// Event is one thing alerts are made of.
type Event struct {
	ID           int64
	Kind         string
	Key          string // happens once per key
	MatchID      int64
	TournamentID int64
	PlayerID     string // the player it is about (streaming, invited, webhook owner)
	Detail       string // a tournament's new status, a match's result status, a stream login
	CreatedAt    time.Time
}

// Alert is one event in a player's inbox.
type Alert struct {
	ID        int64
	Kind      string
	Title     string
	Path      string // the page it is about, on the arena's site
	CreatedAt time.Time
	Read      bool
}

// Upcoming-match alert lead time (arena setting upcomingAlertMinutes).
var UpcomingAlertMinutesRange = Range{Min: 0, Max: 24 * 60}

// DefaultUpcomingAlertMinutes: players hear of a match this long before
// its window opens, unless the arena sets another lead time.
const DefaultUpcomingAlertMinutes = 30

// SettingUpcomingAlertMinutes is the arena setting of the lead time.
const SettingUpcomingAlertMinutes = "upcoming_alert_minutes"

// fanOutBatch bounds the events one scheduled run fans out.
const fanOutBatch = 200

// EventRecorder records an event for the alert job to fan out.
type EventRecorder interface {
	// RecordEvent stores an event unless one with its key exists.
	RecordEvent(ctx context.Context, ev Event) error
}

// AlertStore is the alert job's part of the events, inboxes and follows:
// the events it records from state, the pending ones and who follows
// them, and their fan-out.
type AlertStore interface {
	// RecordStateEvents records match_live for matches live since `since`,
	// tournament_status for every public tournament's status,
	// check_in_open for every tournament whose check-in is open at `at`,
	// opponent_ready for every side ready since `since` whose opponent is
	// not, and result_reported for every report pending since `since`,
	// each once (by key).
	RecordStateEvents(ctx context.Context, since, at time.Time) error
	// StampUpcoming records match_upcoming for every scheduled match with
	// both sides known whose window opens by openBy and is not closed at
	// now, stamping upcomingAlertAt in the same batch: once per match.
	StampUpcoming(ctx context.Context, now, openBy time.Time) error
	// StampStale records match_stale for every live match that went live
	// by c.LiveBy (none when zero), match_window_closing for every
	// scheduled or live match with both sides known whose window closes
	// after c.Now and by c.ClosesBy, and match_overdue for every such
	// match whose window closed within OverdueAlertWithin before c.Now
	// with no closing alert, stamping each match in the same batch: once
	// per match and kind (overdue and closing share a stamp: one of the
	// two).
	StampStale(ctx context.Context, c StaleCutoffs) error
	// PendingEvents returns events not fanned out yet, oldest first.
	PendingEvents(ctx context.Context, limit int) ([]Event, error)
	// Followers returns who follows the tournament or any of the players.
	Followers(ctx context.Context, tournamentID int64, players []string) ([]string, error)
	// FanOut stores the event's title and path, an alert for each
	// recipient (with its own title, when it has one), the webhook
	// deliveries and a push to each device of each push target (unless
	// its person turned the kind off), and marks the event fanned out, in
	// one batch; running it again adds nothing.
	FanOut(ctx context.Context, f EventFanOut, at time.Time) error
}

// EventFanOut is what one event fans out to.
type EventFanOut struct {
	Event       Event
	Title, Path string
	Recipients  []string
	Personal    map[string]string // a recipient's own line, by platform id
	Deliveries  []WebhookDelivery
	Pushes      []PushTarget
}

// AlertJobStore is what the alert job reads and writes: the events and
// their fan-out, the webhooks of who hears of them, the matches,
// tournaments, sides and players they are about, the lead time and
// stale-match settings, and the arena's admins (who hear of what needs
// them). One value, the arena's store, serves it.
type AlertJobStore interface {
	AlertStore
	MatchStateReader
	TournamentReader
	RegistrationStore
	PlayerStore
	SettingStore
	// Webhooks returns the enabled webhooks of the owners.
	Webhooks(ctx context.Context, owners []string) ([]Webhook, error)
	// ArenaAdmins returns the platform ids of the arena's admins.
	ArenaAdmins(ctx context.Context) ([]string, error)
}

// RunAlerts is the scheduled job's alert step: record the events read
// from state (live matches, tournament statuses, upcoming matches within
// lead time, stale matches and windows closing soon), then fan every pending event out. It returns how many
// events it fanned out.
func RunAlerts(ctx context.Context, s AlertJobStore, a *Arena, now time.Time) (int, error) {
	if err := s.RecordStateEvents(ctx, now.Add(-24*time.Hour), now); err != nil {
		return 0, err
	}
	lead := DefaultUpcomingAlertMinutes
	if _, err := s.Setting(ctx, SettingUpcomingAlertMinutes, &lead); err != nil {
		return 0, err
	}
	if err := s.StampUpcoming(ctx, now, now.Add(time.Duration(lead)*time.Minute)); err != nil {
		return 0, err
	}
	stale, err := StaleMatchMinutes(ctx, s)
	if err != nil {
		return 0, err
	}
	if err := s.StampStale(ctx, StaleCutoffsAt(now, stale)); err != nil {
		return 0, err
	}
	return FanOutEvents(ctx, s, a, now)
}

// FanOutEvents fans out pending events: the inbox of every player the
// event concerns (see audience) and a delivery to each of their enabled
// webhooks and to the arena's (every event but a player's webhook being
// turned off).
func FanOutEvents(ctx context.Context, s AlertJobStore, a *Arena, now time.Time) (int, error) {
	events, err := s.PendingEvents(ctx, fanOutBatch)
	if err != nil || len(events) == 0 {
		return 0, err
	}
	done := 0
	for _, ev := range events {
		msg, recipients, err := describeFor(ctx, s, a, ev)
		if err != nil {
			return done, err
		}
		owners := append([]string{}, recipients...)
		if (ev.Kind != EventWebhookDisabled || ev.PlayerID == WebhookOwnerArena) && !sidesOnly(ev.Kind) {
			owners = append(owners, WebhookOwnerArena)
		}
		hooks, err := s.Webhooks(ctx, owners)
		if err != nil {
			return done, err
		}
		deliveries := make([]WebhookDelivery, 0, len(hooks))
		for _, h := range hooks {
			if h.Owner == WebhookOwnerArena && ev.Kind == EventWebhookDisabled && ev.PlayerID == WebhookOwnerArena {
				continue // the arena's own webhook just failed: it hears nothing
			}
			body, err := WebhookBody(a, ev, msg, h.Owner)
			if err != nil {
				return done, err
			}
			deliveries = append(deliveries, WebhookDelivery{Owner: h.Owner, EventID: ev.ID, URL: h.URL, Body: body, NextAttemptAt: now})
		}
		pushes, err := pushTargets(a, ev, msg)
		if err != nil {
			return done, err
		}
		f := EventFanOut{Event: ev, Title: msg.Title, Path: msg.Path, Recipients: recipients,
			Personal: msg.Personal, Deliveries: deliveries, Pushes: pushes}
		if err := s.FanOut(ctx, f, now); err != nil {
			return done, err
		}
		done++
	}
	return done, nil
}

// describeFor is describe in English, the words of the arena's webhooks
// and the title kept with the event, with what each person it reaches
// reads (Personal) in their own language (PlayerLocale): their own line,
// or the title, in it.
func describeFor(ctx context.Context, s AlertJobStore, a *Arena, ev Event) (eventMessage, []string, error) {
	msg, recipients, err := describe(ctx, s, ev, i18n.For(i18n.DefaultLocale))
	if err != nil || len(recipients)+len(msg.Push) == 0 {
		return msg, recipients, err
	}
	ids := append(slices.Collect(maps.Keys(msg.Push)), recipients...)
	profiles, err := s.Players(ctx, ids)
	if err != nil {
		return msg, nil, err
	}
	byLocale := map[string][]string{}
	for _, id := range ids {
		if l := PlayerLocale(a, profiles[id]); l != i18n.DefaultLocale {
			byLocale[l] = append(byLocale[l], id)
		}
	}
	for _, l := range slices.Sorted(maps.Keys(byLocale)) {
		theirs, _, err := describe(ctx, s, ev, i18n.For(l))
		if err != nil {
			return msg, nil, err
		}
		for _, id := range byLocale[l] {
			line, ok := theirs.Personal[id]
			if !ok {
				line = theirs.Title
			}
			msg.tell([]string{id}, line)
		}
	}
	return msg, recipients, nil
}

// eventMessage is what an event says: a line of text, the page it is
// about and, for a stream, where to watch. Personal holds what it says to
// the people it is about, in the second person ("You beat ..."), by
// platform id; everyone else (followers, webhooks) reads Title. Push
// holds who is pushed the event, and as which kind (push.go).
type eventMessage struct {
	Title      string
	Path       string
	WatchURL   string
	Tournament *Tournament
	Personal   map[string]string
	Push       map[string]PushKind
}

// push marks ids to be pushed the event as kind.
func (m *eventMessage) push(ids []string, kind PushKind) {
	if m.Push == nil {
		m.Push = map[string]PushKind{}
	}
	for _, id := range ids {
		if id != "" {
			m.Push[id] = kind
		}
	}
}

// tell gives each of ids its own line.
func (m *eventMessage) tell(ids []string, title string) {
	if m.Personal == nil {
		m.Personal = map[string]string{}
	}
	for _, id := range ids {
		m.Personal[id] = title
	}
}

// describe writes the event's message and picks its audience:
//   - match events: the players who follow the tournament or either side,
//     plus the sides' own players for upcoming, decided and disputed
//     matches (going live is their own doing);
//   - a tournament's new status: its followers;
//   - a tournament's check-in opening: every player of its sides;
//   - a dispute, a stale match, a window closing: also every admin of
//     the arena (its adminPlatformIds);
//   - a player streaming: the player's followers;
//   - an invitation to cast: the invited player;
//   - a webhook turned off: its owner (the arena's: its admins).
func describe(ctx context.Context, s AlertJobStore, ev Event, tx *i18n.Tr) (eventMessage, []string, error) {
	var msg eventMessage
	var who []string
	switch ev.Kind {
	case EventMatchUpcoming, EventMatchLive, EventResultConfirmed, EventResultDisputed, EventCasterInvited,
		EventMatchStale, EventMatchWindowClosing, EventMatchOverdue, EventOpponentReady, EventResultReported:
		st, err := s.MatchState(ctx, ev.MatchID)
		if err != nil {
			return msg, nil, err
		}
		names, err := s.Players(ctx, []string{st.P1, st.P2})
		if err != nil {
			return msg, nil, err
		}
		name := func(id string) string {
			if p, ok := names[id]; ok && p.PersonaName != "" {
				return isolate(tx, p.PersonaName)
			}
			if id == "" {
				return tx.T("alert.tbd")
			}
			return PlaceholderName(id)
		}
		t := st.Tournament
		msg.Tournament, msg.Path = &t, fmt.Sprintf("/matches/%d", st.ID)
		vs := tx.T("alert.vs", "P1", name(st.P1), "P2", name(st.P2))
		// each tells both sides their own line, naming the other side.
		each := func(line func(opponent string) string) {
			msg.tell(st.P1Roster, line(name(st.P2)))
			msg.tell(st.P2Roster, line(name(st.P1)))
		}
		// acting is the side named by the event's detail (1 or 2), other
		// the roster that hears of it.
		acting, other := st.P1, st.P2Roster
		if ev.Detail == "2" {
			acting, other = st.P2, st.P1Roster
		}
		switch ev.Kind {
		case EventOpponentReady:
			msg.Title = tx.T("alert.opponentReady", "Tournament", isolate(tx, t.Name), "Side", name(acting), "Match", vs)
			msg.tell(other, tx.T("alert.opponentReady.you", "Side", name(acting), "Tournament", isolate(tx, t.Name)))
			msg.push(other, PushOpponentReady)
			return msg, other, nil
		case EventResultReported:
			msg.Title = tx.T("alert.resultReported", "Tournament", isolate(tx, t.Name), "Match", vs)
			msg.tell(other, tx.T("alert.resultReported.you", "Side", name(acting), "Tournament", isolate(tx, t.Name)))
			msg.push(other, PushResultToConfirm)
			return msg, other, nil
		case EventMatchUpcoming:
			opens := tx.Time(st.OpensAt)
			msg.Title = tx.T("alert.upcoming", "Tournament", isolate(tx, t.Name), "Match", vs, "Opens", opens)
			each(func(o string) string {
				return tx.T("alert.upcoming.you", "Opponent", o, "Tournament", isolate(tx, t.Name), "Opens", opens)
			})
			if ev.CreatedAt.After(st.OpensAt) {
				// Recorded once the window was open already (a match whose
				// sides became known late, or a job that ran late).
				msg.Title = tx.T("alert.windowOpened", "Tournament", isolate(tx, t.Name), "Match", vs, "Opens", opens)
				each(func(o string) string {
					return tx.T("alert.windowOpened.you", "Tournament", isolate(tx, t.Name), "Opponent", o, "Opens", opens)
				})
			}
			msg.push(st.P1Roster, PushMatchWindow)
			msg.push(st.P2Roster, PushMatchWindow)
		case EventMatchLive:
			msg.Title = tx.T("alert.live", "Tournament", isolate(tx, t.Name), "Match", vs)
		case EventResultConfirmed:
			loser, won, lost := st.P2, st.P1Roster, st.P2Roster
			if st.Winner == st.P2 {
				loser, won, lost = st.P1, st.P2Roster, st.P1Roster
			}
			msg.Title = tx.T("alert.result", "Tournament", isolate(tx, t.Name), "Winner", name(st.Winner), "Loser", name(loser))
			if ev.Detail == string(MatchForfeited) {
				msg.Title = tx.T("alert.result.forfeit", "Tournament", isolate(tx, t.Name), "Winner", name(st.Winner), "Loser", name(loser))
			}
			if st.ResultSource == SourceAdmin {
				// The admin decided it (a dispute, an overdue match): the
				// sides are pushed the decision.
				msg.push(won, PushDisputeDecided)
				msg.push(lost, PushDisputeDecided)
			}
			switch {
			case ev.Detail == string(MatchForfeited):
				msg.tell(won, tx.T("alert.result.forfeit.won", "Opponent", name(loser), "Tournament", isolate(tx, t.Name)))
				msg.tell(lost, tx.T("alert.result.forfeit.lost", "Opponent", name(st.Winner), "Tournament", isolate(tx, t.Name)))
			default:
				msg.tell(won, tx.T("alert.result.won", "Opponent", name(loser), "Tournament", isolate(tx, t.Name)))
				msg.tell(lost, tx.T("alert.result.lost", "Opponent", name(st.Winner), "Tournament", isolate(tx, t.Name)))
			}
		case EventResultDisputed:
			msg.Title = tx.T("alert.disputed", "Tournament", isolate(tx, t.Name), "Match", vs)
			admins, err := s.ArenaAdmins(ctx)
			if err != nil {
				return msg, nil, err
			}
			who = admins
			msg.tell(admins, tx.T("alert.disputed.admin", "Tournament", isolate(tx, t.Name), "Match", vs))
			msg.push(admins, PushNeedsYou)
			each(func(o string) string {
				return tx.T("alert.disputed.you", "Opponent", o, "Tournament", isolate(tx, t.Name))
			})
		case EventCasterInvited:
			msg.Title = tx.T("alert.casterInvited", "Match", vs, "Tournament", isolate(tx, t.Name))
			return msg, []string{ev.PlayerID}, nil
		case EventMatchStale, EventMatchWindowClosing, EventMatchOverdue:
			msg.Path = fmt.Sprintf("/admin/matches/%d", st.ID)
			switch {
			case ev.Kind == EventMatchStale && st.LiveAt != nil:
				msg.Title = tx.T("alert.stale", "Tournament", isolate(tx, t.Name), "Match", vs, "At", tx.Time(*st.LiveAt))
			case ev.Kind == EventMatchOverdue:
				msg.Title = tx.T("alert.overdue", "Tournament", isolate(tx, t.Name), "Match", vs, "At", tx.Time(st.ClosesAt))
			default:
				msg.Title = tx.T("alert.windowClosing", "Tournament", isolate(tx, t.Name), "Match", vs, "At", tx.Time(st.ClosesAt))
			}
			ids, err := s.ArenaAdmins(ctx)
			msg.push(ids, PushNeedsYou)
			return msg, ids, err
		}
		followers, err := s.Followers(ctx, st.TournamentID, append(append([]string{}, st.P1Roster...), st.P2Roster...))
		if err != nil {
			return msg, nil, err
		}
		who = append(who, followers...)
		if ev.Kind != EventMatchLive {
			who = append(append(who, st.P1Roster...), st.P2Roster...)
		}
	case EventTournamentStatus:
		t, err := s.TournamentByID(ctx, ev.TournamentID)
		if err != nil {
			return msg, nil, err
		}
		msg.Tournament, msg.Path = t, "/tournaments/"+t.Slug
		msg.Title = tx.T("alert.status", "Tournament", isolate(tx, t.Name), "Status", TournamentStatusWords(tx, TournamentStatus(ev.Detail)))
		if who, err = s.Followers(ctx, t.ID, nil); err != nil {
			return msg, nil, err
		}
	case EventCheckInMissed:
		t, err := s.TournamentByID(ctx, ev.TournamentID)
		if err != nil {
			return msg, nil, err
		}
		name, err := playerName(ctx, s, ev.PlayerID)
		if err != nil {
			return msg, nil, err
		}
		msg.Tournament, msg.Path = t, "/tournaments/"+t.Slug
		msg.Title = tx.T("alert.checkInMissed", "Tournament", isolate(tx, t.Name), "Player", isolate(tx, name))
		who = []string{ev.PlayerID}
		msg.tell(who, tx.T("alert.checkInMissed.you", "Tournament", isolate(tx, t.Name)))
		msg.push(who, PushCheckIn)
	case EventCheckInOpen:
		t, err := s.TournamentByID(ctx, ev.TournamentID)
		if err != nil {
			return msg, nil, err
		}
		regs, err := s.Registrations(ctx, t.ID)
		if err != nil {
			return msg, nil, err
		}
		_, closes, _ := t.CheckInWindow()
		msg.Tournament, msg.Path = t, "/tournaments/"+t.Slug
		msg.Title = tx.T("alert.checkInOpen", "Tournament", isolate(tx, t.Name), "Closes", tx.Time(closes))
		for _, r := range regs {
			who = append(append(who, r.PlatformID), r.Roster...)
		}
		msg.push(who, PushCheckIn)
	case EventPlayerStreaming:
		name, err := playerName(ctx, s, ev.PlayerID)
		if err != nil {
			return msg, nil, err
		}
		msg.Path, msg.WatchURL = "/players/"+ev.PlayerID, StreamURL(ev.Detail)
		msg.Title = tx.T("alert.streaming", "Player", name, "URL", msg.WatchURL)
		if who, err = s.Followers(ctx, 0, []string{ev.PlayerID}); err != nil {
			return msg, nil, err
		}
	case EventWebhookDisabled:
		msg.Title = tx.T("alert.webhookOff")
		msg.Path = "/account"
		who = []string{ev.PlayerID}
		if ev.PlayerID == WebhookOwnerArena {
			msg.Title = tx.T("alert.webhookOff.arena")
			msg.Path = "/admin/settings"
			ids, err := s.ArenaAdmins(ctx)
			if err != nil {
				return msg, nil, err
			}
			who = ids
		}
	default:
		return msg, nil, fmt.Errorf("core: unknown event kind %q", ev.Kind)
	}
	slices.Sort(who)
	return msg, slices.Compact(slices.DeleteFunc(who, func(id string) bool { return id == "" })), nil
}

// isolate is a name a user typed as a sentence in tx's locale holds it:
// in a right-to-left locale between Unicode's first-strong isolate and
// its pop (the plain-text <bdi>), so that a name in another script does
// not reorder the sentence around it.
func isolate(tx *i18n.Tr, name string) string {
	if tx.Dir() == "rtl" {
		return "\u2068" + name + "\u2069"
	}
	return name
}

// TournamentStatusWords says a tournament status in words, as an alert's
// sentence holds it: "registration is open".
func TournamentStatusWords(tx *i18n.Tr, st TournamentStatus) string {
	if w := tx.T("alert.status." + string(st)); w != "alert.status."+string(st) {
		return w
	}
	return strings.ReplaceAll(string(st), "_", " ")
}

// playerName is how an alert names a player: the persona name the arena
// knows, else the placeholder name.
func playerName(ctx context.Context, s PlayerStore, id string) (string, error) {
	names, err := s.Players(ctx, []string{id})
	if err != nil {
		return "", err
	}
	if p, ok := names[id]; ok && p.PersonaName != "" {
		return p.PersonaName, nil
	}
	return PlaceholderName(id), nil
}
