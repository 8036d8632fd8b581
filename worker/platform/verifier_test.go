package platform_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/platform"
)

const (
	// publisherKey has characters that must be query-escaped.
	publisherKey = "pk-S3cret/+=&x"
	player       = "76561197960287930"
	owner        = "76561197960265728"
)

// The fake platform's tickets, named for how it answers them.
const (
	ticketOK              = "a0a0a0a0"
	ticketInvalid         = "b1b1b1b1" // error 101
	ticketFamilyShared    = "c2c2c2c2"
	ticketVACBanned       = "d3d3d3d3"
	ticketPublisherBanned = "e4e4e4e4"
	ticketResultDenied    = "f5f5f5f5" // result other than OK
	ticketSecondAppOnly   = "0606aaaa" // error for 480, OK for 2000
	ticketDemoOnly        = "0707aaaa" // OK for 3000 only
	ticketOtherAppOnly    = "0808aaaa" // OK for 9999 only, which the arena does not accept
	ticketServerError     = "5000aaaa" // HTTP 500
	ticketMalformedJSON   = "0909aaaa"
	ticketNoBanFlags      = "0a0aaaaa" // OK without vacbanned/publisherbanned
	ticketEmptyResponse   = "0b0baaaa" // {"response":{}}
	ticketHugeAnswer      = "0c0caaaa" // valid JSON over 64 KiB
	ticketSlow            = "0d0daaaa" // answers after 2 s
	ticketRedirectHome    = "0e0eaaaa" // HTTP 302 nowhere useful
)

// platformRequest is what the fake recorded of one call.
type platformRequest struct {
	AppID       string
	Key         string
	Ticket      string
	Identity    string
	HasIdentity bool
}

// fakePlatform answers like the platform's AuthenticateUserTicket API,
// keyed by ticket value, and records every request.
type fakePlatform struct {
	mu       sync.Mutex
	requests []platformRequest
}

func (f *fakePlatform) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	_, hasIdentity := q["identity"]
	f.mu.Lock()
	f.requests = append(f.requests, platformRequest{
		AppID: q.Get("appid"), Key: q.Get("key"), Ticket: q.Get("ticket"),
		Identity: q.Get("identity"), HasIdentity: hasIdentity,
	})
	f.mu.Unlock()

	if r.Method != http.MethodGet || r.URL.Path != "/ISteamUserAuth/AuthenticateUserTicket/v1/" {
		http.NotFound(w, r)
		return
	}
	if q.Get("key") != publisherKey {
		// The platform answers a bad key with an HTML 403 page.
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte("<html><body>Forbidden: verify your key= parameter</body></html>"))
		return
	}
	appID := q.Get("appid")
	switch q.Get("ticket") {
	case ticketOK:
		writeParams(w, "OK", player, player, false, false)
	case ticketFamilyShared:
		writeParams(w, "OK", player, owner, false, false)
	case ticketVACBanned:
		writeParams(w, "OK", player, player, true, false)
	case ticketPublisherBanned:
		writeParams(w, "OK", player, player, false, true)
	case ticketResultDenied:
		writeParams(w, "Denied", player, player, false, false)
	case ticketSecondAppOnly:
		if appID == "2000" {
			writeParams(w, "OK", player, player, false, false)
			return
		}
		writeError(w, 102, "Ticket for other app")
	case ticketDemoOnly:
		if appID == "3000" {
			writeParams(w, "OK", player, player, false, false)
			return
		}
		writeError(w, 102, "Ticket for other app")
	case ticketOtherAppOnly:
		if appID == "9999" {
			writeParams(w, "OK", player, player, false, false)
			return
		}
		writeError(w, 102, "Ticket for other app")
	case ticketServerError:
		http.Error(w, "internal error", http.StatusInternalServerError)
	case ticketMalformedJSON:
		_, _ = w.Write([]byte(`{"response":{"params":{"result":"OK",`))
	case ticketNoBanFlags:
		_, _ = w.Write([]byte(`{"response":{"params":{"result":"OK","steamid":"` + player + `","ownersteamid":"` + player + `"}}}`))
	case ticketEmptyResponse:
		_, _ = w.Write([]byte(`{"response":{}}`))
	case ticketHugeAnswer:
		_, _ = w.Write([]byte(`{"response":{"params":{"result":"OK","steamid":"` + player + `","ownersteamid":"` + player + `",` +
			`"vacbanned":false,"publisherbanned":false}}` + strings.Repeat(" ", 70<<10) + `}`))
	case ticketSlow:
		select {
		case <-time.After(2 * time.Second):
			writeParams(w, "OK", player, player, false, false)
		case <-r.Context().Done():
		}
	case ticketRedirectHome:
		w.Header().Set("Location", "/nowhere")
		w.WriteHeader(http.StatusFound)
	default:
		writeError(w, 101, "Invalid ticket")
	}
}

