package web

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAdminFormTime: a date-time field typed in the viewer's zone is read
// in UTC through its offset; without the script (offset 0, or none) it is
// UTC; a value or offset that makes no sense stays as typed for the core
// draft to refuse.
func TestAdminFormTime(t *testing.T) {
	for _, c := range []struct {
		name, value, offset, want string
	}{
		{"UTC without the script", "2026-11-20T12:00", "", "2026-11-20T12:00"},
		{"UTC with the script", "2026-11-20T12:00", "0", "2026-11-20T12:00"},
		{"Paris in winter", "2026-11-20T13:00", "60", "2026-11-20T12:00"},
		{"New York across midnight", "2026-11-20T21:30", "-300", "2026-11-21T02:30"},
		{"Kiribati", "2026-11-21T02:00", "840", "2026-11-20T12:00"},
		{"Seconds", "2026-11-20T13:00:00", "60", "2026-11-20T12:00"},
		{"NotADate", "tomorrow", "60", "tomorrow"},
		{"Empty", "", "60", ""},
		{"OffsetTooFar", "2026-11-20T13:00", "6000", "2026-11-20T13:00"},
		{"OffsetNotANumber", "2026-11-20T13:00", "1h", "2026-11-20T13:00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			form := url.Values{"startsAt": {c.value}}
			if c.offset != "" {
				form.Set("startsAtOffset", c.offset)
			}
			r := httptest.NewRequest("POST", "/admin/seasons", strings.NewReader(form.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			assert.Equal(t, c.want, adminFormTime(r, "startsAt"))
		})
	}
}
