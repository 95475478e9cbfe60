package analysis

import "math"

// RedisBloom describes the chain of Bloom filters ("links") that RedisBloom
// builds for BF.RESERVE key ErrorRate Capacity EXPANSION Expansion, with
// the rules of its source (rule by rule: paper-notes.md §13b):
//
//   - Link i has error ErrorRate 0.5^(i+1) and, with NOROUND (the
//     default of BF.RESERVE), capacity Capacity Expansion^i. With a
//     Tightening r other than 0 (a research option, not RedisBloom's:
//     its ERROR_TIGHTENING_RATIO is fixed at 0.5), link i has error
//     ErrorRate (1 - r) r^i, so that the links' errors still sum to
//     ErrorRate; r = 0.5 is RedisBloom's ErrorRate 0.5^(i+1), bit for
//     bit (link 0's error is ErrorRate (1 - r), each next link's the
//     one before times r, as RedisBloom computes them).
//   - A link of capacity n and error e has bpe = |ln e / 0.480453013918201|
//     bits per entry and hashes = ceil(0.693147180559945 bpe) (the source's
//     rounded constants for ln(2)^2 and ln 2). With NOROUND its table has
//     trunc(n bpe) bits (at least 1) rounded up to a multiple of 64, and
//     probes reduce modulo that number. With PowerOfTwo the table has 2^n2
//     bits, the next power of two above n bpe, probes reduce modulo 2^n2,
//     and the link's capacity is raised by the items the extra bits hold,
//     so that the next link's capacity is Expansion times the raised one.
//
// FPR computes the rate of one link holding n items as that of k
// independent uniform probes into its Modulus bits, [ExactFPR](Modulus, n,
// k). RedisBloom probes by plain double hashing instead, ((a + i b) mod
// 2^64) mod Modulus (see variants.RedisBloom): steps of small order and
// wrap patterns that cancel them repeat a key's positions, and stored keys
// whose probes run along a query's share several of its bits. Measured on
// 20 chains of 10^6 keys with capacity 1000 (paper-notes.md §13h), the
// rate exceeds FPR by 1.0% at error_rate 0.01 and 5.9% at 0.001 with
// NOROUND (z +2.8 and +8.3), 1.3% and 9.6% with power-of-two tables, and
// several times in a link a quarter full. [RedisBloom.ProbeFPR] computes
// the rate of RedisBloom's own probes for both kinds of table, within
// 0.5 standard errors of all four measurements.
type RedisBloom struct {
	ErrorRate  float64 // BF.RESERVE's error_rate, 0 < ErrorRate < 1
	Capacity   uint64  // BF.RESERVE's capacity, the first link's, >= 1
	Expansion  uint64  // BF.RESERVE's EXPANSION, >= 1
	PowerOfTwo bool    // tables rounded up to powers of two (no NOROUND)
	// Tightening is the ratio r of each link's error to the one before,
	// 0 < r < 1; 0 means RedisBloom's 0.5. Link i has error
	// ErrorRate (1 - r) r^i. Other values are a research option (does
	// RedisBloom need to halve? paper-notes.md §13l): RedisBloom itself
	// always halves.
	Tightening float64
}

// DefaultRedisTightening is the tightening of a [RedisBloom] chain with
// Tightening 0: RedisBloom's ERROR_TIGHTENING_RATIO (src/sb.c).
const DefaultRedisTightening = 0.5

// ratio returns the tightening in use: Tightening, or 0.5 for 0.
func (r RedisBloom) ratio() float64 {
	if r.Tightening == 0 {
		return DefaultRedisTightening
	}
	return r.Tightening
}

// RedisBloomLink is the geometry of one link of a [RedisBloom] chain.
type RedisBloomLink struct {
	Index    int     // link number, from 0
	Capacity uint64  // items the link holds before the next one starts ("entries")
	Error    float64 // the link's error, ErrorRate 0.5^(Index+1) (ErrorRate (1-r) r^Index with Tightening r)
	BPE      float64 // bits per entry, |ln Error| / ln(2)^2
	Hashes   int     // ceil(ln 2 BPE)
	Bits     uint64  // bits of the table in memory, a multiple of 64
	// Modulus is the number of bits the probes reduce to: Bits with
	// NOROUND, 2^n2 with PowerOfTwo (smaller than Bits only when 2^n2 <
	// 64).
	Modulus uint64
}

// The constants of RedisBloom's bloom.c: ln(2)^2 (calc_bpe) and ln 2
// (LN2), as the source writes them, to the digits it writes.
const (
	redisLn2Squared = 0.480453013918201
	redisLn2        = 0.693147180559945
)

