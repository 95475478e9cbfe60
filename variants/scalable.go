package variants

import (
	"fmt"
	"math"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/bloomlab/bloomlab/analysis"
)

// Defaults applied by [NewScalable] to zero fields of [ScalableParams].
const (
	// DefaultTighteningRatio is the tightening ratio r of a scalable filter
	// built with R = 0: 0.9, the top of the range 0.8 to 0.9 that Almeida
	// et al. recommend. A scalable filter is for sets whose size is not
	// known, so the default is chosen for large growth: past a few hundred
	// times growth it costs fewer bits per key than r = 0.8 or 0.85 and gives
	// the lowest compound rate of the three (table: paper-notes.md §4.1).
	DefaultTighteningRatio = 0.9
	// DefaultGrowth is the growth factor s of a scalable filter built with
	// S = 0: each stage holds twice as many items as the one before.
	DefaultGrowth = 2
	// DefaultInitialCapacity is the capacity n0 of the first stage of a
	// scalable filter built with N0 = 0.
	DefaultInitialCapacity = 1000
)

// ScalableParams are the parameters of a scalable filter. Zero values of R,
// S and N0 select the documented defaults; P has no default.
type ScalableParams struct {
	// P is the overall target false-positive rate, 0 < P < 1. Required:
	// zero is an error.
	P float64
	// R is the tightening ratio r, 0 < r < 1: stage i has design error
	// P (1 - r) r^i. Zero means [DefaultTighteningRatio]. With an
	// Estimate it is the tail's ratio instead (see Estimate).
	R float64
	// S is the growth factor s > 1: stage i holds n0 s^i items. Zero
	// means [DefaultGrowth]. The [analysis.MaxStages] stages must hold at
	// least [MinScalableReach] items together, so that the stage cap
	// never stops the filter: s = 1 is refused. With an Estimate it is
	// the growth factor of the horizon's grid of stage boundaries.
	S float64
	// N0 is the capacity n0 of the first stage. Zero means
	// [DefaultInitialCapacity]. With an Estimate it is the smallest
	// capacity of the first stage (see Estimate).
	N0 uint64
	// Hashing holds the hash options shared by all stages.
	Hashing Hashing
	// BlockBits, when not zero, builds every stage as a blocked filter
	// with blocks of BlockBits bits (a power of two from 64 to 4096; see
	// [Blocked]) instead of a partitioned one, sized by [analysis.BlockedSize]
	// for the stage's capacity and design error (see [analysis.Scalable]).
	// A query then reads one block per stage, and the blocks of all the
	// stages are read together, so that their cache misses overlap; the
	// stages cost the block penalty in bits. Blocked stages take only the
	// default derivation. Zero keeps Almeida's partitioned stages.
	//
	// Small blocks cannot serve small stage errors: the bits a blocked
	// stage needs for its error grow much faster than a partitioned
	// stage's as the error falls (with 64-bit blocks, 3 times at 2e-5
	// and 9 times at 1.5e-7). A stage is built only while its blocked
	// geometry needs at most [MaxBlockedStageCost] times the bits of the
	// partitioned stage of the same capacity and error (or one block,
	// if that is more): the first stage that would need more ends the
	// filter's growth, as [analysis.MaxStages] does (see [Scalable.TryAdd],
	// [ErrStageLimit]), and NewScalable refuses a block size that cannot
	// serve even the first stage.
	BlockBits int
	// Estimate, when not zero, is an estimate N̂ of the number of keys
	// the filter will finally hold, and makes the filter horizon-aware:
	// its stages come from [analysis.Horizon] instead of
	// [analysis.Scalable], their design errors allocated to minimise the
	// bits per key at the estimate while the compound rate stays at or
	// below P at every count, and the filter keeps growing past the
	// estimate with a geometric tail that still holds P. S is then the
	// growth factor of the horizon's grid of stage boundaries (S > 1),
	// N0 the smallest capacity of its first stage, and R the tightening
	// ratio of the tail's shares (zero means
	// [analysis.DefaultHorizonRatio], 0.8). Zero keeps Almeida's
	// schedule. See [Scalable] for when to give one.
	Estimate uint64
	// Spread is how far the estimate may be off, a factor F >= 1: the
	// final count is expected between Estimate/F and Estimate F, and the
	// stages are allocated for the whole range (see [analysis.Horizon]).
	// Zero means 1, the estimate trusted. Only with an Estimate: a
	// Spread without one is refused.
	Spread float64
	// Tail is the share of the error budget -ln(1 - P) reserved for the
	// stages past the estimate (past Estimate Spread), 0 < Tail < 1. Zero
	// means [analysis.DefaultHorizonTail], 0.05. Only with an Estimate: a
	// Tail without one is refused.
	Tail float64
	// MaxBytes, when positive, is the most memory the filter's cells may
	// take, all stages together: a stage that would take the filter
	// beyond it is not built (NewScalable and the decoders refuse, TryAdd
	// reports an error wrapping [ErrMemoryLimit], Add records it in Err).
	// Zero means the process limit at the time of each allocation (see
	// [MemoryLimit]). It is not stored in the encoding: UnmarshalBinary
	// and ReadFrom keep the receiver's (0 for a zero Scalable) and check
	// the decoded stages against it; [Unmarshal] and [ReadFilter] give 0.
	MaxBytes int64
}

