package server

import (
	"net/http"
	"time"

	"arena/app"
	"arena/core"
)

// The title endpoints (spec 4.1, DESIGN.md "Titles"): the list, challenge,
// respond and volunteer for game clients (ticket, environment gate), the
// same list on the public read API at GET /api/v1/public/titles, and the
// admin's create and retire. The rules are core's (title.go,
// title_actions.go); the website's buttons call the same functions.

// titleView is a title in the list (DESIGN.md's fields, plus environment,
// the match being played, the volunteers and retiredAt).
type titleView struct {
	ID               int64               `json:"id"`
	Slug             string              `json:"slug"`
	Name             string              `json:"name"`
	Environment      string              `json:"environment"`
	Holder           *core.PlayerProfile `json:"holder"`
	Reign            *reignView          `json:"reign"`
	ClockExpiresAt   *string             `json:"clockExpiresAt"`
	PendingChallenge *openChallengeView  `json:"pendingChallenge"`
	Match            *titleMatchView     `json:"match"`
	Volunteers       []volunteerView     `json:"volunteers"`
	Lineage          []lineageView       `json:"lineage"`
	RetiredAt        *string             `json:"retiredAt"`
	// BestOf is its title matches' series length.
	BestOf int `json:"bestOf"`
}

type reignView struct {
	Since    string `json:"since"`
	Defenses int    `json:"defenses"`
}

// openChallengeView is the title's open challenge: pending, or declined
// (it strips the holder when the clock runs out).
type openChallengeView struct {
	ID         int64               `json:"id"`
	Challenger *core.PlayerProfile `json:"challenger"`
	At         string              `json:"at"`
	Status     string              `json:"status"`
}

// titleMatchView is the title's match being played: kind coronation or
// challenge.
type titleMatchView struct {
	ID       int64               `json:"id"`
	Kind     string              `json:"kind"`
	Status   string              `json:"status"`
	Player1  *core.PlayerProfile `json:"player1"`
	Player2  *core.PlayerProfile `json:"player2"`
	OpensAt  string              `json:"opensAt"`
	ClosesAt string              `json:"closesAt"`
}

type volunteerView struct {
	Player *core.PlayerProfile `json:"player"`
	At     string              `json:"at"`
}

type lineageView struct {
	Player   *core.PlayerProfile `json:"player"`
	Since    string              `json:"since"`
	Until    *string             `json:"until"`
	Defenses int                 `json:"defenses"`
	Ended    *string             `json:"ended"`
}

// challengeView is a challenge as challenge and respond answer it.
type challengeView struct {
	ID          int64               `json:"id"`
	TitleID     int64               `json:"titleId"`
	Challenger  *core.PlayerProfile `json:"challenger"`
	Holder      *core.PlayerProfile `json:"holder"`
	Status      string              `json:"status"`
	At          string              `json:"at"`
	RespondedAt *string             `json:"respondedAt"`
	MatchID     *int64              `json:"matchId"`
}

// titleViews renders titles with their players' profiles.
func titleViews(board *app.TitleBoard) []titleView {
	book := playerBook(board.Players)
	out := make([]titleView, 0, len(board.Titles))
	for i := range board.Titles {
		out = append(out, book.title(&board.Titles[i]))
	}
	return out
}

func (b playerBook) title(t *core.Title) titleView {
	v := titleView{
		ID: t.ID, Slug: t.Slug, Name: t.Name, Environment: string(t.Environment), Holder: b.player(t.Holder),
		Volunteers: make([]volunteerView, 0, len(t.Volunteers)), Lineage: make([]lineageView, 0, len(t.Lineage)),
		ClockExpiresAt: isoTimePtr(t.ClockExpiresAt()), RetiredAt: isoTimePtr(t.RetiredAt), BestOf: max(t.BestOf, 1),
	}
	if r := t.CurrentReign(); r != nil {
		v.Reign = &reignView{Since: isoTime(r.Since), Defenses: r.Defenses}
	}
	if c := t.OpenChallenge; c != nil {
		v.PendingChallenge = &openChallengeView{ID: c.ID, Challenger: b.player(c.Challenger), At: isoTime(c.At), Status: string(c.Status)}
	}
	if m := t.Match; m != nil {
		kind := "challenge"
		if m.Round == core.RoundCoronation {
			kind = "coronation"
		}
		v.Match = &titleMatchView{ID: m.ID, Kind: kind, Status: string(m.Status), Player1: b.player(m.P1), Player2: b.player(m.P2),
			OpensAt: isoTime(m.OpensAt), ClosesAt: isoTime(m.ClosesAt)}
	}
	for _, vol := range t.Volunteers {
		v.Volunteers = append(v.Volunteers, volunteerView{Player: b.player(vol.PlatformID), At: isoTime(vol.At)})
	}
	for _, r := range t.Lineage {
		v.Lineage = append(v.Lineage, lineageView{Player: b.player(r.Holder), Since: isoTime(r.Since), Until: isoTimePtr(r.Until),
			Defenses: r.Defenses, Ended: optional(r.Ended)})
	}
	return v
}

