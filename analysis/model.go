package analysis

// The models in this file are the theory of the fixed-size filters as plain
// values, as Scalable, Dynamic, RedisBloom and AgePartitioned are for the
// growing and the window filters: the parameters of one filter in exported
// fields, and the methods FPR(items), Validate and BitsPerKey(items),
// with the signatures of the growing models. Each FPR is the free function
// that the experiments set beside their measurements (ExactFPR,
// PartitionedFPR, BlockedFPR, SplitBlockFPR) and adds only the check of
// the parameters: an invalid model reports an error wrapping
// ErrInvalidParams where the free function returns NaN. The filters of
// package variants return their model, filled in, from their Model method.

// Standard is the model of a standard Bloom filter (Bloom 1970) of Bits
// bits and Hashes hashes, each item setting Hashes independent uniform bits
// and a query testing Hashes more.
type Standard struct {
	Bits   uint64 // m, 1 <= m <= MaxBits
	Hashes int    // k, 1 <= k <= MaxHashes
}

// Validate reports an error wrapping [ErrInvalidParams] unless
// 1 <= Bits <= [MaxBits] and 1 <= Hashes <= [MaxHashes].
func (s Standard) Validate() error {
	if s.Bits > MaxBits {
		return invalid("bits m = %d, want at most %d", s.Bits, uint64(MaxBits))
	}
	return checkGeometry(s.Bits, 0, s.Hashes)
}

// FPR returns the exact false-positive rate E[(X/m)^k] of the filter
// holding items items, [ExactFPR](Bits, items, Hashes) (Bose et al. 2008;
// Christensen, Roginsky and Jimeno 2010). For Bits above [ExactMaxBits],
// or when the exact computation would exceed its budget (k above about 200
// with kn in the millions), [ExactFPR] falls back to its documented
// second-order expansion, which at [ExactMaxBits] agrees with the exact rate
// to float64 rounding. It reports the errors of Validate.
func (s Standard) FPR(items uint64) (float64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	return ExactFPR(s.Bits, items, s.Hashes), nil
}

// BitsPerKey returns Bits/items. It reports the errors of Validate,
// and an error if items is 0.
func (s Standard) BitsPerKey(items uint64) (float64, error) {
	return bitsPerKey(s.Validate(), s.Bits, items)
}

// Partitioned is the model of a partitioned Bloom filter of Bits bits in
// Hashes slices of Bits/Hashes bits, each item setting one uniform bit in
// every slice (Kirsch and Mitzenmacher 2006; the stages of [Scalable] and
// [Dynamic] are such filters).
type Partitioned struct {
	Bits   uint64 // m, all the slices together, Hashes <= m <= MaxBits
	Hashes int    // k, the number of slices, 1 <= k <= MaxHashes
}

// Validate reports an error wrapping [ErrInvalidParams] unless
// 1 <= Hashes <= [MaxHashes] and Hashes <= Bits <= [MaxBits] (at least one
// bit per slice).
func (p Partitioned) Validate() error {
	if p.Hashes < 1 || p.Hashes > MaxHashes {
		return invalid("hashes k = %d, want 1 <= k <= %d", p.Hashes, MaxHashes)
	}
	if p.Bits < uint64(p.Hashes) || p.Bits > MaxBits {
		return invalid("bits m = %d, want k = %d <= m <= %d (at least one bit per slice)", p.Bits, p.Hashes, uint64(MaxBits))
	}
	return nil
}

// FPR returns the exact false-positive rate (1 - (1 - k/m)^n)^k of the
// filter holding items items, [PartitionedFPR](Bits, items, Hashes). It
// reports the errors of Validate.
func (p Partitioned) FPR(items uint64) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	return PartitionedFPR(p.Bits, items, p.Hashes), nil
}

// BitsPerKey returns Bits/items. It reports the errors of Validate,
// and an error if items is 0.
func (p Partitioned) BitsPerKey(items uint64) (float64, error) {
	return bitsPerKey(p.Validate(), p.Bits, items)
}

// Counting is the model of a counting Bloom filter (Fan, Cao, Almeida and
// Broder 2000) of Bits counters of Width bits each and Hashes hashes.
//
// A key tests present when its Hashes counters are all non-zero, and a
// counter is non-zero exactly where the standard filter of Bits bits that
// added the same keys has its bit set. Its rate is therefore that of the
// standard filter: FPR is Standard{Bits, Hashes}.FPR, whatever the Width.
// Saturation adds no false positive while nothing is removed: a saturated
// counter is non-zero, as it would be without the ceiling. It matters
// after removals: a counter stuck at its maximum 2^Width - 1 is never
// decremented, so it stays set when the keys that set it are gone, and the
// rate is then above the model's for the items left.
// [SaturationProbability] gives the chance that any counter saturates.
type Counting struct {
	Bits   uint64 // m, the number of counters, 1 <= m <= MaxBits
	Hashes int    // k, 1 <= k <= MaxHashes
	Width  int    // bits per counter, 1 <= Width <= 64
}