// MaxBlockedStageCost is the most bits a blocked stage of a scalable
// filter may take, as a multiple of the bits of a partitioned stage of the
// same capacity and design error (or of one block, if that is more); see
// [ScalableParams].BlockBits. Beyond it a blocked stage costs more memory
// than the single cache line per query is worth: a partitioned stage, or
// larger blocks, serve the same error in at most half the bits.
const MaxBlockedStageCost = 2

// MinScalableReach is the fewest items that the [analysis.MaxStages]
// stages of a scalable filter must be able to hold together,
// n0 (s^256 - 1)/(s - 1): 2^48, [MaxBits], since a filter of that many
// items needs more than MaxBits bits anyway. Below it the stage cap, not
// the memory, would stop the filter's growth at a size a user may reach;
// NewScalable and the decoders refuse such parameters. s = 1 (256 n0
// items) is always refused; with n0 = 1000 the growth factor must be at
// least about 1.099.
const MinScalableReach = 1 << 48

// withDefaults returns p with zero fields replaced by the defaults.
func (p ScalableParams) withDefaults() ScalableParams {
	if p.R == 0 {
		p.R = DefaultTighteningRatio
		if p.Estimate != 0 {
			p.R = analysis.DefaultHorizonRatio
		}
	}
	if p.Estimate != 0 {
		if p.Tail == 0 {
			p.Tail = analysis.DefaultHorizonTail
		}
		if p.Spread == 0 {
			p.Spread = 1
		}
	}
	if p.S == 0 {
		p.S = DefaultGrowth
	}
	if p.N0 == 0 {
		p.N0 = DefaultInitialCapacity
	}
	return p
}

