package variants

import (
	"math"

	"github.com/bloomlab/bloomlab/analysis"
)

// DefaultRedisExpansion is the expansion of a [RedisBloom] filter built with
// Expansion = 0: 2, RedisBloom's BF_DEFAULT_EXPANSION (src/rebloom.c).
const DefaultRedisExpansion = 2

// RedisBloomParams are the parameters of a [RedisBloom] filter, those of
// BF.RESERVE key ErrorRate Capacity EXPANSION Expansion.
type RedisBloomParams struct {
	// ErrorRate is BF.RESERVE's error_rate, 0 < ErrorRate < 1. Required.
	ErrorRate float64
	// Capacity is BF.RESERVE's capacity, the first link's, >= 1. Required.
	Capacity uint64
	// Expansion is the factor by which each link's capacity exceeds the
	// one before, >= 1. Zero means [DefaultRedisExpansion]; a negative
	// value is an error.
	Expansion int
	// PowerOfTwo rounds each link's table up to a power of two and raises
	// its capacity to fill it, as [RedisBloom] did by default before its
	// BF.RESERVE passed NOROUND (see [analysis.RedisBloom]). False, the
	// default, is BF.RESERVE today.
	PowerOfTwo bool
	// Tightening is the ratio r of each link's error to the one before,
	// 0 < r < 1, with link i's error ErrorRate (1 - r) r^i, so that the
	// links' errors still sum to ErrorRate. Zero (or 0.5, which builds
	// the same filter and reports 0 in Params) is RedisBloom's halving,
	// link i with error ErrorRate 0.5^(i+1). Other values are NOT
	// RedisBloom's behaviour, which always halves: they are a research
	// option, to measure what a different tightening saves
	// (paper-notes.md §13l). Such a filter saves and loads with
	// MarshalBinary, but [RedisBloom.ScanDump] refuses it, since
	// RedisBloom would grow its chain by halving. With a tightening,
	// ErrorRate (1 - r) must be below 0.5, as RedisBloom's ErrorRate/2 is.
	Tightening float64
	// Seed varies the hashing: the first hash is MurmurHash64A under
	// [RedisBloomSeed] xor Seed (see [Murmur64A]). Zero, the default, hashes
	// as [RedisBloom] does, so that the filter sets the bits RedisBloom's
	// sets; other seeds give independent filters for experiments.
	Seed uint64
	// MaxBytes, when positive, is the most memory the filter's links may
	// take together, as for [ScalableParams].MaxBytes: zero means the
	// process limit at the time of each allocation (see [MemoryLimit]).
	// It is not stored in the encoding: UnmarshalBinary and ReadFrom keep
	// the receiver's; [Unmarshal] and [ReadFilter] give 0.
	MaxBytes int64
}

