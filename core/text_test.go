package core

import (
	"strings"
	"testing"
)

func TestValidDisplayText(t *testing.T) {
	cases := []struct {
		name, text string
		ok         bool
	}{
		{"Plain", "Winter Cup", true},
		{"Accents", "Coupe d'hiver – Édition 2", true},
		{"RightToLeft", "كأس الشتاء", true},
		{"EmojiWithZWJ", "Team 👩‍💻", true},
		{"RightToLeftOverride", "Cup\u202Egnp.exe", false},
		{"LeftToRightEmbedding", "a\u202Ab", false},
		{"PopDirectional", "a\u202Cb", false},
		{"FirstStrongIsolate", "a\u2068b", false},
		{"PopIsolate", "a\u2069b", false},
		{"Newline", "a\nb", false},
		{"Nul", "a\x00b", false},
		{"C1Control", "a\u0085b", false},
		{"InvalidUTF8", "a\xffb", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ValidDisplayText(tc.text); got != tc.ok {
				t.Fatalf("ValidDisplayText(%q) = %v, want %v", tc.text, got, tc.ok)
			}
		})
	}
}

// TestNamesRefuseHiddenControls: every name an arena shows (arena,
// tournament, season, title, token label, persona) goes through the one
// rule.
func TestNamesRefuseHiddenControls(t *testing.T) {
	bad := "Cup\u202Egnp.exe"
	if _, p := (&TokenDraft{Label: bad}).Check(); !p.Has("label") {
		t.Error("token label with U+202E accepted")
	}
	if _, p := (DisplayNameDraft{PersonaName: bad}).Check(); !p.Has("personaName") {
		t.Error("display name with U+202E accepted")
	}
	if p := (&RegistrationDraft{PlatformID: "76561198000000001", PersonaName: bad}).Check(); !p.Has("personaName") {
		t.Error("registration persona name with U+202E accepted")
	}
	var p Problems
	checkName(&p, "name", bad, "Enter a name.")
	if !p.Has("name") || !strings.Contains(p[0].Message, "letters") {
		t.Errorf("checkName accepted U+202E: %v", p)
	}
}

func TestDisplayText(t *testing.T) {
	for in, want := range map[string]string{
		"Chrome\u202e on\u0000 Android": "Chrome on Android",
		"a\xffb":                        "a\uFFFDb",
		"x\u2066y\u0007":                "xy",
	} {
		if got := DisplayText(in); got != want || !ValidDisplayText(got) {
			t.Errorf("DisplayText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClipBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghij", 10, "abcdefghij"},
		{"abcdefghijk", 10, "abcdefg…"},
		{"ééééé", 8, "éé…"},
	} {
		if got := ClipBytes(c.in, c.n); got != c.want || len(got) > c.n {
			t.Errorf("ClipBytes(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
