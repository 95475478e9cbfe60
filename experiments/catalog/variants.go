package catalog

import (
	"github.com/bloomlab/bloomlab/variants"
)

func countingBuilder(n uint64, p float64, width int) builder {
	return func(h variants.Hashing) (filter, error) { return wrap(variants.NewCountingFor(n, p, width, h)) }
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