// appIDs returns the AppIDs asked for, in order.
func (f *fakePlatform) appIDs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, r := range f.requests {
		out = append(out, r.AppID)
	}
	return out
}

func (f *fakePlatform) recorded() []platformRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]platformRequest(nil), f.requests...)
}

func writeParams(w http.ResponseWriter, result, steamID, ownerSteamID string, vacBanned, publisherBanned bool) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"response": map[string]any{"params": map[string]any{
		"result": result, "steamid": steamID, "ownersteamid": ownerSteamID,
		"vacbanned": vacBanned, "publisherbanned": publisherBanned,
	}}})
}

func writeError(w http.ResponseWriter, code int, desc string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"response": map[string]any{"error": map[string]any{
		"errorcode": code, "errordesc": desc,
	}}})
}

// newPlatform starts the fake platform and a Verifier pointed at it.
func newPlatform(t *testing.T) (*fakePlatform, *platform.Verifier) {
	t.Helper()
	fake := &fakePlatform{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return fake, &platform.Verifier{BaseURL: srv.URL, Client: srv.Client(), Timeout: time.Second}
}

// newArena returns an arena accepting 480 (primary), 2000 and 3000.
func newArena(key string) *core.Arena {
	return &core.Arena{
		Slug:         "acme",
		AppIDs:       []string{"480", "2000", "3000"},
		PublisherKey: key,
		Identity:     "arena-test",
	}
}

// requireCode asserts err is a *core.Error with code whose message leaks
// neither the publisher key nor the ticket.
// refused stands for a refused ticket in the tables: code missing_ticket
// with reason invalid_ticket (spec 7: missing_ticket is the only 401).
const refused = "refused"

func requireCode(t *testing.T, err error, code, ticket string) {
	t.Helper()
	var e *core.Error
	require.ErrorAs(t, err, &e)
	if code == refused {
		assert.Equal(t, core.CodeMissingTicket, e.Code, "error: %v", err)
		assert.Equal(t, core.ReasonInvalidTicket, e.Reason, "error: %v", err)
	} else {
		assert.Equal(t, code, e.Code, "error: %v", err)
	}
	assert.NotContains(t, err.Error(), publisherKey)
	assert.NotContains(t, err.Error(), "S3cret")
	if ticket != "" {
		assert.NotContains(t, err.Error(), ticket)
	}
}

func TestVerifyRealMode(t *testing.T) {
	all := []string{"480", "2000", "3000"}
	tests := []struct {
		name       string
		ticket     string
		hint       string
		wantAppID  string // the caller's AppID on success
		wantCode   string // error code otherwise
		wantAsked  []string
		wantCaller string
	}{
		{name: "OK", ticket: ticketOK, wantAppID: "480", wantAsked: []string{"480"}},
		{name: "Error101Refused", ticket: ticketInvalid, wantCode: refused, wantAsked: all},
		{name: "FamilySharingRefused", ticket: ticketFamilyShared, wantCode: refused, wantAsked: all},
		{name: "VACBannedRefused", ticket: ticketVACBanned, wantCode: refused, wantAsked: all},
		{name: "PublisherBannedRefused", ticket: ticketPublisherBanned, wantCode: refused, wantAsked: all},
		{name: "ResultNotOKRefused", ticket: ticketResultDenied, wantCode: refused, wantAsked: all},
		{name: "SecondAppIDVerifies", ticket: ticketSecondAppOnly, wantAppID: "2000", wantAsked: []string{"480", "2000"}},
		{name: "HintMovesAcceptedAppIDFirst", ticket: ticketDemoOnly, hint: "3000", wantAppID: "3000", wantAsked: []string{"3000"}},
		{name: "HintFirstThenTheRestInOrder", ticket: ticketSecondAppOnly, hint: "3000", wantAppID: "2000", wantAsked: []string{"3000", "480", "2000"}},
		{name: "HintOnlyOrders", ticket: ticketOK, hint: "2000", wantAppID: "2000", wantAsked: []string{"2000"}},
		{name: "UnacceptedHintIgnored", ticket: ticketOK, hint: "9999", wantAppID: "480", wantAsked: []string{"480"}},
		{name: "UnacceptedHintCannotAuthenticate", ticket: ticketOtherAppOnly, hint: "9999", wantCode: refused, wantAsked: all},
		{name: "ServerErrorUnavailable", ticket: ticketServerError, wantCode: core.CodePlatformUnavailable, wantAsked: []string{"480"}},
		{name: "MalformedJSONUnavailable", ticket: ticketMalformedJSON, wantCode: core.CodePlatformUnavailable, wantAsked: []string{"480"}},
		{name: "MissingBanFlagsUnavailable", ticket: ticketNoBanFlags, wantCode: core.CodePlatformUnavailable, wantAsked: []string{"480"}},
		{name: "EmptyResponseUnavailable", ticket: ticketEmptyResponse, wantCode: core.CodePlatformUnavailable, wantAsked: []string{"480"}},
		{name: "OversizedAnswerUnavailable", ticket: ticketHugeAnswer, wantCode: core.CodePlatformUnavailable, wantAsked: []string{"480"}},
		{name: "RedirectUnavailable", ticket: ticketRedirectHome, wantCode: core.CodePlatformUnavailable, wantAsked: []string{"480", ""}},
		{name: "MockTicketRefusedWithoutRequest", ticket: "MOCK:" + player, wantCode: refused},
		{name: "MockPrefixRefusedWithoutRequest", ticket: "MOCK:123", wantCode: refused},
		{name: "NonHexRefusedWithoutRequest", ticket: "zz&key=other", wantCode: refused},
		{name: "EmptyRefusedWithoutRequest", ticket: "", wantCode: refused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, v := newPlatform(t)
			caller, err := v.Verify(context.Background(), newArena(publisherKey), tt.ticket, tt.hint)
			assert.Equal(t, tt.wantAsked, fake.appIDs(), "AppIDs asked, in order")
			if tt.wantCode != "" {
				requireCode(t, err, tt.wantCode, tt.ticket)
				assert.Equal(t, core.Caller{}, caller)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, core.Caller{PlatformID: player, AppID: tt.wantAppID}, caller)
		})
	}
}

