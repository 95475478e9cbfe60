package compare

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
	"github.com/decred/dcrd/container/apbf"
	boom "github.com/tylertreat/BoomFilters"
)

// The sliding-window filters of other libraries: decred's age-partitioned
// Bloom filter (github.com/decred/dcrd/container/apbf v1.0.1) and
// BoomFilters' stable Bloom filter, wrapped for experiments.MeasureWindow.

// DecredGeometry is the geometry of a decred age-partitioned filter, read
// from its code (filter.go of v1.0.1):
//
//   - NewFilter(window, p) takes K = ceil(log2(1/p)) and L the largest
//     l <= 100 whose CalcFPRate(K, l) is at most p, tried from l = 1 up
//     (0 if CalcFPRate(K, 1) already exceeds p); then NewFilterKL.
//   - NewFilterKL(window, K, L) takes Generation = ceil(window/(L+1)) and
//     SliceBits = ceil(K Generation / ln 2), so that a slice that has taken
//     the K generations of its inserts is half full; K+L slices, rounded up
//     to whole bytes.
//   - Add shifts before inserting when the current generation already holds
//     Generation items: after t >= 1 adds the newest generation holds
//     c = ((t-1) mod Generation) + 1 items. An item sets one bit in each of
//     the K newest slices; a query is positive when K consecutive slices of
//     the K+L hold its bits.
//   - Every slice's index comes from one SipHash-2-4 128-bit pair (h1, h2)
//     of the key under a per-filter key taken from the clock, by enhanced
//     double hashing over the ring position s of the slice,
//     h1 + s h2 + (s^3 - s)/6, reduced by Lemire's multiply-shift.
//
// Capacity (its Capacity method) is (L+1) Generation, the items its
// documentation promises always test present. An item added j generations
// ago (0 for the newest) is held in full while j <= L, so after t adds the
// newest L Generation + c items are held: Capacity only at c = Generation,
// just before a shift, and L Generation + 1 just after one (Guaranteed).
type DecredGeometry struct {
	K, L       int
	Generation uint64 // items per generation (g)
	SliceBits  uint64 // bits per slice
}

// DecredFor returns the geometry decred's NewFilter(window, p) builds,
// computed as its code does and checked against a filter it builds: its
// K, L and Capacity, and its Size (the bytes of its slices plus 70).
func DecredFor(window uint32, p float64) (DecredGeometry, error) {
	if window == 0 || math.IsNaN(p) || p <= 0 || p >= 1 {
		return DecredGeometry{}, fmt.Errorf("compare: %w: decred filter for window %d at p = %v, want window >= 1 and 0 < p < 1", experiments.ErrInvalidParams, window, p)
	}
	k := math.Ceil(-math.Log2(p))
	if k > 255 {
		return DecredGeometry{}, fmt.Errorf("compare: %w: p = %v needs k = %v slices, more than decred's 255", experiments.ErrInvalidParams, p, k)
	}
	K := uint8(k)
	L := uint8(100)
	for l := uint8(1); l <= 100; l++ {
		if apbf.CalcFPRate(K, l) > p {
			L = l - 1
			break
		}
	}
	return decredKL(window, K, L)
}

// DecredKL returns the geometry decred's NewFilterKL(window, k, l) builds.
func DecredKL(window uint32, k, l int) (DecredGeometry, error) {
	if window == 0 || k < 1 || k > 255 || l < 0 || l > 255 {
		return DecredGeometry{}, fmt.Errorf("compare: %w: decred filter for window %d with k = %d, l = %d, want window >= 1, 1 <= k <= 255, 0 <= l <= 255", experiments.ErrInvalidParams, window, k, l)
	}
	return decredKL(window, uint8(k), uint8(l))
}

func decredKL(window uint32, k, l uint8) (DecredGeometry, error) {
	g := uint64(math.Ceil(float64(window) / (float64(l) + 1)))
	d := DecredGeometry{K: int(k), L: int(l), Generation: g, SliceBits: uint64(math.Ceil(float64(k) * float64(g) / math.Ln2))}
	f := apbf.NewFilterKL(window, k, l)
	if int(f.K()) != d.K || int(f.L()) != d.L || uint64(f.Capacity()) != d.Capacity() || uint64(f.Size()) != (d.Bits()+7)/8+70 {
		return DecredGeometry{}, fmt.Errorf("compare: decred's filter for window %d, k = %d, l = %d has K %d, L %d, capacity %d and %d bytes; its code as read here gives %d, %d, %d and %d",
			window, k, l, f.K(), f.L(), f.Capacity(), f.Size(), d.K, d.L, d.Capacity(), (d.Bits()+7)/8+70)
	}
	return d, nil
}

// Capacity returns (L+1) Generation, the window decred's documentation
// promises.
func (d DecredGeometry) Capacity() uint64 { return uint64(d.L+1) * d.Generation }

// Guaranteed returns L Generation + 1, the newest items held at every
// phase of the generation.
func (d DecredGeometry) Guaranteed() uint64 { return uint64(d.L)*d.Generation + 1 }

