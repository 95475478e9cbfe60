package catalog

import (
	"github.com/bloomlab/bloomlab/variants"
)

func countingBuilder(n uint64, p float64, width int) builder {
	return func(h variants.Hashing) (filter, error) { return wrap(countingFor(n, p, width, h)) }
}

// countingFor returns an empty counting filter sized by
// variants.StandardGeometry for n items at rate p, with counters of width
// bits (0 for the default).
func countingFor(n uint64, p float64, width int, h variants.Hashing) (*variants.Counting, error) {
	g, err := variants.StandardGeometry(n, p)
	if err != nil {
		return nil, err
	}
	return variants.NewCounting(variants.CountingParams{Geometry: g, Width: width, Hashing: h})
}

// blockedFor returns an empty blocked filter with blocks of b bits, sized
// by variants.BlockedGeometry for n items at rate p.
func blockedFor(n uint64, p float64, b int, h variants.Hashing) (*variants.Blocked, error) {
	g, err := variants.BlockedGeometry(n, p, b)
	if err != nil {
		return nil, err
	}
	return variants.NewBlocked(variants.BlockedParams{Geometry: g, BlockBits: b, Hashing: h})
}

// scalableSpec are the parameters of a scalable filter.
type scalableSpec struct {
	P, R, S   float64
	N0        uint64
	BlockBits int // blocked stages of this many bits, or 0 for partitioned ones
}

func scalableBuilder(s scalableSpec) builder {
	return func(h variants.Hashing) (filter, error) {
		return wrap(variants.NewScalable(variants.ScalableParams{P: s.P, R: s.R, S: s.S, N0: s.N0, BlockBits: s.BlockBits, Hashing: h}))
	}
}
