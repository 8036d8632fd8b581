package views

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"arena/core"
)

// TestOptionsFollowCoreLists: every select of the admin's forms offers
// exactly core's list, in core's order, each value with a label of its
// own, so adding a value to core adds it to the form and a value the form
// offers is one core accepts.
func TestOptionsFollowCoreLists(t *testing.T) {
	lists := map[string]struct {
		options []AdminOption
		core    []string
	}{
		"format":      {adminFormatOptions, asStrings(core.Formats)},
		"environment": {adminEnvironments, asStrings(core.Environments)},
		"groupFormat": {adminGroupFormats, asStrings(core.GroupFormats)},
		"handMode":    {adminHandModes, core.HandModes},
		"plan":        {adminPlans, asStrings(core.Plans)},
	}
	for name, l := range lists {
		t.Run(name, func(t *testing.T) {
			var values []string
			for _, o := range l.options {
				values = append(values, o.Value)
				assert.NotEqual(t, o.Value, o.Label, "%s has no label", o.Value)
			}
			assert.Equal(t, l.core, values)
		})
	}
}

// TestPublicLabelsNameEveryFormat: the public pages name every format
// core runs in words.
func TestPublicLabelsNameEveryFormat(t *testing.T) {
	for _, f := range core.Formats {
		assert.NotEqual(t, string(f), pubFormatLabel(string(f)), "format %s has no label", f)
	}
}

func asStrings[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