func TestVerifyRequest(t *testing.T) {
	t.Run("SendsKeyTicketAppIDAndIdentity", func(t *testing.T) {
		fake, v := newPlatform(t)
		_, err := v.Verify(context.Background(), newArena(publisherKey), ticketOK, "")
		require.NoError(t, err)
		assert.Equal(t, []platformRequest{{
			AppID: "480", Key: publisherKey, Ticket: ticketOK, Identity: "arena-test", HasIdentity: true,
		}}, fake.recorded())
	})
	t.Run("OmitsEmptyIdentity", func(t *testing.T) {
		fake, v := newPlatform(t)
		a := newArena(publisherKey)
		a.Identity = ""
		_, err := v.Verify(context.Background(), a, ticketOK, "")
		require.NoError(t, err)
		require.Len(t, fake.recorded(), 1)
		assert.False(t, fake.recorded()[0].HasIdentity)
	})
	t.Run("WrongPublisherKeyUnavailable", func(t *testing.T) {
		// A 403 means the arena's key is wrong: the operator's fault, so
		// the player hears 503, not that the ticket is invalid, and the
		// next AppID is not tried.
		fake, v := newPlatform(t)
		_, err := v.Verify(context.Background(), newArena("wrong-S3cret/+="), ticketOK, "")
		requireCode(t, err, core.CodePlatformUnavailable, ticketOK)
		assert.NotContains(t, err.Error(), "wrong-S3cret")
		assert.Contains(t, err.Error(), "403")
		assert.Equal(t, []string{"480"}, fake.appIDs())
	})
	t.Run("NoAcceptedAppIDRefused", func(t *testing.T) {
		fake, v := newPlatform(t)
		a := newArena(publisherKey)
		a.AppIDs = nil
		_, err := v.Verify(context.Background(), a, ticketOK, "480")
		requireCode(t, err, refused, ticketOK)
		assert.Empty(t, fake.recorded())
	})
}

