package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type namesFake map[string]string

func (f namesFake) SetPersonaName(_ context.Context, id, name string, _ time.Time) error {
	f[id] = name
	return nil
}

func TestSetDisplayName(t *testing.T) {
	const id = "76561198000000002"
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, typed, field, want string
		code                     string
		real                     bool
	}{
		{name: "Trimmed", typed: "  Blaise P.  ", want: "Blaise P."},
		{name: "AtTheLimit", typed: strings.Repeat("é", MaxPersonaNameRunes), want: strings.Repeat("é", MaxPersonaNameRunes)},
		{name: "Empty", typed: "   ", code: CodeInvalidField, field: "personaName"},
		{name: "TooLong", typed: strings.Repeat("a", MaxPersonaNameRunes+1), code: CodeInvalidField, field: "personaName"},
		{name: "ControlCharacter", typed: "Bob\u0007", code: CodeInvalidField, field: "personaName"},
		{name: "NameFromPlatform", typed: "Blaise", real: true, code: CodeNameFromPlatform},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := namesFake{}
			a := &Arena{}
			if c.real {
				a.PublisherKey = "key"
			}
			err := SetDisplayName(context.Background(), names, a, id, DisplayNameDraft{PersonaName: c.typed}, now)
			if c.code != "" {
				require.Error(t, err)
				assert.Equal(t, c.code, ErrorCode(err))
				var e *Error
				if assert.ErrorAs(t, err, &e) {
					assert.Equal(t, c.field, e.Field)
				}
				assert.Empty(t, names, "nothing changes")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, names[id])
		})
	}
}
