module github.com/bloomlab/bloomlab/compare

go 1.26.8

replace github.com/bloomlab/bloomlab => ../

require (
	github.com/bits-and-blooms/bloom/v3 v3.7.1
	github.com/bloomlab/bloomlab v0.0.0-00010101000000-000000000000
	github.com/parquet-go/parquet-go v0.32.0
	github.com/tylertreat/BoomFilters v0.0.0-20251001182300-5b3723cc64ae
	github.com/zeebo/xxh3 v1.1.0
)

require (
	github.com/bits-and-blooms/bitset v1.24.2 // indirect
	github.com/d4l3k/messagediff v1.2.1 // indirect
	github.com/dgryski/go-metro v0.0.0-20250106013310-edb8663e5e33 // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
