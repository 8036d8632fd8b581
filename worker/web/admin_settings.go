package web

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"arena/core"
	store "arena/sql"
	"arena/views"
	"arena/worker/server"
)

// adminSettingPlacementPoints is the arena setting holding the ladder's
// points table (the key the admin API writes; server.PlacementPoints reads
// it).
const adminSettingPlacementPoints = "placement_points"

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
	ids, err := t.Store.ArenaAdmins(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	profiles, err := t.Store.Players(ctx, ids)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, id := range ids {
		p.Admins = append(p.Admins, views.AdminPlayerRow{PlatformID: id, Name: profiles[id].PersonaName})
	}
	p.Self, p.HasPublisherKey, p.Hosts = v.PlatformID, t.Arena.PublisherKey != "", t.Arena.Hosts
	for range adminEmptyTierRows {
		p.Values.Tiers = append(p.Values.Tiers, views.AdminTierValues{})
	}
	s.render(w, r, t, status, views.AdminSettingsPage(s.adminLayout(t, v, "Settings"), p))
}

// adminUpdateSettings is POST /admin/settings: every setting of the admin
// API (PUT /api/v1/admin/settings) with its rules. The publisher key is
// write-only: empty keeps it, the remove box clears it.
func (s *Site) adminUpdateSettings(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	f := r.PostFormValue
	values := views.AdminSettingsValues{
		Name: f("name"), Plan: f("plan"), RefereeEnabled: f("refereeEnabled") != "",
		GracePeriodSeconds: f("gracePeriodSeconds"), AppIDs: f("appIds"), Identity: f("identity"),
		RemovePublisherKey: f("removePublisherKey") != "", AnonymousPerMinute: f("anonymousPerMinute"),
		KeyPerMinute: f("keyPerMinute"), Played: f("played"),
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
	a := *t.Arena
	errs := views.AdminFieldErrors{}
	required := func(field, raw string, min, max int) int {
		n, has, ok := adminFormInt(errs, field, raw, min, max)
		if ok && !has {
			errs[field] = "Enter a whole number from " + strconv.Itoa(min) + " to " + strconv.Itoa(max) + "."
		}
		return n
	}
	a.Name = strings.TrimSpace(values.Name)
	switch {
	case a.Name == "":
		errs["name"] = "Enter the arena's name."
	case utf8.RuneCountInString(a.Name) > 100:
		errs["name"] = "At most 100 characters."
	}
	if a.Plan = core.Plan(values.Plan); !a.Plan.Valid() {
		errs["plan"] = "Choose free, indie or studio."
	}
	a.RefereeEnabled = values.RefereeEnabled
	a.GracePeriodSeconds = required("gracePeriodSeconds", values.GracePeriodSeconds, 0, int(core.MaxGracePeriod.Seconds()))
	a.AppIDs = adminIDList(values.AppIDs)
	if msg := adminCheckAppIDs(a.AppIDs); msg != "" {
		errs["appIds"] = msg
	}
	a.Identity = strings.TrimSpace(values.Identity)
	if utf8.RuneCountInString(a.Identity) > 64 {
		errs["identity"] = "At most 64 characters."
	} else if a.Identity == "" {
		a.Identity = core.DefaultIdentity
	}
	key := f("publisherKey")
	switch {
	case len(key) > 200:
		errs["publisherKey"] = "At most 200 characters."
	case key != "" && values.RemovePublisherKey:
		errs["publisherKey"] = "Enter a new key or remove the stored one, not both."
	case values.RemovePublisherKey:
		a.PublisherKey = ""
	case key != "":
		a.PublisherKey = key
	}
	a.RateLimits = core.RateLimits{
		AnonymousPerMinute: required("anonymousPerMinute", values.AnonymousPerMinute, 0, 1000000),
		KeyPerMinute:       required("keyPerMinute", values.KeyPerMinute, 0, 1000000),
	}
	points := core.PlacementPoints{Played: required("played", values.Played, 0, 100000)}
	if msg := adminPlacementTiers(values.Tiers, &points); msg != "" {
		errs["placementPoints"] = msg
	}
	if len(errs) > 0 {
		s.adminRenderSettings(w, r, t, v, http.StatusUnprocessableEntity, views.AdminSettings{
			Values: values, Errors: errs,
			Notice: views.AdminNotice{Error: true, Text: "The settings were not saved: see the marked fields."},
		})
		return
	}
	ctx := r.Context()
	if err := t.Store.SetSetting(ctx, adminSettingPlacementPoints, points); err != nil {
		s.fail(w, r, t, err)
		return
	}
	a.UpdatedAt = s.srv.Now()
	if err := s.srv.Directory().UpdateArenaSettings(ctx, &a); err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/settings", "settings", "")
}

// adminCheckAppIDs applies the admin API's rule to the AppIDs: 1 to 10
// distinct platform AppIDs. It returns the message for a broken rule.
func adminCheckAppIDs(ids []string) string {
	if len(ids) == 0 {
		return "Enter at least one AppID."
	}
	if len(ids) > 10 {
		return "At most 10 AppIDs."
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if !core.ValidAppID(id) {
			return id + " is not an AppID (a positive number of up to 10 digits)."
		}
		if seen[id] {
			return id + " is listed twice."
		}
		seen[id] = true
	}
	return ""
}

// adminPlacementTiers reads the points table's rows into points: 1 to 32
// rows, "through" ascending from 1 to 4096, points 0 to 100000. It returns
// the message for a broken rule.
func adminPlacementTiers(rows []views.AdminTierValues, points *core.PlacementPoints) string {
	if len(rows) == 0 {
		return "Give at least one row."
	}
	if len(rows) > 32 {
		return "At most 32 rows."
	}
	for i, row := range rows {
		through, err1 := strconv.Atoi(row.Through)
		pts, err2 := strconv.Atoi(row.Points)
		n := strconv.Itoa(i + 1)
		switch {
		case err1 != nil || through < 1 || through > 4096:
			return "Row " + n + ": the place must be a whole number from 1 to 4096."
		case err2 != nil || pts < 0 || pts > 100000:
			return "Row " + n + ": the points must be a whole number from 0 to 100000."
		case i > 0 && through <= points.Tiers[i-1].Through:
			return "Row " + n + ": places must go up from row to row."
		}
		points.Tiers = append(points.Tiers, core.PlacementTier{Through: through, Points: pts})
	}
	return ""
}

// adminAddAdmin is POST /admin/settings/admins: adds an admin player by
// account id.
func (s *Site) adminAddAdmin(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	ctx := r.Context()
	id := strings.TrimSpace(r.PostFormValue("adminPlatformId"))
	if !core.ValidPlatformID(id) {
		s.adminSettingsAgain(w, r, t, v, http.StatusUnprocessableEntity, func(p *views.AdminSettings) {
			p.NewAdmin = id
			p.NewAdminErrors = views.AdminFieldErrors{"adminPlatformId": "Enter a 17-digit account id."}
			p.Notice = views.AdminNotice{Error: true, Text: "No admin was added: see the marked field."}
		})
		return
	}
	admins, err := t.Store.ArenaAdmins(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, a := range admins {
		if a == id {
			adminRedirect(w, r, "/admin/settings", "admin-present", "admins")
			return
		}
	}
	if err := t.Store.AddArenaAdmins(ctx, []string{id}, s.srv.Now()); err != nil {
		s.fail(w, r, t, err)
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
	refuse := func(status int, text string) {
		s.adminSettingsAgain(w, r, t, v, status, func(p *views.AdminSettings) {
			p.Notice = views.AdminNotice{Error: true, Text: text}
		})
	}
	if id == v.PlatformID {
		refuse(http.StatusConflict, "You cannot remove yourself: ask another admin to do it.")
		return
	}
	switch err := t.Store.RemoveArenaAdmin(r.Context(), id); adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
	case core.CodeNotFound:
		refuse(http.StatusNotFound, "That player is not an admin.")
		return
	case store.CodeLastAdmin:
		refuse(http.StatusConflict, "The arena keeps at least one admin.")
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
	points := server.PlacementPoints(r.Context(), t.Store)
	p := views.AdminSettings{Values: views.AdminSettingsValues{
		Name: a.Name, Plan: string(a.Plan), RefereeEnabled: a.RefereeEnabled,
		GracePeriodSeconds: strconv.Itoa(a.GracePeriodSeconds), AppIDs: strings.Join(a.AppIDs, "\n"),
		Identity: a.Identity, AnonymousPerMinute: strconv.Itoa(a.RateLimits.AnonymousPerMinute),
		KeyPerMinute: strconv.Itoa(a.RateLimits.KeyPerMinute), Played: strconv.Itoa(points.Played),
	}}
	for _, tier := range points.Tiers {
		p.Values.Tiers = append(p.Values.Tiers, views.AdminTierValues{Through: strconv.Itoa(tier.Through), Points: strconv.Itoa(tier.Points)})
	}
	adjust(&p)
	s.adminRenderSettings(w, r, t, v, status, p)
}
