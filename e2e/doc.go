// Package e2e holds the browser tests: headless Chromium (Debian's, driven
// by chromedp) against the native server with the demo arena. One
// Chromium serves the whole package; each person in a test gets a browser
// context of their own (cookies, cache), at a desktop's width (1280 px) or
// a phone's (390 px), optionally in a time zone or with JavaScript off.
// Live regions poll every second in these tests (10 s in production), so
// a change reaches another person's open page within seconds. The tests
// assert on the DOM, never on pixels, and save screenshots of the pages
// they check under testdata-artifacts/ (git-ignored).
package e2e