// Scalable is a scalable Bloom filter (Almeida, Baquero, Preguiça and
// Hutchison, "Scalable Bloom Filters", Information Processing Letters
// 101(6), 2007): a series of partitioned stages that grows as keys arrive,
// so that it needs no capacity in advance, while its false-positive rate
// stays below the target P at every size.
//
// Stage i has the geometry [analysis.Scalable] gives: design error
// P_i = P0 r^i with P0 = P (1 - r), k_i = ceil(log2(1/P_i)) slices,
// capacity n0 s^i items and slices sized so that a full stage has fill
// ratio 1/2, so its rate is at most 2^(-k_i) <= P_i and the compound rate
// 1 - prod(1 - P_i) stays below sum P_i < P. A new stage starts when the
// newest is full; keys go into the newest stage only.
//
// Given an estimate of the final count ([ScalableParams].Estimate), the
// filter is horizon-aware: its stages come from [analysis.Horizon]
// instead. Their capacities lie on a geometric grid anchored at the
// estimate (the first stage holds at least n0 items), so they are not
// n0 s^i; their design errors are allocated to minimise the bits per key
// at the estimate (or, with a Spread, over the range the final count is
// expected in) while 1 - prod(1 - e_i) stays at or below P; and past the
// estimate a tail of stages growing by s, with errors tightening by R,
// holds P however far the filter grows. Each stage is sized exactly for
// its capacity and design error with an integer number of hashes
// ([analysis.ExactPartitionedSize], or [analysis.BlockedSize] for blocked
// stages). Everything else, the stream derivation, blocked stages, Reset,
// the limits, Err and TryAdd, is as described here; [Scalable.Model]
// returns the analysis.Horizon.
//
// Add skips keys that already test present, so that repeated keys do not
// fill stages; [Stats].Items counts the keys actually inserted, which are
// fewer than the distinct keys offered by the false positives among them.
//
// Each key is hashed once, and its stages' indexes come from that one
// digest by the stream derivation (format codes 10 and 11): the seed
// s = h1 xor rotl(h2, 32) starts a wyrand stream (state x_t = s + t wyp0,
// output v_t = hi xor lo of x_t (x_t xor wyp1)), and stage i takes outputs
// t = 4096 i + 1, 4096 i + 2, ... For partitioned stages slice j gets
// floor(h b / 2^32) for the low (even j) or high (odd j) half h of output
// 4096 i + j/2 + 1; slices of more than 2^24 bits take output
// 4096 i + j + 1 whole, reduced by multiply-shift over 64 bits. A blocked
// stage takes its first output for the block and its second as the h2 of
// its in-block positions (see [Blocked]). Slices are read in pairs, each
// pair tested once, up to the first pair with a clear bit. The positions
// behave as independent uniform ones within a stage, across stages and
// across keys, as the compound theory assumes (derivation:
// paper-notes.md §4b).
//
// Filters with another derivation ([Double], [Triple], [Independent]), and
// filters saved by earlier versions (codes 4 and 7), keep the remixed
// indexing: stage i derives its indexes from d.remix(i) by the filter's
// derivation, and its partitioned stages mix every derived value (see
// [Partitioned]). They load and answer exactly as before (measured rates:
// paper-notes.md §4b).
//
// Every stage is checked before it is allocated: against the stage rules
// ([analysis.MaxStages], [MaxBits], [MaxHashes], and [MaxBlockedStageCost]
// for blocked stages) and against the filter's memory limit, its total
// over all stages ([ScalableParams].MaxBytes, or the process limit: see
// [MemoryLimit]). If a stage cannot be added, [Scalable.TryAdd] refuses
// the key with the error and leaves the filter as it was; Add and
// TestAndAdd keep working, so that no key is lost: keys go into the newest
// stage beyond its capacity, and the false-positive rate then rises above
// P. [Scalable.Err] reports the error, and [Scalable.Stats] shows the
// newest stage's Items above its Capacity and an EstimatedFPR from the
// actual fill.
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter; Add, TestAndAdd, Reset and their digest forms need
// exclusive access.
//
// # Choosing
//
// Without an estimate the filter assumes nothing about the final count,
// and pays for it: at 1% and a million keys Almeida's schedule (r = 0.9,
// s = 2, n0 = 1000) takes 17.5 bits per key, against 9.6 for a static
// filter sized for exactly a million. When the final count is roughly
// known, give it as Estimate:
//
//   - A trusted estimate (Spread 0 or 1) is cheapest where it is right:
//     12.6 bits per key at 1% and 1e6 keys. It is dear where it is low,
//     since 95% of the error budget is spent by the estimate: ten times
//     past it the tail's tight stages cost 31.6 bits per key (a count just
//     past a tail stage's start; 18.9 at eight times, where one ends).
//   - An estimate known only within a factor F: set Spread to F. The
//     stages are then allocated over counts from Estimate/F to Estimate F:
//     with Spread 10, 14.2 bits per key at the estimate and 14.8 ten
//     times past it (Almeida's: 17.5 and 28.3), and 20.2 against
//     Almeida's 24.6 averaged over counts from a tenth to ten times the
//     estimate (log-spaced), though just past some stage starts it takes
//     more.
//   - No idea of the final count, or counts spanning many orders of
//     magnitude: leave Estimate zero.
//
// Tail (the share of the budget kept for growth past Estimate Spread,
// 0.05 by default) trades the cost at the estimate against the cost far
// past it; Spread is the better lever. The figures are analysis.Horizon's
// (its doc, "Choosing", has the table); the filter builds exactly its
// stages, so its bits per key are the model's at every count.
type Scalable struct {
	// geom is the theory the stages come from: analysis.Scalable
	// (Almeida's schedule) or analysis.Horizon (an Estimate given), its
	// defaults filled in.
	geom ScalableModel
	// blockBits is geom's BlockBits: 0 for partitioned stages.
	blockBits uint64
	hashing   hashConf
	// stages holds every stage built so far; the first live are in use.
	// Reset keeps the others, to reuse their memory as the filter grows
	// again.
	stages []scalableStage
	live   int
	items  uint64
	err    error // why the filter could not grow, or nil
	// stream selects the stream derivation (format codes 10 and 11); hot
	// then holds every stage's stream record, in step with stages.
	// Without it stage i queries with Digest.remix(i) (codes 4 and 7).
	stream bool
	hot    []streamStage
	wide   bool // some stage in hot has slices of more than wideSlice bits
	// maxBytes is ScalableParams.MaxBytes (0: the process limit).
	maxBytes int64
}

