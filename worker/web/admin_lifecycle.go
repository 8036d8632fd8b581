package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// adminStatuses are the statuses a lifecycle step can lead to.
var adminStatuses = map[core.TournamentStatus]bool{
	core.StatusRegistrationOpen: true, core.StatusRegistrationClosed: true, core.StatusGroupStage: true,
	core.StatusPlayoffs: true, core.StatusCompleted: true, core.StatusCancelled: true,
}

// adminConfirmStatus is GET /admin/tournaments/{slug}/status?to=: what the
// step would do, and the button doing it. A step that is not legal from
// the tournament's status is explained instead (409).
func (s *Site) adminConfirmStatus(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	tr := i18n.From(r.Context())
	to := core.TournamentStatus(r.URL.Query().Get("to"))
	if !adminStatuses[to] {
		s.adminNotFound(w, r, t, v, tr.T("admin.tournament.status.noSuchStep"))
		return
	}
	absent, err := s.adminWithdrawnNames(r.Context(), t, tour)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	status, p := http.StatusOK, s.adminStatusProps(r.Context(), tour, to, absent)
	if !p.Allowed {
		status = server.StatusOf(core.CodeInvalidTransition)
	}
	s.render(w, r, t, status, views.AdminStatusConfirmPage(s.adminLayout(t, v, adminStatusTitle(r.Context(), tour, to)), p))
}

// adminStatusTitle is the step's page title: "Winter Cup: Playoffs".
func adminStatusTitle(ctx context.Context, tour *core.Tournament, to core.TournamentStatus) string {
	return i18n.From(ctx).T("admin.tournament.status.pageTitle", "Name", tour.Name, "Status", views.TournamentStatusLabel(ctx, to))
}

