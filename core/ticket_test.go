package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mockAccount = "76561197960287930"

func TestParsePlatformAuthorization(t *testing.T) {
	longest := strings.Repeat("ab", MaxTicketLength/2)
	tests := []struct {
		name   string
		header string
		want   string // the ticket; empty means CodeMissingTicket
	}{
		{name: "Hex", header: "Platform 14000000aBcDeF09", want: "14000000aBcDeF09"},
		{name: "Mock", header: "Platform MOCK:" + mockAccount, want: "MOCK:" + mockAccount},
		{name: "LongestHex", header: "Platform " + longest, want: longest},
		{name: "MissingHeader", header: ""},
		{name: "WrongSchemeBearer", header: "Bearer x"},
		{name: "PlatformWithNothing", header: "Platform "},
		{name: "PlatformWithoutSpace", header: "Platform"},
		{name: "LowercaseScheme", header: "platform abcd"},
		{name: "NonHex", header: "Platform abcg"},
		{name: "DoubleSpace", header: "Platform  abcd"},
		{name: "TrailingNewline", header: "Platform abcd\n"},
		{name: "MockWith16Digits", header: "Platform MOCK:" + mockAccount[:16]},
		{name: "MockWith18Digits", header: "Platform MOCK:" + mockAccount + "1"},
		{name: "LowercaseMock", header: "Platform mock:" + mockAccount},
		{name: "MockWithoutAccount", header: "Platform MOCK:"},
		{name: "TooLong", header: "Platform " + longest + "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePlatformAuthorization(tt.header)
			if tt.want == "" {
				require.Error(t, err)
				assert.Equal(t, CodeMissingTicket, ErrorCode(err))
				assert.Empty(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestMockTicketAccount(t *testing.T) {
	tests := []struct {
		name   string
		ticket string
		want   string
		wantOK bool
	}{
		{name: "Mock", ticket: "MOCK:" + mockAccount, want: mockAccount, wantOK: true},
		{name: "Hex", ticket: "abcd"},
		{name: "Short", ticket: "MOCK:" + mockAccount[:16]},
		{name: "Suffix", ticket: "MOCK:" + mockAccount + "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := MockTicketAccount(tt.ticket)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestAppIDOrder(t *testing.T) {
	tests := []struct {
		name   string
		appIDs []string
		hint   string
		want   []string
	}{
		{name: "NoHintKeepsOrder", appIDs: []string{"480", "2000", "3000"}, want: []string{"480", "2000", "3000"}},
		{name: "AcceptedHintFirst", appIDs: []string{"480", "2000", "3000"}, hint: "3000", want: []string{"3000", "480", "2000"}},
		{name: "PrimaryHintKeepsOrder", appIDs: []string{"480", "2000", "3000"}, hint: "480", want: []string{"480", "2000", "3000"}},
		{name: "UnacceptedHintIgnored", appIDs: []string{"480", "2000"}, hint: "9999", want: []string{"480", "2000"}},
		{name: "HintPrefixIgnored", appIDs: []string{"480", "2000"}, hint: "200", want: []string{"480", "2000"}},
		{name: "NoAppIDs", appIDs: nil, hint: "480", want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Arena{AppIDs: append([]string(nil), tt.appIDs...)}
			assert.Equal(t, tt.want, AppIDOrder(a, tt.hint))
			assert.Equal(t, tt.appIDs, a.AppIDs, "the arena's AppIDs are not reordered")
		})
	}
}

func TestEnvironmentVisible(t *testing.T) {
	single := &Arena{AppIDs: []string{"480"}}
	several := &Arena{AppIDs: []string{"480", "2000", "3000"}}
	tests := []struct {
		name  string
		arena *Arena
		appID string
		env   Environment
		want  bool
	}{
		{name: "SingleSeesDemo", arena: single, appID: "480", env: EnvironmentDemo, want: true},
		{name: "SingleSeesRec", arena: single, appID: "480", env: EnvironmentRec, want: true},
		{name: "SingleSeesBeta", arena: single, appID: "480", env: EnvironmentBeta, want: true},
		{name: "NoAppIDsSeesAll", arena: &Arena{}, appID: "", env: EnvironmentRec, want: true},
		{name: "PrimarySeesRec", arena: several, appID: "480", env: EnvironmentRec, want: true},
		{name: "PrimarySeesBeta", arena: several, appID: "480", env: EnvironmentBeta, want: true},
		{name: "PrimaryDoesNotSeeDemo", arena: several, appID: "480", env: EnvironmentDemo, want: false},
		{name: "OtherSeesDemo", arena: several, appID: "2000", env: EnvironmentDemo, want: true},
		{name: "ThirdSeesDemo", arena: several, appID: "3000", env: EnvironmentDemo, want: true},
		{name: "OtherDoesNotSeeRec", arena: several, appID: "2000", env: EnvironmentRec, want: false},
		{name: "OtherDoesNotSeeBeta", arena: several, appID: "3000", env: EnvironmentBeta, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, EnvironmentVisible(tt.arena, tt.appID, tt.env))
		})
	}
}

// FuzzParsePlatformAuthorization checks that any header either yields a
// ticket of an accepted shape or CodeMissingTicket, and never panics.
func FuzzParsePlatformAuthorization(f *testing.F) {
	for _, seed := range []string{
		"", "Platform", "Platform ", "Platform abcd", "Platform ABCDEF0123456789",
		"Platform MOCK:" + mockAccount, "Platform MOCK:" + mockAccount[:16], "Platform MOCK:",
		"Bearer x", "platform abcd", "Platform abcd\n", "Platform  abcd", "Platform ab cd",
		"Platform " + strings.Repeat("f", MaxTicketLength), "Platform " + strings.Repeat("f", MaxTicketLength+1),
		"Platform \xff\xfe", "Platform MOCK:7656119796028793０",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		ticket, err := ParsePlatformAuthorization(header)
		if err != nil {
			if ErrorCode(err) != CodeMissingTicket {
				t.Fatalf("error code %q, want %q", ErrorCode(err), CodeMissingTicket)
			}
			if ticket != "" {
				t.Fatalf("ticket %q returned with an error", ticket)
			}
			return
		}
		if ticket == "" || len(ticket) > MaxTicketLength {
			t.Fatalf("accepted ticket of length %d", len(ticket))
		}
		if header != "Platform "+ticket {
			t.Fatalf("ticket %q is not the header's remainder", ticket)
		}
		if !isHex(ticket) && !isMockTicket(ticket) {
			t.Fatalf("accepted ticket %q is neither hex nor MOCK:<17 digits>", ticket)
		}
	})
}

// isHex and isMockTicket restate the accepted shapes without the
// production regexps, so the fuzz target checks them independently.
func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(c)) {
			return false
		}
	}
	return s != ""
}

func isMockTicket(s string) bool {
	digits, ok := strings.CutPrefix(s, "MOCK:")
	if !ok || len(digits) != 17 {
		return false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
