package analysis

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// checkMinimal checks that m bits with k hashes reach p and that m-1 bits
// (or, for a partitioned filter, the next multiple of the slice count
// below m) reach p with no k near the optimum: every k from 1 to twice
// log2(1/p) plus 4, which holds the best k of every filter tested here
// (its real optimum is (m/n) ln 2 = log2(1/p) for the sizes in question).
func checkMinimal(t *testing.T, name string, n uint64, p float64, m uint64, k int, rate func(m uint64, k int) float64, partitioned bool) {
	t.Helper()
	if r := rate(m, k); !(r <= p) {
		t.Errorf("%s n=%d p=%g: m=%d k=%d has rate %.6g > p", name, n, p, m, k, r)
	}
	kmax := 2*int(math.Ceil(-math.Log2(p))) + 4
	for j := 1; j <= kmax; j++ {
		less := m - 1
		if partitioned {
			less = (m - 1) / uint64(j) * uint64(j)
			if less < uint64(j) {
				continue
			}
		}
		if r := rate(less, j); r <= p {
			t.Errorf("%s n=%d p=%g: not minimal: %d bits with k=%d have rate %.6g <= p (answer m=%d k=%d)", name, n, p, less, j, r, m, k)
			return
		}
	}
}

// TestExactStandardSizeGrid checks the exact sizings over n from 1e2 to 1e10 and
// p from 1e-1 to 1e-9 (decades): each answer reaches p, one bit fewer
// reaches it with no k, and the standard answer is never more than 1%
// above the classic m = StandardSize(n, p). It logs the largest excess and
// how far above p the classic geometry's exact rate lands.
func TestExactStandardSizeGrid(t *testing.T) {
	t.Parallel()
	var worst, worstMiss float64
	var worstAt, missAt string
	for e := 2; e <= 10; e++ {
		n := uint64(math.Round(math.Pow(10, float64(e))))
		for d := 1; d <= 9; d++ {
			p := math.Pow(10, -float64(d))
			sd, err := ExactStandardSize(n, p)
			if err != nil {
				t.Fatal(err)
			}
			m, k := sd.Bits, sd.Hashes
			checkMinimal(t, "standard", n, p, m, k, func(m uint64, k int) float64 { return ExactFPR(m, n, k) }, false)
			std, _ := StandardSize(n, p)
			classic := std.Bits
			excess := float64(m)/float64(classic) - 1
			if excess > 0.01 {
				t.Errorf("n=%d p=%g: exact m=%d is %.3f%% above the classic %d", n, p, m, 100*excess, classic)
			}
			if excess > worst {
				worst, worstAt = excess, "n="+strconv.FormatUint(n, 10)+" p="+ftoa(p)
			}
			if miss := ExactFPR(classic, n, OptimalHashes(classic, n))/p - 1; miss > worstMiss {
				worstMiss, missAt = miss, "n="+strconv.FormatUint(n, 10)+" p="+ftoa(p)
			}
			if testing.Short() && e > 6 {
				continue
			}
			pt, err := ExactPartitionedSize(n, p)
			if err != nil {
				t.Fatal(err)
			}
			pm, pk := pt.Bits, pt.Hashes
			if pm%uint64(pk) != 0 {
				t.Errorf("partitioned n=%d p=%g: m=%d is not a multiple of k=%d", n, p, pm, pk)
			}
			checkMinimal(t, "partitioned", n, p, pm, pk, func(m uint64, k int) float64 { return PartitionedFPR(m, n, k) }, true)
		}
	}
	t.Logf("largest excess of the exact m over the classic m: %.4f%% (%s)", 100*worst, worstAt)
	t.Logf("largest miss of the classic geometry's exact rate over p: %.4f%% (%s)", 100*worstMiss, missAt)
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// TestExactStandardSizeIssueCases checks the two cases that motivated exact
// sizing: the classic geometry for n = 1e6 at p = 1% (m = 9,585,059,
// k = 7, exact rate 1.0039%) and for n = 1e7 at p = 1e-4 (exact rate
// 1.00135e-4) exceed p, and the exact sizing does not.
func TestExactStandardSizeIssueCases(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    uint64
		p    float64
		miss float64 // the classic geometry's exact rate / p, to 4 digits
	}{{1e6, 0.01, 1.0039}, {1e7, 1e-4, 1.0013}} {
		sd, _ := StandardSize(c.n, c.p)
		classic := sd.Bits
		ck := OptimalHashes(classic, c.n)
		if r := ExactFPR(classic, c.n, ck) / c.p; math.Abs(r-c.miss) > 5e-5 {
			t.Errorf("n=%d p=%g: classic m=%d k=%d rate/p = %.5f, want %.4f", c.n, c.p, classic, ck, r, c.miss)
		}
		sd, err := ExactStandardSize(c.n, c.p)
		m, k := sd.Bits, sd.Hashes
		if err != nil || m <= classic || ExactFPR(m, c.n, k) > c.p {
			t.Errorf("n=%d p=%g: ExactStandardSize = %d, %d, %v (classic %d)", c.n, c.p, m, k, err, classic)
		}
	}
}

func TestExactStandardSizeErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n uint64
		p float64
	}{{0, 0.01}, {10, 0}, {10, 1}, {10, math.NaN()}, {1 << 62, 1e-9}} {
		if _, err := ExactStandardSize(c.n, c.p); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("ExactStandardSize(%d, %v) err = %v", c.n, c.p, err)
		}
		if _, err := ExactPartitionedSize(c.n, c.p); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("ExactPartitionedSize(%d, %v) err = %v", c.n, c.p, err)
		}
	}
}

// TestExactStandardSizeWork checks ExactStandardSize's work limit: the
// inputs of the red-team report (n = 1 at p = 1e-300 took 226 s, n = 1 at
// p = 1e-100 9 s) and n = 300 at p = 1e-30 are refused with an error that
// names the limit, after at most exactWorkLimit(p) operations as exactCost
// counts them (1e7 below p = 1e-20); p = 1e-20 and inputs where ExactFPR
// takes its expansion are served. The wall-time bound is wide (the limits
// are about 0.6 s and 0.06 s of work).
func TestExactStandardSizeWork(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n     uint64
		p     float64
		serve bool
	}{
		{1, 1e-300, false},
		{1, 1e-100, false},
		{300, 1e-30, false},
		{1, 1e-20, true},
		{300, 1e-20, true},
		{1e6, 1e-20, true},
		{1e6, 1e-100, true}, // m above ExactMaxBits: the expansion
		{300, 1e-21, false}, // the tighter limit below 1e-20
	} {
		var work float64
		start := time.Now()
		_, _, err := exactSize(c.n, c.p, func(m uint64, k int) float64 { return ExactFPR(m, c.n, k) },
			func(m uint64, k int) float64 { w := exactCost(m, c.n, k); work += w; return w }, 1)
		took := time.Since(start)
		if took > 10*time.Second {
			t.Errorf("n=%d p=%g: %v", c.n, c.p, took)
		}
		if c.serve {
			if err != nil {
				t.Errorf("n=%d p=%g: %v, want an answer", c.n, c.p, err)
			}
			continue
		}
		if work > exactWorkLimit(c.p)+1e7 { // the refused evaluation is counted, not run
			t.Errorf("n=%d p=%g: %.3g operations counted, limit %.3g", c.n, c.p, work, exactWorkLimit(c.p))
		}
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "1e+07 operations, its limit") ||
			!strings.Contains(err.Error(), "use the classic sizing") {
			t.Errorf("n=%d p=%g: err = %v, want the work limit", c.n, c.p, err)
		}
		// The exported function refuses it too.
		if _, err := ExactStandardSize(c.n, c.p); err == nil {
			t.Errorf("ExactStandardSize(%d, %g) = nil error", c.n, c.p)
		}
		t.Logf("n=%d p=%g: refused after %v (%.3g operations counted)", c.n, c.p, took, work)
	}
}
