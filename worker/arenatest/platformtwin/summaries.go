package platformtwin

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Summaries answers ISteamUser/GetPlayerSummaries/v0002 like the
// platform's web API, for every asked id except the unknown ones, naming
// each PersonaName(id) with avatars it serves itself (a small PNG), and
// records the calls.
type Summaries struct {
	*httptest.Server
	mu      sync.Mutex
	calls   [][]string // steamids per call
	keys    []string
	unknown map[string]bool
}

// NewSummaries serves the API until the test ends.
func NewSummaries(tb testing.TB) *Summaries {
	s := &Summaries{unknown: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ISteamUser/GetPlayerSummaries/v0002/", s.summaries)
	picture := avatarPNG(tb)
	mux.HandleFunc("GET /avatars/{file}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(picture)
	})
	s.Server = httptest.NewServer(mux)
	tb.Cleanup(s.Close)
	return s
}

// PersonaName is the platform's name of account id.
func PersonaName(id string) string { return "Gamer " + id[len(id)-4:] }

// AvatarURL is the platform's full-size avatar of account id.
func (s *Summaries) AvatarURL(id string) string { return s.URL + "/avatars/" + id + "_full.png" }

// Unknown makes the platform not know account id.
func (s *Summaries) Unknown(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unknown[id] = true
}

// Calls are the ids asked, a list per call; Keys the key of each call.
func (s *Summaries) Calls() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]string(nil), s.calls...)
}

func (s *Summaries) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.keys...)
}

func (s *Summaries) summaries(w http.ResponseWriter, r *http.Request) {
	ids := strings.Split(r.URL.Query().Get("steamids"), ",")
	s.mu.Lock()
	s.calls = append(s.calls, ids)
	s.keys = append(s.keys, r.URL.Query().Get("key"))
	unknown := s.unknown
	type player struct {
		SteamID      string `json:"steamid"`
		PersonaName  string `json:"personaname"`
		Avatar       string `json:"avatar"`
		AvatarMedium string `json:"avatarmedium"`
		AvatarFull   string `json:"avatarfull"`
	}
	players := []player{}
	for _, id := range ids {
		if unknown[id] || len(id) < 4 {
			continue
		}
		base := s.URL + "/avatars/" + id
		players = append(players, player{SteamID: id, PersonaName: PersonaName(id),
			Avatar: base + ".png", AvatarMedium: base + "_medium.png", AvatarFull: s.AvatarURL(id)})
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"response": map[string]any{"players": players}})
}

// avatarPNG is a 64-pixel square of one colour.
func avatarPNG(tb testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{0x3a, 0x7b, 0xd5, 0xff})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}