func TestVerifyTransport(t *testing.T) {
	t.Run("SlowPlatformTimesOut", func(t *testing.T) {
		fake, v := newPlatform(t)
		v.Timeout = 50 * time.Millisecond
		start := time.Now()
		_, err := v.Verify(context.Background(), newArena(publisherKey), ticketSlow, "")
		requireCode(t, err, core.CodePlatformUnavailable, ticketSlow)
		assert.Less(t, time.Since(start), time.Second)
		assert.Equal(t, []string{"480"}, fake.appIDs(), "a timeout does not fall through to the next AppID")
	})
	t.Run("CancelledContextUnavailable", func(t *testing.T) {
		_, v := newPlatform(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := v.Verify(ctx, newArena(publisherKey), ticketOK, "")
		requireCode(t, err, core.CodePlatformUnavailable, ticketOK)
	})
	t.Run("CancelledWhileWaitingUnavailable", func(t *testing.T) {
		_, v := newPlatform(t)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := v.Verify(ctx, newArena(publisherKey), ticketSlow, "")
		requireCode(t, err, core.CodePlatformUnavailable, ticketSlow)
		assert.Less(t, time.Since(start), time.Second)
	})
	t.Run("UnreachablePlatformUnavailableWithoutKeyInError", func(t *testing.T) {
		// net/http's *url.Error quotes the whole URL, key and ticket
		// included; the Verifier must not pass it on.
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close()
		v := &platform.Verifier{BaseURL: srv.URL, Timeout: time.Second}
		_, err := v.Verify(context.Background(), newArena(publisherKey), ticketOK, "")
		requireCode(t, err, core.CodePlatformUnavailable, ticketOK)
		assert.NotContains(t, err.Error(), "pk-S3cret%2F%2B%3D%26x")
	})
	t.Run("InvalidBaseURLUnavailableWithoutKeyInError", func(t *testing.T) {
		v := &platform.Verifier{BaseURL: "http://bad host\x7f", Timeout: time.Second}
		_, err := v.Verify(context.Background(), newArena(publisherKey), ticketOK, "")
		requireCode(t, err, core.CodePlatformUnavailable, ticketOK)
	})
}

func TestVerifyMockMode(t *testing.T) {
	mockTicket := "MOCK:" + player
	tests := []struct {
		name      string
		ticket    string
		hint      string
		wantAppID string
		wantCode  string
	}{
		{name: "MockAcceptedAsPrimary", ticket: mockTicket, wantAppID: "480"},
		{name: "MockAcceptedWithAcceptedHint", ticket: mockTicket, hint: "3000", wantAppID: "3000"},
		{name: "MockUnacceptedHintGivesPrimary", ticket: mockTicket, hint: "9999", wantAppID: "480"},
		{name: "HexRefused", ticket: ticketOK, wantCode: refused},
		{name: "MockWith16DigitsRefused", ticket: "MOCK:7656119796028793", wantCode: refused},
		{name: "EmptyRefused", ticket: "", wantCode: refused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, v := newPlatform(t)
			caller, err := v.Verify(context.Background(), newArena(""), tt.ticket, tt.hint)
			assert.Empty(t, fake.recorded(), "mock mode never asks the platform")
			if tt.wantCode != "" {
				requireCode(t, err, tt.wantCode, tt.ticket)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, core.Caller{PlatformID: player, AppID: tt.wantAppID}, caller)
		})
	}
	t.Run("NoAcceptedAppIDRefused", func(t *testing.T) {
		a := newArena("")
		a.AppIDs = nil
		_, err := (&platform.Verifier{}).Verify(context.Background(), a, mockTicket, "")
		requireCode(t, err, refused, "")
	})
}
