package core

import (
	"context"
	"time"
)

// Check-in: a tournament with CheckInMinutes > 0 asks its sides to say
// they are here before it starts. Check-in opens CheckInMinutes before
// startsAt and closes at startsAt (or when the tournament starts, if
// earlier). Starting the tournament withdraws every side that has not
// checked in, once check-in has opened.

// CheckInMinutesRange bounds a tournament's check-in (0: none; at most a
// day).
var CheckInMinutesRange = Range{Min: 0, Max: 24 * 60}

// CodeCheckInClosed: the tournament takes no check-in now (409).
const CodeCheckInClosed = "check_in_closed"

// CheckInWindow returns when check-in opens and closes; ok false when
// the tournament has no check-in.
func (t *Tournament) CheckInWindow() (opens, closes time.Time, ok bool) {
	if t.CheckInMinutes <= 0 {
		return time.Time{}, time.Time{}, false
	}
	return t.StartsAt.Add(-time.Duration(t.CheckInMinutes) * time.Minute), t.StartsAt, true
}

// CheckInApplies reports whether the tournament's sides carry a
// checked-in mark: it has check-in and has not started (nor ended).
func (t *Tournament) CheckInApplies() bool {
	return t.CheckInMinutes > 0 && (t.Status == StatusRegistrationOpen || t.Status == StatusRegistrationClosed)
}

// CheckInOpenAt reports whether a side may check in at now: check-in
// applies and now is inside its window.
func (t *Tournament) CheckInOpenAt(now time.Time) bool {
	opens, closes, ok := t.CheckInWindow()
	return ok && t.CheckInApplies() && !now.Before(opens) && now.Before(closes)
}

// CheckInStore records check-ins on the tournament's sides.
type CheckInStore interface {
	RegistrationStore
	// CheckIn marks the captain's side checked in at `at` (a side checked
	// in already keeps its first time), only while t is still in status
	// registration_open or registration_closed; false when it was not.
	CheckIn(ctx context.Context, t *Tournament, captain string, at time.Time) (bool, error)
	// CheckOut clears the captain's side's check-in, under the same
	// condition; false when t had started.
	CheckOut(ctx context.Context, t *Tournament, captain string) (bool, error)
}

// CheckInOverAt reports whether the tournament's check-in is over at
// now: it had one, and the tournament started (or ended) or its start
// time passed. Nobody, registered or not, checks in after that.
func (t *Tournament) CheckInOverAt(now time.Time) bool {
	_, closes, ok := t.CheckInWindow()
	return ok && (!t.CheckInApplies() || !now.Before(closes))
}

// CheckIn checks the player's side in (any roster member may): the same
// rule for the game client and the site. Checks, in order: check-in is
// over (CodeCheckInClosed: a side withdrawn at the start for not
// checking in is no longer registered, and is told that check-in
// closed), the player is on a side (CodeNotRegistered), check-in is open
// (CodeCheckInClosed, also when the tournament starts concurrently).
// Checking in again answers as the first time did.
func CheckIn(ctx context.Context, cs CheckInStore, tour *Tournament, player string, now time.Time) error {
	return CheckInOf(ctx, cs, tour, nil, player, now)
}

// CheckInOf is CheckIn with the tournament's sides read already (with
// it, in one read); nil reads them.
func CheckInOf(ctx context.Context, cs CheckInStore, tour *Tournament, sides []Registration, player string, now time.Time) error {
	if tour.CheckInOverAt(now) {
		return Errorf(CodeCheckInClosed, "%s takes no check-in any more", tour.Slug)
	}
	reg, err := registeredSide(ctx, cs, tour, sides, player)
	if err != nil {
		return err
	}
	if !tour.CheckInOpenAt(now) {
		return Errorf(CodeCheckInClosed, "%s takes no check-in now", tour.Slug)
	}
	ok, err := cs.CheckIn(ctx, tour, reg.PlatformID, now)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeCheckInClosed, "%s started meanwhile", tour.Slug)
	}
	return nil
}

// SetCheckedIn is the organizer's check-in control: it checks the
// player's side in or out. The organizer is not bound to the window: any
// time before the tournament starts will do (checking a side in before
// check-in opens keeps it in; starting before check-in opened withdraws
// nobody anyway). Checks, in order: the tournament has check-in and has
// not started (CodeCheckInClosed), the player is on a side
// (CodeNotRegistered); a start in between answers CodeCheckInClosed.
// Checking in a side checked in already keeps its first time.
func SetCheckedIn(ctx context.Context, cs CheckInStore, tour *Tournament, player string, checkedIn bool, now time.Time) error {
	return SetCheckedInOf(ctx, cs, tour, nil, player, checkedIn, now)
}

// SetCheckedInOf is SetCheckedIn with the tournament's sides read
// already (with it, in one read); nil reads them.
func SetCheckedInOf(ctx context.Context, cs CheckInStore, tour *Tournament, sides []Registration, player string, checkedIn bool, now time.Time) error {
	if !tour.CheckInApplies() {
		return Errorf(CodeCheckInClosed, "%s takes no check-in now", tour.Slug)
	}
	reg, err := registeredSide(ctx, cs, tour, sides, player)
	if err != nil {
		return err
	}
	var ok bool
	if checkedIn {
		ok, err = cs.CheckIn(ctx, tour, reg.PlatformID, now)
	} else {
		ok, err = cs.CheckOut(ctx, tour, reg.PlatformID)
	}
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeCheckInClosed, "%s started meanwhile", tour.Slug)
	}
	return nil
}

// WithdrawnAt returns the captains of the sides that starting t (from
// registration closed) at now would withdraw for not checking in: what the
// confirmation names before the step.
func WithdrawnAt(t *Tournament, regs []Registration, now time.Time) []string {
	if t.Status != StatusRegistrationClosed {
		return nil
	}
	_, absent := absentSides(t, regs, now)
	out := make([]string, len(absent))
	for i, r := range absent {
		out[i] = r.PlatformID
	}
	return out
}

// absentSides splits the sides at the start of t at now: those that
// play, and those withdrawn for not checking in (none when t has no
// check-in, or when it starts before check-in opened: nobody could).
func absentSides(t *Tournament, regs []Registration, now time.Time) (present, absent []Registration) {
	opens, _, ok := t.CheckInWindow()
	if !ok || now.Before(opens) {
		return regs, nil
	}
	for _, r := range regs {
		if r.CheckedInAt != nil {
			present = append(present, r)
		} else {
			absent = append(absent, r)
		}
	}
	return present, absent
}

// registeredSide is the side the player is on (CodeNotRegistered when
// none).
func registeredSide(ctx context.Context, rs RegistrationStore, tour *Tournament, regs []Registration, player string) (*Registration, error) {
	if regs == nil {
		var err error
		if regs, err = rs.Registrations(ctx, tour.ID); err != nil {
			return nil, err
		}
	}
	reg := SideOfPlayer(regs, player)
	if reg == nil {
		return nil, Errorf(CodeNotRegistered, "%s is not registered in %s", player, tour.Slug)
	}
	return reg, nil
}