// scalableStage is one stage and its design figures. Exactly one of f
// (partitioned stages) and b (blocked stages) is set.
type scalableStage struct {
	f        *Partitioned
	b        *Blocked
	capacity uint64
	error    float64
}

// core returns the stage's word table and counts.
func (st *scalableStage) core() *bitCore {
	if st.b != nil {
		return &st.b.bitCore
	}
	return &st.f.bitCore
}

// bits returns the stage's bits: k b for a partitioned stage, m for a
// blocked one.
func (st *scalableStage) bits() uint64 {
	if st.b != nil {
		return st.b.m
	}
	return st.f.sliceBits * uint64(st.f.k)
}

// fill returns the stage's fraction of set bits, its rate at that fill
// (see Stats.EstimatedFPR) and the items it implies (see
// Stats.EstimatedItems).
func (st *scalableStage) fill() (fill, est, items float64) {
	if st.b != nil {
		s := st.b.Stats()
		return s.FillRatio, s.EstimatedFPR, s.EstimatedItems
	}
	fill, est = st.f.fill()
	return fill, est, st.f.estimatedItems(fill)
}

// NewScalable returns an empty scalable filter with one stage. It reports an
// error if a parameter is outside its domain (see [ScalableParams]) or the
// first stage cannot be built.
func NewScalable(p ScalableParams) (*Scalable, error) {
	return newScalable(p, p.Hashing.Derivation == EnhancedDouble)
}

// newScalable is NewScalable with the stream derivation or, if stream is
// false, the remixed digests of format codes 4 and 7 (which the tests use
// to rebuild filters that earlier versions saved).
func newScalable(p ScalableParams, stream bool) (*Scalable, error) {
	p = p.withDefaults()
	if err := p.Hashing.validate(); err != nil {
		return nil, err
	}
	if p.BlockBits != 0 {
		if err := checkBlockBits(p.BlockBits); err != nil {
			return nil, err
		}
		if err := checkOwnIndexing("blocked", p.Hashing); err != nil {
			return nil, err
		}
	}
	if p.MaxBytes < 0 {
		return nil, invalid("scalable filter: MaxBytes = %d, want >= 0 (0: the process limit)", p.MaxBytes)
	}
	geom, err := p.model()
	if err != nil {
		return nil, err
	}
	if p.Estimate != 0 {
		// Code 16 has one layout for every derivation: the stream
		// derivation goes with the default one, as NewScalable gives.
		stream = p.Hashing.Derivation == EnhancedDouble
	}
	f := &Scalable{
		geom:      geom,
		blockBits: uint64(p.BlockBits),
		hashing:   p.Hashing.conf(),
		stream:    stream,
		maxBytes:  p.MaxBytes,
	}
	if err := f.grow(true); err != nil {
		return nil, err
	}
	return f, nil
}

// ScalableModel is the theory of a scalable filter, as [Scalable.Model]
// returns it: an [analysis.Scalable] (Almeida's schedule) or, for a filter
// given an Estimate, an [analysis.Horizon], with the filter's parameters
// and defaults filled in. Both give the stages the filter builds and the
// compound rate and bits per key of the filter at any count; a type
// switch or assertion gives the parameters.
type ScalableModel interface {
	// Validate reports whether the parameters are in their domains.
	Validate() error
	// Stage and StageWith return the geometry of stage i.
	Stage(i int) (analysis.Stage, error)
	StageWith(i int, z *analysis.BlockedSizer) (analysis.Stage, error)
	// Stages returns the stages of a filter holding items items.
	Stages(items uint64) ([]analysis.Stage, error)
	// StageFPR returns the rate of stage st holding n items.
	StageFPR(st analysis.Stage, n uint64) float64
	// FPR returns the compound rate of a filter holding items items.
	FPR(items uint64) (float64, error)
	// BitsPerKey returns the bits of its stages per item.
	BitsPerKey(items uint64) (float64, error)
	// Curve returns FPR and BitsPerKey at several counts at once.
	Curve(items []uint64) (analysis.ScalableCurve, error)
}

