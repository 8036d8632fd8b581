package views

import "arena/core"

// EventDescriptions say what each event of the log means, as the webhook
// form shows it beside its type (docs/events.md "What is logged" is the
// full table).
var EventDescriptions = map[string]string{
	core.EventLogTournamentStatus:     "a tournament opens, moves to its next step, ends or is cancelled",
	core.EventLogRegistrationAdded:    "a side registers",
	core.EventLogRegistrationWithdraw: "a side withdraws or is removed before the draw",
	core.EventLogMatchReady:           "one side of a match readies",
	core.EventLogMatchLive:            "both sides are ready: the match is live",
	core.EventLogMatchSubmission:      "a game client sends its result (its hash only)",
	core.EventLogMatchReported:        "a player reports a result by hand",
	core.EventLogMatchGameDecided:     "a game of a best-of series is decided",
	core.EventLogMatchConfirmed:       "a match is decided with a winner",
	core.EventLogMatchForfeited:       "a match is decided by forfeit",
	core.EventLogMatchDisputed:        "the two sides' results disagree",
	core.EventLogMatchResolved:        "an admin decided a match",
	core.EventLogMatchReopened:        "an admin reopened a decided match",
	core.EventLogTitleChanged:         "a title changes hands or falls vacant",
	core.EventLogRecordingReady:       "a match's recording is ready to watch",
}
