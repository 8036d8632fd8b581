package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"arena/core"
)

// Notices are the flash messages of the players' actions: a successful
// action redirects (303) back to its page with ?notice=<code>, and the
// page's action box shows the code's message. Only these codes show
// anything, so a crafted link cannot put words on the page.
var noticeMessages = map[string]string{
	"registered":       "You are registered.",
	"withdrawn":        "You withdrew from the tournament.",
	"checked_in":       "You are checked in. The tournament starts at its start time.",
	"ready":            "You are ready. The match goes live when your opponent is ready too.",
	"live":             "Both sides are ready: the match is live. Good luck!",
	"reported":         "Result reported. Your opponent can confirm or dispute it.",
	"confirmed":        "You confirmed the result.",
	"disputed":         "You disputed the result: the arena's admin decides.",
	"confirm_disputed": "A game client reported another winner, so the match went to the arena's admin.",
	"volunteered":      "You volunteered. The coronation starts when a second player volunteers.",
	"coronation":       "You volunteered: the coronation match is on. Ready up on its page.",
	"challenged":       "Challenge sent. The holder has until the clock runs out to accept or decline.",
	"accepted":         "Challenge accepted: the title match is on. Ready up on its page.",
	"declined":         "Challenge declined. If the clock runs out with the challenge declined, you lose the title.",

	// Streams, follows, casters, alerts.
	"linked":            "Your channel is linked.",
	"unlinked":          "Your channel is unlinked.",
	"link_cancelled":    "Linking was cancelled at the provider; nothing changed.",
	"link_failed":       "The streaming provider could not confirm your channel. Please try again.",
	"link_taken":        "That channel is linked to another player of this arena.",
	"webhook_saved":     "Webhook saved.",
	"webhook_removed":   "Webhook removed.",
	"push_on":           "Notifications are on for this device.",
	"push_off":          "That device no longer gets notifications.",
	"push_kinds":        "Your choice of notifications is saved.",
	"discord_linked":    "Your Discord account is linked: /arena next and /arena checkin know you.",
	"discord_unlinked":  "Your Discord account is unlinked.",
	"discord_cancelled": "Linking was cancelled at Discord; nothing changed.",
	"followed":          "Followed: you will get this tournament's alerts.",
	"followed_player":   "Followed: you will get this player's alerts.",
	"unfollowed":        "Unfollowed.",
	"stream_on":         "Your stream is shown on the match.",
	"stream_off":        "Your stream is no longer shown on the match.",
	"casting":           "You cast this match: your channel is listed as its caster.",
	"cast_retired":      "You no longer cast this match.",
	"invited":           "Caster invited: their channel is listed on the match.",
	"alerts_read":       "Every alert is marked read.",
	"named":             "Your name is saved.",
}

// notice returns the message of the request's ?notice=, or "".
func notice(r *http.Request) string { return noticeMessages[r.URL.Query().Get("notice")] }

// stateNotices are the notices whose news the page's own box already
// shows as the viewer's new state ("You are registered.", "You are
// ready"): the box's line is then the one confirmation. castNotices are
// shown by the casting box, further down the page. Every other notice is
// the page's flash, at its top: one message per action, never two.
var stateNotices = map[string]bool{"registered": true, "ready": true, "reported": true, "disputed": true}

// fresh reports whether the request's notice is one of the box's states.
func fresh(r *http.Request) bool { return stateNotices[r.URL.Query().Get("notice")] }

// freshMatch reports whether the request's notice is a state of the
// match's box: the action's redirect names the match (?match=) when the
// page shows several.
func freshMatch(r *http.Request, id int64) bool {
	m := r.URL.Query().Get("match")
	return fresh(r) && (m == "" || m == strconv.FormatInt(id, 10))
}

// flash is the page's message for the request's ?notice=: "" when a box
// of the page shows it instead.
func flash(r *http.Request) string {
	code := r.URL.Query().Get("notice")
	if stateNotices[code] || castNotices[code] {
		return ""
	}
	return noticeMessages[code]
}