// Held returns the number of newest items held in full after t adds:
// all t until the first shift that drops a slice, then L Generation + c
// with c the items of the newest generation.
func (d DecredGeometry) Held(t uint64) uint64 {
	if t == 0 {
		return 0
	}
	c := (t-1)%d.Generation + 1
	return min(t, uint64(d.L)*d.Generation+c)
}

// Phase returns the items of the newest generation after t >= 1 adds,
// from 1 (just after a shift) to Generation.
func (d DecredGeometry) Phase(t uint64) uint64 { return (t-1)%d.Generation + 1 }

// Bits returns the bits of the slices, (K+L) SliceBits.
func (d DecredGeometry) Bits() uint64 { return uint64(d.K+d.L) * d.SliceBits }

// decredFilter wraps a decred filter. It takes no seed: every filter
// draws its SipHash key from the clock, so its false positives differ
// from run to run (the keys of every filter differ anyway).
type decredFilter struct {
	f    *apbf.Filter
	bits uint64
}

func (d decredFilter) Add(key []byte)           { d.f.Add(key) }
func (d decredFilter) Contains(key []byte) bool { return d.f.Contains(key) }
func (d decredFilter) Bits() uint64             { return d.bits }

// NewDecred returns a New function for experiments.WindowSpec that builds
// decred's filter of geometry d for window items (NewFilterKL).
func NewDecred(window uint32, d DecredGeometry) func(uint64) (experiments.Filter, error) {
	return func(uint64) (experiments.Filter, error) {
		return decredFilter{f: apbf.NewFilterKL(window, uint8(d.K), uint8(d.L)), bits: d.Bits()}, nil
	}
}

// StableGeometry is the geometry of BoomFilters' stable Bloom filter with
// one-bit cells (Deng and Rafiei, "Approximately detecting duplicates for
// streaming data using stable Bloom filters", SIGMOD 2006), as
// NewDefaultStableBloomFilter(m, p) builds it: K = ceil(log2(1/p))/2
// cells per key, found by plain double hashing of a 64-bit FNV-1 hash
// modulo m; every add first clears P cells (a run of P consecutive cells
// from a random start, drawn from math/rand's global source), then sets
// the key's K cells.
type StableGeometry struct {
	Cells  uint64 // m
	Hashes int    // K
	Clears uint64 // P
}

// StableFor returns the geometry of NewDefaultStableBloomFilter(m, p),
// read from the filter it builds.
func StableFor(m uint64, p float64) (StableGeometry, error) {
	if m < 2 || m > 1<<40 || math.IsNaN(p) || p <= 0 || p >= 1 {
		return StableGeometry{}, fmt.Errorf("compare: %w: stable filter of %d cells at p = %v, want 2 <= m <= 2^40 and 0 < p < 1", experiments.ErrInvalidParams, m, p)
	}
	f := boom.NewDefaultStableBloomFilter(uint(m), p)
	return StableGeometry{Cells: m, Hashes: int(f.K()), Clears: uint64(f.P())}, nil
}

// StableRate returns Deng and Rafiei's stable-point rate, the limit as
// the stream grows of (1 - z)^K with z the fraction of zero cells:
// z = 1/(1 + 1/(P (1/K - 1/m))) for one-bit cells. It is what BoomFilters'
// FalsePositiveRate reports.
func (s StableGeometry) StableRate() float64 {
	z := 1 / (1 + 1/(float64(s.Clears)*(1/float64(s.Hashes)-1/float64(s.Cells))))
	return math.Pow(1-z, float64(s.Hashes))
}

// Model returns the rate after t adds and the recall of an item of age
// age, by a model of one cell with cells independent: each add clears a
// given cell with probability P/m, then sets it with probability
// q = 1 - (1 - 1/m)^K. A cell is set after t adds with probability
// s_t = q + (1-q)(1-P/m) s_(t-1), s_0 = 0, and the rate is s_t^K; a cell
// of an item is still set after age adds with probability
// u_age = q + (1-q)(1-P/m) u_(age-1), u_0 = 1, and its recall is
// u_age^K. The model ignores that a key's K cells may coincide (plain
// double hashing) and that the cleared runs are contiguous; the
// measurement says how far that matters.
func (s StableGeometry) Model() (rate func(t uint64) float64, recall func(age, t uint64) float64) {
	m := float64(s.Cells)
	q := -math.Expm1(float64(s.Hashes) * math.Log1p(-1/m))
	keep := (1 - q) * (1 - float64(s.Clears)/m)
	// Both recurrences are x_t = q + keep x_(t-1), so
	// x_t = x* + (x_0 - x*) keep^t with x* = q/(1 - keep).
	fixed := q / (1 - keep)
	at := func(x0 float64, t uint64) float64 { return fixed + (x0-fixed)*math.Pow(keep, float64(t)) }
	k := float64(s.Hashes)
	rate = func(t uint64) float64 { return math.Pow(at(0, t), k) }
	recall = func(age, _ uint64) float64 { return math.Pow(at(1, age), k) }
	return rate, recall
}

