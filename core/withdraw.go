package core

import (
	"context"
	"time"
)

// Withdrawal errors.
const (
	CodeNotRegistered = "not_registered" // 409: the player is on no side of the tournament
	CodeNotCaptain    = "not_captain"    // 403: only the captain withdraws a team
)

// WithdrawStore reads a tournament's sides and removes them.
type WithdrawStore interface {
	RegistrationStore
	// Withdraw deletes the captain's side (registration and roster) in one
	// batch, only while the tournament takes registrations at `at`;
	// otherwise it deletes nothing and answers CodeRegistrationClosed.
	Withdraw(ctx context.Context, t *Tournament, captain string, at time.Time) error
}

// Withdraw takes the player's side out of tour while it takes
// registrations. Checks, in order: the player is on a side
// (CodeNotRegistered), as its captain (CodeNotCaptain), registration is
// open (CodeRegistrationClosed, also when it closes concurrently).
func Withdraw(ctx context.Context, ws WithdrawStore, tour *Tournament, player string, now time.Time) error {
	regs, err := ws.Registrations(ctx, tour.ID)
	if err != nil {
		return err
	}
	reg := SideOfPlayer(regs, player)
	switch {
	case reg == nil:
		return Errorf(CodeNotRegistered, "%s is not registered in %s", player, tour.Slug)
	case reg.PlatformID != player:
		return Errorf(CodeNotCaptain, "%s captains the side", reg.PlatformID)
	case !tour.RegistrationOpenAt(now):
		return Errorf(CodeRegistrationClosed, "%s takes no registrations", tour.Slug)
	}
	return ws.Withdraw(ctx, tour, player, now)
}

// SideOfPlayer returns the registration whose roster (or captain) is the
// player, or nil.
func SideOfPlayer(regs []Registration, player string) *Registration {
	for i := range regs {
		if regs[i].PlatformID == player {
			return &regs[i]
		}
		for _, id := range regs[i].Roster {
			if id == player {
				return &regs[i]
			}
		}
	}
	return nil
}