// actionMessages are the readable messages of the errors an action can
// meet (the same codes as the API's).
var actionMessages = map[string]string{
	core.CodeTournamentFull:      "The tournament is full.",
	core.CodeRegistrationClosed:  "Registration is closed.",
	core.CodeAlreadyRegistered:   "You, or a player on your roster, are already registered in this tournament.",
	core.CodeInvalidSteamID:      "Every player must be a 17-digit platform account id.",
	core.CodeNotRegistered:       "You are not registered in this tournament.",
	core.CodeNotCaptain:          "Only your team's captain can withdraw the team.",
	core.CodeTournamentNotFound:  "There is no such tournament.",
	core.CodeMatchNotFound:       "There is no such match.",
	core.CodeNotParticipant:      "You do not play in this match.",
	core.CodeOpponentUndecided:   "Your opponent is not decided yet.",
	core.CodePastReadyPhase:      "This match is past the ready phase.",
	core.CodeWindowNotOpen:       "The match window is not open yet.",
	core.CodeWindowClosed:        "The match window has closed.",
	core.CodeAlreadyResolved:     "This match already has its result.",
	core.CodeNotLive:             "The match is not live: a result can be reported once both sides are ready.",
	core.CodeReportPending:       "A result was already reported for this match.",
	core.CodeClientResult:        "A game client already sent this match's result; the result comes from the game clients.",
	core.CodeNoPendingReport:     "There is no reported result waiting for your answer.",
	core.CodeOwnReport:           "Your side reported this result; your opponent confirms or disputes it.",
	core.CodeInvalidWinner:       "Choose the winner: one of the match's two sides.",
	core.CodeInvalidScore:        fmt.Sprintf("Scores are optional; give both, whole numbers from 0 to %d, the winner's higher.", core.MaxReportedScore),
	core.CodeInvalidTransition:   "The tournament moved on meanwhile.",
	core.CodeMatchesUnresolved:   "The tournament moved on meanwhile.",
	core.CodeMissingTicket:       "Please sign in again.",
	core.CodePlatformUnavailable: "The platform could not be reached. Please try again in a moment.",
	core.CodeLastAdminToken:      "This is the arena's last admin token: mint another one before revoking it.",

	core.CodeCheckInClosed:        "Check-in is not open: it opens a while before the tournament starts and closes at the start.",
	core.CodeTooManySubscriptions: fmt.Sprintf("The arena has %d webhooks, the most it may have: delete one before making another.", core.MaxSubscriptions),

	core.CodeTitleNotFound:            "There is no such title.",
	core.CodeChallengeNotFound:        "There is no such challenge.",
	core.CodeNotHolder:                "Only the title's holder answers its challenges.",
	core.CodeTitleAlreadyHeld:         "The title has a holder: challenge them instead.",
	core.CodeTitleVacantUseCoronation: "The title is vacant: volunteer for its coronation instead.",
	core.CodeChallengePending:         "The holder already has a challenge to answer or a title match to play.",
	core.CodeCannotChallengeSelf:      "You hold this title.",
	core.CodeChallengeNotPending:      "This challenge was already answered, or the clock ran out on it.",
	core.CodeTitleClockExpired:        "The clock ran out before you answered the challenge.",
	core.CodeAlreadyVolunteered:       "You already volunteered for this title.",
	core.CodeCoronationPending:        "The coronation match is being played.",
	core.CodeTitleRetired:             "This title is retired.",
	// Streams, follows, casters.
	core.CodeStreamNotLinked:      "That needs a linked channel: link it on the account page.",
	core.CodeStreamLoginTaken:     "That channel is linked to another player of this arena.",
	core.CodeSpectatorsNotAllowed: "This tournament does not allow spectators, so its matches are not cast.",
	core.CodeCastersFull:          "This match has as many casters as it can take.",
	core.CodeCastOwnMatch:         "Players show their own match as their stream, not as casters.",
	core.CodePlayerNotFound:       "This arena has no such player.",
	core.CodeNameFromPlatform:     "Your name comes from your platform profile: change it there.",
}

// actionMessage is the readable message of a domain error: the code's
// message here, else the message core wrote for the field an input
// problem concerns; "" for an internal error (which the error page
// answers instead). Its status is the code's, from the one table
// (server.StatusOf).
func actionMessage(err error) string {
	var series seriesScoreError
	if errors.As(err, &series) {
		return fmt.Sprintf("A best of %d is reported as the games each side won: the winner's %d, the loser's fewer, and the games already decided stand.",
			series.bestOf, core.SeriesWins(series.bestOf))
	}
	if msg, ok := actionMessages[core.ErrorCode(err)]; ok {
		return msg
	}
	var e *core.Error
	if errors.As(err, &e) && e.Field != "" {
		return e.Message
	}
	return ""
}

// seriesScoreError is a series' report refused for its score
// (core.CodeInvalidScore): the message says what a series' score is.
type seriesScoreError struct {
	err    error
	bestOf int
}

func (e seriesScoreError) Error() string { return e.err.Error() }
func (e seriesScoreError) Unwrap() error { return e.err }
