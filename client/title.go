package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// E-sport titles (spec 1.8, 2.7, 4.1): a title has at most one holder;
// players volunteer for a vacant title (the second volunteer triggers the
// coronation match), challenge a holder, and the holder accepts (a title
// match, found by UpcomingMatch and LiveMatch with Tournament naming the
// title) or declines. Title matches are played and reported like any
// organized match.

// Player is a player as the arena shows one.
type Player struct {
	PlatformID  string `json:"platformId"`
	PersonaName string `json:"personaName"`
	AvatarURL   string `json:"avatarUrl"`
}

// Title is one title of the list. Timestamps are ISO-8601 UTC strings.
type Title struct {
	ID          int64   `json:"id"`
	Slug        string  `json:"slug"`
	Name        string  `json:"name"`
	Environment string  `json:"environment"`
	Holder      *Player `json:"holder"` // nil: vacant
	Reign       *struct {
		Since    string `json:"since"`
		Defenses int    `json:"defenses"`
	} `json:"reign"`
	ClockExpiresAt   *string `json:"clockExpiresAt"` // nil: vacant (or retired)
	PendingChallenge *struct {
		ID         int64   `json:"id"`
		Challenger *Player `json:"challenger"`
		At         string  `json:"at"`
		Status     string  `json:"status"` // pending or declined
	} `json:"pendingChallenge"`
	Match *struct {
		ID       int64   `json:"id"`
		Kind     string  `json:"kind"` // coronation or challenge
		Status   string  `json:"status"`
		Player1  *Player `json:"player1"`
		Player2  *Player `json:"player2"`
		OpensAt  string  `json:"opensAt"`
		ClosesAt string  `json:"closesAt"`
	} `json:"match"`
	Volunteers []struct {
		Player *Player `json:"player"`
		At     string  `json:"at"`
	} `json:"volunteers"`
	Lineage   []Reign `json:"lineage"` // oldest first, the current reign last
	RetiredAt *string `json:"retiredAt"`
}

// Reign is one entry of a title's lineage.
type Reign struct {
	Player   *Player `json:"player"`
	Since    string  `json:"since"`
	Until    *string `json:"until"`
	Defenses int     `json:"defenses"`
	Ended    *string `json:"ended"` // lost or stripped; nil for the current reign
}

// TitleChallenge is a challenge of a title's holder.
type TitleChallenge struct {
	ID          int64   `json:"id"`
	TitleID     int64   `json:"titleId"`
	Challenger  *Player `json:"challenger"`
	Holder      *Player `json:"holder"`
	Status      string  `json:"status"` // pending, accepted, declined, expired, void
	At          string  `json:"at"`
	RespondedAt *string `json:"respondedAt"`
	MatchID     *int64  `json:"matchId"` // the title match of an accepted challenge
}

// Volunteering is the answer to Volunteer.
type Volunteering struct {
	TitleID   int64   `json:"titleId"`
	Volunteer *Player `json:"volunteer"`
	Position  int     `json:"position"` // 1 or 2: the first two play the coronation
	MatchID   *int64  `json:"matchId"`  // the coronation match, once a second volunteer came
}

// Titles lists the titles the caller's build may see (GET
// /api/v1/titles). Errors: ErrDisabled, an *APIError, ErrBadResponse.
func (c *Client) Titles(ctx context.Context) ([]Title, error) {
	var out struct {
		Titles []Title `json:"titles"`
	}
	if err := c.titleCall(ctx, http.MethodGet, "/api/v1/titles", nil, &out); err != nil {
		return nil, err
	}
	return out.Titles, nil
}

// Challenge challenges the holder of title titleID (POST
// /api/v1/titles/{id}/challenge) and returns the pending challenge.
// Refusals are *APIError: 404 title_not_found, 409
// title_vacant_use_coronation, cannot_challenge_self, challenge_pending,
// title_retired.
func (c *Client) Challenge(ctx context.Context, titleID int64) (*TitleChallenge, error) {
	var ch TitleChallenge
	if err := c.titleCall(ctx, http.MethodPost, fmt.Sprintf("/api/v1/titles/%d/challenge", titleID), nil, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// RespondToChallenge is the holder's answer (POST
// /api/v1/title-challenges/{id}/respond): accepting returns the challenge
// with its title match's id. Refusals are *APIError: 404
// challenge_not_found, 403 not_holder, 409 challenge_not_pending,
// title_clock_expired, title_retired.
func (c *Client) RespondToChallenge(ctx context.Context, challengeID int64, accept bool) (*TitleChallenge, error) {
	body, err := json.Marshal(map[string]bool{"accept": accept})
	if err != nil {
		return nil, err
	}
	var ch TitleChallenge
	if err := c.titleCall(ctx, http.MethodPost, fmt.Sprintf("/api/v1/title-challenges/%d/respond", challengeID), body, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// Volunteer queues the caller for vacant title titleID (POST
// /api/v1/titles/{id}/volunteer). Refusals are *APIError: 404
// title_not_found, 409 title_already_held, already_volunteered,
// coronation_pending, title_retired.
func (c *Client) Volunteer(ctx context.Context, titleID int64) (*Volunteering, error) {
	var v Volunteering
	if err := c.titleCall(ctx, http.MethodPost, fmt.Sprintf("/api/v1/titles/%d/volunteer", titleID), nil, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// titleCall makes one title request that must answer with a body.
func (c *Client) titleCall(ctx context.Context, method, path string, body []byte, out any) error {
	if !c.settings.Enabled {
		return ErrDisabled
	}
	found, err := c.call(ctx, method, path, body, out)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%w: %s %s: no body", ErrBadResponse, method, path)
	}
	return nil
}
