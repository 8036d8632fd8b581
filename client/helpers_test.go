package client_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arena/client"
)

// testNow is the injected clock's time; deliberately not UTC, so endedAt
// must be converted.
var testNow = time.Date(2026, 3, 14, 15, 9, 26, 0, time.FixedZone("CET", 3600))

// fakeSleeper records the waits asked for instead of sleeping. onSleep,
// when set, runs on each wait (n counts from 1) and its error is returned.
type fakeSleeper struct {
	mu      sync.Mutex
	waits   []time.Duration
	onSleep func(n int) error
}

func (s *fakeSleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	n, hook := len(s.waits), s.onSleep
	s.mu.Unlock()
	if hook != nil {
		if err := hook(n); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (s *fakeSleeper) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// countingTickets is a TicketSource minting t1, t2, ... and registering
// each as a single-use ticket of account on the fake arena.
type countingTickets struct {
	arena   *fakeArena
	account string
	mu      sync.Mutex
	n       int
}

func (c *countingTickets) Ticket(context.Context) (string, error) {
	c.mu.Lock()
	c.n++
	t := fmt.Sprintf("t%d", c.n)
	c.mu.Unlock()
	c.arena.mu.Lock()
	c.arena.tickets[t] = c.account
	c.arena.mu.Unlock()
	return t, nil
}

// newClient returns a client of arena playing as alice with mock tickets,
// the fixed clock and a fake sleeper; edit adjusts the default settings
// (with a trailing slash on the base URL) before New.
func newClient(t *testing.T, arena *fakeArena, edit func(*client.Settings)) (*client.Client, *fakeSleeper) {
	t.Helper()
	s := client.NewSettings(arena.srv.URL + "/")
	s.MockSteamID = alice
	if edit != nil {
		edit(&s)
	}
	sleeper := &fakeSleeper{}
	c, err := client.New(s, client.Deps{
		HTTP:  arena.srv.Client(),
		Now:   func() time.Time { return testNow },
		Sleep: sleeper.Sleep,
		Logf:  t.Logf,
	})
	require.NoError(t, err)
	return c, sleeper
}

// liveMatch1v1 is a live organized 1v1 match between alice and bob.
func liveMatch1v1() *fakeMatch {
	return &fakeMatch{
		ID: 12, Nonce: "n-7f3a", Seed: 123456789,
		Sides:  [2][]string{{alice}, {bob}},
		Status: "live",
	}
}

// liveMatchTeam is a live 2v2 match: alice and carol against bob and dave.
func liveMatchTeam() *fakeMatch {
	return &fakeMatch{
		ID: 40, Nonce: "n-team",
		Sides:   [2][]string{{alice, carol}, {bob, dave}},
		TeamMax: 2,
		Status:  "live",
	}
}
