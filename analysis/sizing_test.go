package analysis

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// Published constants (OEIS A002162, A002392, A001113), for references
// computed independently of the math package.
const (
	ln2Digits  = "0.693147180559945309417232121458176568075500134360255254120680"
	ln10Digits = "2.302585092994045684017646841298443559598"
	eDigits    = "2.718281828459045235360287471352662497757247093699959574966968"
)

func bigF(s string) *big.Float {
	f, _, err := big.ParseFloat(s, 10, 300, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return f
}

func TestSizingExample10M(t *testing.T) {
	t.Parallel()
	// The sizing example of the seeds: 10 million items at p = 1e-4.
	// By hand: -ln(1e-4) = 4 ln 10 = 9.210340371976184, (ln 2)^2 =
	// 0.480453013918201, ratio 19.170116754734879 bits per key, times 1e7
	// = 191,701,167.55, so m = 191,701,168 bits = 23,962,646 bytes =
	// 22.8526 MiB. Recomputed here at 300 bits from the published digits of
	// ln 2 and ln 10.
	ln2, ln10 := bigF(ln2Digits), bigF(ln10Digits)
	x := new(big.Float).SetPrec(300).Mul(big.NewFloat(4e7), ln10)
	x.Quo(x, new(big.Float).SetPrec(300).Mul(ln2, ln2))
	xf, _ := x.Float64()
	want := uint64(math.Ceil(xf))
	if want != 191_701_168 {
		t.Fatalf("reference computation gives %d, hand computation 191701168", want)
	}
	sd, err := StandardSize(10_000_000, 1e-4)
	m := sd.Bits
	if err != nil || m != want {
		t.Fatalf("StandardSize(1e7, 1e-4) = %d, %v; want %d", m, err, want)
	}
	// (m/n) ln 2 = 13.29: k = 13, and 13 is better than 14.
	if k := OptimalHashes(m, 10_000_000); k != 13 {
		t.Errorf("OptimalHashes = %d, want 13", k)
	}
}

func TestTutorialRatioTable(t *testing.T) {
	t.Parallel()
	// The table of bits per key m/n, hash count k and false-positive rate
	// that circulates in Bloom-filter tutorials, as given to us (we could
	// not locate its original source). Each published rate is checked at
	// its printed precision against the classic formula with the k the
	// table uses, recomputed here at 300 bits from the published digits
	// of e (independent of ClassicFPR) and also compared with ClassicFPR.
	//
	// Finding: six of the seven entries agree. The last does not: at
	// m/n = 64, k = 45 the classic rate is 4.43e-14 (4.42e-14 at the real
	// optimum k = 44.36, 4.43e-14 at k = 44), so the printed 4.9e-14 is
	// about 10.5% too high.
	table := []struct {
		bitsPerKey, k int
		printed       string // as published
		wrong         bool
	}{
		{1, 1, "0.632", false},
		{2, 1, "0.393", false},
		{4, 3, "0.147", false},
		{8, 6, "0.0216", false},
		{16, 11, "4.6e-4", false},
		{32, 22, "2.1e-7", false},
		{64, 45, "4.9e-14", true},
	}
	e := bigF(eDigits)
	for _, row := range table {
		// (1 - e^(-k/r))^k = (1 - 1/e^(k/r))^k with e^(k/r) = (e^k)^(1/r):
		// compute e^(-k/r) by big.Float powers and an r-th root (Newton).
		ref := classicBig(e, row.bitsPerKey, row.k)
		got := ClassicFPR(uint64(row.bitsPerKey)*1000, 1000, row.k)
		if !scalar.EqualWithinAbsOrRel(got, ref, 0, 1e-13) {
			t.Errorf("m/n=%d k=%d: ClassicFPR %.6g, 300-bit reference %.6g", row.bitsPerKey, row.k, got, ref)
		}
		pub, _, _ := big.ParseFloat(row.printed, 10, 64, big.ToNearestEven)
		pf, _ := pub.Float64()
		digits := len(strings.TrimLeft(strings.Split(strings.ReplaceAll(row.printed, ".", ""), "e")[0], "0"))
		agrees := roundSig(ref, digits) == roundSig(pf, digits)
		if agrees == row.wrong {
			t.Errorf("m/n=%d k=%d: printed %s, formula gives %.4g (agreement %v, want %v)",
				row.bitsPerKey, row.k, row.printed, ref, agrees, !row.wrong)
		}
		if row.wrong {
			t.Logf("m/n=%d k=%d: printed %s but the classic formula gives %.3g (printed/formula = %.3f)",
				row.bitsPerKey, row.k, row.printed, ref, pf/ref)
		}
	}
}

// classicBig returns (1 - e^(-k/r))^k at 300 bits, from the digits of e.
func classicBig(e *big.Float, r, k int) float64 {
	const prec = 300
	ek := new(big.Float).SetPrec(prec).SetInt64(1)
	for range k {
		ek.Mul(ek, e)
	}
	// y = ek^(1/r) by Newton: y <- y - (y^r - ek)/(r y^(r-1)).
	y := new(big.Float).SetPrec(prec).SetInt64(2)
	for range 400 {
		yr1 := new(big.Float).SetPrec(prec).SetInt64(1)
		for range r - 1 {
			yr1.Mul(yr1, y)
		}
		yr := new(big.Float).SetPrec(prec).Mul(yr1, y)
		num := new(big.Float).SetPrec(prec).Sub(yr, ek)
		den := new(big.Float).SetPrec(prec).Mul(yr1, big.NewFloat(float64(r)))
		y.Sub(y, num.Quo(num, den))
	}
	base := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), y)
	base.Sub(big.NewFloat(1).SetPrec(prec), base)
	out := new(big.Float).SetPrec(prec).SetInt64(1)
	for range k {
		out.Mul(out, base)
	}
	f, _ := out.Float64()
	return f
}

