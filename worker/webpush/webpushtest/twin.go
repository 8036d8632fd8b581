// Package webpushtest is a push service twin (RFC 8030) for tests and
// dev mode: it takes pushes as a push service does, checking what one
// checks, and holds devices that decrypt them as a browser does (RFC
// 8291). In dev mode its page shows what each demo phone was pushed.
package webpushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PushService is a push service twin (RFC 8030): it takes a push as a
// POST to a device's endpoint (/push/<device>) and answers 201 Created
// with the message's Location, after checking what a push service
// checks: a TTL header, an aes128gcm body (RFC 8188, RFC 8291) of at most
// 4,096 bytes, and a VAPID Authorization (RFC 8292) whose ES256 JWT
// verifies with its k, names this service's origin as aud, expires within
// 24 hours and has a mailto: or https: sub, with k the key the device
// subscribed with. A device may be given statuses to answer instead
// (410 for gone, 500, 429). It keeps every push it took.
type Service struct {
	*httptest.Server
	mu       sync.Mutex
	messages []Message
	refused  []string // why each refused push was refused
	answers  map[string][]int
	keys     map[string]string  // device -> the applicationServerKey it subscribed with
	devices  map[string]*Device // by name, for ReadWithNode
	hanging  bool               // Hang: every push is held unanswered
	held     int                // pushes held unanswered so far
	release  chan struct{}      // closed by Release
}

// Message is one push the service took (or was told to refuse).
type Message struct {
	Device string
	Status int
	Body   []byte
	Header http.Header
	At     time.Time // when it came, UTC
}

// Start starts the twin on loopback; Close stops it.
func Start() *Service {
	p := &Service{answers: map[string][]int{}, keys: map[string]string{}, devices: map[string]*Device{}, release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /push/{device}", p.serve)
	mux.HandleFunc("GET /{$}", p.phones)
	p.Server = httptest.NewServer(mux)
	return p
}

func (p *Service) serve(w http.ResponseWriter, r *http.Request) {
	device := r.PathValue("device")
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	p.mu.Lock()
	hanging := p.hanging
	if hanging {
		p.held++
	}
	p.mu.Unlock()
	if hanging {
		// A push service that does not answer: the caller gives up first.
		select {
		case <-r.Context().Done():
		case <-p.release:
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	status, why := p.check(device, r, body)
	if status == http.StatusCreated && len(p.answers[device]) > 0 {
		status, p.answers[device] = p.answers[device][0], p.answers[device][1:]
	}
	if why != "" {
		p.refused = append(p.refused, why)
	}
	p.messages = append(p.messages, Message{Device: device, Status: status, Body: body, Header: r.Header.Clone(), At: time.Now().UTC()})
	if status == http.StatusCreated {
		w.Header().Set("Location", fmt.Sprintf("%s/messages/%d", p.URL, len(p.messages)))
	}
	w.WriteHeader(status)
}

// check is what the service checks of a push: its status (201 when it
// is taken) and why it is not.
func (p *Service) check(device string, r *http.Request, body []byte) (int, string) {
	if _, err := strconv.Atoi(r.Header.Get("TTL")); err != nil {
		return http.StatusBadRequest, "no TTL header"
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" {
		return http.StatusBadRequest, "Content-Encoding is not aes128gcm"
	}
	if len(body) > 4096 {
		return http.StatusRequestEntityTooLarge, "a body over 4096 bytes"
	}
	k, err := p.vapid(r.Header.Get("Authorization"))
	if err != nil {
		return http.StatusUnauthorized, err.Error()
	}
	if want, ok := p.keys[device]; ok && want != k {
		return http.StatusForbidden, "k is not the key the device subscribed with"
	}
	return http.StatusCreated, ""
}

// vapid checks an Authorization header ("vapid t=<JWT>, k=<key>") and
// returns k.
func (p *Service) vapid(auth string) (string, error) {
	params, ok := strings.CutPrefix(auth, "vapid ")
	if !ok {
		return "", errors.New("not a vapid Authorization")
	}
	var token, k string
	for _, part := range strings.Split(params, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch name {
		case "t":
			token = value
		case "k":
			k = value
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil || len(raw) != 65 {
		return "", errors.New("k is not an uncompressed P-256 point")
	}
	x, y := elliptic.Unmarshal(elliptic.P256(), raw) //nolint:staticcheck // the point as RFC 8292 sends it
	if x == nil {
		return "", errors.New("k is not on P-256")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", errors.New("t is not a JWT")
	}
	var head struct{ Alg string }
	if b, err := base64.RawURLEncoding.DecodeString(parts[0]); err != nil || json.Unmarshal(b, &head) != nil || head.Alg != "ES256" {
		return "", errors.New("the JWT is not ES256")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", errors.New("the JWT's signature is not 64 bytes")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", errors.New("the JWT does not verify with k")
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if b, err := base64.RawURLEncoding.DecodeString(parts[1]); err != nil || json.Unmarshal(b, &claims) != nil {
		return "", errors.New("the JWT's claims are not JSON")
	}
	if claims.Aud != p.URL {
		return "", fmt.Errorf("aud %q is not the push service's origin", claims.Aud)
	}
	if exp := time.Unix(claims.Exp, 0); !exp.After(time.Now()) || exp.After(time.Now().Add(24*time.Hour)) {
		return "", errors.New("exp is not within 24 hours")
	}
	if !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:") {
		return "", fmt.Errorf("sub %q is neither mailto: nor https:", claims.Sub)
	}
	return k, nil
}

// Hang makes the service hold every push unanswered until Release (or
// until its caller gives up): a push service that does not answer.
func (p *Service) Hang() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hanging = true
}

// Held is how many pushes the service held unanswered.
func (p *Service) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// Release lets the held pushes go (unanswered) and answers again.
func (p *Service) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hanging {
		p.hanging = false
		close(p.release)
	}
}

// Answer queues statuses for the device's next pushes.
func (p *Service) Answer(device string, statuses ...int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answers[device] = append(p.answers[device], statuses...)
}

// Messages returns every push the service was sent, in order.
func (p *Service) Messages() []Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Message(nil), p.messages...)
}

// Refused returns why pushes were refused (none for a well-made push).
func (p *Service) Refused() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.refused...)
}

