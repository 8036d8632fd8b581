package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// LiveMatch asks the arena for the caller's live match (GET
// /api/v1/me/live-match). It returns (nil, nil) when there is none (204,
// which is also the answer when the AppID gate hides the match), the match
// on 200, an *APIError on any other status, and ErrDisabled without a
// request when the client is disabled. The match is returned as sent; use
// Valid before relying on it.
func (c *Client) LiveMatch(ctx context.Context) (*LiveMatch, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	var m LiveMatch
	found, err := c.call(ctx, http.MethodGet, "/api/v1/me/live-match", nil, &m)
	if err != nil || !found {
		return nil, err
	}
	return &m, nil
}

// UpcomingMatch asks for the caller's next match (GET
// /api/v1/me/upcoming-match) with the same contract as LiveMatch: (nil,
// nil) on 204, the match on 200, *APIError otherwise, ErrDisabled when
// disabled.
func (c *Client) UpcomingMatch(ctx context.Context) (*UpcomingMatch, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	var m UpcomingMatch
	found, err := c.call(ctx, http.MethodGet, "/api/v1/me/upcoming-match", nil, &m)
	if err != nil || !found {
		return nil, err
	}
	return &m, nil
}

// Ready marks the caller ready for match matchID (POST
// /api/v1/matches/{id}/ready). Errors: ErrDisabled when disabled, an
// *APIError for a refusal (403 not_participant, 404 match_not_found, 409
// opponent_undecided, past_ready_phase, window_not_open, window_closed),
// ErrBadResponse for an answer other than a 200 with a JSON body.
func (c *Client) Ready(ctx context.Context, matchID int64) (*ReadyState, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	path := fmt.Sprintf("/api/v1/matches/%d/ready", matchID)
	var st ReadyState
	found, err := c.call(ctx, http.MethodPost, path, nil, &st)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%w: POST %s: 204 without a ready state", ErrBadResponse, path)
	}
	return &st, nil
}

// WaitForLiveMatch polls LiveMatch until it returns a valid match (see
// LiveMatch.Valid) and returns it. The first poll is immediate; between
// polls it sleeps AutoDiscoverIntervalSeconds (already clamped to 15..600)
// through the injected Sleeper.
//
// Transient failures (no live match, an invalid match, network errors,
// 5xx, malformed answers, ticket failures) are passed to Deps.Logf and
// polling goes on. It stops with an error on a 4xx *APIError (the arena
// refuses this client, e.g. 401 missing_ticket), with ctx.Err() when ctx
// is done, with ErrDisabled when disabled and with ErrAutoDiscoverOff when
// Settings.AutoDiscover is false; in those cases no request is made.
func (c *Client) WaitForLiveMatch(ctx context.Context) (*LiveMatch, error) {
	if !c.settings.Enabled {
		return nil, ErrDisabled
	}
	if !c.settings.AutoDiscover {
		return nil, ErrAutoDiscoverOff
	}
	interval := time.Duration(c.settings.AutoDiscoverIntervalSeconds) * time.Second
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := c.LiveMatch(ctx)
		var apiErr *APIError
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &apiErr) && apiErr.Status >= 400 && apiErr.Status < 500:
			return nil, err
		case err != nil:
			c.logf("client: live-match poll failed: %v", err)
		case m.Valid():
			return m, nil
		case m != nil:
			c.logf("client: live match %d is not valid for %s; polling on", m.MatchID, ResultProtocol)
		}
		if err := c.sleep(ctx, interval); err != nil {
			return nil, err
		}
	}
}

// RefereeActive reports whether the game should trace gameplay for m: the
// client's EnableReferee is on, and the arena runs the referee with both
// players' consent complete (spec 2.1 refereeM0, 4.4).
func (c *Client) RefereeActive(m *LiveMatch) bool {
	return c.settings.Enabled && c.settings.EnableReferee && m != nil &&
		m.RefereeM0 != nil && m.RefereeM0.Enabled && m.RefereeM0.ConsentComplete
}

// Match reads the public match object (GET /api/v1/matches/{id}), with
// no ticket: it works while the client is disabled too. An unknown match
// (or one of a draft tournament) is an *APIError 404 match_not_found.
func (c *Client) Match(ctx context.Context, matchID int64) (*PublicMatch, error) {
	path := fmt.Sprintf("/api/v1/matches/%d", matchID)
	status, data, err := c.do(ctx, http.MethodGet, path, nil, "")
	if err != nil {
		return nil, err
	}
	var m PublicMatch
	found, err := decodeAnswer(http.MethodGet, path, status, data, &m)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%w: GET %s: 204", ErrBadResponse, path)
	}
	return &m, nil
}
