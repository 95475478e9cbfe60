package analysis

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strings"
)

// Sizing is the geometry of a standard Bloom filter together with its
// capacity and target rate: N items (capacity), M bits, K hash functions
// and false-positive rate P. For Solve, a zero field is unknown.
type Sizing struct {
	N uint64  // capacity, items
	M uint64  // bits
	K int     // hash functions
	P float64 // false-positive rate (as input, 0 < P < 1)
}

// ConsistencyTolerance is the relative difference between a given P and the
// classic rate of the given N, M and K that Solve accepts as rounding when
// all of them are known.
const ConsistencyTolerance = 0.01

// Solve fills in the unknown (zero) fields of known from the known ones,
// with the classic rate (1 - e^(-kn/m))^k and the conventions of the common
// online calculator (hur.st/bloomfilter):
//
//   - N, P: M = OptimalBits(N, P) = ceil(-N ln P / (ln 2)^2) and
//     K = OptimalHashes(M, N), the best integer k for that M (the calculator
//     rounds (M/N) ln 2 instead; the two differ only where rounding picks
//     the worse neighbour).
//   - N, P, K: M = ceil(-K N / ln(1 - P^(1/K))), checked to be the fewest
//     bits whose classic rate is at most P.
//   - N, M: K = OptimalHashes(M, N), P = ClassicFPR(M, N, K).
//   - N, M, K: P = ClassicFPR(M, N, K).
//   - M, P, K: N = the largest n with ClassicFPR(M, n, K) <= P, that is
//     floor(-M ln(1 - P^(1/K)) / K) (the calculator takes the ceiling, which
//     can exceed P).
//   - M, P: N = the largest n whose best integer k gives a classic rate at
//     most P, found by bisection below floor(M (ln 2)^2 / -ln P) (the value
//     at the real optimum k, which the calculator uses with a ceiling), and
//     K = OptimalHashes(M, N).
//   - N, M, P (with or without K): K is OptimalHashes(M, N) if unknown, and
//     the four must be consistent: P within ConsistencyTolerance (1%) of
//     ClassicFPR(M, N, K), or M and K exactly what Solve computes from N and
//     P (with K, if K was given).
//
// Known fields are returned unchanged: a known P stays the target, so the
// classic rate at the returned geometry, ClassicFPR(M, N, K), may differ
// from it by the rounding of M and K (for N, P it can exceed P by a fraction
// of a percent, from the integer K).
//
// Solve returns known unchanged with an error wrapping ErrInvalidParams if a
// known field is out of range (P outside (0, 1), K outside 1..MaxHashes, M
// above MaxBits), if the known fields do not determine the rest (naming
// what is missing), if they contradict each other, or if the answer is out
// of range (M above MaxBits, or M too small to hold a single item at rate
// P).
func Solve(known Sizing) (Sizing, error) {
	s, err := solve(known)
	if err != nil {
		return known, err
	}
	return s, nil
}

func solve(known Sizing) (Sizing, error) {
	s := known
	if s.K < 0 || s.K > MaxHashes {
		return s, invalid("hashes k = %d, want 1 <= k <= %d (or 0 for unknown)", s.K, MaxHashes)
	}
	if s.P != 0 {
		if err := CheckProbability("p", s.P); err != nil {
			return s, err
		}
	}
	if s.M > MaxBits {
		return s, invalid("bits m = %d exceeds the maximum %d", s.M, uint64(MaxBits))
	}
	hasN, hasM, hasK, hasP := s.N != 0, s.M != 0, s.K != 0, s.P != 0
	switch {
	case hasN && hasM && hasP:
		return solveAll(s, hasK)
	case hasN && hasP && hasK: // m
		m, err := bitsFor(s.N, s.P, s.K)
		if err != nil {
			return s, err
		}
		s.M = m
		return s, nil
	case hasN && hasP: // m, k
		m, err := OptimalBits(s.N, s.P)
		if err != nil {
			return s, err
		}
		s.M, s.K = m, OptimalHashes(m, s.N)
		return s, nil
	case hasN && hasM: // p (and k)
		if !hasK {
			s.K = OptimalHashes(s.M, s.N)
		}
		s.P = ClassicFPR(s.M, s.N, s.K)
		return s, nil
	case hasM && hasP && hasK: // n
		n := capacityFor(s.M, s.P, s.K)
		if n == 0 {
			return s, invalid("m = %d bits with k = %d cannot hold even one item at p = %g (that needs %d bits)",
				s.M, s.K, s.P, mustBits(1, s.P, s.K))
		}
		s.N = n
		return s, nil
	case hasM && hasP: // n, k
		n := capacityForBestK(s.M, s.P)
		if n == 0 {
			m1, _ := OptimalBits(1, s.P)
			return s, invalid("m = %d bits cannot hold even one item at p = %g (that needs about %d bits)", s.M, s.P, m1)
		}
		s.N, s.K = n, OptimalHashes(s.M, n)
		return s, nil
	}
	return s, invalid("insufficient: %s", missing(hasN, hasM, hasK, hasP))
}

