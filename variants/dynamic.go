package variants

import (
	"math"

	"github.com/bloomlab/bloomlab/analysis"
)

// DynamicParams are the parameters of a dynamic filter. N and P have no
// defaults.
type DynamicParams struct {
	// N is the number of items each stage holds, N >= 1.
	N uint64
	// P is the design false-positive rate of one stage, 0 < P < 1. The
	// filter's rate grows with its stages, to about L P with L stages.
	P float64
	// Hashing holds the hash options; its [Derivation] must be the default
	// (the stages take the stream derivation, see [Dynamic]).
	Hashing Hashing
	// MaxBytes, when positive, is the most memory the filter's cells may
	// take, all stages together, as for [ScalableParams].MaxBytes: zero
	// means the process limit at the time of each allocation (see
	// [MemoryLimit]). It is not stored in the encoding: UnmarshalBinary
	// and ReadFrom keep the receiver's; [Unmarshal] and [ReadFilter] give
	// 0.
	MaxBytes int64
}

// Dynamic is a dynamic Bloom filter (Guo, Wu, Chen, Yuan and Luo, "The
// Dynamic Bloom Filters", IEEE TKDE 22(1), 2010): a list of stages of one
// geometry, each sized for N items at rate P ([analysis.Dynamic] gives the
// geometry: k partitioned slices of the classic size). Add puts a key
// into the newest stage, and the add that finds the newest stage holding
// N items opens a new one. Nothing tightens: the filter's rate at L full
// stages is 1 - (1 - f)^L, about L times a stage's rate f, which is what
// Almeida's scalable filter answers with tightening (see [Scalable]).
//
// Add inserts every key, as Guo et al.'s filter does, also a key that
// already tests present: a repeated key takes room in the newest stage
// again, and [Stats.Items] counts every Add. TestAndAdd, which tests the
// key anyway, inserts it only if it tests absent.
//
// The stages hash independently, as the compound rate 1 - prod(1 - f_i) of
// [analysis.Dynamic.FPR] assumes: each key is hashed once, and stage i takes
// its slices' positions from the stretch of k outputs of the key's wyrand
// stream that starts at output k i + 1, by the stream derivation of
// [Scalable] (half an output per slice for slices of at most 2^24 bits, a
// whole one for larger slices; derivation: paper-notes.md §4b).
//
// Every stage is checked before it is allocated, against
// [analysis.MaxDynamicStages] and the filter's memory limit, its total
// over all stages ([DynamicParams].MaxBytes, or the process limit: see
// [MemoryLimit]). If a stage cannot be added, [Dynamic.TryAdd] refuses
// the key with the error and leaves the filter as it was; Add and
// TestAndAdd keep working, so that no key is lost: keys go into the newest
// stage beyond its capacity, whose rate then exceeds P. Err reports the
// error. The stage cap is part of the design (the rate grows with every
// stage, to near 1 long before 65,536 stages), so no parameter is refused
// for it.
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter; Add, TestAndAdd, Reset and their digest forms need
// exclusive access.
type Dynamic struct {
	geom    analysis.Dynamic
	stage   analysis.Stage // the geometry of every stage
	hashing hashConf
	// stages holds every stage built so far; the first live are in use.
	// Reset keeps the others, to reuse their memory.
	stages []*Partitioned
	hot    []streamStage // the stream record of each stage, in step with stages
	live   int
	items  uint64
	err    error
	// maxBytes is DynamicParams.MaxBytes (0: the process limit).
	maxBytes int64
}