// Validate reports whether the parameters are in their domains.
func (r RedisBloom) Validate() error {
	if err := CheckProbability("error rate", r.ErrorRate); err != nil {
		return err
	}
	if r.Capacity == 0 {
		return invalid("capacity = 0, want capacity >= 1")
	}
	if r.Capacity > MaxBits {
		return invalid("capacity = %d, want at most %d", r.Capacity, uint64(MaxBits))
	}
	if r.Expansion < 1 {
		return invalid("expansion = %d, want expansion >= 1", r.Expansion)
	}
	if t := r.Tightening; t != 0 {
		if !(t > 0 && t < 1) {
			return invalid("tightening = %v, want 0 < tightening < 1 (or 0 for RedisBloom's %v)", t, DefaultRedisTightening)
		}
		// RedisBloom's link 0 has error ErrorRate/2 < 1/2, so that it
		// has at least 1.44 bits per entry; a tightening keeps that.
		if e := r.ErrorRate * (1 - t); !(e < 0.5) {
			return invalid("error rate %v with tightening %v gives link 0 error %v, want below 0.5", r.ErrorRate, t, e)
		}
	}
	return nil
}

// redisLink returns the link of capacity n and error e, as bloom_init
// builds it.
func (r RedisBloom) redisLink(i int, n uint64, e float64) (RedisBloomLink, error) {
	bpe := math.Abs(-(math.Log(e) / redisLn2Squared))
	k := math.Ceil(redisLn2 * bpe)
	if k > MaxHashes {
		return RedisBloomLink{}, invalid("link %d needs %v hashes, more than %d", i, k, MaxHashes)
	}
	l := RedisBloomLink{Index: i, Capacity: n, Error: e, BPE: bpe, Hashes: int(k)}
	x := float64(n) * bpe
	if x > MaxBits {
		return RedisBloomLink{}, invalid("link %d needs %.4g bits, more than %d", i, x, uint64(MaxBits))
	}
	var bits uint64
	if r.PowerOfTwo {
		n2 := int(math.Logb(x)) + 1 // x >= 1.44: n >= 1 and e < 1/2
		bits = 1 << n2
		extra := uint64(float64(bits) - x)
		l.Capacity += uint64(float64(extra) / bpe)
		l.Modulus = bits
	} else {
		bits = max(1, uint64(x))
	}
	bits = (bits + 63) / 64 * 64
	if bits > MaxBits {
		return RedisBloomLink{}, invalid("link %d needs %d bits, more than %d", i, bits, uint64(MaxBits))
	}
	l.Bits = bits
	if !r.PowerOfTwo {
		l.Modulus = bits
	}
	return l, nil
}

// Link returns the geometry of link i. It reports an error if the
// parameters are invalid, i is negative or at least [MaxStages], or a link
// up to i would exceed [MaxBits] or [MaxHashes].
func (r RedisBloom) Link(i int) (RedisBloomLink, error) {
	if err := r.Validate(); err != nil {
		return RedisBloomLink{}, err
	}
	if i < 0 || i >= MaxStages {
		return RedisBloomLink{}, invalid("link %d, want 0 <= link < %d", i, MaxStages)
	}
	t := r.ratio()
	l, err := r.redisLink(0, r.Capacity, r.ErrorRate*(1-t))
	for j := 1; j <= i && err == nil; j++ {
		n := l.Capacity * r.Expansion
		if n/r.Expansion != l.Capacity || n > MaxBits {
			return RedisBloomLink{}, invalid("link %d capacity %d times %d exceeds %d", j, l.Capacity, r.Expansion, uint64(MaxBits))
		}
		l, err = r.redisLink(j, n, l.Error*t)
	}
	return l, err
}

// Links returns the links of a chain holding items items: link i fills to
// its Capacity before link i+1 opens, so the result is the shortest prefix
// whose capacities sum to at least items, and at least link 0. It reports
// the errors of Link, and an error if more than [MaxStages] links would be
// needed.
func (r RedisBloom) Links(items uint64) ([]RedisBloomLink, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	var out []RedisBloomLink
	var total uint64
	t := r.ratio()
	l, err := r.redisLink(0, r.Capacity, r.ErrorRate*(1-t))
	for {
		if err != nil {
			return nil, err
		}
		out = append(out, l)
		total += l.Capacity
		if total >= items {
			return out, nil
		}
		if len(out) == MaxStages {
			return nil, invalid("%d items need more than %d links", items, MaxStages)
		}
		n := l.Capacity * r.Expansion
		if n/r.Expansion != l.Capacity || n > MaxBits {
			return nil, invalid("link %d capacity %d times %d exceeds %d", len(out), l.Capacity, r.Expansion, uint64(MaxBits))
		}
		l, err = r.redisLink(len(out), n, l.Error*t)
	}
}

// LinkFPR returns the rate of link l holding n items under independent
// uniform probes: [ExactFPR](l.Modulus, T, l.Hashes) at the T >= n keys
// the link was offered. RedisBloom adds a key only when it tests absent,
// and a key that tests present in the link sets no new bit there, so the
// link is as if it had been offered T keys, T solving
// T - (f(0) + ... + f(T - 1)) = n (as [Scalable.StageFPR]).
func (r RedisBloom) LinkFPR(l RedisBloomLink, n uint64) float64 {
	t, ok := offeredKeys(n, l.exactRate, l.sumRate)
	if !ok {
		return l.exactRate(n)
	}
	return rateAt(t, l.exactRate)
}

