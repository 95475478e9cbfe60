package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/AndreasBriese/bbloom"
	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
	"github.com/parquet-go/parquet-go/bloom"
)

// Names of the structures added for the frontier, beside those of
// FixedSpecs.
const (
	BBloom       = "bbloom"
	ParquetGo    = "parquet-go split-block"
	Xor8         = "xor8"
	BinaryFuse8  = "binary fuse8"
	BinaryFuse16 = "binary fuse16"
)

// Structures lists, in a fixed order, every structure FrontierConfigs
// measures: bloomlab's four fixed-size variants, the Bloom filters of the
// other libraries, then the static filters.
var Structures = []string{
	"bloomlab standard", "bloomlab partitioned", "bloomlab blocked", "bloomlab split-block",
	BitsAndBlooms, BoomClassic, BoomPartitioned, BBloom, ParquetGo,
	Xor8, BinaryFuse8, BinaryFuse16,
}

// Config is one structure of the frontier at one target rate: the harness
// spec that measures its rate, and what the speed measurement (Time) needs.
type Config struct {
	// Structure names the filter, one of Structures.
	Structure string
	// Target is the rate the filter was sized for; for a static filter,
	// whose rate its fingerprint width fixes, that rate, 2^-width.
	Target float64
	// Static reports a filter built once from its whole key set (xor and
	// binary fuse): Add only keeps a hash, and the build happens at the
	// first Contains (see Builder).
	Static bool
	// Spec measures the filter on the harness at one item count, beside the
	// theory of the geometry it builds. Its Name, the Series of its rows,
	// is the structure and, for a sized filter, the target:
	// "bloomlab standard, p = 0.01".
	Spec experiments.Spec

	fail *failures
}

// Err returns the first error met building a static filter of c, nil if
// none; a filter whose build failed answers every query with true, so the
// results of a run after which Err is not nil are wrong.
func (c Config) Err() error {
	if c.fail == nil {
		return nil
	}
	return c.fail.first()
}

// Builder is a filter that must be built after its keys are added, as a
// static filter of a Config is. Time counts Build in the insertion time.
type Builder interface {
	Build() error
}

// bbloomFilter is a github.com/AndreasBriese/bbloom filter of m bits (a
// power of two) and k hashes.
type bbloomFilter struct {
	f bbloom.Bloom
	m uint64
}

func (b *bbloomFilter) Add(key []byte)           { b.f.Add(key) }
func (b *bbloomFilter) Contains(key []byte) bool { return b.f.Has(key) }
func (b *bbloomFilter) Bits() uint64             { return b.m }

// BBloomGeometry returns the bits m and hashes k of bbloom.New(n, p), by
// the library's rule (which its unexported fields hide; a test checks it
// against the library's JSON export): m' = -n ln p / (ln 2)^2 truncated to
// an integer, k = ceil(m' ln 2 / n) from the unrounded m', and m the
// smallest power of two that is at least m' and at least 512. The filter
// is thus up to twice the size its k is chosen for. Its positions are
// (h + i l) mod m for i < k, where h and l are two parts of one 64-bit
// SipHash; ExactFPR(m, n, k) is the rate of its geometry for independent
// positions.
func BBloomGeometry(n uint64, p float64) (m uint64, k int) {
	const ln2 = 0.69314718056 // the library's constant
	size := -float64(n) * math.Log(p) / (ln2 * ln2)
	k = int(math.Ceil(ln2 * size / float64(n)))
	m = 512
	for m < uint64(size) {
		m <<= 1
	}
	return m, k
}

// parquetSplitBlock is a split-block filter of
// github.com/parquet-go/parquet-go/bloom, hashed as Parquet hashes a
// value: XXH64 with seed 0.
type parquetSplitBlock struct {
	f bloom.SplitBlockFilter
}