// PushDevice is a browser's side of a push subscription: its endpoint
// at the twin, its P-256 key pair and its authentication secret.
type Device struct {
	Name     string
	Endpoint string
	Key      *ecdh.PrivateKey
	Auth     []byte
}

// NewDevice makes a device subscribing with the arena's VAPID public key
// (the twin refuses pushes signed with any other).
func (p *Service) NewDevice(name, serverKey string) *Device {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		panic(err) // the system's randomness failed
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	d := &Device{Name: name, Endpoint: p.URL + "/push/" + name, Key: key, Auth: auth}
	p.mu.Lock()
	p.keys[name], p.devices[name] = serverKey, d
	p.mu.Unlock()
	return d
}

// Adopt makes a device of keys made elsewhere (a browser's WebCrypto):
// its P-256 private scalar and auth secret, base64url.
func (p *Service) Adopt(name, privateKey, auth, serverKey string) (*Device, error) {
	raw, err := base64.RawURLEncoding.DecodeString(privateKey)
	if err != nil {
		return nil, err
	}
	key, err := ecdh.P256().NewPrivateKey(raw)
	if err != nil {
		return nil, err
	}
	secret, err := base64.RawURLEncoding.DecodeString(auth)
	if err != nil {
		return nil, err
	}
	d := &Device{Name: name, Endpoint: p.URL + "/push/" + name, Key: key, Auth: secret}
	p.mu.Lock()
	p.keys[name], p.devices[name] = serverKey, d
	p.mu.Unlock()
	return d, nil
}

// Form is the subscription as the account page's script posts it.
func (d *Device) Form(label string) url.Values {
	enc := base64.RawURLEncoding
	return url.Values{"endpoint": {d.Endpoint}, "p256dh": {enc.EncodeToString(d.Key.PublicKey().Bytes())},
		"auth": {enc.EncodeToString(d.Auth)}, "device": {label}}
}

// Open decrypts a push for the device (RFC 8291 with RFC 8188's
// aes128gcm, one record), as its browser does.
func (d *Device) Open(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("push: shorter than its header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen+16 {
		return nil, errors.New("push: the key id is not a P-256 point")
	}
	senderPub, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, err
	}
	record := body[21+idlen:]
	if uint32(len(record)) > rs {
		return nil, errors.New("push: more than one record")
	}
	shared, err := d.Key.ECDH(senderPub)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), d.Key.PublicKey().Bytes()...), senderPub.Bytes()...)
	ikm, err := hkdf.Key(sha256.New, shared, d.Auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, err
	}
	// The text, the last record's delimiter (2), then zero padding.
	plain = []byte(strings.TrimRight(string(plain), "\x00"))
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("push: no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// Devices returns the devices by name.
func (p *Service) Devices() map[string]*Device {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]*Device, len(p.devices))
	for k, v := range p.devices {
		out[k] = v
	}
	return out
}
