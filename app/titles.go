package app

import (
	"context"

	"arena/core"
	"arena/core/tournamentview"
)

// The titles (DESIGN.md "Titles"): the lists with their players, the
// game client's challenge, respond and volunteer, the same buttons on
// the website, and the admin's create and retire. The rules are core's
// (title.go, title_actions.go).

// TitleBoard is titles with the profiles of the players they name.
type TitleBoard struct {
	Titles  []core.Title
	Players tournamentview.Players
}

// titleBoard reads the profiles of every player the titles name, in one
// query.
func (s *Session) titleBoard(ctx context.Context, list []core.Title) (*TitleBoard, error) {
	var ids []string
	for i := range list {
		ids = append(ids, list[i].Players()...)
	}
	profiles, err := s.store.Players(ctx, ids)
	if err != nil {
		return nil, err
	}
	return &TitleBoard{Titles: list, Players: profiles}, nil
}

// VisibleTitles are the titles the game build appID may see (the
// environment gate), with their players.
func (s *Session) VisibleTitles(ctx context.Context, appID string) (*TitleBoard, error) {
	list, err := core.VisibleTitles(ctx, s.store, s.Arena, appID)
	if err != nil {
		return nil, err
	}
	return s.titleBoard(ctx, list)
}

// PublicTitles are every title, with their players, as the public read
// API lists them.
func (s *Session) PublicTitles(ctx context.Context) (*TitleBoard, error) {
	list, err := s.store.Titles(ctx)
	if err != nil {
		return nil, err
	}
	return s.titleBoard(ctx, list)
}

// SiteTitles are every title, with the players they name as the
// website's titles page shows them (none read when no one is named).
func (s *Session) SiteTitles(ctx context.Context) (*TitleBoard, error) {
	list, err := s.store.Titles(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for i := range list {
		ids = append(ids, list[i].Players()...)
	}
	players, err := tournamentview.ReadPlayers(ctx, s.store, ids)
	if err != nil {
		return nil, err
	}
	return &TitleBoard{Titles: list, Players: players}, nil
}

// AdminTitles are every title with its holder's profile, as the admin's
// list shows them (none read when no title is held).
func (s *Session) AdminTitles(ctx context.Context) (*TitleBoard, error) {
	list, err := s.store.Titles(ctx)
	if err != nil {
		return nil, err
	}
	var holders []string
	for _, title := range list {
		holders = append(holders, title.Holder)
	}
	players, err := tournamentview.ReadPlayers(ctx, s.store, holders)
	if err != nil {
		return nil, err
	}
	return &TitleBoard{Titles: list, Players: players}, nil
}

// Challenge is the caller's challenge of the title's holder
// (core.Challenge): the pending challenge.
func (s *Session) Challenge(ctx context.Context, caller core.Caller, titleID int64) (*core.TitleChallenge, error) {
	return core.Challenge(ctx, s.store, s.Arena, caller, titleID, s.Deps)
}

// RespondToChallenge is the holder's answer to the challenge
// (core.RespondToChallenge): the answered challenge, accepted with its
// title match's id.
func (s *Session) RespondToChallenge(ctx context.Context, caller core.Caller, challengeID int64, accept bool) (*core.TitleChallenge, error) {
	return core.RespondToChallenge(ctx, s.store, s.Arena, caller, challengeID, accept, s.Deps)
}

// Volunteer puts the caller forward for the vacant title
// (core.Volunteer): the title afterwards, with the coronation match
// once a second volunteer came.
func (s *Session) Volunteer(ctx context.Context, caller core.Caller, titleID int64) (*core.Title, error) {
	return core.Volunteer(ctx, s.store, s.Arena, caller, titleID, s.Deps)
}

// VolunteerFromSite is the website's volunteer button: the signed-in
// viewer volunteers for the title with the id, acting as the build the
// title's environment is shown to (SiteAppID).
func (s *Session) VolunteerFromSite(ctx context.Context, titleID int64, viewer string) (*core.Title, error) {
	title, err := s.store.Title(ctx, titleID)
	if err != nil {
		return nil, err
	}
	return s.Volunteer(ctx, s.siteCaller(viewer, title.Environment), titleID)
}

// ChallengeFromSite is the website's challenge button: the signed-in
// viewer challenges the holder of the title with the id (SiteAppID).
func (s *Session) ChallengeFromSite(ctx context.Context, titleID int64, viewer string) (*core.TitleChallenge, error) {
	title, err := s.store.Title(ctx, titleID)
	if err != nil {
		return nil, err
	}
	return s.Challenge(ctx, s.siteCaller(viewer, title.Environment), titleID)
}

// RespondFromSite is the holder's accept or decline button on the
// website: the signed-in viewer answers the challenge with the id
// (SiteAppID of its title's environment).
func (s *Session) RespondFromSite(ctx context.Context, challengeID int64, viewer string, accept bool) (*core.TitleChallenge, error) {
	c, err := s.store.TitleChallenge(ctx, challengeID)
	if err != nil {
		return nil, err
	}
	title, err := s.store.Title(ctx, c.TitleID)
	if err != nil {
		return nil, err
	}
	return s.RespondToChallenge(ctx, s.siteCaller(viewer, title.Environment), challengeID, accept)
}

// CreateTitle creates the draft's title, vacant (core.CreateTitle), and
// answers it as stored. Errors: the draft's problems, CodeSlugTaken.
func (s *Session) CreateTitle(ctx context.Context, draft core.TitleDraft) (*core.Title, error) {
	title, err := core.CreateTitle(ctx, s.store, draft, s.Deps.Now)
	if err != nil {
		return nil, err
	}
	return s.store.Title(ctx, title.ID)
}

// AddTitle stores a title its draft's check made (core.TitleDraft.Check),
// vacant. Errors: CodeSlugTaken.
func (s *Session) AddTitle(ctx context.Context, title *core.Title) error {
	return s.store.CreateTitle(ctx, title)
}

// RetireTitle retires the title with the id (core.RetireTitle) and
// answers it afterwards; retiring twice changes nothing.
func (s *Session) RetireTitle(ctx context.Context, id int64) (*core.Title, error) {
	return core.RetireTitle(ctx, s.store, id, s.Deps.Now)
}