// missing describes what Solve needs beyond the known fields.
func missing(hasN, hasM, hasK, hasP bool) string {
	var have []string
	for _, f := range []struct {
		ok   bool
		name string
	}{{hasN, "n"}, {hasM, "m"}, {hasK, "k"}, {hasP, "p"}} {
		if f.ok {
			have = append(have, f.name)
		}
	}
	what := "nothing is known"
	if len(have) > 0 {
		what = "only " + strings.Join(have, " and ") + " known"
	}
	var need string
	switch {
	case hasN:
		need = "need m or p as well"
	case hasM:
		need = "need n or p as well"
	case hasP:
		need = "need n or m as well"
	default:
		need = "need two of n, m and p (k is optional)"
	}
	return what + "; " + need
}

// solveAll checks N, M, P (and K if hasK) for consistency, computing K if
// unknown.
func solveAll(s Sizing, hasK bool) (Sizing, error) {
	if !hasK {
		s.K = OptimalHashes(s.M, s.N)
	}
	c := ClassicFPR(s.M, s.N, s.K)
	if math.Abs(c-s.P) <= ConsistencyTolerance*s.P {
		return s, nil
	}
	// The solver's own output for (N, P) or (N, P, K) is consistent too.
	if hasK {
		if m, err := bitsFor(s.N, s.P, s.K); err == nil && m == s.M {
			return s, nil
		}
	}
	if m, err := OptimalBits(s.N, s.P); err == nil && m == s.M && OptimalHashes(m, s.N) == s.K {
		return s, nil
	}
	kWhat := "k"
	if !hasK {
		kWhat = "the optimal k"
	}
	return s, invalid("contradictory: n = %d, m = %d and %s = %d give p = %.4g, not the given p = %g",
		s.N, s.M, kWhat, s.K, c, s.P)
}

// logOneMinusRoot returns ln(1 - p^(1/k)), which is negative: by log1p
// when the root is small and by expm1 when it is close to 1.
func logOneMinusRoot(p float64, k int) float64 {
	l := math.Log(p) / float64(k) // ln p^(1/k)
	if l < -math.Ln2 {
		return math.Log1p(-math.Exp(l))
	}
	return math.Log(-math.Expm1(l))
}

// bitsFor returns the fewest bits whose classic rate with n items and k
// hashes is at most p: ceil(-k n / ln(1 - p^(1/k))), corrected for rounding.
func bitsFor(n uint64, p float64, k int) (uint64, error) {
	mf := math.Ceil(-float64(k) * float64(n) / logOneMinusRoot(p, k))
	if !(mf <= MaxBits) { // also NaN
		return 0, invalid("n = %d at p = %g with k = %d needs %.4g bits, more than the maximum %d",
			n, p, k, mf, uint64(MaxBits))
	}
	m := max(uint64(mf), 1)
	for m > 1 && ClassicFPR(m-1, n, k) <= p {
		m--
	}
	for ClassicFPR(m, n, k) > p && m < MaxBits {
		m++
	}
	return m, nil
}

// mustBits is bitsFor for use in messages.
func mustBits(n uint64, p float64, k int) uint64 {
	m, err := bitsFor(n, p, k)
	if err != nil {
		return MaxBits
	}
	return m
}

// capacityFor returns the largest n with ClassicFPR(m, n, k) <= p, or 0.
func capacityFor(m uint64, p float64, k int) uint64 {
	nf := math.Floor(-float64(m) * logOneMinusRoot(p, k) / float64(k))
	n := uint64(math.Max(nf, 0))
	for n > 0 && ClassicFPR(m, n, k) > p {
		n--
	}
	for ClassicFPR(m, n+1, k) <= p {
		n++
	}
	return n
}