// adminWithdrawnNames names the sides a stage started now would withdraw
// for not checking in (core.WithdrawnAt), in registration order.
func (s *Site) adminWithdrawnNames(ctx context.Context, t *server.Tenant, tour *core.Tournament) ([]string, error) {
	if !tour.CheckInApplies() {
		return nil, nil
	}
	regs, err := t.Registrations(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, r := range regs {
		names[r.PlatformID] = r.PersonaName
	}
	var out []string
	for _, id := range core.WithdrawnAt(tour, regs, s.srv.Now()) {
		out = append(out, orName(names[id], id))
	}
	return out, nil
}

// orName is a side's persona name, else its placeholder name.
func orName(name, id string) string {
	if name != "" {
		return name
	}
	return core.PlaceholderName(id)
}

// adminStatusProps describes the step from the tournament's status to
// `to`; absent names the sides starting now would withdraw.
func (s *Site) adminStatusProps(ctx context.Context, tour *core.Tournament, to core.TournamentStatus, absent []string) views.AdminStatusConfirm {
	p := views.AdminStatusConfirm{Slug: tour.Slug, Name: tour.Name, From: tour.Status, To: to,
		Allowed: tour.NextStatusAllowed(to) == nil}
	if !p.Allowed {
		p.Notice = views.AdminNotice{Error: true, Text: adminTransitionText(ctx, tour, to)}
		return p
	}
	now := s.srv.Now()
	p.Effects = adminStepEffects(ctx, tour, to, tour.PlayerCount, now)
	if opens, _, ok := tour.CheckInWindow(); ok && tour.Status == core.StatusRegistrationClosed &&
		(to == core.StatusGroupStage || to == core.StatusPlayoffs) {
		if now.Before(opens) {
			p.Effects = append([]templ.Component{views.AdminHTML(ctx, "admin.tournament.effect.checkInNotOpen")}, p.Effects...)
		} else {
			first := views.AdminHTML(ctx, "admin.tournament.effect.allCheckedIn")
			if len(absent) > 0 {
				first = views.AdminHTML(ctx, "admin.tournament.effect.withdraws", "Count", len(absent), "Names", views.AdminNames(ctx, absent))
			}
			p.Effects = append([]templ.Component{first}, p.Effects...)
		}
	}
	return p
}

// adminStatusInSentence is a status's label inside a sentence: lower
// case ("is completed"), but for German, whose statuses are nouns that
// keep their capital.
func adminStatusInSentence(ctx context.Context, status core.TournamentStatus) string {
	label := views.TournamentStatusLabel(ctx, status)
	if i18n.From(ctx).Locale() == "de" {
		return label
	}
	return strings.ToLower(label)
}

// adminTransitionText explains why a step is not possible.
func adminTransitionText(ctx context.Context, tour *core.Tournament, to core.TournamentStatus) string {
	tr := i18n.From(ctx)
	from := adminStatusInSentence(ctx, tour.Status)
	switch {
	case tour.Status.Final():
		return tr.T("admin.tournament.transition.final", "Status", from)
	case to == core.StatusGroupStage && !tour.Format.HasGroupStage():
		return tr.T("admin.tournament.transition.noGroupStage")
	case to == core.StatusPlayoffs && tour.Format == core.FormatRoundRobin:
		return tr.T("admin.tournament.transition.noPlayoffsRoundRobin")
	case to == core.StatusPlayoffs && tour.Format == core.FormatSwiss && tour.TopCut == 0:
		return tr.T("admin.tournament.transition.noPlayoffsSwiss")
	}
	return tr.T("admin.tournament.transition.notInOneStep", "From", from, "To", adminStatusInSentence(ctx, to))
}

// adminStepEffects says what a lifecycle step does, in the admin's words.
func adminStepEffects(ctx context.Context, tour *core.Tournament, to core.TournamentStatus, sides int, now time.Time) []templ.Component {
	tr := i18n.From(ctx)
	effect := func(id string, args ...any) templ.Component { return views.AdminHTML(ctx, id, args...) }
	window := tr.N("admin.tournament.duration.minutes", tour.MatchWindowMinutes)
	utc := func(t time.Time) string { return tr.Time(t) }
	switch to {
	case core.StatusRegistrationOpen:
		out := []templ.Component{
			effect("admin.tournament.effect.public"),
			effect("admin.tournament.effect.registerWindow", "Opens", utc(tour.RegistrationOpensAt), "Closes", utc(tour.RegistrationClosesAt), "Count", tour.MaxPlayers),
		}
		if now.Before(tour.RegistrationOpensAt) {
			out = append(out, effect("admin.tournament.effect.notYetOpen", "Opens", utc(tour.RegistrationOpensAt)))
		}
		return append(out, effect("admin.tournament.effect.settingsFixed"))
	case core.StatusRegistrationClosed:
		return []templ.Component{
			effect("admin.tournament.effect.noMoreRegistrations", "Taken", tr.Number(sides), "Count", tour.MaxPlayers),
			effect("admin.tournament.effect.seedsUntilDraw"),
		}
	case core.StatusGroupStage:
		start := tour.StartsAt
		if start.Before(now) {
			start = now
		}
		var out []templ.Component
		if tour.SeedFromRatings {
			out = append(out, effect("admin.tournament.effect.seedByRating"))
		}
		switch tour.Format {
		case core.FormatSwiss:
			rounds := tour.SwissRoundsFor(sides)
			out = append(out,
				effect("admin.tournament.effect.swissRound1", "Rounds", tr.Number(rounds), "Count", sides, "Start", utc(start), "Window", window),
				effect("admin.tournament.effect.swissNextRounds"))
			if tour.TopCut > 0 {
				out = append(out, effect("admin.tournament.effect.swissTopCut", "Count", tour.TopCut))
			} else {
				out = append(out, effect("admin.tournament.effect.swissNoCut"))
			}
		case core.FormatRoundRobin:
			out = append(out,
				effect("admin.tournament.effect.roundRobin", "Count", sides, "Start", utc(start), "Window", window),
				effect("admin.tournament.effect.roundRobinEnd"))
		default:
			out = append(out,
				effect("admin.tournament.effect.groupsDraw", "Count", sides, "Groups", tr.Number(tour.GroupCount)),
				effect("admin.tournament.effect.groupsSchedule", "Start", utc(start), "Window", window))
		}
		return append(out, effect("admin.tournament.effect.seedsFixed"))
	case core.StatusPlayoffs:
		switch tour.Format {
		case core.FormatPlayoffsOnly, core.FormatDoubleElimination:
			var out []templ.Component
			if tour.SeedFromRatings {
				out = append(out, effect("admin.tournament.effect.seedByRating"))
			}
			out = append(out, effect("admin.tournament.effect.bracketFromSeeds", "Count", sides))
			if tour.Format == core.FormatDoubleElimination {
				if tour.GrandFinalReset {
					out = append(out, effect("admin.tournament.effect.doubleElimReset"))
				} else {
					out = append(out, effect("admin.tournament.effect.doubleElim"))
				}
			}
			return append(out, effect("admin.tournament.effect.round1Now", "Window", window), effect("admin.tournament.effect.seedsFixed"))
		case core.FormatSwiss:
			return []templ.Component{
				effect("admin.tournament.effect.needsSwiss"),
				effect("admin.tournament.effect.swissCut", "Count", tour.TopCut),
				effect("admin.tournament.effect.round1Now", "Window", window),
			}
		}
		return []templ.Component{
			effect("admin.tournament.effect.needsGroups"),
			effect("admin.tournament.effect.groupsCut", "Count", tour.AdvancePerGroup),
			effect("admin.tournament.effect.round1Now", "Window", window),
		}
	case core.StatusCompleted:
		decides := "admin.tournament.effect.needsFinal"
		switch {
		case tour.Format == core.FormatDoubleElimination:
			decides = "admin.tournament.effect.needsGrandFinal"
		case tour.Status == core.StatusGroupStage:
			decides = "admin.tournament.effect.needsAll"
		}
		return []templ.Component{effect(decides), effect("admin.tournament.effect.podium")}
	case core.StatusCancelled:
		return []templ.Component{
			effect("admin.tournament.effect.stops"),
			effect("admin.tournament.effect.staysListed"),
		}
	}
	return nil
}

// adminChangeStatus is POST /admin/tournaments/{slug}/status (field to):
// the step through core.ChangeTournamentStatus. A refused step shows the
// confirmation page again with the reason (409).
func (s *Site) adminChangeStatus(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	tr := i18n.From(r.Context())
	to := core.TournamentStatus(r.PostFormValue("to"))
	if !adminStatuses[to] {
		s.adminNotFound(w, r, t, v, tr.T("admin.tournament.status.noSuchStep"))
		return
	}
	ctx := r.Context()
	absent, err := s.adminWithdrawnNames(ctx, t, tour)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := s.adminStatusProps(r.Context(), tour, to, absent)
	err = t.ChangeTournamentStatus(ctx, tour, to)
	if err == nil {
		adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "status", "")
		return
	}
	var text string
	switch adminErrorCode(err) {
	case core.CodeInvalidTransition:
		// Another admin may have moved it meanwhile: explain from its status now.
		if now, rerr := t.TournamentByID(ctx, tour.ID); rerr == nil {
			tour = now
		}
		p = s.adminStatusProps(r.Context(), tour, to, absent)
		text = adminTransitionText(r.Context(), tour, to)
		if p.Allowed {
			text = tr.T("admin.tournament.status.changedMeanwhile")
		}
	case core.CodeMatchesUnresolved:
		text = tr.T("admin.tournament.status.unresolved")
	case core.CodeTooFewEntrants:
		text = tr.N("admin.tournament.status.tooFew", tour.PlayerCount)
		if tour.Format == core.FormatSwiss {
			// The reason is core's message (in English).
			text = tr.N("admin.tournament.status.tooFewSwiss", tour.PlayerCount, "Reason", adminErrorMessage(r.Context(), err))
		}
	case core.CodeInvalidField:
		text = tr.T("admin.tournament.status.invalidField", "Field", adminErrorField(err))
	case "":
		s.fail(w, r, t, err)
		return
	default:
		text = tr.T("admin.tournament.status.refused", "Code", adminErrorCode(err))
	}
	p.Notice = views.AdminNotice{Error: true, Text: text}
	s.render(w, r, t, server.StatusOf(adminErrorCode(err)), views.AdminStatusConfirmPage(s.adminLayout(t, v, adminStatusTitle(r.Context(), tour, to)), p))
}
