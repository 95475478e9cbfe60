package analysis

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestPollutedFPRNoAttack: with one candidate per key the keys are random,
// and the chain gives ExactFPR's rate (computed from the query side, a
// different method) to 1e-12 relative.
func TestPollutedFPRNoAttack(t *testing.T) {
	for _, c := range []struct {
		m, n uint64
		k    int
	}{{1, 1, 1}, {10, 3, 2}, {100, 10, 5}, {1000, 100, 7}, {9586, 1000, 7}, {47926, 5000, 7}, {2000, 5000, 3}, {500, 20, 20}} {
		got, err := PollutedFPR(c.m, c.n, c.k, 1)
		if err != nil {
			t.Fatal(err)
		}
		want := ExactFPR(c.m, c.n, c.k)
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("PollutedFPR(%d, %d, %d, 1) = %.17g, ExactFPR %.17g, relative difference %.3g", c.m, c.n, c.k, got, want, (got-want)/want)
		}
	}
}

// TestPollutedFPRMonotone: more candidates never lower the rate, and no
// attacker passes PollutionBound.
func TestPollutedFPRMonotone(t *testing.T) {
	for _, c := range []struct {
		m, n uint64
		k    int
	}{{9586, 1000, 7}, {1000, 50, 4}, {300, 100, 2}} {
		prev := 0.0
		bound := PollutionBound(c.m, c.n, c.k)
		for _, tt := range []uint64{1, 2, 3, 10, 100, 1000, 1e6, 1e12} {
			got, err := PollutedFPR(c.m, c.n, c.k, tt)
			if err != nil {
				t.Fatal(err)
			}
			if got < prev || got > bound*(1+1e-12) {
				t.Errorf("m %d n %d k %d: T = %d gives %.10g, after %.10g; bound %.10g", c.m, c.n, c.k, tt, got, prev, bound)
			}
			prev = got
		}
	}
}

// TestPollutedFPRBruteForce checks the chain on tiny filters against a
// direct enumeration of the attacker's every choice: the state is the
// set of set bits itself, every candidate is each of the m^k position
// tuples, every draw of t candidates is enumerated, and the first with
// the most new bits is inserted.
func TestPollutedFPRBruteForce(t *testing.T) {
	for _, c := range []struct {
		m, n uint64
		k    int
		t    uint64
	}{{5, 3, 2, 2}, {6, 2, 2, 3}, {4, 2, 3, 2}, {7, 3, 1, 2}, {5, 4, 2, 1}} {
		want := bruteForcePolluted(c.m, c.n, c.k, c.t)
		got, err := PollutedFPR(c.m, c.n, c.k, c.t)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-13 {
			t.Errorf("m %d n %d k %d t %d: chain %.17g, enumeration %.17g", c.m, c.n, c.k, c.t, got, want)
		}
	}
}

// bruteForcePolluted enumerates the greedy attacker on the sets of set
// bits of an m-bit filter (m at most 8).
func bruteForcePolluted(m, n uint64, k int, t uint64) float64 {
	tuples := 1
	for range k {
		tuples *= int(m)
	}
	// mask[c] is the set of bits of candidate tuple c.
	mask := make([]uint, tuples)
	for c := range tuples {
		x := c
		for range k {
			mask[c] |= 1 << (x % int(m))
			x /= int(m)
		}
	}
	draws := 1
	for range t {
		draws *= tuples
	}
	prob := map[uint]float64{0: 1}
	for range n {
		next := map[uint]float64{}
		for s, ps := range prob {
			count := map[uint]int{} // the draws that lead to each set
			for dr := range draws {
				best, most, x := uint(0), -1, dr
				for range t {
					c := mask[x%tuples]
					x /= tuples
					if fresh := bits.OnesCount(c &^ s); fresh > most {
						best, most = c, fresh
					}
				}
				count[s|best]++
			}
			for u, c := range count {
				next[u] += ps * float64(c) / float64(draws)
			}
		}
		prob = next
	}
	var rate float64
	for s, ps := range prob {
		rate += ps * math.Pow(float64(bits.OnesCount(s))/float64(m), float64(k))
	}
	return rate
}

