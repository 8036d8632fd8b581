package server

import (
	"net/http"
	"strings"

	"arena/core"
)

// settingsRequest is PUT /api/v1/admin/settings: every field optional;
// absent fields keep their value.
type settingsRequest struct {
	Name               *string                 `json:"name" validate:"omitnil,min=1,max=100"`
	RefereeEnabled     *bool                   `json:"refereeEnabled"`
	GracePeriodSeconds *int                    `json:"gracePeriodSeconds" validate:"omitnil,min=0,max=604800"`
	Plan               *string                 `json:"plan" validate:"omitnil,oneof=free indie studio"`
	AppIDs             []string                `json:"appIds" validate:"omitnil,min=1,max=10,unique,dive,appid"`
	PublisherKey       *string                 `json:"publisherKey" validate:"omitnil,max=200"`
	Identity           *string                 `json:"identity" validate:"omitnil,max=64"`
	PlacementPoints    *placementPointsRequest `json:"placementPoints" validate:"omitnil"`
	RateLimits         *rateLimitsRequest      `json:"rateLimits" validate:"omitnil"`
}

// placementPointsRequest is the ladder's points table: tiers of places
// ("through" place N, ascending) and the points of any other side that
// played.
type placementPointsRequest struct {
	Tiers  []placementTierRequest `json:"tiers" validate:"required,min=1,max=32,dive"`
	Played int                    `json:"played" validate:"min=0,max=100000"`
}

type placementTierRequest struct {
	Through int `json:"through" validate:"min=1,max=4096"`
	Points  int `json:"points" validate:"min=0,max=100000"`
}

// rateLimitsRequest sets the public read limits per minute; 0 lifts one.
type rateLimitsRequest struct {
	AnonymousPerMinute int `json:"anonymousPerMinute" validate:"min=0,max=1000000"`
	KeyPerMinute       int `json:"keyPerMinute" validate:"min=0,max=1000000"`
}

// handleUpdateSettings changes the arena's settings and answers with the
// arena as the operator sees it (no secrets).
func (s *Server) handleUpdateSettings(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req settingsRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if req.Name != nil && strings.TrimSpace(*req.Name) == "" {
		writeError(w, r, core.FieldError(core.CodeInvalidField, "name"))
		return
	}
	a := *t.Arena
	if req.Name != nil {
		a.Name = strings.TrimSpace(*req.Name)
	}
	if req.RefereeEnabled != nil {
		a.RefereeEnabled = *req.RefereeEnabled
	}
	if req.GracePeriodSeconds != nil {
		a.GracePeriodSeconds = *req.GracePeriodSeconds
	}
	if req.Plan != nil {
		a.Plan = core.Plan(*req.Plan)
	}
	if req.AppIDs != nil {
		a.AppIDs = req.AppIDs
	}
	if req.PublisherKey != nil {
		a.PublisherKey = *req.PublisherKey
	}
	if req.Identity != nil {
		a.Identity = *req.Identity
		if a.Identity == "" {
			a.Identity = core.DefaultIdentity
		}
	}
	if req.RateLimits != nil {
		a.RateLimits = core.RateLimits{AnonymousPerMinute: req.RateLimits.AnonymousPerMinute, KeyPerMinute: req.RateLimits.KeyPerMinute}
	}
	ctx := r.Context()
	if req.PlacementPoints != nil {
		points := core.PlacementPoints{Played: req.PlacementPoints.Played}
		for i, tier := range req.PlacementPoints.Tiers {
			if i > 0 && tier.Through <= points.Tiers[i-1].Through {
				writeError(w, r, core.FieldError(core.CodeInvalidField, "placementPoints"))
				return
			}
			points.Tiers = append(points.Tiers, core.PlacementTier{Through: tier.Through, Points: tier.Points})
		}
		if err := t.Store.SetSetting(ctx, settingPlacementPoints, points); err != nil {
			writeError(w, r, err)
			return
		}
	}
	a.UpdatedAt = s.now()
	if err := s.dir.UpdateArenaSettings(ctx, &a); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"arena": a.View(), "placementPoints": s.placementPoints(ctx, t)})
}
