module github.com/bloomlab/bloomlab

go 1.26.8

require (
	github.com/dgryski/go-metro v0.0.0-20250106013310-edb8663e5e33
	github.com/zeebo/xxh3 v1.1.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	golang.org/x/sys v0.30.0 // indirect
)