// TestPollutedFPRMonteCarlo simulates the attacker with seeded random
// positions on a filter too large to enumerate: the chain lies within 4
// standard errors of the mean of the simulated filters' rates.
func TestPollutedFPRMonteCarlo(t *testing.T) {
	const m, n, k, tt, runs = 200, 40, 3, 10, 20000
	r := rand.New(rand.NewPCG(1, 2))
	var sum, sum2 float64
	set := make([]bool, m)
	var pos [k]int
	for range runs {
		clear(set)
		x := 0
		for range n {
			var best [k]int
			most := -1
			for range tt {
				fresh := 0
				for j := range pos {
					pos[j] = r.IntN(m)
					if set[pos[j]] {
						continue
					}
					dup := false
					for _, q := range pos[:j] {
						dup = dup || q == pos[j]
					}
					if !dup {
						fresh++
					}
				}
				if fresh > most {
					best, most = pos, fresh
				}
			}
			for _, q := range best {
				if !set[q] {
					set[q] = true
					x++
				}
			}
		}
		f := math.Pow(float64(x)/m, k)
		sum += f
		sum2 += f * f
	}
	mean := sum / runs
	se := math.Sqrt((sum2/runs - mean*mean) / (runs - 1))
	got, err := PollutedFPR(m, n, k, tt)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-mean) > 4*se {
		t.Errorf("chain %.6g, simulation %.6g ± %.2g (%.1f standard errors)", got, mean, se, (got-mean)/se)
	}
}

// TestPollutedFPRWidth: the chain's support stays inside the width that
// MaxPollutionWork's estimate assumes, 16 sqrt(m) + 2k + 2: the measured
// work is at most the estimate.
func TestPollutedFPRWidth(t *testing.T) {
	for _, c := range []struct {
		m, n uint64
		k    int
		t    uint64
	}{{95851, 10000, 7, 1}, {9586, 1000, 7, 1}, {100000, 40000, 7, 1}, {100000, 100000, 1, 1}, {100000, 2000, 20, 1}, {100000, 30000, 2, 1}, {95851, 10000, 7, 1000}} {
		est, _ := pollutionCost(c.m, c.n, c.k)
		if _, err := pollutedFPR(c.m, c.n, c.k, c.t, est); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// TestPollutedFPRErrors: bad parameters and work beyond the limit are
// refused with ErrInvalidParams; n = 0 gives 0; the experiment's largest
// setting fits.
func TestPollutedFPRErrors(t *testing.T) {
	for _, c := range []struct {
		m, n uint64
		k    int
		t    uint64
	}{{0, 1, 1, 1}, {10, 1, 0, 1}, {10, 1, 1, 0}, {10, 1, MaxHashes + 1, 1}, {1 << 40, 1 << 30, 7, 10}, {1e6, 1e6, 7, 10}} {
		if _, err := PollutedFPR(c.m, c.n, c.k, c.t); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("PollutedFPR(%d, %d, %d, %d): error %v, want ErrInvalidParams", c.m, c.n, c.k, c.t, err)
		}
	}
	if f, err := PollutedFPR(100, 0, 3, 5); f != 0 || err != nil {
		t.Errorf("n = 0: %v, %v", f, err)
	}
	if _, err := PollutedFPR(95851, 10000, 7, 1000); err != nil {
		t.Error(err)
	}
	if b := PollutionBound(100, 10, 3); math.Abs(b-0.027) > 1e-15 {
		t.Errorf("PollutionBound(100, 10, 3) = %v, want 0.3^3", b)
	}
}

func BenchmarkPollutedFPR(b *testing.B) {
	for b.Loop() {
		if _, err := PollutedFPR(95851, 10000, 7, 1000); err != nil {
			b.Fatal(err)
		}
	}
}