// roundSig rounds x to d significant digits.
func roundSig(x float64, d int) float64 {
	if x == 0 {
		return 0
	}
	p := math.Pow(10, float64(d)-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

func TestOptimalHashes(t *testing.T) {
	t.Parallel()
	// The classic rate is unimodal in k with its real minimum at
	// (m/n) ln 2, so the best integer is the floor or the ceiling, and it
	// beats both neighbours (checked here by evaluating the rate).
	for _, m := range []uint64{10, 64, 100, 1000, 9586, 1 << 20, 191_701_168} {
		for _, n := range []uint64{1, 2, 7, 10, 100, 1000, 10_000_000} {
			if n > m*4 {
				continue
			}
			k := OptimalHashes(m, n)
			x := float64(m) / float64(n) * math.Ln2
			if x >= MaxHashes {
				if k != MaxHashes {
					t.Errorf("OptimalHashes(%d, %d) = %d, want cap %d", m, n, k, MaxHashes)
				}
				continue
			}
			if x >= 1 && k != int(math.Floor(x)) && k != int(math.Ceil(x)) {
				t.Errorf("OptimalHashes(%d, %d) = %d, not floor or ceil of %.4f", m, n, k, x)
			}
			if x < 1 && k != 1 {
				t.Errorf("OptimalHashes(%d, %d) = %d, want 1 for (m/n) ln 2 = %.3f", m, n, k, x)
			}
			f := ClassicFPR(m, n, k)
			if k > 1 && ClassicFPR(m, n, k-1) < f {
				t.Errorf("OptimalHashes(%d, %d) = %d, but k-1 is better", m, n, k)
			}
			if ClassicFPR(m, n, k+1) < f {
				t.Errorf("OptimalHashes(%d, %d) = %d, but k+1 is better", m, n, k)
			}
		}
	}
}

func TestSizingHelpers(t *testing.T) {
	t.Parallel()
	if got := InformationMinimum(1.0 / 1024); got != 10 {
		t.Errorf("InformationMinimum(1/1024) = %v, want 10", got)
	}
	if got := BitsPerKey(191_701_168, 10_000_000); got != 19.1701168 {
		t.Errorf("BitsPerKey = %v", got)
	}
	for _, c := range []struct {
		n uint64
		p float64
	}{{0, 0.1}, {10, 0}, {10, 1}, {10, math.NaN()}, {1 << 50, 1e-300}} {
		if _, err := StandardSize(c.n, c.p); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("StandardSize(%d, %g) error = %v, want ErrInvalidParams", c.n, c.p, err)
		}
	}
}