// stableFilter wraps a BoomFilters stable filter; its clears draw from
// math/rand's global source, so its results differ from run to run.
type stableFilter struct {
	f    *boom.StableBloomFilter
	bits uint64
}

func (s stableFilter) Add(key []byte)           { s.f.Add(key) }
func (s stableFilter) Contains(key []byte) bool { return s.f.Test(key) }
func (s stableFilter) Bits() uint64             { return s.bits }

// NewStable returns a New function for experiments.WindowSpec that builds
// BoomFilters' NewDefaultStableBloomFilter(m, p).
func NewStable(m uint64, p float64) func(uint64) (experiments.Filter, error) {
	return func(uint64) (experiments.Filter, error) {
		return stableFilter{f: boom.NewDefaultStableBloomFilter(uint(m), p), bits: m}, nil
	}
}

// PhaseCheck is the result of querying a window filter, after every add of
// one generation, with all of its newest Promised items.
type PhaseCheck struct {
	// Phases is the number of positions checked, one per add.
	Phases int
	// Promised is the window checked at every phase.
	Promised uint64
	// Missed is the number of (phase, item) pairs among the Promised
	// newest that tested absent, over all phases and filters.
	Missed uint64
	// PhasesMissed is the number of phases at which some filter missed
	// one of them.
	PhasesMissed int
	// Safe is the smallest, over phases and filters, of the age of the
	// youngest item that tested absent (Promised if none did): the window
	// that held at every phase.
	Safe uint64
}

// CheckPhases builds filters filters with newFilter and feeds each the
// keys of its own stream: first warm adds, then one add at a time for
// phases more, querying after each of those all of its newest promised
// items (age 0 to promised-1), to check a window promise at every phase
// of a generation. The keys are those of keyOf(filter, i).
func CheckPhases(newFilter func(uint64) (experiments.Filter, error), filters int, warm uint64, phases int, promised uint64, keyOf func(filter int, i uint64) []byte) (PhaseCheck, error) {
	if filters < 1 || phases < 1 || promised < 1 || warm+uint64(phases) < promised {
		return PhaseCheck{}, fmt.Errorf("compare: %w: phase check of %d filters, %d phases, window %d after %d adds", experiments.ErrInvalidParams, filters, phases, promised, warm)
	}
	pc := PhaseCheck{Phases: phases, Promised: promised, Safe: promised}
	missedAt := make([]bool, phases)
	for fi := range filters {
		f, err := newFilter(uint64(fi) + 1)
		if err != nil {
			return PhaseCheck{}, err
		}
		for i := range warm {
			f.Add(keyOf(fi, i))
		}
		t := warm
		for ph := range phases {
			f.Add(keyOf(fi, t))
			t++
			for a := range min(promised, t) {
				if !f.Contains(keyOf(fi, t-1-a)) {
					pc.Missed++
					missedAt[ph] = true
					pc.Safe = min(pc.Safe, a)
				}
			}
		}
	}
	for _, m := range missedAt {
		if m {
			pc.PhasesMissed++
		}
	}
	return pc, nil
}

// Theory returns the geometry of d for the exact theory of package
// analysis (analysis.AgePartitioned), which assumes the slices
// independent; decred derives them by double hashing across slices, so
// the measured rate says how far that holds. It reports an error for
// L = 0 (p >= about 0.5), which the theory does not take.
func (d DecredGeometry) Theory() (analysis.AgePartitioned, error) {
	a := analysis.AgePartitioned{K: d.K, L: d.L, G: d.Generation, SliceBits: d.SliceBits}
	if err := a.Validate(); err != nil {
		return analysis.AgePartitioned{}, fmt.Errorf("compare: decred geometry k = %d, l = %d: %w", d.K, d.L, err)
	}
	return a, nil
}

// APTheory returns the exact rate after t adds to an empty filter of
// geometry a (analysis.AgePartitionedStreamFPR) and, from its steady state
// on, the recall of an item of age age after t adds
// (analysis.AgePartitioned.RecallAt at the item's place in its
// generation); before the steady state the recall is -1, no prediction.
func APTheory(a analysis.AgePartitioned) (rate func(t uint64) float64, recall func(age, t uint64) float64) {
	steady := uint64(a.K+a.L-1)*a.G + 1
	rate = func(t uint64) float64 { return analysis.AgePartitionedStreamFPR(a, t) }
	recall = func(age, t uint64) float64 {
		if t < steady || age >= t {
			return -1
		}
		return a.RecallAt(age, (t-1-age)%a.G+1)
	}
	return rate, recall
}

// NewOurs returns a New function for experiments.WindowSpec that builds
// bloomlab's age-partitioned filter of geometry a with the harness's seed.
func NewOurs(a analysis.AgePartitioned, blocked bool) func(uint64) (experiments.Filter, error) {
	return func(seed uint64) (experiments.Filter, error) {
		f, err := variants.NewAgePartitioned(variants.AgePartitionedParams{K: a.K, L: a.L, G: a.G, SliceBits: a.SliceBits, AgePartitionedOptions: variants.AgePartitionedOptions{Blocked: blocked, Hashing: variants.Hashing{Seed: seed}}})
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}
