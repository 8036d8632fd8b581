package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestTitleCommands drives the title commands against a served demo
// arena: the Arena Champion is held by Grace and challenged by Margaret; the
// Rookie Belt waits for a second volunteer besides Charles.
func TestTitleCommands(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	const grace, margaret, blaise = "76561198000000007", "76561198000000013", "76561198000000002"
	titles := a.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)
	champion := titles[0].(map[string]any)
	challenge := champion["pendingChallenge"].(map[string]any)
	ids := map[string]string{
		"champion":  fmt.Sprint(champion["id"]),
		"rookie":    fmt.Sprint(titles[1].(map[string]any)["id"]),
		"challenge": fmt.Sprint(challenge["id"]),
	}
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"Titles", []string{"-as", blaise, "titles"}, 0, `"slug": "arena-champion"`, ""},
		{"Volunteer", []string{"-as", blaise, "volunteer", "-title", ids["rookie"]}, 0, `"position": 2`, ""},
		{"VolunteerAgain", []string{"-as", blaise, "volunteer", "-title", ids["rookie"]}, 1, "", "409 already_volunteered"},
		{"VolunteerNeedsTitle", []string{"-as", blaise, "volunteer"}, 2, "", "-title is required"},
		{"ChallengePending", []string{"-as", blaise, "challenge", "-title", ids["champion"]}, 1, "", "409 challenge_pending"},
		{"ChallengeUnknown", []string{"-as", blaise, "challenge", "-title", "999"}, 1, "", "404 title_not_found"},
		{"RespondNotHolder", []string{"-as", margaret, "respond", "-challenge", ids["challenge"], "-accept"}, 1, "", "403 not_holder"},
		{"RespondNeedsAnAnswer", []string{"-as", grace, "respond", "-challenge", ids["challenge"]}, 2, "", "-accept or -decline"},
		{"Accept", []string{"-as", grace, "respond", "-challenge", ids["challenge"], "-accept"}, 0, `"status": "accepted"`, ""},
		{"UpcomingTitleMatch", []string{"-as", margaret, "upcoming"}, 0, `"name":"Arena Champion"`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"-base", a.URL}, tc.args...), strings.NewReader(""), &stdout, &stderr)
			require.Equal(t, tc.wantCode, code, "stdout: %s stderr: %s", stdout.String(), stderr.String())
			assert.Contains(t, stdout.String(), tc.wantOut)
			assert.Contains(t, stderr.String(), tc.wantErr)
		})
	}
	// The coronation match was created by the second volunteer.
	rookie := a.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any)[1].(map[string]any)
	require.NotNil(t, rookie["match"])
	assert.Equal(t, "coronation", rookie["match"].(map[string]any)["kind"])
	assert.True(t, strings.HasPrefix(fmt.Sprint(rookie["match"].(map[string]any)["closesAt"]), "2026-11-22T12:00"), "48 h window")
}
