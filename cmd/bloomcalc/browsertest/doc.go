// Package browsertest holds bloomcalc's browser test: it builds the
// bloomcalc command from this repository, starts its page with
// -http 127.0.0.1:0 as a user would, and drives the page in a headless
// Chromium through chromedp.
//
// It is a module of its own (github.com/bloomlab/bloomlab/cmd/bloomcalc/browsertest)
// so that the library's go.mod does not list chromedp and its
// dependencies; the root module's go test ./... does not enter it. Run it
// with
//
//	cd cmd/bloomcalc/browsertest && go test ./...
//
// It skips when no Chromium is found, unless CI is set, when it fails;
// Debian's chromium package is one that it finds.
package browsertest