var (
	_ ScalableModel = analysis.Scalable{}
	_ ScalableModel = analysis.Horizon{}
)

// model returns the theory of the filter p (with defaults) describes, or
// an error wrapping ErrInvalidParams that names the field at fault.
func (p ScalableParams) model() (ScalableModel, error) {
	if p.Estimate == 0 {
		if p.Spread != 0 {
			return nil, invalid("scalable filter: Spread = %v without an Estimate; Spread and Tail apply only to a filter given an Estimate", p.Spread)
		}
		if p.Tail != 0 {
			return nil, invalid("scalable filter: Tail = %v without an Estimate; Spread and Tail apply only to a filter given an Estimate", p.Tail)
		}
		g := analysis.Scalable{P: p.P, R: p.R, S: p.S, N0: p.N0, BlockBits: uint64(p.BlockBits)}
		if err := g.Validate(); err != nil {
			return nil, invalid("scalable filter: %v", err)
		}
		if err := checkScalableReach(g); err != nil {
			return nil, err
		}
		return g, nil
	}
	if !(p.Spread >= 1) || math.IsInf(p.Spread, 0) {
		return nil, invalid("scalable filter: Spread = %v, want 0 (the estimate trusted) or a finite Spread >= 1", p.Spread)
	}
	if !(p.Tail > 0 && p.Tail < 1) {
		return nil, invalid("scalable filter: Tail = %v, want 0 (analysis.DefaultHorizonTail) or 0 < Tail < 1", p.Tail)
	}
	if !(p.R > 0 && p.R < 1) {
		return nil, invalid("scalable filter: R = %v with an Estimate (the tail's tightening ratio), want 0 (analysis.DefaultHorizonRatio) or 0 < R < 1", p.R)
	}
	h := analysis.Horizon{P: p.P, Estimate: p.Estimate, N0: p.N0, S: p.S, Tail: p.Tail, R: p.R, Spread: p.Spread, BlockBits: uint64(p.BlockBits)}
	if err := h.Validate(); err != nil {
		return nil, invalid("scalable filter: %v", trimPrefix(err))
	}
	if err := checkHorizonReach(h); err != nil {
		return nil, err
	}
	return h, nil
}

// checkHorizonReach refuses the horizon parameters whose MaxStages stages
// hold fewer than MinScalableReach items, as checkScalableReach does for
// Almeida's: the horizon stages end at floor(N̂ Spread) and tail stage t at
// floor(N̂ Spread) s^(t+1), so the last stage ends at about
// floor(N̂ Spread) s^(MaxStages - H) for H horizon stages.
func checkHorizonReach(h analysis.Horizon) error {
	n, err := h.HorizonStages()
	if err != nil {
		return invalid("scalable filter: %v", trimPrefix(err))
	}
	top := float64(h.Estimate)
	if h.Spread > 1 {
		top *= h.Spread
	}
	top = math.Floor(top)
	if reach := top * math.Pow(h.S, float64(analysis.MaxStages-n)); reach < MinScalableReach {
		return invalid("scalable filter: growth factor S = %v with Estimate = %d and Spread = %v: %d horizon stages and %d tail stages hold %.4g items, fewer than %d (MinScalableReach), so the filter would stop growing; use a larger S (2 is the default)",
			h.S, h.Estimate, h.Spread, n, analysis.MaxStages-n, reach, uint64(MinScalableReach))
	}
	return nil
}

// withoutBlocks returns g with partitioned stages: the stages of the same
// capacities and design errors that a blocked stage is compared with.
func withoutBlocks(g ScalableModel) ScalableModel {
	switch g := g.(type) {
	case analysis.Scalable:
		g.BlockBits = 0
		return g
	case analysis.Horizon:
		g.BlockBits = 0
		return g
	}
	panic("variants: unknown scalable model")
}

// checkScalableReach refuses the parameters whose MaxStages stages hold
// fewer than MinScalableReach items (see MinScalableReach).
func checkScalableReach(g analysis.Scalable) error {
	reach := float64(g.N0) * analysis.MaxStages
	if g.S > 1 {
		reach = float64(g.N0) * math.Expm1(analysis.MaxStages*math.Log(g.S)) / (g.S - 1)
	}
	if reach < MinScalableReach {
		return invalid("scalable filter: growth factor S = %v with N0 = %d: its %d stages hold %.4g items, fewer than %d (MinScalableReach), so the filter would stop growing; use a larger S (2 is the default)",
			g.S, g.N0, analysis.MaxStages, reach, uint64(MinScalableReach))
	}
	return nil
}

