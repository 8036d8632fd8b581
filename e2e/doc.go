// Package e2e holds the browser tests: headless Chromium (Debian's, driven
// by chromedp) against the native server with the demo arena. They assert
// on the DOM, never on pixels, and save a screenshot of each test's final
// page under testdata-artifacts/ (git-ignored).
package e2e
