package web

import (
	"encoding/csv"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Entrants as a list: the organizer pastes one entrant a line (a 17-digit
// account id or a player's name, optionally ", seed") or sends a CSV file
// of the same columns; the site previews whom each line names, then adds
// them all at once through core.RegisterAll, the admin API's bulk rules.

// adminEntrantsFileBytes bounds the CSV file (512 lines of a name and a
// seed fit easily).
const adminEntrantsFileBytes = 256 << 10

// entrantSeed is a line's optional trailing ", seed".
var entrantSeed = regexp.MustCompile(`^(.*?)\s*,\s*([0-9]+)\s*$`)

// entrantLine is one line of the list as typed.
type entrantLine struct {
	text, who, seed string
}

// adminEntrantLines reads the pasted lines and the CSV file's records
// (a first record naming the columns, "player"/"platformId"/"name", is
// skipped), blank lines left out.
func adminEntrantLines(r *http.Request) ([]entrantLine, error) {
	var out []entrantLine
	if err := r.ParseMultipartForm(adminEntrantsFileBytes); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		return nil, err
	}
	for _, line := range strings.Split(strings.Join(r.PostForm["entrants"], "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		e := entrantLine{text: line, who: line}
		if m := entrantSeed.FindStringSubmatch(line); m != nil {
			e.who, e.seed = strings.TrimSpace(m[1]), m[2]
		}
		out = append(out, e)
	}
	file, _, err := r.FormFile("file")
	if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer file.Close()
	records := csv.NewReader(io.LimitReader(file, adminEntrantsFileBytes))
	records.FieldsPerRecord = -1
	records.TrimLeadingSpace = true
	for first := true; ; first = false {
		rec, err := records.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		who := strings.TrimSpace(rec[0])
		if first {
			switch strings.ToLower(who) {
			case "player", "platformid", "name", "id":
				continue
			}
		}
		if who == "" {
			continue
		}
		e := entrantLine{text: strings.Join(rec, ", "), who: who}
		if len(rec) > 1 {
			e.seed = strings.TrimSpace(rec[1])
		}
		out = append(out, e)
	}
	return out, nil
}

// adminResolveEntrants finds the player each line names: a 17-digit id,
// or a name matching one player of the arena (exactly, whatever the
// case; else the one name containing it). Lines naming nobody, several
// players, the same player twice, or a bad seed carry their problem.
func (s *Site) adminResolveEntrants(r *http.Request, t *server.Tenant, lines []entrantLine) ([]views.AdminEntrantRow, error) {
	tr := i18n.From(r.Context())
	rows := make([]views.AdminEntrantRow, len(lines))
	ids := []string{}
	for i, l := range lines {
		row := views.AdminEntrantRow{Line: i + 1, Text: l.text, Seed: l.seed}
		switch {
		case l.seed != "" && !validSeed(l.seed):
			row.Problem = tr.T("admin.entrants.problem.seed", "Min", strconv.Itoa(core.SeedRange.Min), "Max", strconv.Itoa(core.SeedRange.Max))
		case strings.Trim(l.who, "0123456789") == "":
			if core.ValidPlatformID(l.who) {
				row.PlatformID = l.who
			} else {
				row.Problem = tr.T("admin.entrants.problem.accountId")
			}
		default:
			found, err := t.PlayersNamed(r.Context(), l.who, adminPlayerChoices+1)
			if err != nil {
				return nil, err
			}
			var exact []core.PlayerProfile
			for _, p := range found {
				if strings.EqualFold(p.PersonaName, l.who) {
					exact = append(exact, p)
				}
			}
			switch {
			case len(exact) == 1:
				row.PlatformID, row.Name = exact[0].PlatformID, exact[0].PersonaName
			case len(exact) == 0 && len(found) == 1:
				row.PlatformID, row.Name = found[0].PlatformID, found[0].PersonaName
			case len(found) == 0:
				row.Problem = tr.T("admin.entrants.problem.noPlayer")
			default:
				row.Problem = tr.T("admin.entrants.problem.several")
			}
		}
		if row.PlatformID != "" {
			ids = append(ids, row.PlatformID)
		}
		rows[i] = row
	}
	if len(ids) > 0 {
		known, err := t.Players(r.Context(), ids)
		if err != nil {
			return nil, err
		}
		seen := map[string]int{}
		for i := range rows {
			id := rows[i].PlatformID
			if id == "" {
				continue
			}
			if p, ok := known[id]; ok && rows[i].Name == "" {
				rows[i].Name = p.PersonaName
			}
			if rows[i].Name == "" {
				rows[i].Name = tr.T("admin.entrants.newPlayer")
			}
			if first, dup := seen[id]; dup {
				rows[i].Problem = tr.T("admin.entrants.problem.duplicate", "Line", tr.Number(first))
			}
			seen[id] = rows[i].Line
		}
	}
	return rows, nil
}

func validSeed(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= core.SeedRange.Min && n <= core.SeedRange.Max
}

// adminEntrants is POST /admin/tournaments/{slug}/entrants: the list
// previewed (each line resolved), or with add=1 registered all at once.
func (s *Site) adminEntrants(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	r.Body = http.MaxBytesReader(w, r.Body, adminMaxForm+adminEntrantsFileBytes)
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	tr := i18n.From(r.Context())
	p := views.AdminEntrants{Slug: tour.Slug, Tournament: tour.Name, List: r.PostFormValue("entrants")}
	page := func(status int) {
		s.render(w, r, t, status, views.AdminEntrantsPage(s.adminLayout(t, v, tr.T("admin.entrants.pageTitle", "Tournament", tour.Name)), p))
	}
	lines, err := adminEntrantLines(r)
	if err != nil {
		p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.entrants.error.unreadable")}
		page(http.StatusBadRequest)
		return
	}
	if len(lines) == 0 || len(lines) > core.MaxBulkRegistrations {
		p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.entrants.error.size", "Max", strconv.Itoa(core.MaxBulkRegistrations))}
		page(http.StatusUnprocessableEntity)
		return
	}
	if p.Rows, err = s.adminResolveEntrants(r, t, lines); err != nil {
		s.fail(w, r, t, err)
		return
	}
	if p.Refused() > 0 {
		page(http.StatusUnprocessableEntity)
		return
	}
	resolved := make([]string, len(p.Rows))
	drafts := make([]core.RegistrationDraft, len(p.Rows))
	for i, row := range p.Rows {
		resolved[i] = row.PlatformID
		if row.Seed != "" {
			resolved[i] += ", " + row.Seed
		}
		drafts[i] = core.RegistrationDraft{PlatformID: row.PlatformID, Seed: core.NumberText(row.Seed)}
	}
	p.Resolved = resolved
	if r.PostFormValue("add") == "" {
		page(http.StatusOK)
		return
	}
	_, err = t.RegisterSides(r.Context(), tour, drafts)
	if err == nil {
		adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "entrants", "registrations")
		return
	}
	var refused *core.Error
	if !errors.As(err, &refused) || refused.Code == core.CodeInternal {
		s.fail(w, r, t, err)
		return
	}
	reason, ok := adminEntrantRefusals[refused.Code]
	if !ok {
		reason = "other"
	}
	if refused.Index != nil && *refused.Index < len(p.Rows) {
		p.Rows[*refused.Index].Problem = tr.T("admin.entrants.refusal." + reason)
	}
	p.Resolved = nil
	p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.entrants.notAdded." + reason)}
	page(server.StatusOf(refused.Code))
}

// adminEntrantRefusals name why a list was refused, by code: the
// messages admin.entrants.refusal.<name> (at its line) and
// admin.entrants.notAdded.<name> (the page's notice); any other code's
// are the "other" ones.
var adminEntrantRefusals = map[string]string{
	core.CodeAlreadyRegistered:  "alreadyRegistered",
	core.CodeTournamentFull:     "full",
	core.CodeRegistrationClosed: "closed",
	core.CodeInvalidRoster:      "roster",
}
