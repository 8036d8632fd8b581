package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"arena/core"
	"arena/core/tournamentview"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Follows, POV streams and caster seats: the players' social actions.
// Each redirects back (303) to its page with a notice, or answers the
// refusal's page with its status.

// socialRefused answers a refused social action: the refusal's message
// with its status and a way back.
func (s *Site) socialRefused(w http.ResponseWriter, r *http.Request, t *server.Tenant, next string, err error) {
	tr := i18n.From(r.Context())
	msg := streamMessageIn(tr, err)
	if msg == "" {
		s.fail(w, r, t, err)
		return
	}
	status := server.StatusOf(core.ErrorCode(err))
	s.render(w, r, t, status, views.RefusedPage(s.layout(r, t, tr.T("account.refused.title")), status, msg, next))
}

// off reads the form's off=on (undo).
func off(r *http.Request) bool { return r.PostFormValue("off") == "on" }

// followAction is POST /follow/{kind}/{id}: follow (off=on: unfollow) a
// tournament or a player, back to the page with a notice.
func (s *Site) followAction(kind string) func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	return func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		id := r.PathValue("id")
		fallback := "/tournaments"
		if kind == core.FollowPlayer {
			fallback = "/players/" + id
		}
		viewer, next, ok := s.actionStart(w, r, t, fallback)
		if !ok {
			return
		}
		if err := t.Follow(r.Context(), viewer, kind, id, off(r)); err != nil {
			s.socialRefused(w, r, t, next, err)
			return
		}
		code := "followed"
		if kind == core.FollowPlayer {
			code = "followed_player"
		}
		if off(r) {
			code = "unfollowed"
		}
		http.Redirect(w, r, withNotice(next, code), http.StatusSeeOther)
	}
}

// matchAction reads the {id} of a match action and the form.
func (s *Site) matchAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) (id int64, viewer, next string, ok bool) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		s.publicNotFound(w, r, t, i18n.From(r.Context()).T("account.error.noMatch"))
		return 0, "", "", false
	}
	viewer, next, ok = s.actionStart(w, r, t, "/matches/"+strconv.FormatInt(id, 10))
	return id, viewer, next, ok
}

// povStreamAction advertises (or retires) the participant's own stream.
func (s *Site) povStreamAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.matchToggle(w, r, t, t.SetPOVStream, "stream_on", "stream_off")
}

// castAction claims (or retires) a community caster seat.
func (s *Site) castAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.matchToggle(w, r, t, t.ClaimCast, "casting", "cast_retired")
}

// matchToggle runs one of a match's on/off actions for the viewer (off=on
// turns it off) and returns to the match's cast actions with the notice of
// what it did.
func (s *Site) matchToggle(w http.ResponseWriter, r *http.Request, t *server.Tenant,
	apply func(ctx context.Context, matchID int64, platformID string, off bool) error,
	onCode, offCode string) {
	id, viewer, next, ok := s.matchAction(w, r, t)
	if !ok {
		return
	}
	if err := apply(r.Context(), id, viewer, off(r)); err != nil {
		s.socialRefused(w, r, t, next, err)
		return
	}
	code := onCode
	if off(r) {
		code = offCode
	}
	http.Redirect(w, r, withNotice(next, code)+"#cast-actions", http.StatusSeeOther)
}

// inviteCasterAction seats an invited caster at a participant's request.
func (s *Site) inviteCasterAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	id, viewer, next, ok := s.matchAction(w, r, t)
	if !ok {
		return
	}
	invited := strings.TrimSpace(r.PostFormValue("platformId"))
	if err := t.InviteCaster(r.Context(), id, viewer, invited); err != nil {
		s.socialRefused(w, r, t, next, err)
		return
	}
	http.Redirect(w, r, withNotice(next, "invited")+"#cast-actions", http.StatusSeeOther)
}

// followButton is the follow box of a tournament or player page.
func (s *Site) followButton(r *http.Request, t *server.Tenant, kind, target, page string) *views.FollowProps {
	p := &views.FollowProps{Kind: kind, TargetID: target, Next: page}
	v := s.viewer(r.Context(), r, t)
	if v == nil {
		p.SignIn = true
		return p
	}
	p.Following = v.IsFollowing(kind, target)
	return p
}