// checkBlockedStage reports an error wrapping ErrStageLimit if st, stage i
// of g (blocked stages), needs more than MaxBlockedStageCost times the
// bits of the partitioned stage of the same capacity and error, or of one
// block.
func checkBlockedStage(g ScalableModel, blockBits uint64, i int, st analysis.Stage) error {
	p, err := withoutBlocks(g).Stage(i)
	if err != nil {
		return fmt.Errorf("variants: %w: scalable filter cannot add stage %d: %s", ErrStageLimit, i, trimPrefix(err))
	}
	base := max(p.Bits, blockBits)
	if st.Bits/MaxBlockedStageCost > base {
		return fmt.Errorf("variants: %w: scalable filter cannot add stage %d: blocks of BlockBits = %d bits cannot serve its design error %.3g economically: %d items need %d bits, %.2f times the %d bits of a partitioned stage (at most MaxBlockedStageCost = %d); use larger blocks or partitioned stages (BlockBits = 0)",
			ErrStageLimit, i, blockBits, st.Error, st.Capacity, st.Bits, float64(st.Bits)/float64(base), base, MaxBlockedStageCost)
	}
	return nil
}

// heldBytes returns the bytes of the cells of every stage the filter holds,
// those kept by Reset included.
func (f *Scalable) heldBytes() uint64 {
	var n uint64
	for i := range f.stages {
		n += 8 * uint64(len(f.stages[i].core().words))
	}
	return n
}

// liveBytes returns the bytes of the cells of the stages in use.
func (f *Scalable) liveBytes() uint64 {
	var n uint64
	for i := range f.stages[:f.live] {
		n += 8 * uint64(len(f.stages[i].core().words))
	}
	return n
}

// stageLimit turns a constructor's error (params set) into one wrapping
// ErrInvalidParams, and a growth error into one wrapping ErrStageLimit.
func stageLimit(params bool, format string, args ...any) error {
	if params {
		return invalid(format, args...)
	}
	return fmt.Errorf("variants: %w: "+format, append([]any{ErrStageLimit}, args...)...)
}

// grow puts one more stage in use, reusing a stage kept by Reset if there
// is one. It checks the new stage against the stage rules and the
// filter's memory limit before it allocates; params marks the
// constructor's call, whose errors wrap ErrInvalidParams.
func (f *Scalable) grow(params bool) error {
	i := f.live
	if i < len(f.stages) {
		f.stages[i].core().reset()
		f.live++
		return nil
	}
	st, err := f.stage(i)
	if err != nil {
		return stageLimit(params, "scalable filter cannot add stage %d: %s", i, trimPrefix(err))
	}
	var need uint64
	if f.blockBits != 0 {
		if err := checkBlockedStage(f.geom, f.blockBits, i, st); err != nil {
			if params {
				return invalid("%s", strings.TrimPrefix(err.Error(), "variants: "+ErrStageLimit.Error()+": "))
			}
			return err
		}
		need = 8 * (st.Bits / 64)
	} else {
		need = 8 * ((st.SliceBits + 63) / 64) * uint64(st.Hashes)
	}
	if err := checkGrowth("scalable filter stage", i, f.heldBytes(), need, f.maxBytes, params); err != nil {
		return err
	}
	if f.blockBits != 0 {
		g := Geometry{Bits: st.Bits, Hashes: st.Hashes, Capacity: st.Capacity}
		b, err := newBlockedStage(BlockedParams{Geometry: g, BlockBits: int(f.blockBits), Hashing: f.hashing.public()}, f.hashing, noLimit)
		if err != nil {
			return stageLimit(params, "scalable filter cannot add stage %d: %s", i, trimPrefix(err))
		}
		f.stages = append(f.stages, scalableStage{b: b, capacity: st.Capacity, error: st.Error})
		f.hot = append(f.hot, newStreamStage(i, nil, b))
		f.live++
		return nil
	}
	p, err := newPartitioned(Geometry{Bits: st.SliceBits * uint64(st.Hashes), Hashes: st.Hashes, Capacity: st.Capacity}, f.hashing, noLimit)
	if err != nil {
		return stageLimit(params, "scalable filter cannot add stage %d: %s", i, trimPrefix(err))
	}
	if f.stream {
		// Stream stages start on a line, so that the lines a query
		// reads follow from the geometry (see analysis.Scalable.Lines).
		if p.words, err = aligned(p.words); err != nil {
			return stageLimit(params, "scalable filter cannot add stage %d: %s", i, trimPrefix(err))
		}
	}
	f.stages = append(f.stages, scalableStage{f: p, capacity: st.Capacity, error: st.Error})
	f.hot = append(f.hot, newStreamStage(i, p, nil))
	f.wide = f.wide || f.hot[i].wide
	f.live++
	return nil
}