// RedisBloom is a bit-exact model of RedisBloom's scalable Bloom filter as
// BF.RESERVE builds it: a chain of standard filters ("links") sized by the
// rules of [analysis.RedisBloom], link i with error ErrorRate 0.5^(i+1) and
// capacity Capacity Expansion^i (with [RedisBloomParams].Tightening r,
// a research option that is not RedisBloom's, error ErrorRate (1-r) r^i). For the same key and parameters (Seed 0)
// each link sets the same bits as RedisBloom's table, so the rate measured
// on the model is RedisBloom's (RedisBloom's source, rule by rule:
// paper-notes.md §13b).
//
// A key is hashed twice with MurmurHash64A (Hashing{Kind: [Murmur64A]}):
// a under RedisBloom's fixed seed and b under a. Probe i of a link, for i
// from 0 to k-1, is bit (a + i b) mod 2^64 mod M, with M the link's
// modulus (its bits, or 2^n2 with PowerOfTwo): plain double hashing with a
// remainder, the same (a, b) in every link. Add first tests the whole
// chain, newest link first, and inserts nothing if the key tests present;
// otherwise, if the newest link holds its capacity, it opens the next
// link, and sets the key's bits in the newest link. Contains tests the
// links newest first. [Stats].Items counts the keys inserted.
//
// Plain double hashing with a remainder makes the rate exceed that of
// independent probes ([analysis.RedisBloom.FPR]): measured on 20 chains of
// 10^6 keys with capacity 1000, by 1.0% at ErrorRate 0.01 and 5.9% at
// 0.001 with NOROUND tables, 1.3% and 9.6% with power-of-two tables, and
// several times in a link a quarter full. [analysis.RedisBloom.ProbeFPR]
// gives the rate of this probing for both kinds of table, within 0.5
// standard errors of those measurements (paper-notes.md §13h).
//
// The digest of [Hashing.Digest] is (a, b), so the digest forms work as for the
// other filters. A link that cannot be added (beyond [analysis.MaxStages]
// links, [MaxBits] or [MaxHashes], or the memory limit: MaxBytes, or the
// process limit of [MemoryLimit], for all links together, checked before
// the link is allocated) makes RedisBloom's BF.ADD fail with an error, and
// so it makes [RedisBloom.TryAdd], which leaves the filter unchanged.
// Where the model differs from RedisBloom: Add and TestAndAdd keep
// inserting into the newest link beyond capacity, so that they never give
// a false negative (the link's rate then exceeds its error), and Err
// reports the error. Parameters whose links stop early (Expansion 1 stops
// after about 60 links, when a link's hashes or bits reach the maximum)
// are accepted, since they are RedisBloom's and its data must load.
//
// RedisBloom's own data loads into the model and back: [RedisBloom.ScanDump]
// and [RedisBloom.ScanDumpAll] write the (iter, data) pairs of
// BF.SCANDUMP, which BF.LOADCHUNK loads into Redis, and [RedisLoader] (or
// [LoadRedisChunks]) loads the pairs BF.SCANDUMP returned from a running
// RedisBloom, to be queried, audited and dumped back byte for byte;
// [RedisBloom.Info] gives BF.INFO's numbers.
//
// Contains and ContainsDigest are safe for concurrent use while nothing
// mutates the filter; Add, TestAndAdd, Reset and their digest forms need
// exclusive access.
type RedisBloom struct {
	geom    analysis.RedisBloom
	hashing hashConf
	links   []redisLink // links built so far; the first live are in use
	live    int
	items   uint64
	err     error
	// maxBytes is RedisBloomParams.MaxBytes (0: the process limit).
	maxBytes int64
}

// redisLink is one link: its geometry, its table and its items.
type redisLink struct {
	analysis.RedisBloomLink
	words []uint64
	items uint64
}

// NewRedisBloom returns an empty [RedisBloom] filter with its first link. It
// reports an error wrapping [ErrInvalidParams] if a parameter is outside its
// domain or the first link cannot be built.
func NewRedisBloom(p RedisBloomParams) (*RedisBloom, error) {
	if p.Expansion < 0 {
		return nil, invalid("redisbloom filter: expansion = %d, want expansion >= 1 (or 0 for the default %d)", p.Expansion, DefaultRedisExpansion)
	}
	if p.Expansion == 0 {
		p.Expansion = DefaultRedisExpansion
	}
	if p.MaxBytes < 0 {
		return nil, invalid("redisbloom filter: MaxBytes = %d, want >= 0 (0: the process limit)", p.MaxBytes)
	}
	if uint64(p.Expansion) > math.MaxUint32 {
		return nil, invalid("redisbloom filter: expansion = %d, more than RedisBloom's 32-bit maximum", p.Expansion)
	}
	f := &RedisBloom{
		geom:     analysis.RedisBloom{ErrorRate: p.ErrorRate, Capacity: p.Capacity, Expansion: uint64(p.Expansion), PowerOfTwo: p.PowerOfTwo, Tightening: p.Tightening},
		hashing:  Hashing{Kind: Murmur64A, Seed: p.Seed}.conf(),
		maxBytes: p.MaxBytes,
	}
	if err := f.geom.Validate(); err != nil {
		return nil, invalid("redisbloom filter: %s", trimPrefix(err))
	}
	if f.geom.Tightening == analysis.DefaultRedisTightening {
		// RedisBloom's own: the same links as 0, one encoding.
		f.geom.Tightening = 0
	}
	if err := f.grow(true); err != nil {
		return nil, err
	}
	return f, nil
}