// sumRate is the asymptotic form of exactRate, for the sum of the rates
// over the keys a link was offered: it is within O(k^2/Modulus) of the
// exact rate, and the sum a small part of the keys.
func (l RedisBloomLink) sumRate(n uint64) float64 {
	if n == 0 {
		return 0
	}
	return asymptoticFPR(l.Modulus, n, l.Hashes)
}

// exactRate is [ExactFPR] of the link after n keys all added.
func (l RedisBloomLink) exactRate(n uint64) float64 { return ExactFPR(l.Modulus, n, l.Hashes) }

// offered returns the keys, rounded to a whole number, that link l holding
// n items was offered (see LinkFPR): the load at which the rates of
// RedisBloom's probes are taken.
func (l RedisBloomLink) offered(n uint64) uint64 {
	t, _ := offeredKeys(n, l.exactRate, l.sumRate)
	return uint64(math.Round(t))
}

// FPR returns the compound false-positive rate 1 - prod_i (1 - f_i) of a
// chain holding items items (keys inserted; [RedisBloom] skips keys that
// test present), every link but the newest full, with f_i = LinkFPR. All
// links probe with the same two hashes of the key, but into tables of
// different sizes filled by different keys; the product treats their
// answers as independent. It reports the errors of Links. For the rate of
// RedisBloom's own probe sequence use ProbeFPR.
func (r RedisBloom) FPR(items uint64) (float64, error) {
	links, err := r.Links(items)
	if err != nil {
		return 0, err
	}
	left := items
	var logPass float64
	for _, l := range links {
		n := min(left, l.Capacity)
		left -= n
		logPass += math.Log1p(-r.LinkFPR(l, n))
	}
	return -math.Expm1(logPass), nil
}

// DoubleHashingFPR returns the compound rate of a chain holding items
// items as FPR does, but with the rate of RedisBloom's own probing where
// it is known exactly: a power-of-two link of at most
// [MaxDoubleHashingBits] bits takes [NewDoubleHashing](Modulus, Hashes).FPR,
// the rate of plain double hashing modulo a power of two. The other links,
// and every link of a NOROUND chain, take LinkFPR; ProbeFPR covers every
// link of both kinds to first order in items/Modulus^2. It reports the
// errors of Links. Each call computes its links' tables afresh (about a
// second for a link of 2^16 bits); DoubleHashingTheory computes them once
// for many item counts.
func (r RedisBloom) DoubleHashingFPR(items uint64) (float64, error) {
	f, err := r.DoubleHashingTheory(items, MaxDoubleHashingBits)
	if err != nil {
		return 0, err
	}
	return f(items), nil
}

// DoubleHashingTheory returns the function DoubleHashingFPR computes, for
// item counts up to maxItems, with the tables of the power-of-two links
// computed once. Only links of at most maxBits bits (and at most
// [MaxDoubleHashingBits]) get the exact rate of their double hashing, since
// a table's work grows as m log2(m) k^3; larger links take the rate of
// independent probes. The function returns NaN for more items than the
// links of Links(maxItems) hold. It reports the errors of Links(maxItems).
func (r RedisBloom) DoubleHashingTheory(maxItems, maxBits uint64) (func(items uint64) float64, error) {
	links, err := r.Links(maxItems)
	if err != nil {
		return nil, err
	}
	var total uint64
	tables := make([]*DoubleHashing, len(links))
	for i, l := range links {
		total += l.Capacity
		if r.PowerOfTwo && l.Modulus <= min(maxBits, MaxDoubleHashingBits) {
			if dh, err := NewDoubleHashing(l.Modulus, l.Hashes); err == nil {
				tables[i] = &dh
			}
		}
	}
	return func(items uint64) float64 {
		if items > total {
			return math.NaN()
		}
		left := items
		var logPass float64
		for i, l := range links {
			n := min(left, l.Capacity)
			left -= n
			f := r.LinkFPR(l, n)
			if tables[i] != nil {
				f = tables[i].FPR(l.offered(n))
			}
			logPass += math.Log1p(-f)
			if left == 0 {
				break
			}
		}
		return -math.Expm1(logPass)
	}, nil
}

// BitsPerKey returns the bits in memory of all the links of a chain
// holding items items, divided by items. It reports the errors of Links,
// and an error if items is 0.
func (r RedisBloom) BitsPerKey(items uint64) (float64, error) {
	if items == 0 {
		return 0, invalid("items = 0, want items >= 1 for bits per key")
	}
	links, err := r.Links(items)
	if err != nil {
		return 0, err
	}
	var total float64
	for _, l := range links {
		total += float64(l.Bits)
	}
	return total / float64(items), nil
}