// stage returns the geometry of stage i. A blocked stage comes from
// stageCache, which sizes the stages it has not seen with inner rates
// shared by every filter of the program (see analysis.BlockedSizer).
func (f *Scalable) stage(i int) (analysis.Stage, error) {
	if f.blockBits == 0 {
		return f.geom.Stage(i)
	}
	return blockedStage(f.geom, f.blockBits, i)
}

// Params returns the filter's parameters, with defaults filled in.
// With an Estimate, R, Spread and Tail are the horizon's, its defaults
// filled in.
func (f *Scalable) Params() ScalableParams {
	p := ScalableParams{Hashing: f.hashing.public(), BlockBits: int(f.blockBits), MaxBytes: f.maxBytes}
	switch g := f.geom.(type) {
	case analysis.Scalable:
		p.P, p.R, p.S, p.N0 = g.P, g.R, g.S, g.N0
	case analysis.Horizon:
		p.P, p.R, p.S, p.N0 = g.P, g.R, g.S, g.N0
		p.Estimate, p.Spread, p.Tail = g.Estimate, g.Spread, g.Tail
	}
	return p
}

// Err returns the error that kept the filter from adding a stage, or nil:
// one wrapping [ErrMemoryLimit] (the stage would exceed MaxBytes or the
// process limit) or [ErrStageLimit] (the stage rules allow no further
// stage). Once it is set, Add and TestAndAdd stop trying to grow: they
// insert keys into the newest stage beyond that stage's capacity, so that
// no key is lost, and the false-positive rate then exceeds P (Stats shows
// the newest stage's Items above its Capacity). TryAdd still tries to
// grow, and refuses the key if it cannot. Reset clears Err.
func (f *Scalable) Err() error { return f.err }

// TryAdd inserts key unless it tests present, as Add does, but if the key
// needs a new stage and the stage cannot be had it inserts nothing and
// returns the error: one wrapping [ErrMemoryLimit] if the stage would take
// the filter beyond its memory limit (MaxBytes, or the process limit: see
// [MemoryLimit]), or [ErrStageLimit] if the stage rules allow no further
// stage. The filter is then unchanged, its rate still at most P; Err is not
// set. A key that tests present returns nil.
func (f *Scalable) TryAdd(key []byte) error { return f.TryAddDigest(f.hashing.Digest(key)) }

// TryAddDigest is TryAdd for the key whose digest is d.
func (f *Scalable) TryAddDigest(d Digest) error {
	if f.ContainsDigest(d) {
		return nil
	}
	i := f.live - 1
	if f.stages[i].core().items >= f.stages[i].capacity {
		if err := f.grow(false); err != nil {
			return err
		}
		i++
	}
	f.insert(i, d)
	return nil
}

// insert adds d, which tests absent, to stage i.
func (f *Scalable) insert(i int, d Digest) {
	if f.stream {
		f.addStream(i, d)
	} else if st := &f.stages[i]; st.b != nil {
		st.b.AddDigest(d.remix(i))
	} else {
		st.f.AddDigest(d.remix(i))
	}
	f.items++
}

// Add inserts key unless it tests present.
func (f *Scalable) Add(key []byte) { f.AddDigest(f.hashing.Digest(key)) }

// Contains reports whether key is possibly in the set.
func (f *Scalable) Contains(key []byte) bool {
	// The default hash and derivation go straight to the stream query,
	// which saves a query two calls.
	if f.stream && f.hashing.Kind == XXH3 {
		u := xxh3.Hash128Seed(key, f.hashing.Seed)
		if f.blockBits != 0 {
			return f.containsStreamBlocked(Digest{u.Lo, u.Hi})
		}
		return f.containsStream(Digest{u.Lo, u.Hi})
	}
	return f.ContainsDigest(f.hashing.Digest(key))
}

