package web

import (
	"errors"
	"net/http"
	"strconv"

	"arena/core"
	"arena/i18n"
)

// Notices are the flash messages of the players' actions: a successful
// action redirects (303) back to its page with ?notice=<code>, and the
// page's action box shows the code's message (noticeMessages: its
// catalog id). Only these codes show anything, so a crafted link cannot
// put words on the page.
var noticeMessages = map[string]string{
	"registered":       "account.notice.registered",
	"withdrawn":        "account.notice.withdrawn",
	"checked_in":       "account.notice.checkedIn",
	"ready":            "account.notice.ready",
	"live":             "account.notice.live",
	"reported":         "account.notice.reported",
	"confirmed":        "account.notice.confirmed",
	"disputed":         "account.notice.disputed",
	"confirm_disputed": "account.notice.confirmDisputed",
	"volunteered":      "account.notice.volunteered",
	"coronation":       "account.notice.coronation",
	"challenged":       "account.notice.challenged",
	"accepted":         "account.notice.accepted",
	"declined":         "account.notice.declined",

	// Streams, follows, casters, alerts.
	"linked":            "account.notice.linked",
	"unlinked":          "account.notice.unlinked",
	"link_cancelled":    "account.notice.linkCancelled",
	"link_failed":       "account.notice.linkFailed",
	"link_taken":        "account.notice.linkTaken",
	"webhook_saved":     "account.notice.webhookSaved",
	"webhook_removed":   "account.notice.webhookRemoved",
	"push_on":           "account.notice.pushOn",
	"push_off":          "account.notice.pushOff",
	"push_kinds":        "account.notice.pushKinds",
	"discord_linked":    "account.notice.discordLinked",
	"discord_unlinked":  "account.notice.discordUnlinked",
	"discord_cancelled": "account.notice.discordCancelled",
	"followed":          "account.notice.followed",
	"followed_player":   "account.notice.followedPlayer",
	"unfollowed":        "account.notice.unfollowed",
	"stream_on":         "account.notice.streamOn",
	"stream_off":        "account.notice.streamOff",
	"casting":           "account.notice.casting",
	"cast_retired":      "account.notice.castRetired",
	"invited":           "account.notice.invited",
	"alerts_read":       "account.notice.alertsRead",
	"named":             "account.notice.named",
}

// notice returns the message of the request's ?notice=, or "".
func notice(r *http.Request) string { return noticeText(r, r.URL.Query().Get("notice")) }

// noticeText is notice code's message in the request's language, or ""
// for a code that is not a notice.
func noticeText(r *http.Request, code string) string {
	id, ok := noticeMessages[code]
	if !ok {
		return ""
	}
	return i18n.From(r.Context()).T(id)
}

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
	return noticeText(r, code)
}

// actionMessageIDs are the catalog ids of the readable messages of the
// errors an action can meet (the same codes as the API's); the
// messages of actionMessageArgs' codes take those arguments.
var actionMessageIDs = map[string]string{
	core.CodeTournamentFull:      "account.problem.tournamentFull",
	core.CodeRegistrationClosed:  "account.problem.registrationClosed",
	core.CodeAlreadyRegistered:   "account.problem.alreadyRegistered",
	core.CodeInvalidSteamID:      "account.problem.invalidPlatformId",
	core.CodeNotRegistered:       "account.problem.notRegistered",
	core.CodeNotCaptain:          "account.problem.notCaptain",
	core.CodeTournamentNotFound:  "account.problem.tournamentNotFound",
	core.CodeMatchNotFound:       "account.problem.matchNotFound",
	core.CodeNotParticipant:      "account.problem.notParticipant",
	core.CodeOpponentUndecided:   "account.problem.opponentUndecided",
	core.CodePastReadyPhase:      "account.problem.pastReadyPhase",
	core.CodeWindowNotOpen:       "account.problem.windowNotOpen",
	core.CodeWindowClosed:        "account.problem.windowClosed",
	core.CodeAlreadyResolved:     "account.problem.alreadyResolved",
	core.CodeNotLive:             "account.problem.notLive",
	core.CodeReportPending:       "account.problem.reportPending",
	core.CodeClientResult:        "account.problem.clientResult",
	core.CodeNoPendingReport:     "account.problem.noPendingReport",
	core.CodeOwnReport:           "account.problem.ownReport",
	core.CodeInvalidWinner:       "account.problem.invalidWinner",
	core.CodeInvalidScore:        "account.problem.invalidScore",
	core.CodeInvalidTransition:   "account.problem.movedOn",
	core.CodeMatchesUnresolved:   "account.problem.movedOn",
	core.CodeMissingTicket:       "account.problem.missingTicket",
	core.CodePlatformUnavailable: "account.problem.platformUnavailable",
	core.CodeLastAdminToken:      "account.problem.lastAdminToken",

	core.CodeCheckInClosed:        "account.problem.checkInClosed",
	core.CodeTooManySubscriptions: "account.problem.tooManySubscriptions",

	core.CodeTitleNotFound:            "account.problem.titleNotFound",
	core.CodeChallengeNotFound:        "account.problem.challengeNotFound",
	core.CodeNotHolder:                "account.problem.notHolder",
	core.CodeTitleAlreadyHeld:         "account.problem.titleAlreadyHeld",
	core.CodeTitleVacantUseCoronation: "account.problem.titleVacant",
	core.CodeChallengePending:         "account.problem.challengePending",
	core.CodeCannotChallengeSelf:      "account.problem.challengeSelf",
	core.CodeChallengeNotPending:      "account.problem.challengeNotPending",
	core.CodeTitleClockExpired:        "account.problem.titleClockExpired",
	core.CodeAlreadyVolunteered:       "account.problem.alreadyVolunteered",
	core.CodeCoronationPending:        "account.problem.coronationPending",
	core.CodeTitleRetired:             "account.problem.titleRetired",
	// Streams, follows, casters.
	core.CodeStreamNotLinked:      "account.problem.streamNotLinked",
	core.CodeStreamLoginTaken:     "account.problem.streamLoginTaken",
	core.CodeSpectatorsNotAllowed: "account.problem.spectatorsNotAllowed",
	core.CodeCastersFull:          "account.problem.castersFull",
	core.CodeCastOwnMatch:         "account.problem.castOwnMatch",
	core.CodePlayerNotFound:       "account.problem.playerNotFound",
	core.CodeNameFromPlatform:     "account.problem.nameFromPlatform",
}

// actionMessageArgs are the arguments of the messages that name a limit.
var actionMessageArgs = map[string][]any{
	core.CodeInvalidScore:         {"Max", core.MaxReportedScore},
	core.CodeTooManySubscriptions: {"Max", core.MaxSubscriptions},
}

// actionMessageIn is the readable message of a domain error, in tr's
// language: the code's message here, else the message core wrote for the
// field an input problem concerns; "" for an internal error (which the
// error page answers instead). Its status is the code's, from the one
// table (server.StatusOf).
func actionMessageIn(tr *i18n.Tr, err error) string {
	var series seriesScoreError
	if errors.As(err, &series) {
		return tr.T("account.problem.seriesScore", "BestOf", tr.Number(series.bestOf), "Wins", tr.Number(core.SeriesWins(series.bestOf)))
	}
	if id, ok := actionMessageIDs[core.ErrorCode(err)]; ok {
		return tr.T(id, actionMessageArgs[core.ErrorCode(err)]...)
	}
	var e *core.Error
	if errors.As(err, &e) && e.Field != "" {
		return e.Text(tr)
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
