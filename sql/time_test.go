package store

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	cases := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-11-01T12:34:56.789Z", time.Date(2026, 11, 1, 12, 34, 56, 789e6, time.UTC), true},
		{"2024-02-29T00:00:00.000Z", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), true},
		{"2026-11-01T12:34:56Z", time.Date(2026, 11, 1, 12, 34, 56, 0, time.UTC), true}, // RFC 3339 fallback
		{"2026-02-30T00:00:00.000Z", time.Time{}, false},
		{"2026-13-01T00:00:00.000Z", time.Time{}, false},
		{"2026-11-01T24:00:00.000Z", time.Time{}, false},
		{"2026-11-01 12:34:56.789Z", time.Time{}, false},
		{"garbage", time.Time{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseTime(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("parseTime(%q) error %v, want ok=%v", tc.in, err, tc.ok)
			}
			if tc.ok && !got.Equal(tc.want) {
				t.Fatalf("parseTime(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
	for _, at := range []time.Time{time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC), time.Date(1999, 12, 31, 23, 59, 59, 999e6, time.UTC)} {
		got, err := parseTime(formatTime(at))
		if err != nil || !got.Equal(at) {
			t.Fatalf("round trip of %v: %v, %v", at, got, err)
		}
	}
}