func (b playerBook) challenge(c *core.TitleChallenge) challengeView {
	v := challengeView{ID: c.ID, TitleID: c.TitleID, Challenger: b.player(c.Challenger), Holder: b.player(c.Holder),
		Status: string(c.Status), At: isoTime(c.At), RespondedAt: isoTimePtr(c.RespondedAt)}
	if c.MatchID != 0 {
		v.MatchID = &c.MatchID
	}
	return v
}

// writeChallenge answers a challenge with its players' profiles.
func writeChallenge(w http.ResponseWriter, r *http.Request, t *Tenant, status int, c *core.TitleChallenge) {
	profiles, err := t.Players(r.Context(), []string{c.Challenger, c.Holder})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, status, playerBook(profiles).challenge(c))
}

// writeTitle answers one title with its players' profiles.
func writeTitle(w http.ResponseWriter, r *http.Request, t *Tenant, status int, title *core.Title) {
	profiles, err := t.Players(r.Context(), title.Players())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, status, playerBook(profiles).title(title))
}

// handleTitles is GET /api/v1/titles: the titles the caller's build may
// see (the environment gate).
func (s *Server) handleTitles(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	board, err := t.VisibleTitles(r.Context(), caller.AppID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"titles": titleViews(board)})
}

// handlePublicTitles is GET /api/v1/public/titles: every title, on the
// public read API's rules (no ticket, rate limits, ETag).
func (s *Server) handlePublicTitles(r *http.Request, t *Tenant, _ bool) (any, error) {
	board, err := t.PublicTitles(r.Context())
	if err != nil {
		return nil, err
	}
	return map[string]any{"titles": titleViews(board)}, nil
}

// handleChallenge is POST /api/v1/titles/{id}/challenge: 201 the pending
// challenge.
func (s *Server) handleChallenge(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	id, err := core.ParseTitleID(r.PathValue("id"), core.CodeTitleNotFound)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := t.Challenge(r.Context(), caller, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeChallenge(w, r, t, http.StatusCreated, c)
}

type respondRequest struct {
	Accept *bool `json:"accept" validate:"required"`
}

// handleRespond is POST /api/v1/title-challenges/{id}/respond { accept }:
// 200 the answered challenge (accepted with its title match's id).
func (s *Server) handleRespond(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	id, err := core.ParseTitleID(r.PathValue("id"), core.CodeChallengeNotFound)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req respondRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := t.RespondToChallenge(r.Context(), caller, id, *req.Accept)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeChallenge(w, r, t, http.StatusOK, c)
}

// handleVolunteer is POST /api/v1/titles/{id}/volunteer: 201 { titleId,
// volunteer, position, matchId }; matchId is the caller's coronation match
// once a second volunteer came, else null.
func (s *Server) handleVolunteer(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	id, err := core.ParseTitleID(r.PathValue("id"), core.CodeTitleNotFound)
	if err != nil {
		writeError(w, r, err)
		return
	}
	title, err := t.Volunteer(r.Context(), caller, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	profiles, err := t.Players(r.Context(), []string{caller.PlatformID})
	if err != nil {
		writeError(w, r, err)
		return
	}
	position := 0
	for i, v := range title.Volunteers {
		if v.PlatformID == caller.PlatformID {
			position = i + 1
		}
	}
	var matchID *int64
	if m := title.Match; m != nil && (m.P1 == caller.PlatformID || m.P2 == caller.PlatformID) {
		matchID = &m.ID
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"titleId": title.ID, "volunteer": playerBook(profiles).player(caller.PlatformID), "position": position, "matchId": matchID,
	})
}

// handleCreateTitle is POST /api/v1/admin/titles: 201 the vacant title.
func (s *Server) handleCreateTitle(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.TitleDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	title, err := t.CreateTitle(r.Context(), draft)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeTitle(w, r, t, http.StatusCreated, title)
}

// handleRetireTitle is POST /api/v1/admin/titles/{id}/retire: 200 the
// retired title (retiring twice is the same answer).
func (s *Server) handleRetireTitle(w http.ResponseWriter, r *http.Request, t *Tenant) {
	id, err := core.ParseTitleID(r.PathValue("id"), core.CodeTitleNotFound)
	if err != nil {
		writeError(w, r, err)
		return
	}
	title, err := t.RetireTitle(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeTitle(w, r, t, http.StatusOK, title)
}

// isoTimePtr is an optional timestamp as the API shows it (null when nil).
func isoTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := isoTime(*t)
	return &s
}
