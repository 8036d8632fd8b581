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

// adminPreviewRatingSeeds is GET /admin/tournaments/{slug}/seeds/rating:
// the order seeding by rating gives (core.SeedsByRating, previewed), and
// the button applying it.
func (s *Site) adminPreviewRatingSeeds(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	s.adminRenderRatingSeeds(w, r, t, v, tour, core.SeedingDraft{By: core.SeedingByRating, Preview: true})
}

// adminApplyRatingSeeds is POST /admin/tournaments/{slug}/seeds/rating:
// the seeds stored as previewed.
func (s *Site) adminApplyRatingSeeds(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	if _, err := t.SeedsByRating(r.Context(), tour, core.SeedingDraft{By: core.SeedingByRating}); err != nil {
		if adminErrorCode(err) == core.CodeSeedsLocked {
			s.adminRenderRatingSeeds(w, r, t, v, tour, core.SeedingDraft{By: core.SeedingByRating, Preview: true})
			return
		}
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "rating-seeds", "registrations")
}

// adminRenderRatingSeeds shows the seeds by rating; once the draw
// happened it says the seeds are fixed (409).
func (s *Site) adminRenderRatingSeeds(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, tour *core.Tournament, d core.SeedingDraft) {
	ctx := r.Context()
	tr := i18n.From(ctx)
	p := views.AdminRatingSeeds{Slug: tour.Slug, Name: tour.Name, Allowed: true}
	status := http.StatusOK
	seeds, err := t.SeedsByRating(ctx, tour, d)
	switch adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
	case core.CodeSeedsLocked:
		status, p.Allowed = server.StatusOf(core.CodeSeedsLocked), false
		p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.tournament.seeds.fixed")}
	default:
		s.fail(w, r, t, err)
		return
	}
	ids := make([]string, len(seeds))
	for i, sd := range seeds {
		ids[i] = sd.PlatformID
	}
	names, err := t.Players(ctx, ids)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, sd := range seeds {
		row := views.AdminRatingSeed{Seed: sd.Seed, PlatformID: sd.PlatformID, Name: names[sd.PlatformID].PersonaName}
		if sd.Rating != nil {
			row.Rating = strconv.Itoa(int(*sd.Rating + 0.5))
		}
		p.Seeds = append(p.Seeds, row)
	}
	s.render(w, r, t, status, views.AdminRatingSeedsPage(s.adminLayout(t, v, tr.T("admin.tournament.ratingSeeds.pageTitle", "Name", tour.Name)), p))
}

// adminSetSeeds is POST /admin/tournaments/{slug}/seeds: the seed editor,
// one field seed-<captain> per side (empty: unseeded), before the draw.
// Two sides cannot share a seed.
func (s *Site) adminSetSeeds(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	ctx := r.Context()
	tr := i18n.From(ctx)
	regs, err := t.Registrations(ctx, tour.ID)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	errs := views.AdminFieldErrors{}
	typed := map[string]string{}
	seeds := map[string]int{}
	taken := map[int]string{}
	for _, reg := range regs {
		field := "seed-" + reg.PlatformID
		if _, sent := r.PostForm[field]; !sent {
			continue
		}
		raw := strings.TrimSpace(r.PostFormValue(field))
		typed[reg.PlatformID] = raw
		seed, _, ok := adminFormInt(errs, field, raw, core.SeedRange)
		if !ok {
			continue
		}
		if other, dup := taken[seed]; seed > 0 && dup {
			errs[field] = tr.T("admin.tournament.seeds.taken", "Seed", strconv.Itoa(seed), "Name", other)
			continue
		}
		if seed > 0 {
			taken[seed] = reg.PersonaName
			if reg.PersonaName == "" {
				taken[seed] = reg.PlatformID
			}
		}
		seeds[reg.PlatformID] = seed
	}
	again := func(status int, notice string) {
		s.adminRenderTournament(w, r, t, v, tour, status, func(p *views.AdminTournament) {
			p.SeedValues, p.SeedErrors = typed, errs
			p.Notice = views.AdminNotice{Error: true, Text: notice}
		})
	}
	if len(errs) > 0 {
		again(http.StatusUnprocessableEntity, tr.T("admin.tournament.seeds.notSaved"))
		return
	}
	switch err := t.SetSeeds(ctx, tour.ID, seeds); adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
	case core.CodeSeedsLocked:
		if tour, err = t.TournamentByID(ctx, tour.ID); err != nil {
			s.fail(w, r, t, err)
			return
		}
		again(server.StatusOf(core.CodeSeedsLocked), tr.T("admin.tournament.seeds.locked"))
		return
	default:
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "seeds", "registrations")
}

// adminSetCheckIn is POST /admin/tournaments/{slug}/check-in: a
// registrations row's Check in (field checkIn) or Check out (field
// checkOut) button, naming the side's captain, through core.SetCheckedIn.
// A refusal shows the page again with the reason.
func (s *Site) adminSetCheckIn(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	id, in := r.PostFormValue("checkIn"), true
	if id == "" {
		id, in = r.PostFormValue("checkOut"), false
	}
	ctx := r.Context()
	err := t.SetCheckedIn(ctx, tour, nil, id, in)
	if err == nil {
		adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "checkin", "registrations")
		return
	}
	tr := i18n.From(ctx)
	text := tr.T("admin.tournament.checkIn.refused", "Code", adminErrorCode(err))
	switch adminErrorCode(err) {
	case "":
		s.fail(w, r, t, err)
		return
	case core.CodeNotRegistered:
		text = tr.T("admin.tournament.checkIn.notRegistered")
	case core.CodeCheckInClosed:
		text = tr.T("admin.tournament.checkIn.closed")
	}
	s.adminRenderTournament(w, r, t, v, tour, server.StatusOf(adminErrorCode(err)), func(p *views.AdminTournament) {
		p.Notice = views.AdminNotice{Error: true, Text: text}
	})
}