// capacityForBestK returns the largest n for which the best integer k gives
// ClassicFPR(m, n, k) <= p, or 0. That rate increases with n, and at the
// real optimum k it is e^(-(m/n)(ln 2)^2), so the answer is at most
// floor(m (ln 2)^2 / -ln p); bisect below it.
func capacityForBestK(m uint64, p float64) uint64 {
	ok := func(n uint64) bool { return ClassicFPR(m, n, OptimalHashes(m, n)) <= p }
	hif := math.Floor(float64(m) * math.Ln2 * math.Ln2 / -math.Log(p))
	hi := uint64(1) << 62 // for p so close to 1 that the bound overflows
	if hif < 1<<62 {
		hi = uint64(hif)
	}
	if hi > 0 && ok(hi) {
		for ok(hi + 1) { // guard against rounding in the bound
			hi++
		}
		return hi
	}
	lo := uint64(0) // ok(lo) holds (or lo = 0)
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// ParseProbability parses a false-positive rate written as a decimal or
// scientific number ("0.01", "1e-4"), a fraction ("1/100"), the
// calculator's "1 in 100", or a percentage ("1%"). The result must lie in
// (0, 1).
func ParseProbability(s string) (float64, error) {
	t := strings.TrimSpace(s)
	var r *big.Rat
	switch {
	case strings.Contains(t, " in "):
		a, b, _ := strings.Cut(t, " in ")
		num, ok1 := parseDecimal(strings.TrimSpace(a))
		den, ok2 := parseDecimal(strings.TrimSpace(b))
		if !ok1 || !ok2 || den.Sign() == 0 {
			return 0, invalid("probability %q: want a number, a fraction a/b, \"1 in N\" or a percentage", s)
		}
		r = num.Quo(num, den)
	case strings.Contains(t, "/"):
		a, b, _ := strings.Cut(t, "/")
		num, ok1 := parseDecimal(strings.TrimSpace(a))
		den, ok2 := parseDecimal(strings.TrimSpace(b))
		if !ok1 || !ok2 || den.Sign() == 0 {
			return 0, invalid("probability %q: want a number, a fraction a/b, \"1 in N\" or a percentage", s)
		}
		r = num.Quo(num, den)
	case strings.HasSuffix(t, "%"):
		v, ok := parseDecimal(strings.TrimSpace(strings.TrimSuffix(t, "%")))
		if !ok {
			return 0, invalid("probability %q: want a number, a fraction a/b, \"1 in N\" or a percentage", s)
		}
		r = v.Quo(v, big.NewRat(100, 1))
	default:
		v, ok := parseDecimal(t)
		if !ok {
			return 0, invalid("probability %q: want a number, a fraction a/b, \"1 in N\" or a percentage", s)
		}
		r = v
	}
	p, _ := r.Float64()
	if r.Sign() <= 0 || r.Cmp(big.NewRat(1, 1)) >= 0 || p == 0 {
		return 0, invalid("probability %q = %g, want 0 < p < 1", s, p)
	}
	return p, nil
}

var decimalRE = regexp.MustCompile(`^[+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// parseDecimal parses a non-negative decimal number with an optional
// exponent exactly. Underscores between digits are allowed.
func parseDecimal(s string) (*big.Rat, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if !decimalRE.MatchString(s) {
		return nil, false
	}
	// Refuse exponents so large that the exact rational would be huge.
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		var e int
		if _, err := fmt.Sscan(s[i+1:], &e); err != nil || e > 400 || e < -400 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
	return r, ok
}

// siPrefixes are the decimal multipliers of ParseCount and ParseBits.
var siPrefixes = map[string]int64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}

var countRE = regexp.MustCompile(`^(.*?)\s*([kKMGT]?)$`)

// ParseCount parses a number of items, with an optional SI suffix:
// k or K (10^3), M (10^6), G (10^9), T (10^12). "10M", "2.5k", "1e6" and
// "1_000_000" are accepted; the value must be a non-negative integer that
// fits in a uint64, so "2.5" and "1.0001k" are errors.
func ParseCount(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	parts := countRE.FindStringSubmatch(t)
	if parts == nil { // a line break inside, which countRE's . does not match
		return 0, invalid("count %q: want a number with an optional suffix k, M, G or T", s)
	}
	num, ok := parseDecimal(parts[1])
	if t == "" || !ok {
		return 0, invalid("count %q: want a number with an optional suffix k, M, G or T", s)
	}
	num.Mul(num, new(big.Rat).SetInt64(siPrefixes[parts[2]]))
	return ratToUint(num, s, "count", "items")
}

// ratToUint converts a non-negative rational to a uint64 if it is an
// integer in range.
func ratToUint(r *big.Rat, s, what, unit string) (uint64, error) {
	if !r.IsInt() {
		f, _ := r.Float64()
		return 0, invalid("%s %q is %g %s, not a whole number", what, s, f, unit)
	}
	if !r.Num().IsUint64() {
		return 0, invalid("%s %q is too large", what, s)
	}
	return r.Num().Uint64(), nil
}

// bitUnits maps the unit suffixes of ParseBits to bits.
var bitUnits = func() map[string]*big.Int {
	u := map[string]*big.Int{"": big.NewInt(1)}
	add := func(name string, bits *big.Int) { u[name] = bits }
	add("b", big.NewInt(1))
	add("bit", big.NewInt(1))
	add("bits", big.NewInt(1))
	add("B", big.NewInt(8))
	for i, p := range []string{"K", "M", "G", "T"} {
		dec := new(big.Int).Exp(big.NewInt(1000), big.NewInt(int64(i+1)), nil)
		bin := new(big.Int).Lsh(big.NewInt(1), uint(10*(i+1)))
		for _, q := range []string{p, strings.ToLower(p)} {
			add(q+"b", dec)                                   // kilobits, 1000-based
			add(q+"bit", dec)                                 // kilobits
			add(q+"bits", dec)                                // kilobits
			add(q+"B", new(big.Int).Mul(dec, big.NewInt(8)))  // kilobytes, 1000-based
			add(q+"ib", bin)                                  // kibibits, 1024-based
			add(q+"iB", new(big.Int).Mul(bin, big.NewInt(8))) // kibibytes
		}
	}
	return u
}()

var bitsRE = regexp.MustCompile(`^([0-9.eE+_-]*?)\s*([A-Za-z]*)$`)

// ParseBits parses a filter size in bits. A plain number is bits; a unit
// may follow, with or without a space. Lower-case b means bits and
// upper-case B bytes; the prefix may be upper or lower case:
//
//	unit                    multiplier (bits)
//	(none), b, bit, bits    1
//	B                       8 (a byte)
//	Kb, Mb, Gb, Tb          10^3, 10^6, 10^9, 10^12 (kilobits etc.)
//	Kib, Mib, Gib, Tib      2^10, 2^20, 2^30, 2^40 (kibibits etc.)
//	KB, MB, GB, TB          8 x 10^3, 8 x 10^6, ... (kilobytes etc.)
//	KiB, MiB, GiB, TiB      8 x 2^10, 8 x 2^20, ... (kibibytes etc.)
//
// "Kbit"/"Kbits" are kilobits as well. The number may be fractional but the
// size must come to a whole number of bits ("22.85 MiB" does not, and is an
// error). The result must be at most MaxBits.
func ParseBits(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	parts := bitsRE.FindStringSubmatch(t)
	if t == "" || parts == nil {
		return 0, invalid("size %q: want a number of bits with an optional unit such as Mb, MB or MiB", s)
	}
	num, ok := parseDecimal(parts[1])
	if !ok {
		return 0, invalid("size %q: want a number of bits with an optional unit such as Mb, MB or MiB", s)
	}
	mult, ok := bitUnits[parts[2]]
	if !ok {
		return 0, invalid("size %q: unknown unit %q (want b, B, Kb, KB, KiB, Mb, MB, MiB, ...)", s, parts[2])
	}
	num.Mul(num, new(big.Rat).SetInt(mult))
	v, err := ratToUint(num, s, "size", "bits")
	if err != nil {
		return 0, err
	}
	if v > MaxBits {
		return 0, invalid("size %q is %d bits, more than the maximum %d", s, v, uint64(MaxBits))
	}
	return v, nil
}

// FormatBytes formats a size in bits as bytes in the largest binary unit
// that keeps the number at least 1: "512 B", "1.50 KiB", "22.85 MiB",
// "2.00 GiB", "32.00 TiB" (two decimals from KiB up). A size that is not a
// whole number of bytes shows the fraction in B ("0.125 B").
func FormatBytes(bits uint64) string {
	b := float64(bits) / 8
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if b < 1024 {
		return fmt.Sprintf("%g B", b)
	}
	v, u := b/1024, 0
	for u < len(units)-1 && math.Round(v*100)/100 >= 1024 {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%.2f %s", v, units[u])
}
