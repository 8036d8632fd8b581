package arenatest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"arena/worker/webpush/webpushtest"
)

// The Web Push service twin (webpushtest), started for a test.
type (
	PushService = webpushtest.Service
	PushDevice  = webpushtest.Device
)

// StartPushService starts the twin for the test.
func StartPushService(tb testing.TB) *PushService {
	p := webpushtest.Start()
	tb.Cleanup(func() {
		p.Release()
		p.Close()
	})
	return p
}

// ReadPushesWithNode reads every push the twin took with third-party code
// (webpushcheck/: npm http_ece decrypts, Node's WebCrypto verifies the
// VAPID JWT and its aud), as a browser and a push service would, and
// returns the plaintexts in order. Without node or the package the check
// is skipped, unless ARENA_REQUIRE_CLIENTS=1.
func ReadPushesWithNode(tb testing.TB, p *webpushtest.Service) []string {
	tb.Helper()
	missing := func(why string) {
		if os.Getenv("ARENA_REQUIRE_CLIENTS") == "1" {
			tb.Fatalf("the http_ece check is required (ARENA_REQUIRE_CLIENTS=1): %s", why)
		}
		tb.Skipf("the http_ece check is skipped: %s", why)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "webpushcheck")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "http_ece")); err != nil {
		npm := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		npm.Dir = dir
		if out, err := npm.CombinedOutput(); err != nil {
			missing(fmt.Sprintf("npm ci: %v: %s", err, out))
		}
	}
	type captured struct {
		PrivateKey    string `json:"privateKey"`
		AuthSecret    string `json:"authSecret"`
		Body          []byte `json:"body"`
		Authorization string `json:"authorization"`
		Audience      string `json:"audience"`
	}
	enc := base64.RawURLEncoding
	devices := p.Devices()
	var list []captured
	for _, m := range p.Messages() {
		d := devices[m.Device]
		if d == nil {
			continue
		}
		list = append(list, captured{PrivateKey: enc.EncodeToString(d.Key.Bytes()), AuthSecret: enc.EncodeToString(d.Auth),
			Body: m.Body, Authorization: m.Header.Get("Authorization"), Audience: p.URL})
	}
	raw, err := json.Marshal(list)
	if err != nil {
		tb.Fatal(err)
	}
	file := filepath.Join(tb.TempDir(), "pushes.json")
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "decrypt.mjs"), file)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("http_ece (npm): %v: %s%s", err, out, stderr.String())
	}
	var plain []string
	if err := json.Unmarshal(out, &plain); err != nil {
		tb.Fatalf("http_ece (npm): %v: %s", err, out)
	}
	return plain
}