func (p parquetSplitBlock) Add(key []byte)           { p.f.Insert(bloom.XXH64{}.Sum64(key)) }
func (p parquetSplitBlock) Contains(key []byte) bool { return p.f.Check(bloom.XXH64{}.Sum64(key)) }
func (p parquetSplitBlock) Bits() uint64             { return uint64(len(p.f)) * analysis.SplitBlockBits }

// ParquetBitsPerValue returns the bits per value given to parquet-go's
// sizing (bloom.NumSplitBlocksOf, whose argument is a whole number of bits
// per value) for n values at rate p: the smallest whole number that is at
// least the bits per value analysis.SplitBlockSize needs for p, so that
// the filter's rate is at most p.
func ParquetBitsPerValue(n uint64, p float64) (uint, error) {
	sb, err := analysis.SplitBlockSize(n, p)
	if err != nil {
		return 0, err
	}
	return uint((sb.Bits + n - 1) / n), nil
}

// FrontierConfigs returns the configs of every structure of Structures
// sized for n keys and measured at n: each fixed-size filter once per
// target rate in targets (each in (0, 1)), by its library's own sizing
// rule (FixedSpecs; bbloom.New(n, p); parquet-go's split-block filter with
// ParquetBitsPerValue(n, p) bits per value), and each static filter once,
// at the rate its fingerprints fix. Each spec carries the theory of the
// geometry its filter builds; for the static filters, 2^-width, the rate
// of a fingerprint of that width on an absent key. The specs leave
// Filters and Queries zero, for the Params given to experiments.Measure.
func FrontierConfigs(n uint64, targets []float64) ([]Config, error) {
	if n < 1 || n > math.MaxUint32 {
		return nil, fmt.Errorf("compare: frontier at %d keys: want 1 to 2^32-1 (the binary fuse filters count keys in 32 bits)", n)
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("compare: frontier with no target rate")
	}
	var configs []Config
	items := []uint64{n}
	for _, p := range targets {
		if err := analysis.CheckProbability("p", p); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		fixed, err := FixedSpecs(n, p, items)
		if err != nil {
			return nil, err
		}
		m, k := BBloomGeometry(n, p)
		fixed = append(fixed, experiments.Spec{
			Name: BBloom,
			New: func(uint64) (experiments.Filter, error) {
				return &bbloomFilter{f: bbloom.New(float64(n), p), m: m}, nil
			},
			Items:  items,
			Theory: standardTheory(m, k),
			Model:  "exact",
		})
		bpv, err := ParquetBitsPerValue(n, p)
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		blocks := bloom.NumSplitBlocksOf(int64(n), bpv)
		bits := uint64(blocks) * analysis.SplitBlockBits
		fixed = append(fixed, experiments.Spec{
			Name: ParquetGo,
			New: func(uint64) (experiments.Filter, error) {
				return parquetSplitBlock{make(bloom.SplitBlockFilter, blocks)}, nil
			},
			Items:  items,
			Theory: func(n uint64) float64 { return analysis.SplitBlockFPR(bits, n) },
			Model:  "split-block",
		})
		for _, s := range fixed {
			c := Config{Structure: s.Name, Target: p, Spec: s}
			c.Spec.Name = fmt.Sprintf("%s, p = %g", s.Name, p)
			configs = append(configs, c)
		}
	}
	for _, s := range []struct {
		name  string
		width int
		new   func(hashBuffer) experiments.Filter
	}{
		{Xor8, 8, func(b hashBuffer) experiments.Filter { return newXor8(b) }},
		{BinaryFuse8, 8, func(b hashBuffer) experiments.Filter { return newFuse8(b) }},
		{BinaryFuse16, 16, func(b hashBuffer) experiments.Filter { return newFuse16(b) }},
	} {
		fail := &failures{}
		rate := math.Ldexp(1, -s.width)
		configs = append(configs, Config{
			Structure: s.name,
			Target:    rate,
			Static:    true,
			Spec: experiments.Spec{
				Name: s.name,
				New: func(seed uint64) (experiments.Filter, error) {
					return s.new(newHashBuffer(s.name, seed, n, fail)), nil
				},
				Items:  items,
				Theory: func(uint64) float64 { return rate },
				Model:  fmt.Sprintf("fingerprint/%d", s.width),
			},
			fail: fail,
		})
	}
	return configs, nil
}

