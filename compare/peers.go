package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/stats"
	"github.com/bloomlab/bloomlab/variants"
	boom "github.com/tylertreat/BoomFilters"
)

// The filters of the other libraries, wrapped for the harness of package
// experiments: Add, Contains, and Bits for the memory of their cells.
// Neither library takes a seed, so New ignores it; the harness gives every
// filter its own keys, which makes the filters independent all the same.

type bitsAndBlooms struct{ f *bloom.BloomFilter }

func (b bitsAndBlooms) Add(key []byte)           { b.f.Add(key) }
func (b bitsAndBlooms) Contains(key []byte) bool { return b.f.Test(key) }
func (b bitsAndBlooms) Bits() uint64             { return uint64(b.f.Cap()) }

type boomClassic struct{ f *boom.BloomFilter }

func (b boomClassic) Add(key []byte)           { b.f.Add(key) }
func (b boomClassic) Contains(key []byte) bool { return b.f.Test(key) }
func (b boomClassic) Bits() uint64             { return uint64(b.f.Capacity()) }

// boomPartitioned is a BoomFilters partitioned filter of k slices of
// s = ceil(m/k) bits each, whose memory is k s bits.
type boomPartitioned struct {
	f    *boom.PartitionedBloomFilter
	bits uint64
}

func (b boomPartitioned) Add(key []byte)           { b.f.Add(key) }
func (b boomPartitioned) Contains(key []byte) bool { return b.f.Test(key) }
func (b boomPartitioned) Bits() uint64             { return b.bits }

// boomScalable is a BoomFilters scalable filter; its Capacity is the sum of
// its stages' m, the bits of its stages up to the rounding of their slices.
type boomScalable struct{ f *boom.ScalableBloomFilter }

func (b boomScalable) Add(key []byte)           { b.f.Add(key) }
func (b boomScalable) Contains(key []byte) bool { return b.f.Test(key) }
func (b boomScalable) Bits() uint64             { return uint64(b.f.Capacity()) }

// Names of the libraries' filters in the specs.
const (
	BitsAndBlooms   = "bits-and-blooms"
	BoomClassic     = "boomfilters classic"
	BoomPartitioned = "boomfilters partitioned"
	BoomScalable    = "boomfilters scalable"
)

