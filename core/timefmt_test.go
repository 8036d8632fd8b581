package core

import (
	"testing"
	"time"
)

func TestFormatTime(t *testing.T) {
	at := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	for _, c := range []struct {
		name, got, want string
	}{
		{"UTC", FormatTime(at, nil), "27 Nov 2026, 14:00 UTC"},
		{"ViewerZone", FormatTime(at, paris), "27 Nov 2026, 15:00 CET"},
		{"Date", FormatDate(at, nil), "27 Nov 2026"},
		{"RangeOneDay", FormatRange(at, at.Add(2*time.Hour), nil), "27 Nov 2026, 14:00 – 16:00 UTC"},
		{"RangeTwoDays", FormatRange(at, at.Add(12*time.Hour), nil), "27 Nov 2026, 14:00 UTC – 28 Nov 2026, 02:00 UTC"},
		{"RangeOneDayInZone", FormatRange(at.Add(9*time.Hour), at.Add(10*time.Hour), paris), "28 Nov 2026, 00:00 – 01:00 CET"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}
