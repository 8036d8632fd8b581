package core

import (
	"net/netip"
	"testing"
)

// TestPublicAddr: every special-purpose block IANA's registries mark as
// not globally reachable, or as a translation into another address, is
// refused as a literal and as an address connected to; public addresses
// pass.
func TestPublicAddr(t *testing.T) {
	refused := []string{
		"0.0.0.0", "0.1.2.3", "10.1.2.3", "100.64.0.1", "127.0.0.1", "169.254.169.254", "172.16.0.1",
		"192.0.0.1", "192.0.2.10", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255",
		"198.51.100.7", "203.0.113.9", "224.0.0.1", "240.0.0.1", "255.255.255.255",
		"::", "::1", "::127.0.0.1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe",
		"64:ff9b:1::1", "100::1", "2001::1", "2001:2::1", "2001:10::1", "2001:db8::1", "2002:a9fe:a9fe::1",
		"3fff::1", "5f00::1", "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1",
	}
	for _, s := range refused {
		if PublicAddr(netip.MustParseAddr(s)) {
			t.Errorf("PublicAddr(%s) = true, want refused", s)
		}
		if CheckWebhookURL("https://["+s+"]/hook", "url", false) == nil && CheckWebhookURL("https://"+s+"/hook", "url", false) == nil {
			t.Errorf("CheckWebhookURL accepted the literal %s", s)
		}
	}
	for _, s := range []string{"1.1.1.1", "8.8.8.8", "93.184.216.34", "192.0.3.1", "198.20.0.1", "203.0.114.1",
		"::ffff:8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001::200e"} {
		if !PublicAddr(netip.MustParseAddr(s)) {
			t.Errorf("PublicAddr(%s) = false, want public", s)
		}
	}
}