// checkRedisHashing checks the hashing of an encoded RedisBloom filter:
// kind Murmur64A, derivation 0, no key.
func checkRedisHashing(h Hashing) error {
	if h.Kind != Murmur64A || h.Derivation != EnhancedDouble || h.Key != (HashKey{}) {
		return invalid("a redisbloom filter hashes with murmur64a (%d) and derivation 0, not %v with %v", uint8(Murmur64A), h.Kind, h.Derivation)
	}
	return nil
}

// grow puts one more link in use, reusing one kept by Reset if there is
// one. It checks the link's geometry and the memory limit before it
// allocates; params marks the constructor's call, whose errors wrap
// ErrInvalidParams.
func (f *RedisBloom) grow(params bool) error {
	i := f.live
	if i < len(f.links) {
		clear(f.links[i].words)
		f.links[i].items = 0
		f.live++
		return nil
	}
	l, err := f.geom.Link(i)
	if err != nil {
		return stageLimit(params, "redisbloom filter cannot add link %d: %s", i, trimPrefix(err))
	}
	var held uint64
	for _, l := range f.links {
		held += 8 * uint64(len(l.words))
	}
	if err := checkGrowth("redisbloom filter link", i, held, l.Bits/8, f.maxBytes, params); err != nil {
		return err
	}
	w, err := allocWords(l.Bits/64, noLimit)
	if err != nil {
		return stageLimit(params, "redisbloom filter cannot add link %d: %s", i, trimPrefix(err))
	}
	f.links = append(f.links, redisLink{RedisBloomLink: l, words: w})
	f.live++
	return nil
}

// liveBytes returns the bytes of the tables of the links in use.
func (f *RedisBloom) liveBytes() uint64 {
	var n uint64
	for _, l := range f.links[:f.live] {
		n += 8 * uint64(len(l.words))
	}
	return n
}

// Params returns the filter's parameters, with the default expansion
// filled in; Tightening is 0 for RedisBloom's halving (given as 0 or 0.5).
func (f *RedisBloom) Params() RedisBloomParams {
	return RedisBloomParams{ErrorRate: f.geom.ErrorRate, Capacity: f.geom.Capacity, Expansion: int(f.geom.Expansion), PowerOfTwo: f.geom.PowerOfTwo, Tightening: f.geom.Tightening, Seed: f.hashing.Seed, MaxBytes: f.maxBytes}
}

// Err returns the error that kept the filter from adding a link, or nil:
// one wrapping [ErrMemoryLimit] or [ErrStageLimit]. Once it is set, Add and
// TestAndAdd insert keys into the newest link beyond its capacity (no key
// is lost, but the link's rate exceeds its error, and Stats shows its
// Items above its Capacity); TryAdd still tries to grow. Reset clears it.
func (f *RedisBloom) Err() error { return f.err }

// TryAdd inserts key unless it tests present, as Add does, but if the key
// needs a new link and the link cannot be had it inserts nothing and
// returns the error, as RedisBloom's BF.ADD does: one wrapping
// [ErrMemoryLimit] (the link would take the filter beyond MaxBytes or the
// process limit) or [ErrStageLimit] (the link's geometry is beyond the
// maxima). The filter is then unchanged and Err is not set. A key that
// tests present returns nil.
func (f *RedisBloom) TryAdd(key []byte) error { return f.TryAddDigest(f.hashing.Digest(key)) }

// TryAddDigest is TryAdd for the key whose digest is d.
func (f *RedisBloom) TryAddDigest(d Digest) error {
	if f.ContainsDigest(d) {
		return nil
	}
	i := f.live - 1
	if f.links[i].items >= f.links[i].Capacity {
		if err := f.grow(false); err != nil {
			return err
		}
		i++
	}
	f.insert(i, d)
	return nil
}

// insert adds d, which tests absent, to link i.
func (f *RedisBloom) insert(i int, d Digest) {
	f.links[i].set(d)
	f.links[i].items++
	f.items++
}

// Links returns the number of links in use.
func (f *RedisBloom) Links() int { return f.live }

// Add inserts key unless it tests present.
func (f *RedisBloom) Add(key []byte) { f.TestAndAddDigest(f.hashing.Digest(key)) }

