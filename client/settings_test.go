package client_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

func TestNewSettings(t *testing.T) {
	s := client.NewSettings("https://demo.example.com/")
	assert.Equal(t, client.Settings{
		Enabled:                     true,
		BaseURL:                     "https://demo.example.com",
		MaxSubmitAttempts:           3,
		AutoDiscover:                true,
		AutoDiscoverIntervalSeconds: 60,
		RefereeTraceSchema:          "game.gameplay.v1",
		RefereeRuleset:              "standard",
	}, s)
	require.NoError(t, s.Validate())
}

func TestSettingsNormalize(t *testing.T) {
	tests := []struct {
		name         string
		baseURL      string
		attempts     int
		interval     int
		wantBaseURL  string
		wantAttempts int
		wantInterval int
	}{
		{"InRangeUnchanged", "http://localhost:8787", 3, 60, "http://localhost:8787", 3, 60},
		{"TrailingSlashStripped", "http://localhost:8787/", 3, 60, "http://localhost:8787", 3, 60},
		{"AllTrailingSlashesStripped", "https://a.example/arena///", 3, 60, "https://a.example/arena", 3, 60},
		{"ZeroAttemptsClampedToOne", "http://x", 0, 60, "http://x", 1, 60},
		{"NegativeAttemptsClampedToOne", "http://x", -4, 60, "http://x", 1, 60},
		{"FiveAttemptsKept", "http://x", 5, 60, "http://x", 5, 60},
		{"SixAttemptsClampedToFive", "http://x", 6, 60, "http://x", 5, 60},
		{"ZeroIntervalClampedTo15", "http://x", 1, 0, "http://x", 1, 15},
		{"Interval14ClampedTo15", "http://x", 1, 14, "http://x", 1, 15},
		{"Interval15Kept", "http://x", 1, 15, "http://x", 1, 15},
		{"Interval600Kept", "http://x", 1, 600, "http://x", 1, 600},
		{"Interval601ClampedTo600", "http://x", 1, 601, "http://x", 1, 600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := client.Settings{BaseURL: tt.baseURL, MaxSubmitAttempts: tt.attempts, AutoDiscoverIntervalSeconds: tt.interval}.Normalize()
			assert.Equal(t, tt.wantBaseURL, got.BaseURL)
			assert.Equal(t, tt.wantAttempts, got.MaxSubmitAttempts)
			assert.Equal(t, tt.wantInterval, got.AutoDiscoverIntervalSeconds)
		})
	}
}

func TestNewAppliesNormalize(t *testing.T) {
	s := client.NewSettings("http://localhost:8787//")
	s.MockSteamID = alice
	s.MaxSubmitAttempts = 9
	s.AutoDiscoverIntervalSeconds = 1
	c, err := client.New(s, client.Deps{})
	require.NoError(t, err)
	got := c.Settings()
	assert.Equal(t, "http://localhost:8787", got.BaseURL)
	assert.Equal(t, 5, got.MaxSubmitAttempts)
	assert.Equal(t, 15, got.AutoDiscoverIntervalSeconds)
}

func TestSettingsValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*client.Settings)
		wantErr bool
	}{
		{"Defaults", func(*client.Settings) {}, false},
		{"SchemaWithLongVersion", func(s *client.Settings) { s.RefereeTraceSchema = "cards.trace-x.v12" }, false},
		{"SchemaShortestName", func(s *client.Settings) { s.RefereeTraceSchema = "abc.v1" }, false},
		{"SchemaNameTooShort", func(s *client.Settings) { s.RefereeTraceSchema = "ab.v1" }, true},
		{"SchemaUppercase", func(s *client.Settings) { s.RefereeTraceSchema = "Game.gameplay.v1" }, true},
		{"SchemaVersionZero", func(s *client.Settings) { s.RefereeTraceSchema = "game.gameplay.v0" }, true},
		{"SchemaNoVersion", func(s *client.Settings) { s.RefereeTraceSchema = "game.gameplay" }, true},
		{"SchemaLeadingDash", func(s *client.Settings) { s.RefereeTraceSchema = "-game.gameplay.v1" }, true},
		{"SchemaEmpty", func(s *client.Settings) { s.RefereeTraceSchema = "" }, true},
		{"RoleHost", func(s *client.Settings) { s.ClientRole = "host" }, false},
		{"RoleGuest", func(s *client.Settings) { s.ClientRole = "guest" }, false},
		{"RoleOther", func(s *client.Settings) { s.ClientRole = "referee" }, true},
		{"MockIDNot17Digits", func(s *client.Settings) { s.MockSteamID = "1234" }, true},
		{"MockID17Digits", func(s *client.Settings) { s.MockSteamID = alice }, false},
		{"BaseURLMissing", func(s *client.Settings) { s.BaseURL = "" }, true},
		{"BaseURLWithoutScheme", func(s *client.Settings) { s.BaseURL = "localhost:8787" }, true},
		{"BaseURLMissingButDisabled", func(s *client.Settings) { s.BaseURL, s.Enabled = "", false }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := client.NewSettings("http://localhost:8787")
			tt.edit(&s)
			err := s.Validate()
			if tt.wantErr {
				require.ErrorIs(t, err, client.ErrInvalidSettings)
				_, newErr := client.New(s, client.Deps{})
				require.ErrorIs(t, newErr, client.ErrInvalidSettings)
				return
			}
			require.NoError(t, err)
		})
	}
}

func TestNewNeedsATicketSource(t *testing.T) {
	t.Run("ErrNoTicketSource", func(t *testing.T) {
		_, err := client.New(client.NewSettings("http://localhost:8787"), client.Deps{})
		require.ErrorIs(t, err, client.ErrNoTicketSource)
	})
	t.Run("TicketSourceGiven", func(t *testing.T) {
		_, err := client.New(client.NewSettings("http://localhost:8787"), client.Deps{Tickets: &countingTickets{}})
		require.NoError(t, err)
	})
	t.Run("DisabledNeedsNone", func(t *testing.T) {
		s := client.NewSettings("")
		s.Enabled = false
		_, err := client.New(s, client.Deps{})
		require.NoError(t, err)
	})
}
