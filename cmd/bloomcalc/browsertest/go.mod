module github.com/bloomlab/bloomlab/cmd/bloomcalc/browsertest

go 1.26.8

replace github.com/bloomlab/bloomlab => ../../..

require (
	github.com/bloomlab/bloomlab v0.0.0-00010101000000-000000000000
	github.com/chromedp/chromedp v0.23.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
)
