package core

import (
	"context"
	"strings"
	"time"
)

// The players' title actions, the clock's expiry and the admin's. The API
// (ticket-authenticated) and the website (signed-in players) call the same
// functions; each checks the title's rules on what it read, then makes one
// conditional batch, and when that batch finds the title moved on it reads
// the title again and answers with the rule that now refuses.

// visibleTitle returns the title the caller's build may see (the
// environment gate, spec 5.1.6), else CodeTitleNotFound.
func visibleTitle(ctx context.Context, ts TitleStore, a *Arena, caller Caller, id int64) (*Title, error) {
	t, err := ts.Title(ctx, id)
	if err != nil {
		return nil, err
	}
	if !EnvironmentVisible(a, caller.AppID, t.Environment) {
		return nil, Errorf(CodeTitleNotFound, "no title %d for this build", id)
	}
	return t, nil
}

// VisibleTitles returns the titles the caller's build may see.
func VisibleTitles(ctx context.Context, ts TitleStore, a *Arena, appID string) ([]Title, error) {
	all, err := ts.Titles(ctx)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, t := range all {
		if EnvironmentVisible(a, appID, t.Environment) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Volunteer queues the caller for a vacant title (CheckVolunteer's rules);
// the second volunteer's call creates the coronation match between the
// first two, window deps.Now .. deps.Now+TitleMatchWindow. Exactly one coronation
// match comes of any number of concurrent volunteers. It returns the title
// afterwards.
func Volunteer(ctx context.Context, ts TitleStore, a *Arena, caller Caller, titleID int64, deps Deps) (*Title, error) {
	t, err := visibleTitle(ctx, ts, a, caller, titleID)
	if err != nil {
		return nil, err
	}
	if err := t.CheckVolunteer(caller.PlatformID); err != nil {
		return nil, err
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return nil, err
	}
	ok, err := ts.AddVolunteer(ctx, t.ID, TitleVolunteer{PlatformID: caller.PlatformID, At: deps.Now}, deps.Now, deps.Now.Add(TitleMatchWindow), token)
	if err != nil {
		return nil, err
	}
	if t, err = ts.Title(ctx, titleID); err != nil {
		return nil, err
	}
	if !ok {
		if err := t.CheckVolunteer(caller.PlatformID); err != nil {
			return nil, err
		}
		return nil, Errorf(CodeCoronationPending, "%s moved on meanwhile", t.Slug)
	}
	return t, nil
}

// Challenge challenges the holder of a title (CheckChallenge's rules): one
// pending challenge comes of any number of concurrent challengers. A clock
// that ran out with no challenge open restarts first, so the holder has a
// whole clock to answer.
func Challenge(ctx context.Context, ts TitleStore, a *Arena, caller Caller, titleID int64, deps Deps) (*TitleChallenge, error) {
	t, err := visibleTitle(ctx, ts, a, caller, titleID)
	if err != nil {
		return nil, err
	}
	if err := t.CheckChallenge(caller.PlatformID); err != nil {
		return nil, err
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return nil, err
	}
	c := &TitleChallenge{TitleID: t.ID, Challenger: caller.PlatformID, Status: ChallengePending, At: deps.Now}
	ok, err := ts.AddChallenge(ctx, c, deps.Now.Add(-TitleClock), token)
	if err != nil {
		return nil, err
	}
	if !ok {
		if t, err = ts.Title(ctx, titleID); err != nil {
			return nil, err
		}
		if err := t.CheckChallenge(caller.PlatformID); err != nil {
			return nil, err
		}
		return nil, Errorf(CodeChallengePending, "%s moved on meanwhile", t.Slug)
	}
	return c, nil
}

// RespondToChallenge is the holder's answer to a challenge
// (CheckRespond's rules; a challenge of a title the caller's build may not
// see is CodeChallengeNotFound). Accepting creates the title match, an
// ordinary organized match (holder slot 1, window deps.Now ..
// deps.Now+TitleMatchWindow) that upcoming/live-match discovery finds, and
// beats a racing clock expiry or loses to it as a whole; declining keeps
// the clock running. It returns the challenge afterwards.
func RespondToChallenge(ctx context.Context, ts TitleStore, a *Arena, caller Caller, challengeID int64, accept bool, deps Deps) (*TitleChallenge, error) {
	c, err := ts.TitleChallenge(ctx, challengeID)
	if err != nil {
		return nil, err
	}
	t, err := ts.Title(ctx, c.TitleID)
	if err != nil {
		return nil, err
	}
	if !EnvironmentVisible(a, caller.AppID, t.Environment) {
		return nil, Errorf(CodeChallengeNotFound, "no challenge %d for this build", challengeID)
	}
	if err := t.CheckRespond(c, caller.PlatformID, accept, deps.Now); err != nil {
		return nil, err
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return nil, err
	}
	ok, err := ts.AnswerChallenge(ctx, c.ID, caller.PlatformID, accept, deps.Now, deps.Now.Add(TitleMatchWindow), deps.Now.Add(-TitleClock), token)
	if err != nil {
		return nil, err
	}
	if c, err = ts.TitleChallenge(ctx, challengeID); err != nil {
		return nil, err
	}
	if !ok {
		if t, err = ts.Title(ctx, c.TitleID); err != nil {
			return nil, err
		}
		if err := t.CheckRespond(c, caller.PlatformID, accept, deps.Now); err != nil {
			return nil, err
		}
		return nil, Errorf(CodeChallengeNotPending, "challenge %d moved on meanwhile", challengeID)
	}
	return c, nil
}

// RunTitleClocks applies every clock that has run out at now
// (ExpireTitleClock). It returns how many titles it found expired;
// running it again, or on two instances at once, changes nothing more.
func RunTitleClocks(ctx context.Context, ts TitleStore, now time.Time) (int, error) {
	cutoff := now.Add(-TitleClock)
	ids, err := ts.ExpiredTitleClocks(ctx, cutoff)
	if err != nil {
		return 0, err
	}
	for i, id := range ids {
		if err := ts.ExpireTitleClock(ctx, id, now, cutoff); err != nil {
			return i, err
		}
	}
	return len(ids), nil
}

// TitleDraft is a title as an admin gives it: the body of POST
// /api/v1/admin/titles, or the admin titles page's form.
type TitleDraft struct {
	Slug        string      `json:"slug"`
	Name        string      `json:"name"`
	Environment Environment `json:"environment"`
	// BestOf is its title matches' series length (odd, 1 to 9; default 1).
	BestOf Number `json:"bestOf"`
}

// Check returns the draft as a vacant title created at now (environment
// demo unless given), or its problems: the slug and name follow the
// tournaments' rules (titles and tournaments share slugs), the environment
// is demo, rec or beta.
func (d *TitleDraft) Check(now time.Time) (*Title, Problems) {
	var p Problems
	t := &Title{Slug: strings.TrimSpace(d.Slug), Name: strings.TrimSpace(d.Name), Environment: d.Environment, CreatedAt: now,
		BestOf: d.BestOf.Or(DefaultBestOf)}
	checkBestOf(&p, "bestOf", d.BestOf)
	checkSlug(&p, "slug", t.Slug)
	checkName(&p, "name", t.Name, "Enter a name.")
	if t.Environment == "" {
		t.Environment = DefaultEnvironment
	} else if !ValidEnvironment(t.Environment) {
		p.invalid("environment", "Choose demo, rec or beta.")
	}
	if len(p) > 0 {
		return nil, p
	}
	return t, nil
}

// CreateTitle creates the draft's title, vacant. Errors: the draft's
// problems, CodeSlugTaken.
func CreateTitle(ctx context.Context, ts TitleStore, d TitleDraft, now time.Time) (*Title, error) {
	t, problems := d.Check(now)
	if err := problems.Err(); err != nil {
		return nil, err
	}
	if err := ts.CreateTitle(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// RetireTitle retires a title: it keeps its lineage and its last holder,
// its clock stops, open challenges become void, volunteers leave, and no
// player action is taken any more (CodeTitleRetired). A title match being
// played stays an ordinary match whose result changes no title. Retiring
// twice changes nothing. It returns the title afterwards.
func RetireTitle(ctx context.Context, ts TitleStore, id int64, now time.Time) (*Title, error) {
	if err := ts.RetireTitle(ctx, id, now); err != nil {
		return nil, err
	}
	return ts.Title(ctx, id)
}
