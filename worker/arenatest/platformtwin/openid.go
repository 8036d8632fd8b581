// Package platformtwin holds httptest twins of the platform's two services
// the website calls (TOOLCHAIN "External services"), following their
// documented wire formats: the OpenID 2.0 endpoint (checkid_setup and
// check_authentication) and the web API's GetPlayerSummaries. The
// website's handler tests and the browser tests share them.
package platformtwin

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// NS is OpenID 2.0's namespace.
const NS = "http://specs.openid.net/auth/2.0"

// OpenID answers like the platform's OpenID endpoint. A browser sent with
// checkid_setup is redirected straight back to its return_to with a
// positive assertion for the account set by SignsIn (no login page);
// check_authentication is valid exactly for the assertions it issued,
// unchanged, in OpenID's key-value form.
type OpenID struct {
	*httptest.Server
	// Down makes check_authentication answer 503.
	Down atomic.Bool

	now     func() time.Time
	checks  atomic.Int32
	serial  atomic.Int32
	mu      sync.Mutex
	account string
	issued  map[string]url.Values // by response_nonce
}

// NewOpenID serves the endpoint until the test ends; now is the
// platform's clock (the time in response nonces).
func NewOpenID(tb testing.TB, now func() time.Time) *OpenID {
	op := &OpenID{now: now, issued: map[string]url.Values{}}
	op.Server = httptest.NewServer(http.HandlerFunc(op.serve))
	tb.Cleanup(op.Close)
	return op
}

// SignsIn sets the account a browser signs in as at checkid_setup.
func (op *OpenID) SignsIn(account string) {
	op.mu.Lock()
	defer op.mu.Unlock()
	op.account = account
}

// Checks is how many check_authentication requests arrived.
func (op *OpenID) Checks() int { return int(op.checks.Load()) }

func (op *OpenID) serve(w http.ResponseWriter, r *http.Request) {
	if r.ParseForm() != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	switch {
	case r.Method == http.MethodGet && r.Form.Get("openid.mode") == "checkid_setup":
		op.checkidSetup(w, r)
	case r.Method == http.MethodPost && r.PostForm.Get("openid.mode") == "check_authentication":
		op.checkAuthentication(w, r)
	default:
		http.Error(w, "not an OpenID request", http.StatusBadRequest)
	}
}

// checkidSetup sends the browser back to return_to, the assertion's
// fields added to its query (OpenID 2.0 §10.1).
func (op *OpenID) checkidSetup(w http.ResponseWriter, r *http.Request) {
	op.mu.Lock()
	account := op.account
	op.mu.Unlock()
	back, err := url.Parse(r.Form.Get("openid.return_to"))
	if err != nil || r.Form.Get("openid.ns") != NS || back.Host == "" || account == "" {
		http.Error(w, "bad checkid_setup", http.StatusBadRequest)
		return
	}
	q := back.Query()
	for k, v := range op.Assertion(back.String(), account, op.now(), nil) {
		q[k] = v
	}
	back.RawQuery = q.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (op *OpenID) checkAuthentication(w http.ResponseWriter, r *http.Request) {
	op.checks.Add(1)
	if op.Down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	op.mu.Lock()
	issued, ok := op.issued[r.PostForm.Get("openid.response_nonce")]
	op.mu.Unlock()
	valid := ok && len(issued) == len(r.PostForm)
	for k, v := range issued {
		if k != "openid.mode" && r.PostForm.Get(k) != v[0] {
			valid = false
		}
	}
	fmt.Fprintf(w, "ns:%s\nis_valid:%t\n", NS, valid)
}

// Assertion issues a positive assertion for the account, answering
// returnTo at now; change alters what the platform issues (and signs).
func (op *OpenID) Assertion(returnTo, account string, now time.Time, change func(url.Values)) url.Values {
	identity := "https://steamcommunity.com/openid/id/" + account
	v := url.Values{
		"openid.ns":             {NS},
		"openid.mode":           {"id_res"},
		"openid.op_endpoint":    {op.URL},
		"openid.claimed_id":     {identity},
		"openid.identity":       {identity},
		"openid.return_to":      {returnTo},
		"openid.response_nonce": {now.UTC().Format("2006-01-02T15:04:05Z") + fmt.Sprintf("n%d", op.serial.Add(1))},
		"openid.assoc_handle":   {"1234567890"},
		"openid.signed":         {"signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle"},
		"openid.sig":            {"c2lnbmF0dXJl"},
	}
	if change != nil {
		change(v)
	}
	signed := url.Values{}
	for k, vs := range v {
		signed[k] = append([]string(nil), vs...)
	}
	op.mu.Lock()
	op.issued[v.Get("openid.response_nonce")] = signed
	op.mu.Unlock()
	return v
}
