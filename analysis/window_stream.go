package analysis

import "math"

// AgePartitionedStreamLoad returns the number of items in the slice of age
// j (0 the newest) of an age-partitioned filter of geometry a after t adds
// to an empty filter. After t >= 1 adds, s = (t-1)/G shifts have happened
// and the newest generation holds c = (t-1) mod G + 1 items; the slice of
// age j became the newest at generation s - j (a negative one for the
// slices of the empty filter, which take the first generations' items as
// well) and received the items of generations s-j to s-j+K-1 that exist:
// min(s, j) G + c for j < K, and for j >= K, K G once s >= j and
// max(0, s - j + K) G before. From (K + L - 1) G + 1 adds on this is
// SliceLoad(j, c). It is 0 for t = 0 or j outside 0..K+L-1.
func AgePartitionedStreamLoad(a AgePartitioned, j int, t uint64) uint64 {
	if t == 0 || j < 0 || j >= a.K+a.L || a.G == 0 {
		return 0
	}
	s, c := (t-1)/a.G, (t-1)%a.G+1
	jj := uint64(j)
	if j < a.K {
		return min(s, jj)*a.G + c
	}
	if s >= jj {
		return uint64(a.K) * a.G
	}
	if s+uint64(a.K) <= jj {
		return 0
	}
	return (s + uint64(a.K) - jj) * a.G
}

// AgePartitionedStreamFPR returns the exact false-positive rate of an
// age-partitioned filter of geometry a after t adds to an empty filter,
// from the first add on: [AgePartitioned.FPR] describes the steady state
// only, reached after (K + L - 1) G + 1 adds. It is [RunProbability] of the
// slices' set-bit chances 1 - (1 - 1/b)^n_j with the loads n_j of
// [AgePartitionedStreamLoad], K in a row, and equals FPR(c) in the steady
// state. It is 0 for t = 0 and NaN for an invalid geometry.
func AgePartitionedStreamFPR(a AgePartitioned, t uint64) float64 {
	if a.Validate() != nil {
		return math.NaN()
	}
	if t == 0 {
		return 0
	}
	p := make([]float64, a.K+a.L)
	for j := range p {
		p[j] = fill(a.SliceBits, AgePartitionedStreamLoad(a, j, t))
	}
	return RunProbability(p, a.K)
}
