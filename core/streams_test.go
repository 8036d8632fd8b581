package core

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestCheckWebhookURL(t *testing.T) {
	for _, tc := range []struct {
		name     string
		url      string
		loopback bool
		ok       bool
	}{
		{"PublicHTTPS", "https://discord.com/api/webhooks/1/abc", false, true},
		{"ErrPlainHTTP", "http://discord.com/api/webhooks/1/abc", false, false},
		{"ErrPrivateIPv4", "https://10.1.2.3/hook", false, false},
		{"ErrPrivateIPv4Class", "https://172.16.0.9/hook", false, false},
		{"ErrLinkLocal", "https://169.254.169.254/latest/meta-data", false, false},
		{"ErrSharedAddressSpace", "https://100.64.0.1/hook", false, false},
		{"ErrUniqueLocalIPv6", "https://[fd00::1]/hook", false, false},
		{"ErrLoopbackOutsideDev", "https://127.0.0.1/hook", false, false},
		{"ErrLocalhostOutsideDev", "https://localhost/hook", false, false},
		{"LoopbackInDev", "http://127.0.0.1:9000/hook", true, true},
		{"LocalhostInDev", "http://localhost:9000/hook", true, true},
		{"ErrPrivateEvenInDev", "http://10.0.0.1/hook", true, false},
		{"ErrSingleLabelHost", "https://intranet/hook", false, false},
		{"ErrUserInfo", "https://user:pw@example.com/hook", false, false},
		{"ErrRelative", "/hook", false, false},
		{"ErrTooLong", "https://example.com/" + strings.Repeat("a", MaxWebhookURLBytes), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckWebhookURL(tc.url, "url", tc.loopback)
			if (err == nil) != tc.ok {
				t.Fatalf("CheckWebhookURL(%q, loopback %v) = %v, want ok %v", tc.url, tc.loopback, err, tc.ok)
			}
			if err != nil && (ErrorCode(err) != CodeInvalidField || err.(*Error).Field != "url") {
				t.Fatalf("want invalid_field on url, got %#v", err)
			}
		})
	}
}

func TestWebhookRetryDoublesUpToAnHour(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, w := range want {
		if got := WebhookRetry(i + 1); got != w {
			t.Errorf("WebhookRetry(%d) = %v, want %v", i+1, got, w)
		}
	}
}

func TestSignWebhook(t *testing.T) {
	got := SignWebhook("secret", []byte("{}"))
	if want := "sha256=77325902caca812dc259733aacd046b73817372c777b8d95b402647474516e13"; got != want { // HMAC-SHA256 of "{}" with key "secret"
		t.Fatalf("SignWebhook = %q, want %q", got, want)
	}
	if got == SignWebhook("other", []byte("{}")) || got == SignWebhook("secret", []byte("{ }")) {
		t.Fatal("the signature depends on the secret and every byte")
	}
}

func TestNormalizeStreamLogin(t *testing.T) {
	for in, want := range map[string]string{"Ada_Casts": "ada_casts", "  sophie ": "sophie", "abc": "abc"} {
		got, err := NormalizeStreamLogin(in)
		if err != nil || got != want {
			t.Errorf("NormalizeStreamLogin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ab", "has space", "dash-ed", strings.Repeat("a", 26), "émile"} {
		if _, err := NormalizeStreamLogin(bad); ErrorCode(err) != CodeInvalidField {
			t.Errorf("NormalizeStreamLogin(%q) = %v, want invalid_field", bad, err)
		}
	}
}

func TestLinkStateNamesItsArena(t *testing.T) {
	s, err := NewLinkState("north", "76561198000000001", "https://north.example", Deps{Now: time.Unix(0, 0), Random: strings.NewReader(strings.Repeat("x", 16))})
	if err != nil {
		t.Fatal(err)
	}
	if slug, err := LinkStateArena(s.State); err != nil || slug != "north" {
		t.Fatalf("LinkStateArena(%q) = %q, %v", s.State, slug, err)
	}
	if !s.ExpiresAt.Equal(time.Unix(0, 0).Add(LinkStateTTL)) {
		t.Fatalf("expires %v", s.ExpiresAt)
	}
	for _, bad := range []string{"", "north", "north.", "North.78787878787878787878787878787878", "north.zz", "-x.78787878787878787878787878787878"} {
		if _, err := LinkStateArena(bad); ErrorCode(err) != CodeInvalidLinkState {
			t.Errorf("LinkStateArena(%q) = %v, want invalid_link_state", bad, err)
		}
	}
}

func TestCasterDirectoryOrder(t *testing.T) {
	cs := &directoryStore{
		seats:   []CasterSeat{{MatchID: 9, StreamLogin: "official", Source: CasterArena}, {MatchID: 4, StreamLogin: "zed", PlatformID: "76561198000000003"}},
		streams: []MatchStream{{MatchID: 4, PlatformID: "76561198000000002", StreamLogin: "bob"}},
		linked:  map[string]string{"zed": "76561198000000003", "bob": "76561198000000002", "amy": "76561198000000001"},
	}
	got, err := CasterDirectory(t.Context(), cs, map[string]LiveStream{"zed": {Login: "zed"}})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range got {
		order = append(order, e.StreamLogin)
	}
	if strings.Join(order, ",") != "zed,bob,official,amy" {
		t.Fatalf("order %v: live first, then casting or streaming, then the rest, by login", order)
	}
	if got[2].PlatformID != nil || got[0].PlatformID == nil || *got[0].PlatformID != "76561198000000003" {
		t.Fatalf("platform ids: %+v", got)
	}
}

// directoryStore is a CastStore holding only what CasterDirectory reads.
type directoryStore struct {
	CastStore
	seats   []CasterSeat
	streams []MatchStream
	linked  map[string]string
}

func (d *directoryStore) ActiveCasting(ctx context.Context) ([]CasterSeat, []MatchStream, error) {
	return d.seats, d.streams, nil
}

func (d *directoryStore) LinkedChannels(ctx context.Context) (map[string]string, error) {
	return d.linked, nil
}