// variant returns a New function for a bloomlab variant made by mk with
// the harness's seed as its hash seed.
func variant[T experiments.Filter](mk func(variants.Hashing) (T, error)) func(uint64) (experiments.Filter, error) {
	return func(seed uint64) (experiments.Filter, error) {
		f, err := mk(variants.Hashing{Seed: seed})
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// FixedSpecs returns the specs of the fixed-size filters of every library,
// each sized for n keys at rate p by its own rule and measured at items
// keys: bloomlab's standard, partitioned, blocked and split-block filters,
// bits-and-blooms' filter and BoomFilters' classic and partitioned ones.
// Each comes with the theory for the geometry it builds: the exact rate of
// a standard filter of m bits and k hashes (bits-and-blooms and BoomFilters
// classic, which derive their k indexes by double hashing modulo m), of a
// partitioned filter, or of the blocked and split-block filters.
func FixedSpecs(n uint64, p float64, items []uint64) ([]experiments.Spec, error) {
	var specs []experiments.Spec
	add := func(name string, newFilter func(uint64) (experiments.Filter, error), theory func(uint64) float64, model string) {
		specs = append(specs, experiments.Spec{Name: name, New: newFilter, Items: items, Theory: theory, Model: model})
	}
	for _, v := range []struct {
		name string
		new  func(uint64) (experiments.Filter, error)
	}{
		{"bloomlab standard", variant(func(h variants.Hashing) (*variants.Standard, error) { return variants.NewStandardFor(n, p, h) })},
		{"bloomlab partitioned", variant(func(h variants.Hashing) (*variants.Partitioned, error) { return variants.NewPartitionedFor(n, p, h) })},
		{"bloomlab blocked", variant(func(h variants.Hashing) (*variants.Blocked, error) { return variants.NewBlockedFor(n, p, h) })},
		{"bloomlab split-block", variant(func(h variants.Hashing) (*variants.SplitBlock, error) { return variants.NewSplitBlockFor(n, p, h) })},
	} {
		f, err := v.new(0)
		if err != nil {
			return nil, fmt.Errorf("compare: %s: %w", v.name, err)
		}
		st := f.(interface{ Stats() variants.Stats }).Stats()
		theory, model := labTheory(st)
		add(v.name, v.new, theory, model)
	}

	m, k := bloom.EstimateParameters(uint(n), p)
	add(BitsAndBlooms, func(uint64) (experiments.Filter, error) {
		return bitsAndBlooms{bloom.NewWithEstimates(uint(n), p)}, nil
	}, standardTheory(uint64(m), int(k)), "exact")

	bm, bk := uint64(boom.OptimalM(uint(n), p)), int(boom.OptimalK(p))
	add(BoomClassic, func(uint64) (experiments.Filter, error) {
		return boomClassic{boom.NewBloomFilter(uint(n), p)}, nil
	}, standardTheory(bm, bk), "exact")

	slices := uint64(bk) * ((bm + uint64(bk) - 1) / uint64(bk))
	add(BoomPartitioned, func(uint64) (experiments.Filter, error) {
		return boomPartitioned{boom.NewPartitionedBloomFilter(uint(n), p), slices}, nil
	}, func(n uint64) float64 { return analysis.PartitionedFPR(slices, n, bk) }, "partitioned")
	return specs, nil
}

// labTheory returns the theory of a bloomlab variant with stats st.
func labTheory(st variants.Stats) (func(uint64) float64, string) {
	m, k := st.Cells, st.Hashes
	switch {
	case st.Variant == "partitioned":
		return func(n uint64) float64 { return analysis.PartitionedFPR(m, n, k) }, "partitioned"
	case st.Variant == "split-block":
		return func(n uint64) float64 { return analysis.SplitBlockFPR(m, n) }, "split-block"
	case st.Blocks.Bits > 0:
		b := uint64(st.Blocks.Bits)
		return func(n uint64) float64 { return analysis.BlockedFPR(m, n, k, b) }, fmt.Sprintf("blocked/%d", b)
	}
	return standardTheory(m, k), "exact"
}

func standardTheory(m uint64, k int) func(uint64) float64 {
	return func(n uint64) float64 { return analysis.ExactFPR(m, n, k) }
}

// BoomScalableHint and BoomScalableRatio are the first-stage capacity and
// tightening ratio of boom.NewDefaultScalableBloomFilter.
const (
	BoomScalableHint  = 10_000
	BoomScalableRatio = 0.8
)

// ScalableSpecs returns the specs of BoomFilters' default scalable filter
// and bloomlab's (defaults r = 0.9, s = 2, n0 = 1000), both asked for a
// compound rate of p and measured at items keys, each beside the compound
// rate 1 - prod(1 - f_i) of the stages its design builds.
func ScalableSpecs(p float64, items []uint64) ([]experiments.Spec, error) {
	lab := analysis.Scalable{P: p, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: variants.DefaultInitialCapacity}
	if err := lab.Validate(); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	for _, n := range items {
		if _, err := lab.FPR(n); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
	}
	return []experiments.Spec{
		{
			Name: BoomScalable,
			New: func(uint64) (experiments.Filter, error) {
				return boomScalable{boom.NewDefaultScalableBloomFilter(p)}, nil
			},
			Items:  items,
			Theory: func(n uint64) float64 { return BoomScalableFPR(p, n) },
			Model:  "compound",
		},
		{
			Name: "bloomlab scalable",
			New: variant(func(h variants.Hashing) (*variants.Scalable, error) {
				return variants.NewScalable(variants.ScalableParams{P: p, Hashing: h})
			}),
			Items: items,
			Theory: func(n uint64) float64 {
				f, _ := lab.FPR(n) // checked above
				return f
			},
			Model: "scalable",
		},
	}, nil
}

// BoomScalableFPR returns the false-positive rate that the design of
// BoomFilters' default scalable filter, asked for p, implies with n keys,
// if its hash positions were independent and uniform: its stage i is a
// partitioned filter sized for BoomScalableHint keys at p r^i
// (boom.OptimalM bits, boom.OptimalK slices of ceil(m/k) bits), and takes
// keys until its estimated fill 1 - exp(-count/slice) reaches 1/2; the
// rate is 1 - prod(1 - f_i) over the stages, f_i the exact partitioned
// rate of stage i with its keys.
func BoomScalableFPR(p float64, n uint64) float64 {
	pass := 1.0
	for _, st := range boomStages(p, n) {
		pass *= 1 - analysis.PartitionedFPR(st.k*st.slice, st.held, int(st.k))
	}
	return 1 - pass
}

// boomStage is one stage of a BoomFilters scalable filter: m bits asked
// for, k slices of slice bits, and the keys it holds.
type boomStage struct {
	m, k, slice, held uint64
}

// boomStages returns the stages of BoomFilters' default scalable filter
// asked for p after n keys, as BoomScalableFPR describes them.
func boomStages(p float64, n uint64) []boomStage {
	var stages []boomStage
	for i := 0; n > 0 || i == 0; i++ {
		fp := p * math.Pow(BoomScalableRatio, float64(i))
		m, k := uint64(boom.OptimalM(BoomScalableHint, fp)), uint64(boom.OptimalK(fp))
		slice := (m + k - 1) / k
		// The stage is full at the first count whose estimated fill
		// reaches 1/2; the next key opens a new stage.
		full := uint64(math.Ceil(float64(slice) * math.Ln2))
		for 1-math.Exp(-float64(full)/float64(slice)) < 0.5 {
			full++
		}
		for full > 1 && 1-math.Exp(-float64(full-1)/float64(slice)) >= 0.5 {
			full--
		}
		held := min(n, full)
		stages = append(stages, boomStage{m: m, k: k, slice: slice, held: held})
		n -= held
	}
	return stages
}

// CountingLoss is what the counting test of one library measured: for
// each filter, the members that test absent after one further key was
// added and removed many times; and their mean over the filters with its
// Student t interval.
type CountingLoss struct {
	Name     string
	Lost     []uint64
	Mean     float64
	Interval stats.Interval
}

// countingFilter is what the counting test needs of a counting filter.
type countingFilter interface {
	add(key []byte)
	remove(key []byte)
	contains(key []byte) bool
}

type boomCounting struct{ f *boom.CountingBloomFilter }

func (b boomCounting) add(key []byte)           { b.f.Add(key) }
func (b boomCounting) remove(key []byte)        { b.f.TestAndRemove(key) }
func (b boomCounting) contains(key []byte) bool { return b.f.Test(key) }

type labCounting struct{ f *variants.Counting }

func (b labCounting) add(key []byte)           { b.f.Add(key) }
func (b labCounting) remove(key []byte)        { b.f.Remove(key) }
func (b labCounting) contains(key []byte) bool { return b.f.Contains(key) }

// CountingLosses measures the counting filters of BoomFilters and bloomlab,
// both with 4-bit counters and sized for members keys at a rate of 0.01:
// each of filters filters holds members keys of its own, then one further
// key of its own is added hot times and removed hot times, and the members
// that then test absent are counted. A counter that saturates at 15 and is
// decremented afterwards can reach zero under a member: a false negative.
// The keys derive from seed; bloomlab's filters also take it as hash seed.
func CountingLosses(seed uint64, filters int, members uint64, hot int) ([]CountingLoss, error) {
	if filters < 2 || members < 1 || hot < 1 {
		return nil, fmt.Errorf("compare: counting test with %d filters, %d members, %d repetitions: want at least 2, 1 and 1", filters, members, hot)
	}
	out := []CountingLoss{{Name: "boomfilters counting"}, {Name: "bloomlab counting"}}
	var buf [16]byte
	key := func(stream, i uint64) []byte {
		for j := range 8 {
			buf[j] = byte(stream >> (8 * j))
			buf[8+j] = byte(i >> (8 * j))
		}
		return buf[:]
	}
	for f := range filters {
		stream := splitmix64(seed ^ splitmix64(uint64(f)))
		lab, err := variants.NewCountingFor(members, 0.01, variants.Hashing{Seed: stream})
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		for i, c := range []countingFilter{boomCounting{boom.NewCountingBloomFilter(uint(members), 4, 0.01)}, labCounting{lab}} {
			for j := range members {
				c.add(key(stream, j))
			}
			for range hot {
				c.add(key(stream, members))
			}
			for range hot {
				c.remove(key(stream, members))
			}
			var lost uint64
			for j := range members {
				if !c.contains(key(stream, j)) {
					lost++
				}
			}
			out[i].Lost = append(out[i].Lost, lost)
		}
	}
	for i := range out {
		samples := make([]float64, len(out[i].Lost))
		for j, l := range out[i].Lost {
			samples[j] = float64(l)
		}
		mean, iv, err := stats.TInterval(samples, 0.95)
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		out[i].Mean, out[i].Interval = mean, iv
	}
	return out, nil
}

// splitmix64 is the SplitMix64 output function applied to x + golden
// gamma.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Reversed returns a spec that measures the filter of s fed with every key
// reversed, byte for byte, named after s with " (keys reversed)". The
// harness's keys differ from one another in their last bytes (an 8-byte
// stream id, then an 8-byte counter whose top bit tells queries from
// members); reversed, they differ in their first. A hash that mixes every
// byte into every bit of its output gives the same rate both ways; one
// that does not, such as 64-bit FNV-1, which only XORs the last byte into
// the low bits after its last multiplication, may not.
func Reversed(s experiments.Spec) experiments.Spec {
	inner := s.New
	s.Name += " (keys reversed)"
	s.New = func(seed uint64) (experiments.Filter, error) {
		f, err := inner(seed)
		if err != nil {
			return nil, err
		}
		return &reversed{f: f}, nil
	}
	return s
}

// reversed feeds its filter every key reversed.
type reversed struct {
	f   experiments.Filter
	buf []byte
}

func (r *reversed) flip(key []byte) []byte {
	r.buf = append(r.buf[:0], key...)
	slices.Reverse(r.buf)
	return r.buf
}

func (r *reversed) Add(key []byte)           { r.f.Add(r.flip(key)) }
func (r *reversed) Contains(key []byte) bool { return r.f.Contains(r.flip(key)) }

// Bits returns the bits of the filter, 0 if it does not report them.
func (r *reversed) Bits() uint64 {
	if s, ok := r.f.(experiments.Sizer); ok {
		return s.Bits()
	}
	return 0
}
