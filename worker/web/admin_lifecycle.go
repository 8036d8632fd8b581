package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"arena/core"
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
	to := core.TournamentStatus(r.URL.Query().Get("to"))
	if !adminStatuses[to] {
		s.adminNotFound(w, r, t, v, "There is no such lifecycle step.")
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
	s.render(w, r, t, status, views.AdminStatusConfirmPage(s.adminLayout(t, v, tour.Name+": "+views.TournamentStatusLabel(r.Context(), to)), p))
}

// adminWithdrawnNames names the sides a stage started now would withdraw
// for not checking in (core.WithdrawnAt), in registration order.
func (s *Site) adminWithdrawnNames(ctx context.Context, t *server.Tenant, tour *core.Tournament) ([]string, error) {
	if !tour.CheckInApplies() {
		return nil, nil
	}
	regs, err := t.Store.Registrations(ctx, tour.ID)
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
	p.Effects = adminStepEffects(tour, to, tour.PlayerCount, now)
	if opens, _, ok := tour.CheckInWindow(); ok && tour.Status == core.StatusRegistrationClosed &&
		(to == core.StatusGroupStage || to == core.StatusPlayoffs) {
		if now.Before(opens) {
			p.Effects = append([]string{"Check-in has not opened yet, so nobody is withdrawn for missing it."}, p.Effects...)
		} else {
			first := "Everybody has checked in: nobody is withdrawn."
			if len(absent) > 0 {
				first = fmt.Sprintf("First withdraws the %d sides that have not checked in: %s. Each of their players is told why; check a side in on the tournament page to keep it.", len(absent), strings.Join(absent, ", "))
				if len(absent) == 1 {
					first = "First withdraws the one side that has not checked in: " + absent[0] + ". Its players are told why; check it in on the tournament page to keep it."
				}
			}
			p.Effects = append([]string{first}, p.Effects...)
		}
	}
	return p
}

// adminTransitionText explains why a step is not possible.
func adminTransitionText(ctx context.Context, tour *core.Tournament, to core.TournamentStatus) string {
	from := strings.ToLower(views.TournamentStatusLabel(ctx, tour.Status))
	switch {
	case tour.Status.Final():
		return "This tournament is " + from + ": nothing can follow."
	case to == core.StatusGroupStage && !tour.Format.HasGroupStage():
		return "This tournament has no group stage (it starts with its bracket)."
	case to == core.StatusPlayoffs && tour.Format == core.FormatRoundRobin:
		return "This tournament has no playoffs: its round robin's standings decide the podium."
	case to == core.StatusPlayoffs && tour.Format == core.FormatSwiss && tour.TopCut == 0:
		return "This tournament has no playoffs: it has no top cut, so the Swiss standings decide the podium."
	}
	return "The tournament cannot go from " + from + " to " + strings.ToLower(views.TournamentStatusLabel(ctx, to)) + " in one step."
}

