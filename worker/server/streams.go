package server

import (
	"context"
	"net/http"

	"arena/core"
	"arena/core/tournamentview"
	"arena/worker/streams"
)

// Streams is the stream provider: the real one, or the mock twin.
func (s *Server) Streams() core.StreamProvider { return s.streams }

// defaultStreams is the mock twin when no provider is configured: its
// live set is the dev controls' (natively in dev mode), else empty.
func defaultStreams(dev *DevControls) core.StreamProvider {
	if dev == nil {
		return streams.Mock{}
	}
	return streams.Mock{Live: dev.LiveStreams}
}

// LiveNow is the arena's live set as last polled.
func (s *Server) LiveNow(ctx context.Context, t *Tenant) map[string]core.LiveStream {
	live, err := t.LiveNow(ctx)
	if err != nil {
		logger(ctx).WarnContext(ctx, "live set unreadable: nobody shown live", "error", err.Error())
		return map[string]core.LiveStream{}
	}
	return live
}

// handleCasters answers the caster directory: { casters: [...] }.
func (s *Server) handleCasters(r *http.Request, t *Tenant, _ bool) (any, error) {
	ctx := r.Context()
	list, err := t.CasterDirectory(ctx, s.LiveNow(ctx, t))
	if err != nil {
		return nil, err
	}
	return map[string]any{"casters": list}, nil
}

type arenaCasterRequest struct {
	StreamLogin string `json:"streamLogin" validate:"required,max=64"`
}

// handleAddArenaCaster seats the arena's official channel on a match.
func (s *Server) handleAddArenaCaster(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req arenaCasterRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	ctx := r.Context()
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	seats, err := t.SeatArenaCaster(ctx, id, req.StreamLogin)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"matchId": id, "casters": core.CasterViews(seats, s.LiveNow(ctx, t))})
}

// liveCasters fills a live match's casters and their mirrors.
func liveCasters(ctx context.Context, casters func(context.Context) (map[int64][]core.CasterSeat, error), st *core.MatchState, v *liveMatchView) error {
	if !st.Tournament.AllowSpectators {
		return nil
	}
	seats, err := casters(ctx)
	if err != nil {
		return err
	}
	for _, c := range seats[st.ID] {
		cv := casterView{StreamURL: core.StreamURL(c.StreamLogin), Source: c.Source}
		if c.PlatformID != "" {
			cv.PlatformID = &c.PlatformID
		}
		v.Casters = append(v.Casters, cv)
	}
	if len(v.Casters) > 0 {
		v.CasterPlatformID, v.StreamURL = v.Casters[0].PlatformID, &v.Casters[0].StreamURL
	}
	return nil
}

// matchStreamView is a POV stream on a public match object.
type matchStreamView struct {
	PlatformID  string `json:"platformId"`
	StreamLogin string `json:"streamLogin"`
	StreamURL   string `json:"streamUrl"`
	Live        bool   `json:"live"`
}

// decorateCasters adds each match's casters and POV streams, with live
// badges, to a public tournament.
func (s *Server) decorateCasters(ctx context.Context, t *Tenant, v *tournamentview.Tournament, full *tournamentFull) {
	tour := v.Tournament
	seats, povs := v.Casters, v.Streams
	if len(seats) == 0 && len(povs) == 0 {
		return
	}
	live := s.LiveNow(ctx, t)
	casters := map[int64][]core.CasterSeat{}
	for _, c := range seats {
		if tour.AllowSpectators {
			casters[c.MatchID] = append(casters[c.MatchID], c)
		}
	}
	streamsBy := map[int64][]matchStreamView{}
	for _, p := range povs {
		_, on := live[p.StreamLogin]
		streamsBy[p.MatchID] = append(streamsBy[p.MatchID], matchStreamView{PlatformID: p.PlatformID, StreamLogin: p.StreamLogin, StreamURL: core.StreamURL(p.StreamLogin), Live: on})
	}
	each := func(ms []matchView) {
		for i := range ms {
			if c := casters[ms[i].ID]; len(c) > 0 {
				ms[i].Casters = core.CasterViews(c, live)
			}
			ms[i].Streams = streamsBy[ms[i].ID]
		}
	}
	for i := range full.Groups {
		each(full.Groups[i].Matches)
	}
	for i := range full.Bracket {
		each(full.Bracket[i].Matches)
	}
}
