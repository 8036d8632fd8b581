package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"syscall"
	"time"

	"arena/core"
)

// httpWebhookSender posts webhook deliveries.
type httpWebhookSender struct{ client *http.Client }

// NewWebhookSender returns the sender of webhook deliveries: client, or a
// client that connects only to public addresses (core.PublicAddr) that
// are not this machine's own (and to loopback ones when loopback is set:
// dev mode) whatever a host name resolves to, does not follow redirects
// and gives up after core.WebhookTimeout.
func NewWebhookSender(client *http.Client, loopback bool) core.WebhookSender {
	if client == nil {
		dialer := &net.Dialer{Timeout: 5 * time.Second, Control: webhookDialControl(ownAddrs(), loopback)}
		// On the edge requests go through fetch (the kept-instance build's
		// http.DefaultTransport is the request bridge; a dialer would
		// bypass it), which reaches no private network anyway.
		var transport http.RoundTripper = http.DefaultTransport
		if t, ok := transport.(*http.Transport); ok && runtime.GOOS != "js" {
			t = t.Clone()
			t.DialContext = dialer.DialContext
			t.Proxy = nil
			transport = t
		}
		client = &http.Client{Transport: transport, Timeout: core.WebhookTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return &httpWebhookSender{client: client}
}

// webhookDialControl refuses to connect to an address core.PublicAddr
// refuses, or to one of own (the machine's own addresses: a public name
// may resolve to the host the service runs on), unless it is a loopback
// address and loopback is set.
func webhookDialControl(own []netip.Addr, loopback bool) func(network, address string, c syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		ip := ap.Addr().Unmap()
		if loopback && ip.IsLoopback() {
			return nil
		}
		if !core.PublicAddr(ip) || slices.Contains(own, ip) {
			return errors.New("webhook: refusing a non-public address " + ip.String())
		}
		return nil
	}
}

// ownAddrs are the addresses of this machine's interfaces, read once when
// the sender is made (none on the edge: fetch reaches no private network).
func ownAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, p.Addr().Unmap())
		}
	}
	return out
}

// Send implements core.WebhookSender.
// The latency is measured on the machine's clock: a duration, not the
// service's time.
func (s *httpWebhookSender) Send(ctx context.Context, url string, body []byte, header map[string]string) (core.WebhookAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return core.WebhookAnswer{}, err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", "Arena-Webhooks/1")
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return core.WebhookAnswer{}, err // no answer: no status, no latency
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return core.WebhookAnswer{Status: resp.StatusCode, Latency: time.Since(start)}, nil
}

// LoopbackWebhooks reports whether webhooks and push endpoints may point
// at this machine (dev mode, Config.LoopbackCallouts).
func (s *Server) LoopbackWebhooks() bool { return s.cfg.Dev != nil || s.cfg.LoopbackCallouts }