// TestAndAdd inserts key unless it tests present, and reports whether it
// tested present.
func (f *Scalable) TestAndAdd(key []byte) bool { return f.TestAndAddDigest(f.hashing.Digest(key)) }

// AddDigest inserts the key whose digest is d unless it tests present.
func (f *Scalable) AddDigest(d Digest) { f.TestAndAddDigest(d) }

// ContainsDigest reports whether the key whose digest is d is possibly
// present.
//
// It tests the newest stage first: with s >= 2 the newest stage holds the
// largest share of the keys (about half when full, for s = 2), so a
// present key is most often found there and the search stops early. An
// absent key must be tested against every stage in any order.
//
// With blocked stages, a query locates the block of every stage and tests
// the blocks, the newest first. No stage's load depends on another's, so
// the stages' cache misses are in flight together: the pure-Go paths read
// one word of every block in a first pass (see [Batcher]), and with AVX2 and
// blocks of 256 or 512 bits one assembly call derives and tests every
// stage's block.
func (f *Scalable) ContainsDigest(d Digest) bool {
	if f.stream {
		if f.blockBits != 0 {
			return f.containsStreamBlocked(d)
		}
		return f.containsStream(d)
	}
	if f.blockBits != 0 {
		return f.containsBlocked(d)
	}
	st := f.stages[:f.live]
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].f.ContainsDigest(d.remix(i)) {
			return true
		}
	}
	return false
}

// TestAndAddDigest inserts d unless it tests present, and reports whether it
// tested present.
func (f *Scalable) TestAndAddDigest(d Digest) bool {
	if f.ContainsDigest(d) {
		return true
	}
	i := f.live - 1
	if f.stages[i].core().items >= f.stages[i].capacity && f.err == nil {
		if err := f.grow(false); err != nil {
			f.err = err
		} else {
			i++
		}
	}
	f.insert(i, d)
	return false
}

// Hashing returns the filter's hash options.
func (f *Scalable) Hashing() Hashing { return f.hashing.public() }

// Stages returns the number of stages in use.
func (f *Scalable) Stages() int { return f.live }

// Stats reports the filter's geometry and load: the sums over stages of
// cells, bits and capacities, the hashes of the newest stage, the fraction
// of set bits over all stages, and the compound estimate
// 1 - prod(1 - f_i) where f_i, the product of stage i's slice fill ratios,
// is that stage's false-positive rate at its current fill, and
// EstimatedItems the sum of the stages' estimates. Stages holds each
// stage's figures, with its design error P_i.
func (f *Scalable) Stats() Stats {
	s := Stats{
		Variant:  "scalable",
		CellBits: 1,
		Items:    f.items,
		Stages:   make([]StageStats, f.live),
	}
	var set float64
	var logPass float64 // log of the chance that an absent key passes every stage
	for i := range f.stages[:f.live] {
		st := &f.stages[i]
		fill, est, items := st.fill()
		bits, c := st.bits(), st.core()
		s.Stages[i] = StageStats{
			Capacity:     st.capacity,
			Items:        c.items,
			Hashes:       c.k,
			Bits:         bits,
			FillRatio:    fill,
			Error:        st.error,
			EstimatedFPR: est,

			EstimatedItems: items,
		}
		s.EstimatedItems += s.Stages[i].EstimatedItems
		s.Cells += bits
		s.Capacity += st.capacity
		s.Hashes = c.k
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
func (f *Scalable) Reset() {
	f.stages[0].core().reset()
	f.live = 1
	f.items = 0
	f.err = nil
}

// containsBlocked is ContainsDigest for blocked stages: the blocks of up to
// batchGroup stages located and read together, then tested newest first.
func (f *Scalable) containsBlocked(d Digest) bool {
	st := f.stages[:f.live]
	var g group
	for hi := len(st); hi > 0; hi -= batchGroup {
		lo := max(hi-batchGroup, 0)
		for i := lo; i < hi; i++ {
			r := d.remix(i)
			g.at[i-lo], g.rest[i-lo] = st[i].b.block(r.H1), r.H2
		}
		touch(g.at[:hi-lo])
		for i := hi - 1; i >= lo; i-- {
			if st[i].b.test(g.at[i-lo], g.rest[i-lo]) {
				return true
			}
		}
	}
	return false
}
