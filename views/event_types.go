package views

import (
	"context"

	"arena/core"
)

// eventDescriptionIDs are the catalog's messages saying what each event
// of the log means, as the webhook form shows it beside its type
// (docs/events.md "What is logged" is the full table).
var eventDescriptionIDs = map[string]string{
	core.EventLogTournamentStatus:     "admin.event.tournamentStatus",
	core.EventLogRegistrationAdded:    "admin.event.registrationAdded",
	core.EventLogRegistrationWithdraw: "admin.event.registrationWithdrawn",
	core.EventLogMatchReady:           "admin.event.matchReady",
	core.EventLogMatchLive:            "admin.event.matchLive",
	core.EventLogMatchSubmission:      "admin.event.matchSubmission",
	core.EventLogMatchReported:        "admin.event.matchReported",
	core.EventLogMatchGameDecided:     "admin.event.matchGameDecided",
	core.EventLogMatchConfirmed:       "admin.event.matchConfirmed",
	core.EventLogMatchForfeited:       "admin.event.matchForfeited",
	core.EventLogMatchDisputed:        "admin.event.matchDisputed",
	core.EventLogMatchResolved:        "admin.event.matchResolved",
	core.EventLogMatchReopened:        "admin.event.matchReopened",
	core.EventLogTitleChanged:         "admin.event.titleChanged",
	core.EventLogRecordingReady:       "admin.event.recordingReady",
}

// EventDescription says what event type typ means, in ctx's locale ("" for
// a type without a description).
func EventDescription(ctx context.Context, typ string) string {
	id, ok := eventDescriptionIDs[typ]
	if !ok {
		return ""
	}
	return msg(ctx, id)
}