// Curve is a line of the frontier figure: rate against bits per key.
type Curve struct {
	// Name names the line in the figure's legend.
	Name string
	// BitsPerKey and Rate are the points of the line, in increasing bits.
	BitsPerKey, Rate []float64
}

// FrontierCurves returns the lines of the frontier at points values of
// bits per key b spaced evenly from lo to hi: the information-theoretic
// bound, rate 2^-b (b = log2(1/p) bits per key, Carter et al. 1978); a
// Bloom filter with the optimal real number of hashes, rate 2^(-b ln 2)
// (b = log2(e) log2(1/p), about 1.44 log2(1/p)); and the theory of each
// of bloomlab's fixed-size variants holding n keys in m = b n bits with
// the number of hashes its sizing would choose for m: standard (exact
// rate, analysis.OptimalHashes), partitioned (the same k), blocked with
// 512-bit blocks (analysis.BlockedOptimalHashes, m rounded to whole
// blocks) and split-block (m rounded to whole 256-bit blocks).
func FrontierCurves(n uint64, lo, hi float64, points int) ([]Curve, error) {
	if n < 1 || !(lo > 0) || !(hi > lo) || points < 2 || hi*float64(n) > analysis.MaxBits {
		return nil, fmt.Errorf("compare: frontier curves for n = %d from %g to %g bits per key at %d points: want n >= 1, 0 < lo < hi, 2 points or more", n, lo, hi, points)
	}
	curves := []Curve{
		{Name: "bound log2(1/p)"},
		{Name: "optimal Bloom, 1.44 log2(1/p)"},
		{Name: "bloomlab standard"},
		{Name: "bloomlab partitioned"},
		{Name: "bloomlab blocked"},
		{Name: "bloomlab split-block"},
	}
	roundUp := func(x float64, unit uint64) uint64 {
		return max(unit, uint64(math.Ceil(x/float64(unit)))*unit)
	}
	for i := range points {
		b := lo + (hi-lo)*float64(i)/float64(points-1)
		m := uint64(math.Round(b * float64(n)))
		k := analysis.OptimalHashes(m, n)
		mp := uint64(k) * ((m + uint64(k) - 1) / uint64(k)) // k slices
		mb := roundUp(b*float64(n), variants.DefaultBlockBits)
		kb := analysis.BlockedOptimalHashes(mb, n, variants.DefaultBlockBits)
		ms := roundUp(b*float64(n), analysis.SplitBlockBits)
		for j, pt := range []struct{ bits, rate float64 }{
			{b, math.Exp2(-b)},
			{b, math.Exp2(-b * math.Ln2)},
			{float64(m) / float64(n), analysis.ExactFPR(m, n, k)},
			{float64(mp) / float64(n), analysis.PartitionedFPR(mp, n, k)},
			{float64(mb) / float64(n), analysis.BlockedFPR(mb, n, kb, variants.DefaultBlockBits)},
			{float64(ms) / float64(n), analysis.SplitBlockFPR(ms, n)},
		} {
			if pt.rate > 0 && !math.IsNaN(pt.rate) {
				curves[j].BitsPerKey = append(curves[j].BitsPerKey, pt.bits)
				curves[j].Rate = append(curves[j].Rate, pt.rate)
			}
		}
	}
	return curves, nil
}