// matchWatch fills a match page's casters and POV streams (live badges
// from the arena's live set) and the viewer's casting box.
func (s *Site) matchWatch(r *http.Request, t *server.Tenant, parts *tournamentview.MatchParts, book publicBook, p *views.MatchPage) error {
	ctx := r.Context()
	st, seats, povs := parts.State, parts.Casters, parts.Streams
	live := core.FreshLive(parts.Live, parts.LivePolledAt, s.srv.Now())
	// embeddable is the stream the page offers to play: the first live
	// caster's, else the first live player's own view.
	var embeddable string
	v := s.viewer(ctx, r, t)
	cast := views.CastActionsProps{MatchID: st.ID, Next: "/matches/" + strconv.FormatInt(st.ID, 10), Visitor: v == nil,
		Open: st.Tournament.AllowSpectators && !st.Status.Resolved(), Decided: st.Status.Resolved()}
	if v != nil {
		cast.Linked, cast.Participant = v.StreamLogin, st.SideOf(v.PlatformID) != 0
	}
	if st.Tournament.AllowSpectators {
		for _, c := range seats {
			name := c.StreamLogin
			if c.PlatformID != "" {
				name = book.player(c.PlatformID).Name + " (" + c.StreamLogin + ")" // the casters are in the match's book
			}
			_, on := live[c.StreamLogin]
			p.Casters = append(p.Casters, views.Caster{Name: name, StreamURL: core.StreamURL(c.StreamLogin), Source: c.Source, Live: on})
			if on && embeddable == "" {
				embeddable = c.StreamLogin
			}
			if v != nil && c.PlatformID == v.PlatformID {
				cast.Casting = true
			}
		}
	}
	for _, pov := range povs {
		_, on := live[pov.StreamLogin]
		p.Streams = append(p.Streams, views.MatchStream{Player: book.player(pov.PlatformID), StreamURL: core.StreamURL(pov.StreamLogin), Live: on})
		if on && embeddable == "" {
			embeddable = pov.StreamLogin
		}
		if v != nil && pov.PlatformID == v.PlatformID {
			cast.Streaming = true
		}
	}
	if login := embeddable; login != "" {
		p.Embed = &views.StreamEmbed{Login: login, PlayerURL: core.StreamEmbedURL(login, core.NormalizeHost(r.Host)), WatchURL: core.StreamURL(login)}
	}
	if code := r.URL.Query().Get("notice"); castNotices[code] {
		cast.Notice = notice(r)
	}
	p.CastActions = views.CastActions(cast)
	return nil
}

// castNotices are the notices the casting box shows.
var castNotices = map[string]bool{"stream_on": true, "stream_off": true, "casting": true, "cast_retired": true, "invited": true}

// castersPage is the caster directory.
func (s *Site) castersPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	list, err := t.CasterDirectory(ctx, s.srv.LiveNow(ctx, t))
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	var ids []string
	for _, c := range list {
		if c.PlatformID != nil {
			ids = append(ids, *c.PlatformID)
		}
		for _, m := range c.MatchDetails {
			ids = append(ids, m.State.P1, m.State.P2)
		}
	}
	book, err := publicPlayers(ctx, t, ids)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := views.CastersPage{Layout: s.layout(r, t, i18n.From(ctx).T("layout.nav.casters"))}
	now := s.srv.Now()
	for _, c := range list {
		dc := views.DirectoryCaster{Login: c.StreamLogin, StreamURL: c.StreamURL, Live: c.Live}
		if c.PlatformID != nil {
			ref := book.player(*c.PlatformID)
			dc.Player = &ref
		}
		for _, m := range c.MatchDetails {
			dc.Matches = append(dc.Matches, book.summary(&m.State.Match, publicTournamentRef(m.State), now))
		}
		p.Casters = append(p.Casters, dc)
	}
	s.render(w, r, t, http.StatusOK, views.CastersView(p))
}
