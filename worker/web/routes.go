package web

import (
	"net/http"

	"arena/core"
	"arena/worker/server"
)

// routes is the site's route table, read like the API's (server.go).
// Pages are GET (page, adminPage); every state-changing form goes through
// action or adminAction (cross-site requests refused; admin ones need an
// arena admin). The handlers live in the file their area names.
func (s *Site) routes() {
	// Public pages (public.go, live.go, calendar.go, embed.go, broadcast.go).
	s.page("GET /{$}", s.home)
	s.page("GET /tournaments", s.tournamentList)
	s.page("GET /tournaments/{slug}", s.tournamentPage)
	s.page("GET /matches/{id}", s.matchPage)
	s.page("GET /players/{platformId}", s.playerPage)
	s.page("GET /ladder", s.ladderPage)

	// Live regions (live.go) and the player's next steps.
	s.page("GET /matches/{id}/live", s.matchLive)
	s.page("GET /tournaments/{slug}/live", s.tournamentLive)
	s.page("GET /live/now-playing", s.nowPlayingLive)
	s.page("GET /me/next", s.nextMe)
	// Calendars, embeds and the bracket picture.
	s.page("GET /players/{platformId}/calendar.ics", s.playerCalendar)
	s.page("GET /tournaments/{slug}/calendar.ics", s.tournamentCalendar)
	s.page("GET /tournaments/{slug}/embed", s.tournamentEmbed)
	s.page("GET /tournaments/{slug}/broadcast", s.tournamentBroadcast)
	s.page("GET /matches/{id}/broadcast", s.matchBroadcast)
	s.page("GET /tournaments/{slug}/bracket.svg", s.bracketSVG)

	// Titles (titles.go): the page and the players' title actions, which
	// call the same core functions as the game clients' API.
	s.page("GET /titles", s.titlesPage)
	s.action("POST /titles/{id}/volunteer", s.titleAction(core.CodeTitleNotFound, s.volunteer))
	s.action("POST /titles/{id}/challenge", s.titleAction(core.CodeTitleNotFound, s.challenge))
	s.action("POST /title-challenges/{id}/accept", s.titleAction(core.CodeChallengeNotFound, s.answer(true)))
	s.action("POST /title-challenges/{id}/decline", s.titleAction(core.CodeChallengeNotFound, s.answer(false)))

	// Sign-in and the players' actions (signin.go, account_actions.go).
	s.page("GET /signin", s.signInPage)
	s.action("POST /auth/mock", s.mockSignIn)
	s.page("GET /auth/openid", s.openIDStart)
	s.page("GET "+openIDCallbackPath, s.openIDCallback)
	s.action("POST /signout", s.signOut)
	s.action("POST /lang", s.langAction)
	s.page("GET /avatars/{file}", s.placeholderAvatar)

	s.action("POST /tournaments/{slug}/register", s.registerAction)
	s.action("POST /tournaments/{slug}/withdraw", s.withdrawAction)
	s.action("POST /tournaments/{slug}/check-in", s.checkInAction)
	s.action("POST /matches/{id}/ready", s.readyAction)
	s.action("POST /matches/{id}/report", s.reportAction)
	s.action("POST /matches/{id}/report/confirm", s.confirmReportAction)
	s.action("POST /matches/{id}/report/dispute", s.disputeReportAction)

	// The player's account, channels, follows, casters and alerts
	// (account_page.go, social.go, alerts.go).
	s.page("GET /account", s.accountPage)
	s.action("POST /account/name", s.nameAction)
	s.action("POST /account/webhook", s.webhookAction)
	s.action("POST /account/push", s.pushSubscribeAction)
	s.action("POST /account/push/remove", s.pushRemoveAction)
	s.action("POST /account/push/kinds", s.pushKindsAction)
	s.action("POST /discord/link", s.discordLinkAction)
	s.action("POST /discord/unlink", s.discordUnlinkAction)
	s.page("GET "+server.DiscordCallbackPath, s.discordCallback)
	s.action("POST /stream-provider/link", s.linkAction)
	s.action("POST /stream-provider/unlink", s.unlinkAction)
	s.srv.Handle("GET "+callbackPath, http.HandlerFunc(s.streamCallback))

	s.action("POST /follow/tournament/{id}", s.followAction(core.FollowTournament))
	s.action("POST /follow/player/{id}", s.followAction(core.FollowPlayer))
	s.action("POST /matches/{id}/stream", s.povStreamAction)
	s.action("POST /matches/{id}/cast", s.castAction)
	s.action("POST /matches/{id}/casters/invite", s.inviteCasterAction)

	s.page("GET /alerts", s.alertsPage)
	s.action("POST /alerts/read", s.markAlertsReadAction)
	s.page("GET /casters", s.castersPage)
	s.adminAction("POST /admin/matches/{id}/casters", s.adminAddCaster)

	// The arena admin's pages (admin*.go): only for a signed-in player on
	// the arena's admin list (a visitor is sent to sign in, anyone else gets
	// 403); every form answers with a redirect carrying a notice
	// (POST/redirect/GET), or re-renders the form with its messages.
	s.adminPage("GET /admin", s.adminDashboard)
	s.adminPage("GET /admin/{$}", s.adminDashboard)

	s.adminPage("GET /admin/tournaments", s.adminTournamentsRedirect)
	s.adminPage("GET /admin/tournaments/new", s.adminNewTournament)
	s.adminAction("POST /admin/tournaments", s.adminCreateTournament)
	s.adminPage("GET /admin/tournaments/{slug}", s.adminTournament)
	s.adminAction("POST /admin/tournaments/{slug}", s.adminUpdateTournament)
	s.adminPage("GET /admin/tournaments/{slug}/status", s.adminConfirmStatus)
	s.adminAction("POST /admin/tournaments/{slug}/status", s.adminChangeStatus)
	s.adminAction("POST /admin/tournaments/{slug}/registrations", s.adminRegister)
	s.adminAction("POST /admin/tournaments/{slug}/entrants", s.adminEntrants)
	s.adminAction("POST /admin/tournaments/{slug}/seeds", s.adminSetSeeds)
	s.adminAction("POST /admin/tournaments/{slug}/check-in", s.adminSetCheckIn)
	s.adminPage("GET /admin/tournaments/{slug}/seeds/rating", s.adminPreviewRatingSeeds)
	s.adminAction("POST /admin/tournaments/{slug}/seeds/rating", s.adminApplyRatingSeeds)
	s.adminAction("POST /admin/tournaments/{slug}/details", s.adminEditDetails)
	s.adminAction("POST /admin/tournaments/{slug}/open-round", s.adminOpenRound)
	s.adminPage("GET /admin/tournaments/{slug}/registrations/{platformId}/remove", s.adminConfirmRemove)
	s.adminAction("POST /admin/tournaments/{slug}/registrations/{platformId}/remove", s.adminRemoveSide)

	s.adminPage("GET /admin/seasons", s.adminSeasons)
	s.adminAction("POST /admin/seasons", s.adminCreateSeason)
	s.adminPage("GET /admin/seasons/{slug}", s.adminSeason)
	s.adminAction("POST /admin/seasons/{slug}", s.adminEditSeason)

	s.adminPage("GET /admin/matches/{id}", s.adminMatch)
	s.adminAction("POST /admin/matches/{id}/resolve", s.adminResolveMatch)
	s.adminPage("GET /admin/matches/{id}/accept-report", s.adminConfirmAcceptReport)
	s.adminAction("POST /admin/matches/{id}/accept-report", s.adminAcceptReport)
	s.adminAction("POST /admin/matches/{id}/window", s.adminMoveWindow)
	s.adminPage("GET /admin/matches/{id}/reopen", s.adminConfirmReopen)
	s.adminAction("POST /admin/matches/{id}/reopen", s.adminReopenMatch)

	s.adminPage("GET /admin/titles", s.adminTitlesPage)
	s.adminAction("POST /admin/titles", s.adminCreateTitle)
	s.adminAction("POST /admin/titles/{id}/retire", s.adminRetireTitle)

	s.adminTokenRoutes(core.TokenAPIKey) // /admin/api-keys
	s.adminTokenRoutes(core.TokenAdmin)  // /admin/admin-tokens

	s.adminPage("GET /admin/domains", s.adminDomains)
	s.adminAction("POST /admin/domains", s.adminAddDomain)
	s.adminAction("POST /admin/domains/{hostname}/remove", s.adminRemoveDomain)

	s.adminPage("GET /admin/webhooks", s.adminWebhooks)
	s.adminAction("POST /admin/webhooks", s.adminSubscribe)
	s.adminPage("GET /admin/webhooks/{id}", s.adminWebhook)
	s.adminAction("POST /admin/webhooks/{id}/paused", s.adminPauseWebhook)
	s.adminAction("POST /admin/webhooks/{id}/delete", s.adminDeleteWebhook)
	s.adminAction("POST /admin/webhooks/{id}/replay", s.adminReplayWebhook)
	s.adminAction("POST /admin/webhooks/{id}/test", s.adminTestWebhook)
	s.adminAction("POST /admin/webhooks/{id}/deliveries/{deliveryId}/replay", s.adminReplayDelivery)

	s.adminPage("GET /admin/settings", s.adminSettings)
	s.adminAction("POST /admin/settings", s.adminUpdateSettings)
	s.adminAction("POST /admin/settings/admins", s.adminAddAdmin)
	s.adminAction("POST /admin/settings/admins/{platformId}/remove", s.adminRemoveAdmin)
	s.adminAction("POST /admin/discord", s.adminDiscord)
	s.adminAction("POST /admin/discord/commands", s.adminDiscordCommands)
}