// Contains reports whether key is possibly in the set.
func (f *RedisBloom) Contains(key []byte) bool { return f.ContainsDigest(f.hashing.Digest(key)) }

// TestAndAdd inserts key unless it tests present, and reports whether it
// tested present.
func (f *RedisBloom) TestAndAdd(key []byte) bool { return f.TestAndAddDigest(f.hashing.Digest(key)) }

// AddDigest inserts the key whose digest is d unless it tests present.
func (f *RedisBloom) AddDigest(d Digest) { f.TestAndAddDigest(d) }

// ContainsDigest reports whether the key whose digest is d = (a, b) is
// possibly present: whether some link, tested newest first, has all its
// probes set.
func (f *RedisBloom) ContainsDigest(d Digest) bool {
	links := f.links[:f.live]
	for i := len(links) - 1; i >= 0; i-- {
		if links[i].test(d) {
			return true
		}
	}
	return false
}

// test reports whether every probe of d is set in l.
func (l *redisLink) test(d Digest) bool {
	w := l.words
	for i := range uint64(l.Hashes) {
		x := redisProbe(d, i, l.Modulus)
		if w[x>>6]&(1<<(x&63)) == 0 {
			return false
		}
	}
	return true
}

// set sets every probe of d in l.
func (l *redisLink) set(d Digest) {
	w := l.words
	for i := range uint64(l.Hashes) {
		x := redisProbe(d, i, l.Modulus)
		w[x>>6] |= 1 << (x & 63)
	}
}

// TestAndAddDigest inserts d unless it tests present, and reports whether it
// tested present.
func (f *RedisBloom) TestAndAddDigest(d Digest) bool {
	if f.ContainsDigest(d) {
		return true
	}
	i := f.live - 1
	if f.links[i].items >= f.links[i].Capacity && f.err == nil {
		if err := f.grow(false); err != nil {
			f.err = err
		} else {
			i++
		}
	}
	f.insert(i, d)
	return false
}

// Hashing returns the filter's hash options: Hashing{Kind: [Murmur64A],
// Seed: Params().Seed}.
func (f *RedisBloom) Hashing() Hashing { return f.hashing.public() }

// Stats reports the filter's geometry and load: the sums over links of
// bits and capacities, the newest link's hashes, the fraction of set
// bits, the compound estimate 1 - prod(1 - f_i) with f_i = x_i^k_i, x_i
// the fraction of link i's Modulus bits that are set, and EstimatedItems
// the sum over links of the standard filter's estimate for Modulus bits.
// Stages holds each link's figures: its capacity, items, hashes, bits in
// memory, fill of its Modulus bits, error, rate at that fill and estimate
// of its items.
func (f *RedisBloom) Stats() Stats {
	s := Stats{
		Variant:  "redisbloom",
		CellBits: 1,
		Items:    f.items,
		Stages:   make([]StageStats, f.live),
	}
	var set, logPass float64
	for i := range f.links[:f.live] {
		l := &f.links[i]
		x := popcount(l.words)
		fill := float64(x) / float64(l.Modulus)
		est := math.Pow(fill, float64(l.Hashes))
		s.Stages[i] = StageStats{
			Capacity:       l.Capacity,
			Items:          l.items,
			Hashes:         l.Hashes,
			Bits:           l.Bits,
			FillRatio:      fill,
			Error:          l.Error,
			EstimatedFPR:   est,
			EstimatedItems: fillEstimate(x, l.Modulus, standardScale(l.Modulus, l.Hashes)),
		}
		s.EstimatedItems += s.Stages[i].EstimatedItems
		s.Cells += l.Bits
		s.Capacity += l.Capacity
		s.Hashes = l.Hashes
		set += float64(x)
		logPass += math.Log1p(-est)
	}
	s.Bits = s.Cells
	s.FillRatio = set / float64(s.Cells)
	s.EstimatedFPR = -math.Expm1(logPass)
	return s
}

// Reset empties the filter, which returns to its first link and clears
// Err. The memory of later links is kept and reused as the filter grows
// again.
func (f *RedisBloom) Reset() {
	clear(f.links[0].words)
	f.links[0].items = 0
	f.live = 1
	f.items = 0
	f.err = nil
}
