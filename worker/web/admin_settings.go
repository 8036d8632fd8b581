package web

import (
	"net/http"
	"strconv"
	"strings"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// adminEmptyTierRows are the blank rows the points table offers for new
// tiers.
const adminEmptyTierRows = 3

// adminSettings is GET /admin/settings.
func (s *Site) adminSettings(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminSettingsAgain(w, r, t, v, http.StatusOK, func(p *views.AdminSettings) { p.Notice = adminNotice(r) })
}

// adminRenderSettings renders the settings page with the arena's admins;
// p carries the form's values.
func (s *Site) adminRenderSettings(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminSettings) {
	ctx := r.Context()
	ids, profiles, err := t.ArenaAdmins(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, id := range ids {
		p.Admins = append(p.Admins, views.AdminPlayerRow{PlatformID: id, Name: profiles[id].PersonaName})
	}
	p.Self, p.HasPublisherKey, p.Hosts = v.PlatformID, t.Arena.PublisherKey != "", t.Arena.Hosts
	if p.Discord.InteractionsURL == "" {
		if p.Discord, err = s.adminDiscordView(r, t); err != nil {
			s.fail(w, r, t, err)
			return
		}
	}
	for range adminEmptyTierRows {
		p.Values.Tiers = append(p.Values.Tiers, views.AdminTierValues{})
	}
	s.render(w, r, t, status, views.AdminSettingsPage(s.adminLayout(t, v, i18n.From(ctx).T("admin.settings.title")), p))
}

// adminUpdateSettings is POST /admin/settings: every setting of the admin
// API (PUT /api/v1/admin/settings) with its rules. The publisher key is
// write-only: empty keeps it, the remove box clears it.
func (s *Site) adminUpdateSettings(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tr := i18n.From(r.Context())
	f := r.PostFormValue
	values := views.AdminSettingsValues{
		Name: f("name"), Plan: string(t.Arena.Plan), RefereeEnabled: f("refereeEnabled") != "",
		GracePeriodSeconds: adminFormSeconds(r, "gracePeriodSeconds"), AppIDs: f("appIds"), Identity: f("identity"),
		RemovePublisherKey: f("removePublisherKey") != "", AnonymousPerMinute: f("anonymousPerMinute"),
		KeyPerMinute: f("keyPerMinute"), Played: f("played"), RatingPeriodHours: f("ratingPeriodHours"),
		WebhookURL: strings.TrimSpace(f("webhookUrl")), UpcomingAlertMinutes: f("upcomingAlertMinutes"),
		StaleMatchMinutes: f("staleMatchMinutes"), DefaultLocale: t.Arena.Locale(),
	}
	throughs, pts := r.PostForm["through"], r.PostForm["points"]
	for i := range max(len(throughs), len(pts)) {
		var row views.AdminTierValues
		if i < len(throughs) {
			row.Through = strings.TrimSpace(throughs[i])
		}
		if i < len(pts) {
			row.Points = strings.TrimSpace(pts[i])
		}
		if row.Through != "" || row.Points != "" {
			values.Tiers = append(values.Tiers, row)
		}
	}
	change := core.SettingsChange{
		Name: &values.Name, RefereeEnabled: &values.RefereeEnabled,
		GracePeriodSeconds: core.NumberText(values.GracePeriodSeconds), AppIDs: core.AppIDsText(values.AppIDs),
		Identity: &values.Identity,
		RateLimits: &core.RateLimitsDraft{
			AnonymousPerMinute: core.NumberText(values.AnonymousPerMinute),
			KeyPerMinute:       core.NumberText(values.KeyPerMinute),
		},
		PlacementPoints:      &core.PlacementPointsDraft{Played: core.NumberText(values.Played)},
		WebhookURL:           &values.WebhookURL,
		UpcomingAlertMinutes: core.NumberText(values.UpcomingAlertMinutes),
		StaleMatchMinutes:    core.NumberText(values.StaleMatchMinutes),
		LoopbackWebhooks:     s.srv.LoopbackWebhooks(),
		RatingPeriodHours:    core.NumberText(values.RatingPeriodHours),
	}
	// A form without the language box (an older page) keeps the stored
	// one; a value that is not one of core.Locales is refused.
	if _, sent := r.PostForm["defaultLocale"]; sent {
		values.DefaultLocale = strings.TrimSpace(f("defaultLocale"))
		change.DefaultLocale = &values.DefaultLocale
	}
	if change.AppIDs == nil {
		change.AppIDs = core.AppIDs{} // an empty box is a problem, not "keep"
	}
	// An emptied grace period box keeps the stored value, as the API's
	// absent field does.
	for _, row := range values.Tiers {
		change.PlacementPoints.Tiers = append(change.PlacementPoints.Tiers,
			core.PlacementTierDraft{Through: core.NumberText(row.Through), Points: core.NumberText(row.Points)})
	}
	errs := views.AdminFieldErrors{}
	switch key := f("publisherKey"); {
	case key != "" && values.RemovePublisherKey:
		errs["publisherKey"] = tr.T("admin.settings.error.publisherKeyBoth")
	case values.RemovePublisherKey:
		change.PublisherKey = &key
	case key != "":
		change.PublisherKey = &key
	}
	if _, _, problems := change.Apply(*t.Arena); len(problems) > 0 || len(errs) > 0 {
		// core's messages (English for now), but the language's, which
		// this form words itself.
		for field, msg := range adminProblems(i18n.From(r.Context()), problems) {
			errs[field] = msg
		}
		if _, bad := errs["defaultLocale"]; bad {
			errs["defaultLocale"] = tr.T("admin.settings.error.defaultLocale")
		}
		s.adminRenderSettings(w, r, t, v, http.StatusUnprocessableEntity, views.AdminSettings{
			Values: values, Errors: errs,
			Notice: views.AdminNotice{Error: true, Text: tr.T("admin.settings.error.notSaved")},
		})
		return
	}
	if err := s.srv.UpdateSettings(r.Context(), t, &change); err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/settings", "settings", "")
}

// adminAddAdmin is POST /admin/settings/admins: adds an admin player by
// account id.
func (s *Site) adminAddAdmin(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	ctx := r.Context()
	tr := i18n.From(ctx)
	id := strings.TrimSpace(r.PostFormValue("adminPlatformId"))
	if !core.ValidPlatformID(id) {
		s.adminSettingsAgain(w, r, t, v, http.StatusUnprocessableEntity, func(p *views.AdminSettings) {
			p.NewAdmin = id
			p.NewAdminErrors = views.AdminFieldErrors{"adminPlatformId": tr.T("admin.settings.error.accountId")}
			p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.settings.error.noAdminAdded")}
		})
		return
	}
	added, err := t.AddArenaAdmin(ctx, id)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	if !added {
		adminRedirect(w, r, "/admin/settings", "admin-present", "admins")
		return
	}
	adminRedirect(w, r, "/admin/settings", "admin-added", "admins")
}

// adminRemoveAdmin is POST /admin/settings/admins/{platformId}/remove. An
// admin cannot remove themselves (another admin can), and the arena's last
// admin stays (the store checks it in the same statement, so two admins
// removing each other at once leave one).
func (s *Site) adminRemoveAdmin(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	id := r.PathValue("platformId")
	tr := i18n.From(r.Context())
	refuse := func(status int, text string) {
		s.adminSettingsAgain(w, r, t, v, status, func(p *views.AdminSettings) {
			p.Notice = views.AdminNotice{Error: true, Text: text}
		})
	}
	if id == v.PlatformID {
		refuse(http.StatusConflict, tr.T("admin.settings.error.removeSelf"))
		return
	}
	switch err := t.RemoveArenaAdmin(r.Context(), id); adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
	case core.CodeNotFound:
		refuse(server.StatusOf(core.CodeNotFound), tr.T("admin.settings.error.notAdmin"))
		return
	case core.CodeLastAdmin:
		refuse(server.StatusOf(core.CodeLastAdmin), tr.T("admin.settings.error.lastAdmin"))
		return
	default:
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/settings", "admin-removed", "admins")
}

// adminSettingsAgain renders the settings page with the stored settings
// and what adjust adds (a notice, a refused admin change).
func (s *Site) adminSettingsAgain(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, adjust func(p *views.AdminSettings)) {
	a := t.Arena
	points := t.Deps.Points()
	p := views.AdminSettings{Values: views.AdminSettingsValues{
		Name: a.Name, Plan: string(a.Plan), RefereeEnabled: a.RefereeEnabled,
		GracePeriodSeconds: strconv.Itoa(a.GracePeriodSeconds), AppIDs: strings.Join(a.AppIDs, "\n"),
		Identity: a.Identity, AnonymousPerMinute: strconv.Itoa(a.RateLimits.AnonymousPerMinute),
		KeyPerMinute: strconv.Itoa(a.RateLimits.KeyPerMinute), Played: strconv.Itoa(points.Played),
		RatingPeriodHours: strconv.Itoa(t.RatingPeriodHours(r.Context())),
		DefaultLocale:     a.Locale(),
	}}
	for _, tier := range points.Tiers {
		p.Values.Tiers = append(p.Values.Tiers, views.AdminTierValues{Through: strconv.Itoa(tier.Through), Points: strconv.Itoa(tier.Points)})
	}
	alerts, err := s.srv.AlertSettings(r.Context(), t)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p.Values.UpcomingAlertMinutes = strconv.Itoa(alerts.UpcomingAlertMinutes)
	p.Values.StaleMatchMinutes = strconv.Itoa(alerts.StaleMatchMinutes)
	if alerts.WebhookURL != nil {
		p.Values.WebhookURL, p.WebhookSecret, p.WebhookDisabled = *alerts.WebhookURL, *alerts.WebhookSecret, alerts.WebhookDisabled
	}
	adjust(&p)
	s.adminRenderSettings(w, r, t, v, status, p)
}
