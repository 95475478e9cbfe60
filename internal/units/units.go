package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// ErrInvalidParams is wrapped by every error that reports a value that
// does not parse or lies outside its domain.
var ErrInvalidParams = errors.New("invalid parameters")

func invalid(format string, args ...any) error {
	return fmt.Errorf("units: %w: "+format, append([]any{ErrInvalidParams}, args...)...)
}

// maxBits is the largest size ParseBits accepts: 2^48 bits (32 TiB), the
// MaxBits of package analysis, which this package does not import.
const maxBits = 1 << 48

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
// error). The result must be at most 2^48 bits (32 TiB), the MaxBits of
// package analysis.
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
	if v > maxBits {
		return 0, invalid("size %q is %d bits, more than the maximum %d", s, v, uint64(maxBits))
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

// FormatMean formats a mean of counts (stages over several filters, say):
// as a whole number when it is one, as every filter had the same count
// ("1", "1000"), else with one decimal ("4.5").
func FormatMean(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}
