// Package views holds the website's templ components: props in, HTML out;
// they never call services. Static assets (stylesheet, the small script
// that shows times in the viewer's zone, vendored htmx 2.0.11) are embedded
// here and served by the binary and the worker alike.
package views

import "embed"

// Static is the site's static assets, served under /static/.
//
//go:embed static
var Static embed.FS
