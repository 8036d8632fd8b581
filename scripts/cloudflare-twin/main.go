// Command cloudflare-twin serves the httptest twin of the Cloudflare API's
// custom hostnames (worker/cloudflare/cloudflaretest) on a port, for the
// Workers build under wrangler dev (make test-edge). POST
// /__twin/activate with hostname=... activates a hostname.
//
//	cloudflare-twin -addr 127.0.0.1:PORT -token TOKEN -zone ZONE
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"

	"arena/worker/cloudflare/cloudflaretest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8788", "listen address")
	token := flag.String("token", "", "the API token the twin accepts")
	zone := flag.String("zone", "", "the zone id it serves")
	flag.Parse()
	if *token == "" || *zone == "" {
		fmt.Fprintln(os.Stderr, "cloudflare-twin: -token and -zone are required")
		os.Exit(2)
	}
	tw := cloudflaretest.New(*token, *zone)
	fmt.Printf("cloudflare-twin: serving zone %s on http://%s/client/v4\n", *zone, *addr)
	if err := http.ListenAndServe(*addr, tw); err != nil {
		fmt.Fprintln(os.Stderr, "cloudflare-twin:", err)
		os.Exit(1)
	}
}
