package views

import (
	"arena/i18n"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
)

// TestOptionsFollowCoreLists: every select of the admin's forms offers
// exactly core's list, in core's order, each value with a label of its
// own (in every locale, for the labels the catalog gives), so adding a
// value to core adds it to the form and a value the form offers is one
// core accepts.
func TestOptionsFollowCoreLists(t *testing.T) {
	lists := map[string]struct {
		options []AdminOption
		core    []string
	}{
		"format":      {adminFormatOptions, asStrings(core.Formats)},
		"environment": {adminEnvironments, asStrings(core.Environments)},
		"groupFormat": {adminGroupFormats, asStrings(core.GroupFormats)},
		"handMode":    {adminHandModes, core.HandModes},
		"pacing":      {adminPacings, asStrings(core.Pacings)},
		"plan":        {adminPlans, asStrings(core.Plans)},
	}
	for name, l := range lists {
		t.Run(name, func(t *testing.T) {
			var values []string
			for _, o := range l.options {
				values = append(values, o.Value)
				if o.LabelID == "" {
					assert.NotEqual(t, o.Value, o.Label, "%s has no label", o.Value)
					continue
				}
				for _, loc := range core.Locales {
					ctx := i18n.With(context.Background(), i18n.For(loc))
					label := adminOptionText(ctx, o)
					assert.NotEqual(t, o.LabelID, label, "%s has no label in %s", o.Value, loc)
					assert.NotEqual(t, o.Value, label, "%s has no label in %s", o.Value, loc)
				}
			}
			assert.Equal(t, l.core, values)
		})
	}
}

// TestPublicLabelsNameEveryFormat: the public pages name every format
// core runs in words.
func TestPublicLabelsNameEveryFormat(t *testing.T) {
	for _, f := range core.Formats {
		for _, l := range core.Locales {
			ctx := i18n.With(context.Background(), i18n.For(l))
			assert.NotEqual(t, string(f), pubFormatLabel(ctx, string(f)), "format %s has no label in %s", f, l)
		}
	}
}

func asStrings[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// TestTemplatesSpellNoStatus: the templates compare statuses with core's
// typed constants, never with literals, so a renamed or removed status
// fails to compile instead of silently matching nothing.
func TestTemplatesSpellNoStatus(t *testing.T) {
	var statuses []string
	for _, s := range core.TournamentStatuses {
		statuses = append(statuses, string(s))
	}
	for _, s := range []core.MatchStatus{core.MatchScheduled, core.MatchLive, core.MatchAwaitingResult, core.MatchConfirmed, core.MatchDisputed, core.MatchForfeited} {
		statuses = append(statuses, string(s))
	}
	for _, s := range []core.ReportStatus{core.ReportPending, core.ReportConfirmed, core.ReportDisputed} {
		statuses = append(statuses, string(s))
	}
	for _, s := range []core.WindowState{core.WindowBefore, core.WindowOpen, core.WindowClosed} {
		statuses = append(statuses, string(s))
	}
	literal := regexp.MustCompile(`(?:(?:Status|status|Window|window|\.To|\.From)\s*(?:==|!=)\s*|case\s+(?:"[a-z_]+",\s*)*)"(` + strings.Join(statuses, "|") + `)"`)
	files, err := filepath.Glob("*.templ")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(src), "\n") {
			if m := literal.FindString(line); m != "" {
				t.Errorf("%s:%d: %s: compare with core's constant", f, i+1, m)
			}
		}
	}
}