// SizingCheck compares the bits a bloomlab variant allocates when sized
// for n keys at rate p with the fewest bits its own theory says reach p.
type SizingCheck struct {
	// Variant is the bloomlab variant, as its Stats name it.
	Variant string
	// Allocated is the bits of the filter NewXFor(n, p) builds, and
	// Hashes its k.
	Allocated uint64
	Hashes    int
	// Needed is the fewest bits m whose theoretical rate at n keys, with
	// the k the variant's sizing chooses for m, is at most p: the exact
	// rate with analysis.OptimalHashes(m, n) for standard, the exact
	// partitioned rate with the same k and k slices of ceil(m/k) bits for
	// partitioned, BlockedFPR with BlockedOptimalHashes for blocked (whole
	// 512-bit blocks), SplitBlockFPR for split-block (whole 256-bit blocks).
	Needed uint64
	// Rate is the theoretical rate at Allocated bits and n keys.
	Rate float64
}

// Excess returns Allocated/Needed - 1: positive when the variant allocates
// more than its theory needs for p, negative when it allocates less and
// so misses p.
func (s SizingCheck) Excess() float64 { return float64(s.Allocated)/float64(s.Needed) - 1 }

// CheckSizing returns, for each of bloomlab's standard, partitioned,
// blocked and split-block filters sized for n keys at rate p, the bits it
// allocates beside the fewest bits its own theory needs for p.
func CheckSizing(n uint64, p float64) ([]SizingCheck, error) {
	type theory struct {
		name string
		unit uint64
		rate func(m uint64) float64
	}
	partitioned := func(m uint64) float64 {
		k := analysis.OptimalHashes(m, n)
		slices := uint64(k) * ((m + uint64(k) - 1) / uint64(k))
		return analysis.PartitionedFPR(slices, n, k)
	}
	var out []SizingCheck
	for _, t := range []theory{
		{"standard", 1, func(m uint64) float64 { return analysis.ExactFPR(m, n, analysis.OptimalHashes(m, n)) }},
		{"partitioned", 1, partitioned},
		{"blocked", variants.DefaultBlockBits, func(m uint64) float64 {
			return analysis.BlockedFPR(m, n, analysis.BlockedOptimalHashes(m, n, variants.DefaultBlockBits), variants.DefaultBlockBits)
		}},
		{"split-block", analysis.SplitBlockBits, func(m uint64) float64 { return analysis.SplitBlockFPR(m, n) }},
	} {
		f, err := newVariantFor(t.name, n, p)
		if err != nil {
			return nil, err
		}
		st := f.Stats()
		// The rate falls as m grows (in whole units), apart from steps
		// of k: search the fewest units whose rate is at most p between
		// a quarter of the allocation and four times it.
		lo, hi := max(1, st.Bits/t.unit/4), 4*st.Bits/t.unit+1
		if t.rate(hi*t.unit) > p {
			return nil, fmt.Errorf("compare: %s at n = %d, p = %g: even %d bits miss p", t.name, n, p, hi*t.unit)
		}
		for lo < hi {
			mid := lo + (hi-lo)/2
			if t.rate(mid*t.unit) <= p {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		out = append(out, SizingCheck{Variant: t.name, Allocated: st.Bits, Hashes: st.Hashes, Needed: lo * t.unit, Rate: t.rate(st.Bits)})
	}
	return out, nil
}

// newVariantFor returns bloomlab's fixed-size variant name sized for n
// keys at rate p by its own constructor.
func newVariantFor(name string, n uint64, p float64) (variants.Filter, error) {
	var f variants.Filter
	var err error
	switch name {
	case "standard":
		f, err = variants.NewStandardFor(n, p, variants.Hashing{})
	case "partitioned":
		f, err = variants.NewPartitionedFor(n, p, variants.Hashing{})
	case "blocked":
		f, err = variants.NewBlockedFor(n, p, variants.Hashing{})
	case "split-block":
		f, err = variants.NewSplitBlockFor(n, p, variants.Hashing{})
	default:
		return nil, fmt.Errorf("compare: no variant %q", name)
	}
	if err != nil {
		return nil, fmt.Errorf("compare: %s: %w", name, err)
	}
	return f, nil
}

// structureIndex returns the position of name in Structures, -1 if absent.
func structureIndex(name string) int { return slices.Index(Structures, name) }