// Validate reports an error wrapping [ErrInvalidParams] unless
// 1 <= Bits <= [MaxBits], 1 <= Hashes <= [MaxHashes] and 1 <= Width <= 64.
func (c Counting) Validate() error {
	if c.Width < 1 || c.Width > 64 {
		return invalid("counter width w = %d, want 1 <= w <= 64", c.Width)
	}
	return Standard{Bits: c.Bits, Hashes: c.Hashes}.Validate()
}

// FPR returns the exact false-positive rate of the filter holding items
// items (items added and not removed), that of its standard filter,
// [ExactFPR](Bits, items, Hashes), with the same fallback for large Bits
// (see [Standard.FPR]). It is exact while no counter of a filter that had
// keys removed is saturated (see [Counting]). It reports the errors of
// Validate.
func (c Counting) FPR(items uint64) (float64, error) {
	if err := c.Validate(); err != nil {
		return 0, err
	}
	return ExactFPR(c.Bits, items, c.Hashes), nil
}

// BitsPerKey returns the memory of the counters per item,
// Bits Width/items. It reports the errors of Validate, and an error if
// items is 0.
func (c Counting) BitsPerKey(items uint64) (float64, error) {
	b, err := bitsPerKey(c.Validate(), c.Bits, items)
	return b * float64(c.Width), err
}

// Blocked is the model of a blocked Bloom filter (Putze, Sanders and
// Singler 2007) of Bits bits in blocks of BlockBits bits, each item
// choosing one block uniformly and setting Hashes uniform bits inside it,
// with replacement.
type Blocked struct {
	Bits      uint64 // m, a positive multiple of BlockBits, m <= MaxBits
	Hashes    int    // k, bits set per item, 1 <= k <= MaxHashes
	BlockBits uint64 // B, 1 <= B <= MaxBlockBits
}

// Validate reports an error wrapping [ErrInvalidParams] unless Bits is a
// positive multiple of BlockBits and at most [MaxBits],
// 1 <= BlockBits <= [MaxBlockBits] and 1 <= Hashes <= [MaxHashes] (see
// [CheckBlocked]).
func (b Blocked) Validate() error {
	if b.Bits > MaxBits {
		return invalid("bits m = %d, want at most %d", b.Bits, uint64(MaxBits))
	}
	return CheckBlocked(b.Bits, b.BlockBits, b.Hashes)
}

// FPR returns the false-positive rate of the filter holding items items,
// [BlockedFPR](Bits, items, Hashes, BlockBits): the mixture over the
// binomial load j of the query's block of [ExactFPR](BlockBits, j, Hashes).
// It reports the errors of Validate.
func (b Blocked) FPR(items uint64) (float64, error) {
	if err := b.Validate(); err != nil {
		return 0, err
	}
	return BlockedFPR(b.Bits, items, b.Hashes, b.BlockBits), nil
}

// BitsPerKey returns Bits/items. It reports the errors of Validate,
// and an error if items is 0.
func (b Blocked) BitsPerKey(items uint64) (float64, error) {
	return bitsPerKey(b.Validate(), b.Bits, items)
}

// SplitBlock is the model of a split-block filter (Apache Impala, Kudu and
// Parquet) of Bits bits in blocks of [SplitBlockBits] = 256 bits, eight
// 32-bit words, each item choosing one block uniformly and setting one
// uniform bit in each of its words: [SplitBlockHashes] = 8 bits set per item.
type SplitBlock struct {
	Bits uint64 // m, a positive multiple of SplitBlockBits, m <= MaxBits
}

// Validate reports an error wrapping [ErrInvalidParams] unless Bits is a
// positive multiple of [SplitBlockBits] and at most [MaxBits].
func (s SplitBlock) Validate() error {
	if s.Bits < SplitBlockBits || s.Bits%SplitBlockBits != 0 || s.Bits > MaxBits {
		return invalid("bits m = %d, want a positive multiple of %d, at most %d", s.Bits, SplitBlockBits, uint64(MaxBits))
	}
	return nil
}

// FPR returns the false-positive rate of the filter holding items items,
// [SplitBlockFPR](Bits, items): the mixture over the binomial load j of
// the query's block of (1 - (31/32)^j)^8. It reports the errors of
// Validate.
func (s SplitBlock) FPR(items uint64) (float64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	return SplitBlockFPR(s.Bits, items), nil
}

// BitsPerKey returns Bits/items. It reports the errors of Validate,
// and an error if items is 0.
func (s SplitBlock) BitsPerKey(items uint64) (float64, error) {
	return bitsPerKey(s.Validate(), s.Bits, items)
}

// bitsPerKey returns bits/items, or err if it is not nil, or an error
// if items is 0.
func bitsPerKey(err error, bits, items uint64) (float64, error) {
	if err != nil {
		return 0, err
	}
	if items == 0 {
		return 0, invalid("items = 0, want items >= 1 for bits per key")
	}
	return float64(bits) / float64(items), nil
}
