package core

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// updateGolden rewrites golden files instead of comparing against them:
// go test ./core -run Golden -update
var updateGolden = flag.Bool("update", false, "rewrite the golden files under core/testdata")

// platformIDs returns n 17-digit platform ids; id i+1 is seed i+1's.
func platformIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("7656119%010d", i+1)
	}
	return ids
}

func TestBracketGolden(t *testing.T) {
	for n := 2; n <= 64; n++ {
		t.Run(fmt.Sprintf("%02d", n), func(t *testing.T) {
			plan, err := PlanBracket(platformIDs(n), true)
			require.NoError(t, err)
			assertGolden(t, filepath.Join("testdata", "bracket", fmt.Sprintf("%02d.golden", n)), renderBracket(plan))
		})
	}
}

// assertGolden compares got with the golden file at path, or rewrites it
// with -update.
func assertGolden(t *testing.T, path, got string) {
	t.Helper()
	if *updateGolden {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./core -run Golden -update to create it")
	require.Equal(t, string(want), got)
}

// renderBracket writes a plan as text: a header, one line per match (slot,
// round, the two seats, where the winner and loser go) and the display
// columns. Seats show a bracket seed (#3), BYE, or the match that fills them
// (W QF1 for its winner, L SF1 for its loser); a seat filled by a bye shows
// both.
func renderBracket(plan BracketPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d entrants, bracket of %d, %d round", plan.Entrants, plan.Size, plan.Rounds)
	if plan.Rounds > 1 {
		b.WriteString("s")
	}
	if plan.SmallFinal {
		b.WriteString(", small final")
	}
	b.WriteString("\n")
	for _, m := range plan.Matches {
		line := fmt.Sprintf("%-11s  %-13s  %-11s  %-27s", m.BracketSlot, m.Round, m.Stage, renderSeat(m.P1)+" vs "+renderSeat(m.P2))
		b.WriteString(strings.TrimRight(line+"  "+strings.Join(renderNotes(m), ", "), " ") + "\n")
	}
	b.WriteString("\ncolumns:\n")
	for _, c := range BracketColumns(plan) {
		slots := make([]string, len(c.Matches))
		for i, m := range c.Matches {
			slots[i] = m.BracketSlot
		}
		fmt.Fprintf(&b, "%-6s  %-13s  %s\n", c.Side, c.Label, strings.Join(slots, " "))
	}
	return b.String()
}

// renderNotes says a match is a bye and where its winner and loser go.
func renderNotes(m BracketMatch) []string {
	var notes []string
	if m.Bye {
		notes = append(notes, "bye")
	}
	if m.WinnerTo.BracketSlot != "" {
		notes = append(notes, fmt.Sprintf("winner -> %s/%d", m.WinnerTo.BracketSlot, m.WinnerTo.Side))
	}
	if m.LoserTo.BracketSlot != "" {
		notes = append(notes, fmt.Sprintf("loser -> %s/%d", m.LoserTo.BracketSlot, m.LoserTo.Side))
	}
	return notes
}

func renderSeat(s BracketSeat) string {
	from := ""
	if s.FromSlot != "" {
		from = "W " + s.FromSlot
		if s.FromLoser {
			from = "L " + s.FromSlot
		}
	}
	switch {
	case s.Bye:
		return "BYE"
	case s.PlayerID != "" && from != "":
		return fmt.Sprintf("#%d (%s)", s.Seed, from)
	case s.PlayerID != "":
		return fmt.Sprintf("#%d", s.Seed)
	}
	return from
}
