package experiments

// TEMPORARY: the counting and scalable variants arrive with branch
// counting-scalable; until it is merged their builders report an error.

import (
	"errors"

	"github.com/bloomlab/bloomlab/variants"
)

var errPending = errors.New("experiments: this variant is not built into this version yet")

func countingBuilder(n uint64, p float64, width int) builder {
	return func(h variants.Hashing) (filter, error) { return nil, errPending }
}

type scalableSpec struct {
	P, R, S float64
	N0      uint64
}

func scalableBuilder(s scalableSpec) builder {
	return func(h variants.Hashing) (filter, error) { return nil, errPending }
}