// adminStepEffects says what a lifecycle step does, in the admin's words.
func adminStepEffects(tour *core.Tournament, to core.TournamentStatus, sides int, now time.Time) []string {
	window := fmt.Sprintf("%d minutes", tour.MatchWindowMinutes)
	utc := func(t time.Time) string { return core.FormatTime(t, nil) }
	switch to {
	case core.StatusRegistrationOpen:
		out := []string{
			"The tournament becomes public.",
			"Players can register from " + utc(tour.RegistrationOpensAt) + " until " + utc(tour.RegistrationClosesAt) + ", up to " + fmt.Sprint(tour.MaxPlayers) + " sides.",
		}
		if now.Before(tour.RegistrationOpensAt) {
			out = append(out, "Until "+utc(tour.RegistrationOpensAt)+" nobody can register, not even from the admin pages: to open it at once, first set Registration opens to now.")
		}
		return append(out, "Its settings can no longer be edited.")
	case core.StatusRegistrationClosed:
		return []string{
			fmt.Sprintf("No more registrations: %d of %d places are taken.", sides, tour.MaxPlayers),
			"Seeds can still be changed until the draw.",
		}
	case core.StatusGroupStage:
		start := tour.StartsAt
		if start.Before(now) {
			start = now
		}
		var out []string
		if tour.SeedFromRatings {
			out = append(out, "First seeds the sides left unseeded by their rating, highest first, after the seeded ones.")
		}
		switch tour.Format {
		case core.FormatSwiss:
			rounds := tour.SwissRoundsFor(sides)
			out = append(out,
				fmt.Sprintf("Pairs round 1 of %d Swiss rounds for the %d sides by seed (1 v 2, 3 v 4, …; with an odd count the last seed has a bye, counted as a win). It opens at %s and lasts %s.", rounds, sides, utc(start), window),
				"Each next round is paired by itself when every match of the round before is decided: players of equal points who have not met, the bye to the lowest-ranked player without one.")
			if tour.TopCut > 0 {
				out = append(out, fmt.Sprintf("After the last round, the top %d of the standings (points, Buchholz, Sonneborn-Berger) go on to a single-elimination bracket.", tour.TopCut))
			} else {
				out = append(out, "After the last round, the standings (points, Buchholz, Sonneborn-Berger) decide the podium, and the tournament completes by itself.")
			}
		case core.FormatRoundRobin:
			out = append(out,
				fmt.Sprintf("Puts the %d sides in one group: everyone plays everyone once. Round 1 opens at %s, each round lasting %s.", sides, utc(start), window),
				"The last match decided completes the tournament: the standings decide the podium.")
		default:
			out = append(out,
				fmt.Sprintf("Draws the %d sides into %d groups by seed (snake draw; unseeded sides last, in registration order). Each group needs at least two.", sides, tour.GroupCount),
				"Schedules every group's round robin: round 1 opens at "+utc(start)+", each round lasting "+window+".")
		}
		return append(out, "Seeds can no longer be changed.")
	case core.StatusPlayoffs:
		switch tour.Format {
		case core.FormatPlayoffsOnly, core.FormatDoubleElimination:
			var out []string
			if tour.SeedFromRatings {
				out = append(out, "First seeds the sides left unseeded by their rating, highest first, after the seeded ones.")
			}
			out = append(out, fmt.Sprintf("Seeds the bracket from the %d sides' registration seeds (unseeded sides last, in registration order); the top seeds get the byes, resolved at once.", sides))
			if tour.Format == core.FormatDoubleElimination {
				reset := "the grand final decides."
				if tour.GrandFinalReset {
					reset = "a second grand final is played if the losers' bracket champion wins the first."
				}
				out = append(out, "Double elimination: a side is out after its second loss. Losers of the winners' bracket drop into the losers' bracket; the two champions meet in the grand final, and "+reset)
			}
			return append(out, "Round 1 opens now; each round lasts "+window+".", "Seeds can no longer be changed.")
		case core.FormatSwiss:
			return []string{
				"Needs every Swiss round decided (the last round's decision does this step by itself).",
				fmt.Sprintf("Seeds the top %d of the Swiss standings into a single-elimination bracket.", tour.TopCut),
				"Round 1 opens now; each round lasts " + window + ".",
			}
		}
		return []string{
			"Needs every group match resolved.",
			fmt.Sprintf("Seeds the bracket from the group standings: the top %d of each group, cross-seeded so that group mates meet as late as possible.", tour.AdvancePerGroup),
			"Round 1 opens now; each round lasts " + window + ".",
		}
	case core.StatusCompleted:
		decides := "Needs the final (and the third place match) resolved; resolving the final completes the tournament by itself."
		switch {
		case tour.Format == core.FormatDoubleElimination:
			decides = "Needs the grand final (and its reset, when played) resolved; resolving it completes the tournament by itself."
		case tour.Status == core.StatusGroupStage:
			decides = "Needs every match resolved; the last decision completes the tournament by itself, its standings deciding the podium."
		}
		return []string{decides, "Records the podium and gives every side its ladder points by final placement."}
	case core.StatusCancelled:
		return []string{
			"Stops the tournament for good: no more matches are played or decided.",
			"It stays listed, as cancelled. This cannot be undone.",
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
	to := core.TournamentStatus(r.PostFormValue("to"))
	if !adminStatuses[to] {
		s.adminNotFound(w, r, t, v, "There is no such lifecycle step.")
		return
	}
	ctx := r.Context()
	absent, err := s.adminWithdrawnNames(ctx, t, tour)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := s.adminStatusProps(r.Context(), tour, to, absent)
	err = core.ChangeTournamentStatus(ctx, t.Store, tour, to, t.Deps)
	if err == nil {
		adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "status", "")
		return
	}
	var text string
	switch adminErrorCode(err) {
	case core.CodeInvalidTransition:
		// Another admin may have moved it meanwhile: explain from its status now.
		if now, rerr := t.Store.TournamentByID(ctx, tour.ID); rerr == nil {
			tour = now
		}
		p = s.adminStatusProps(r.Context(), tour, to, absent)
		text = adminTransitionText(r.Context(), tour, to)
		if p.Allowed {
			text = "The tournament changed meanwhile; check the step again."
		}
	case core.CodeMatchesUnresolved:
		text = "Not yet: some matches are not resolved. Resolve them first (the dashboard's queue lists the disputed and overdue ones)."
	case core.CodeTooFewEntrants:
		text = fmt.Sprintf("Too few sides to draw: %d registered. A bracket needs at least 2, and every group at least 2.", tour.PlayerCount)
		if tour.Format == core.FormatSwiss {
			text = fmt.Sprintf("Too few sides to draw (%d registered): %s.", tour.PlayerCount, adminErrorMessage(err))
		}
	case core.CodeInvalidField:
		text = "The tournament's settings do not allow this draw (" + adminErrorField(err) + ")."
	case "":
		s.fail(w, r, t, err)
		return
	default:
		text = "The step was refused: " + adminErrorCode(err) + "."
	}
	p.Notice = views.AdminNotice{Error: true, Text: text}
	s.render(w, r, t, server.StatusOf(adminErrorCode(err)), views.AdminStatusConfirmPage(s.adminLayout(t, v, tour.Name+": "+views.TournamentStatusLabel(r.Context(), to)), p))
}