// NewDynamic returns an empty dynamic filter with one stage. It reports an
// error wrapping [ErrInvalidParams] if a parameter is outside its domain or
// the first stage cannot be built.
func NewDynamic(p DynamicParams) (*Dynamic, error) {
	if err := checkOwnIndexing("dynamic", p.Hashing); err != nil {
		return nil, err
	}
	if p.MaxBytes < 0 {
		return nil, invalid("dynamic filter: MaxBytes = %d, want >= 0 (0: the process limit)", p.MaxBytes)
	}
	f, err := newDynamic(analysis.Dynamic{N: p.N, P: p.P}, 0, 0, p.Hashing, p.MaxBytes)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// newDynamic returns an empty dynamic filter of geom whose stages have k
// slices of b bits, or the geometry of geom if k is 0.
func newDynamic(geom analysis.Dynamic, b uint64, k int, h Hashing, maxBytes int64) (*Dynamic, error) {
	st, err := geom.Stage()
	if err != nil {
		return nil, invalid("dynamic filter: %s", trimPrefix(err))
	}
	if k != 0 {
		st.SliceBits, st.Hashes, st.Bits = b, k, b*uint64(k)
	}
	f := &Dynamic{geom: geom, stage: st, hashing: h.conf(), maxBytes: maxBytes}
	if err := f.grow(true); err != nil {
		return nil, err
	}
	return f, nil
}

// grow puts one more stage in use, reusing one kept by Reset if there is
// one. It checks the stage cap and the memory limit before it allocates;
// params marks the constructor's call, whose errors wrap ErrInvalidParams.
func (f *Dynamic) grow(params bool) error {
	i := f.live
	if i < len(f.stages) {
		f.stages[i].reset()
		f.live++
		return nil
	}
	if i >= analysis.MaxDynamicStages {
		return stageLimit(params, "dynamic filter cannot add stage %d: at most %d stages", i, analysis.MaxDynamicStages)
	}
	need := 8 * ((f.stage.SliceBits + 63) / 64) * uint64(f.stage.Hashes)
	if err := checkGrowth("dynamic filter stage", i, f.heldBytes(), need, f.maxBytes, params); err != nil {
		return err
	}
	p, err := f.newStage()
	if err != nil {
		return stageLimit(params, "dynamic filter cannot add stage %d: %s", i, trimPrefix(err))
	}
	f.stages = append(f.stages, p)
	f.hot = append(f.hot, f.streamStage(i, p))
	f.live++
	return nil
}

// heldBytes returns the bytes of the cells of every stage the filter
// holds, those kept by Reset included.
func (f *Dynamic) heldBytes() uint64 {
	var n uint64
	for _, p := range f.stages {
		n += 8 * uint64(len(p.words))
	}
	return n
}

// liveBytes returns the bytes of the cells of the stages in use.
func (f *Dynamic) liveBytes() uint64 {
	var n uint64
	for _, p := range f.stages[:f.live] {
		n += 8 * uint64(len(p.words))
	}
	return n
}

// newStage returns an empty stage whose words start on a cache line.
func (f *Dynamic) newStage() (*Partitioned, error) {
	p, err := newPartitioned(Geometry{Bits: f.stage.Bits, Hashes: f.stage.Hashes, Capacity: f.geom.N}, f.hashing, noLimit)
	if err != nil {
		return nil, err
	}
	if p.words, err = aligned(p.words); err != nil {
		return nil, err
	}
	return p, nil
}

// streamStage returns the stream record of stage i: the scalable filter's
// record with the stage's outputs starting at k i.
func (f *Dynamic) streamStage(i int, p *Partitioned) streamStage {
	st := newStreamStage(0, p, nil)
	st.x0 = uint64(i) * uint64(f.stage.Hashes) * wyp0
	return st
}

// Params returns the filter's parameters.
func (f *Dynamic) Params() DynamicParams {
	return DynamicParams{N: f.geom.N, P: f.geom.P, Hashing: f.hashing.public(), MaxBytes: f.maxBytes}
}

// Err returns the error that kept the filter from adding a stage, or nil:
// one wrapping [ErrMemoryLimit] or [ErrStageLimit]. Once it is set, Add
// and TestAndAdd insert keys into the newest stage beyond its capacity
// (no key is lost, but that stage's rate exceeds P, and Stats shows its
// Items above its Capacity); TryAdd still tries to grow. Reset clears it.
func (f *Dynamic) Err() error { return f.err }

// TryAdd inserts key into the newest stage, as Add does, but if the key
// needs a new stage and the stage cannot be had it inserts nothing and
// returns the error, one wrapping [ErrMemoryLimit] (the stage would take
// the filter beyond MaxBytes or the process limit) or [ErrStageLimit]
// (beyond [analysis.MaxDynamicStages]); the filter is then unchanged and
// Err is not set.
func (f *Dynamic) TryAdd(key []byte) error { return f.TryAddDigest(f.hashing.Digest(key)) }

// TryAddDigest is TryAdd for the key whose digest is d.
func (f *Dynamic) TryAddDigest(d Digest) error {
	i := f.live - 1
	if f.stages[i].items >= f.geom.N {
		if err := f.grow(false); err != nil {
			return err
		}
		i++
	}
	f.insert(i, d)
	return nil
}

// insert adds d to stage i.
func (f *Dynamic) insert(i int, d Digest) {
	f.hot[i].set(streamSeed(d))
	f.stages[i].items++
	f.items++
}

// Stages returns the number of stages in use.
func (f *Dynamic) Stages() int { return f.live }

// Add inserts key into the newest stage.
func (f *Dynamic) Add(key []byte) { f.AddDigest(f.hashing.Digest(key)) }

// Contains reports whether key is possibly in the set.
func (f *Dynamic) Contains(key []byte) bool { return f.ContainsDigest(f.hashing.Digest(key)) }

// TestAndAdd inserts key unless it tests present, and reports whether it
// tested present.
func (f *Dynamic) TestAndAdd(key []byte) bool { return f.TestAndAddDigest(f.hashing.Digest(key)) }

// AddDigest inserts the key whose digest is d into the newest stage,
// opening a new stage first if the newest holds N items.
func (f *Dynamic) AddDigest(d Digest) {
	i := f.live - 1
	if f.stages[i].items >= f.geom.N && f.err == nil {
		if err := f.grow(false); err != nil {
			f.err = err
		} else {
			i++
		}
	}
	f.insert(i, d)
}

// ContainsDigest reports whether the key whose digest is d is possibly
// present: whether some stage, tested newest first, holds all its bits.
func (f *Dynamic) ContainsDigest(d Digest) bool {
	s := streamSeed(d)
	hot := f.hot[:f.live]
	for i := len(hot) - 1; i >= 0; i-- {
		if hot[i].test(s) {
			return true
		}
	}
	return false
}

// TestAndAddDigest inserts d unless it tests present, and reports whether it
// tested present.
func (f *Dynamic) TestAndAddDigest(d Digest) bool {
	if f.ContainsDigest(d) {
		return true
	}
	f.AddDigest(d)
	return false
}

// Hashing returns the filter's hash options.
func (f *Dynamic) Hashing() Hashing { return f.hashing.public() }

// Stats reports the filter's geometry and load: the sums over stages of
// cells, bits and capacities, the stages' hashes k, the fraction of set
// bits over all stages, the compound estimate 1 - prod(1 - f_i) of the
// stages' rates at their fill, and EstimatedItems the sum of the stages'
// estimates. Stages holds each stage's figures, with its design error P.
func (f *Dynamic) Stats() Stats {
	s := Stats{
		Variant:  "dynamic",
		CellBits: 1,
		Hashes:   f.stage.Hashes,
		Items:    f.items,
		Stages:   make([]StageStats, f.live),
	}
	var set, logPass float64
	for i, p := range f.stages[:f.live] {
		fill, est := p.fill()
		bits := p.sliceBits * uint64(p.k)
		s.Stages[i] = StageStats{
			Capacity:       p.capacity,
			Items:          p.items,
			Hashes:         p.k,
			Bits:           bits,
			FillRatio:      fill,
			Error:          f.geom.P,
			EstimatedFPR:   est,
			EstimatedItems: p.estimatedItems(fill),
		}
		s.EstimatedItems += s.Stages[i].EstimatedItems
		s.Cells += bits
		s.Capacity += p.capacity
		set += fill * float64(bits)
		logPass += math.Log1p(-est)
	}
	s.Bits = s.Cells
	s.FillRatio = set / float64(s.Cells)
	s.EstimatedFPR = -math.Expm1(logPass)
	return s
}

// Reset empties the filter, which returns to its first stage and clears
// Err. The memory of later stages is kept and reused as the filter grows
// again.
func (f *Dynamic) Reset() {
	f.stages[0].reset()
	f.live = 1
	f.items = 0
	f.err = nil
}
