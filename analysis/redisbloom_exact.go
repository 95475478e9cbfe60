package analysis

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// MaxProbeHashes is the most hashes a link may have for
// [RedisBloom.ProbeTheory]: a key's wrap pattern is kept in one 64-bit word.
const MaxProbeHashes = 64

// probeBudget bounds the work of one link's distinct-count table in
// ProbeTheory: signature groups x wrap patterns x relations x hashes.
const probeBudget = 4e8

// ProbeFPR returns the compound rate of a chain holding items items, as
// FPR does, but with each link's rate under RedisBloom's own probe
// sequence instead of independent probes. See [RedisBloom.ProbeTheory].
func (r RedisBloom) ProbeFPR(items uint64) (float64, error) {
	f, err := r.ProbeTheory(items)
	if err != nil {
		return 0, err
	}
	return f(items), nil
}

// ProbeTheory returns the compound false-positive rate of a chain, for
// item counts up to maxItems, with every link's rate computed for the
// probe sequence RedisBloom uses, x_i = ((a + i b) mod 2^64) mod M for
// i < k, a and b the two 64-bit MurmurHash64A values of the key and M
// the link's modulus (see variants.RedisBloom). The function returns NaN
// for more items than the links of Links(maxItems) hold. It reports the
// errors of Links, and an error wrapping [ErrInvalidParams] for a link
// with more than [MaxProbeHashes] hashes (or, as a guard, a link whose
// distinct-count table would cost more than about 4e8 operations, which
// no link within MaxProbeHashes and [MaxBits] was found to need: 64
// hashes over a modulus with many small factors take 0.3 s). The chains
// of BF.RESERVE at 0.01 and 0.001 with capacity 1000 take about 15 ms of
// CPU for 10^6 items and about 0.1 s for 10^9.
//
// The model: (a, b) are uniform and independent between keys; b mod M
// and the fractional parts a/2^64 and b/2^64 are treated as independent,
// which holds up to M/2^64. Then a wrap of the 64-bit sum subtracts
// R = 2^64 mod M (0 for a power of two), so x_i = a + i b - W_i R mod M
// with W_i = floor(α + i β), α and β uniform on [0, 1): a Sturmian
// sequence. Each link's rate with n items is, with μ the mean number of
// distinct positions of a key, f = 1 - (1 - μ/M)^n its expected fill
// (exact: every bit is set by one key with probability μ/M), g = 1 - f
// and r = g/f:
//
//  1. The query's distinct positions d, exactly: positions i < j
//     coincide iff (j-i) b ≡ (W_j - W_i) R (mod M); the b that admit any
//     such relation are enumerated (all solutions of s b ≡ w R with
//     s < k, 0 <= w <= s), and for each the distribution of d over the
//     wrap pattern, whose cells and their areas in (α, β) are computed
//     exactly from the Farey fractions of order k-1. The rest of the M
//     values of b give d = k. The base rate is Σ_d P(d) f^d.
//  2. The correlation of a query with the stored keys, to first order in
//     n/M^2 (keys whose positions share two or more of the query's):
//     with c the number of the query's positions a stored key covers,
//     the rate of a query with k distinct positions is f^k (1 + n/M^2
//     (r^2 (S2 - C(k,2) μ^2) + S3)), where S2 M^-2 = E[C(c, 2)] over
//     keys and queries, computed exactly from the gcds of the steps and
//     the laws of the wrap counts, and S3 = M^2 E[Σ_{j>=3} C(c, j) r^j]
//     sums over the lines of the k x k grid of (key probe, query probe)
//     pairs that a stored key can match (a key shares three or more
//     positions with a query only along such a line, unless the query's
//     step obeys a short relation, below), over the divisors e < k of M
//     (a key whose step differs from the line's by an element of order e
//     matches every e-th point). For power-of-two tables a matched line
//     is matched everywhere; for NOROUND tables the key's and the
//     query's wrap patterns must agree along it: the expected number of
//     collinear j-subsets of (t, W'_t - W_t) is computed exactly over
//     pairs of wrap patterns for lines of up to 10 points, and beyond
//     that taken as a 10-point line's fraction, an approximation (longer
//     lines carry 0.1 to 0.2% of a link's rate in the chain at 0.001).
//
// What is neglected: second-order terms in n/M^2 (two or more such keys
// at once); matches of three or more positions off a line, which need the
// query's step to obey a short relation X b ≡ Y R with X != 0; and for
// NOROUND tables whose modulus has odd factors below k, the matchings
// that need a relation between the wrap counts modulo those factors. For
// NOROUND tables only measurements check the result (paper-notes.md
// §13h: within 0.5 standard errors at 10^6 keys). For power-of-two tables
// of up to 2^16 bits the result agrees with the exact [DoubleHashing] to
// within 3e-3 of the rate from an eighth of a link's capacity, where the
// rate is up to 90 times that of independent probes, and to 5e-4 near
// capacity (TestProbeTheoryDoubleHashing).
//
// Each link's rate is taken at the keys it was offered, skipped ones
// included (see LinkFPR), rounded to a whole number of keys.
//
// The links' answers are combined as 1 - prod(1 - f_i) as in FPR; for
// power-of-two tables the product is taken within each class of the
// query's b (its trailing zeros, which every link sees), so that a query
// whose step repeats positions in several links is counted once.
func (r RedisBloom) ProbeTheory(maxItems uint64) (func(items uint64) float64, error) {
	links, err := r.Links(maxItems)
	if err != nil {
		return nil, err
	}
	models := make([]*probeLink, len(links))
	var total uint64
	for i, l := range links {
		total += l.Capacity
		pl, err := newProbeLink(i, l.Modulus, l.Hashes, r.PowerOfTwo)
		if err != nil {
			return nil, err
		}
		models[i] = pl
	}
	return func(items uint64) float64 {
		if items > total {
			return math.NaN()
		}
		loads := make([]uint64, 0, len(links))
		left := items
		for _, l := range links {
			n := min(left, l.Capacity)
			left -= n
			loads = append(loads, l.offered(n))
			if left == 0 {
				break
			}
		}
		if r.PowerOfTwo {
			return pow2Compound(models[:len(loads)], loads)
		}
		var logPass float64
		for i, n := range loads {
			logPass += math.Log1p(-models[i].rate(n))
		}
		return -math.Expm1(logPass)
	}, nil
}

// probeLink is the part of a link's rate under RedisBloom's probes that
// does not depend on its items.
type probeLink struct {
	m    uint64
	k    int
	pow2 bool
	pd   []float64 // P(a query has d distinct positions), d = 0..k
	mu   float64   // mean distinct positions of a key
	s2   float64   // M^2 E[C(c, 2)] over keys and queries
	h    []float64 // h[L]: weight of matchable lines (or sub-lines) of L points
	cj   [][]float64
}

// newProbeLink precomputes the link of modulus m and k hashes.
func newProbeLink(link int, m uint64, k int, pow2 bool) (*probeLink, error) {
	if k < 1 || k > MaxProbeHashes {
		return nil, invalid("link %d has %d hashes, want 1 to %d for the probe theory", link, k, MaxProbeHashes)
	}
	pl := &probeLink{m: m, k: k, pow2: pow2}
	var wrap uint64 // 2^64 mod m
	if m&(m-1) != 0 {
		_, wrap = bits.Div64(1, 0, m)
	}
	if pow2 {
		// d = min(k, order of b), the order 2^(log2 m - v) with v the
		// trailing zeros of b.
		pl.pd = make([]float64, k+1)
		lg := bits.TrailingZeros64(m)
		for v := 0; v <= lg; v++ {
			p := math.Ldexp(1, -(v + 1))
			if v == lg {
				p = math.Ldexp(1, -lg)
			}
			pl.pd[min(uint64(k), m>>v)] += p
		}
	} else {
		pd, err := distinctLaw(m, k, wrap)
		if err != nil {
			return nil, invalid("link %d: %v", link, err)
		}
		pl.pd = pd
	}
	for d, p := range pl.pd {
		pl.mu += float64(d) * p
	}
	pl.s2 = pairCount(m, k, wrap)
	pl.h = lineWeights(m, k)
	if !pow2 && wrap != 0 {
		pl.cj = wrapCollinear()
	}
	return pl, nil
}

// rate returns the link's rate with n items, averaged over queries.
func (pl *probeLink) rate(n uint64) float64 {
	if n == 0 {
		return 0
	}
	f, corr := pl.fill(n)
	var base float64
	for d, p := range pl.pd {
		if p != 0 {
			base += p * math.Pow(f, float64(d))
		}
	}
	return base + pl.pd[pl.k]*corr
}

// fill returns the expected fill with n items and the first-order
// correction to the rate of a query with k distinct positions.
func (pl *probeLink) fill(n uint64) (f, corr float64) {
	mf, nf := float64(pl.m), float64(n)
	g := math.Exp(nf * math.Log1p(-pl.mu/mf))
	f = 1 - g
	if f <= 0 {
		return 0, 0
	}
	r := g / f
	kf := float64(pl.k)
	var s3 float64
	for L, w := range pl.h {
		if w != 0 {
			s3 += w * pl.collinear(L, r)
		}
	}
	corr = math.Pow(f, kf) * nf / (mf * mf) * (r*r*(pl.s2-kf*(kf-1)/2*pl.mu*pl.mu) + s3)
	return f, corr
}

// collinear returns Σ_{j>=3} r^j C_j(L), C_j(L) the expected number of
// j-subsets of a matchable line of L points that a key matches: C(L, j)
// without wrap (power of two), else from the wrap table.
func (pl *probeLink) collinear(L int, r float64) float64 {
	if pl.cj == nil {
		lf := float64(L)
		return math.Pow(1+r, lf) - 1 - lf*r - lf*(lf-1)/2*r*r
	}
	top := len(pl.cj) - 1
	var s float64
	for j := 3; j <= L; j++ {
		var c float64
		if L <= top {
			c = pl.cj[L][j]
		} else {
			jj := min(j, top)
			c = binom(L, j) * pl.cj[top][jj] / binom(top, jj)
		}
		s += c * math.Pow(r, float64(j))
	}
	return s
}

// pow2Compound returns 1 - E_v[prod_i (1 - f_i(v))] over the classes v of
// the query's trailing zeros, for power-of-two links with loads.
func pow2Compound(models []*probeLink, loads []uint64) float64 {
	type linkState struct{ f, corr float64 }
	st := make([]linkState, len(models))
	top := 0
	for i, pl := range models {
		st[i].f, st[i].corr = pl.fill(loads[i])
		top = max(top, bits.TrailingZeros64(pl.m))
	}
	var fp float64
	for v := 0; v <= top; v++ {
		p := math.Ldexp(1, -(v + 1))
		if v == top {
			p = math.Ldexp(1, -top)
		}
		var logPass float64
		for i, pl := range models {
			if loads[i] == 0 {
				continue
			}
			lg := bits.TrailingZeros64(pl.m)
			d := min(uint64(pl.k), pl.m>>min(v, lg))
			rate := math.Pow(st[i].f, float64(d))
			if d == uint64(pl.k) {
				rate += st[i].corr
			}
			logPass += math.Log1p(-min(rate, 1))
		}
		fp += p * -math.Expm1(logPass)
	}
	return fp
}

// distinctLaw returns P(d) for d = 0..k, the law of the number of
// distinct positions of a key in a table of m bits (not a power of two)
// whose 64-bit sums wrap by 2^64 ≡ wrap (mod m).
func distinctLaw(m uint64, k int, wrap uint64) ([]float64, error) {
	// rel[b]: the relations (s, w), s b ≡ w wrap (mod m), of each b that
	// has one with 1 <= s < k and 0 <= w <= s.
	rel := map[uint64][]uint16{}
	for s := 1; s < k; s++ {
		g := gcd64(uint64(s), m)
		mg := m / g
		inv := modInverse((uint64(s)/g)%mg, mg)
		for w := 0; w <= s; w++ {
			t := uint64(w) * wrap % m
			if t%g != 0 {
				continue
			}
			hi, lo := bits.Mul64(t/g, inv)
			_, b0 := bits.Div64(hi%mg, lo, mg)
			for j := range g {
				b := b0 + j*mg
				rel[b] = append(rel[b], uint16(s)<<8|uint16(w))
			}
		}
	}
	// Group the b by their relations: b with the same relations have the
	// same law of d.
	type group struct {
		rel   []uint16
		count int
	}
	index := map[string]int{}
	var groups []group
	var sb strings.Builder
	for _, rs := range rel {
		sb.Reset()
		for _, x := range rs {
			sb.WriteString(strconv.Itoa(int(x)))
			sb.WriteByte(',')
		}
		at, ok := index[sb.String()]
		if !ok {
			at = len(groups)
			index[sb.String()] = at
			groups = append(groups, group{rel: rs})
		}
		groups[at].count++
	}
	masks, areas := sturmian(k)
	var work float64
	for _, g := range groups {
		work += float64(len(g.rel))
	}
	if cost := (work + float64(k*k)) * float64(len(masks)); cost > probeBudget {
		return nil, fmt.Errorf("modulus %d with %d hashes needs about %.3g operations, more than %g", m, k, cost, float64(probeBudget))
	}
	pd := make([]float64, k+1)
	mf := float64(m)
	pd[k] = (mf - float64(len(rel))) / mf
	w := make([]int, k)
	// For a pattern, W_(i+s) - W_i is lo[s] or lo[s]+1; at[s][0] and
	// at[s][1] mark, at bit i+s, the i where it is each.
	lo := make([]int, k)
	at := make([][2]uint64, k)
	for p, mask := range masks {
		for i := 1; i < k; i++ {
			w[i] = w[i-1] + int(mask>>(i-1)&1)
		}
		for s := 1; s < k; s++ {
			lo[s] = w[s] - w[0]
			for i := 1; i+s < k; i++ {
				lo[s] = min(lo[s], w[i+s]-w[i])
			}
			at[s] = [2]uint64{}
			for i := 0; i+s < k; i++ {
				at[s][w[i+s]-w[i]-lo[s]] |= 1 << (i + s)
			}
		}
		for _, g := range groups {
			var hit uint64
			for _, x := range g.rel {
				s, ws := int(x>>8), int(x&0xff)
				if j := ws - lo[s]; j == 0 || j == 1 {
					hit |= at[s][j]
				}
			}
			pd[k-bits.OnesCount64(hit)] += float64(g.count) / mf * areas[p]
		}
	}
	return pd, nil
}

// sturmian returns the wrap patterns W_i = floor(θ + iβ) - floor(θ),
// i < L, of (θ, β) uniform on [0, 1)^2, as bit i-1 = W_i - W_(i-1), with
// their probabilities. Between consecutive Farey fractions of order L-1
// the order of the breakpoints θ = frac(-iβ) does not change, so every
// pattern's θ-length is linear in β there and the midpoint gives its area
// exactly.
func sturmian(L int) (masks []uint64, areas []float64) {
	if L <= 1 {
		return []uint64{0}, []float64{1}
	}
	var farey []float64
	for q := 1; q < L; q++ {
		for p := 0; p <= q; p++ {
			if gcd64(uint64(p), uint64(q)) == 1 {
				farey = append(farey, float64(p)/float64(q))
			}
		}
	}
	sort.Float64s(farey)
	index := map[uint64]int{}
	cuts := make([]float64, 0, L+1)
	for i := 0; i+1 < len(farey); i++ {
		b1, b2 := farey[i], farey[i+1]
		beta := (b1 + b2) / 2
		cuts = cuts[:0]
		cuts = append(cuts, 0, 1)
		for j := 1; j < L; j++ {
			_, fr := math.Modf(float64(j) * beta)
			if fr > 0 {
				cuts = append(cuts, 1-fr)
			}
		}
		slices.Sort(cuts)
		for c := 0; c+1 < len(cuts); c++ {
			width := cuts[c+1] - cuts[c]
			if width <= 0 {
				continue
			}
			theta := (cuts[c] + cuts[c+1]) / 2
			var mask uint64
			prev := math.Floor(theta)
			for j := 1; j < L; j++ {
				x := math.Floor(theta + float64(j)*beta)
				if x != prev {
					mask |= 1 << (j - 1)
				}
				prev = x
			}
			at, ok := index[mask]
			if !ok {
				at = len(masks)
				index[mask] = at
				masks = append(masks, mask)
				areas = append(areas, 0)
			}
			areas[at] += width * (b2 - b1)
		}
	}
	return masks, areas
}

// wrapSpanLaw returns P(W_(i+s) - W_i = j), j = 0..s: 1/s for 0 < j < s,
// 1/(2s) for j = 0 and j = s.
func wrapSpanLaw(s int) []float64 {
	p := make([]float64, s+1)
	for j := range p {
		p[j] = 1 / float64(s)
	}
	p[0], p[s] = 1/float64(2*s), 1/float64(2*s)
	return p
}

// pairCount returns M^2 E[C(c, 2)]: over a query's position pairs (u < v)
// and a key's ordered pairs (i != j), the probability that y_i = x_u and
// y_j = x_v is 1/M times gcd(s1, s2, M)/M if the odd part of that gcd
// divides the difference of the wrap counts (its 2-part divides wrap),
// with s1 = v - u and s2 = j - i.
func pairCount(m uint64, k int, wrap uint64) float64 {
	laws := make([][]float64, k)
	for s := 1; s < k; s++ {
		laws[s] = wrapSpanLaw(s)
	}
	var total float64
	for s1 := 1; s1 < k; s1++ {
		for s2 := 1; s2 < k; s2++ {
			g := gcd64(gcd64(uint64(s1), uint64(s2)), m)
			odd := g >> bits.TrailingZeros64(g)
			var p float64 = 2
			if wrap != 0 && odd > 1 {
				// P(odd | W' - W) + P(odd | W' + W) for the key's span s2
				// and the query's span s1.
				p = 0
				for a, pa := range laws[s2] {
					for b, pb := range laws[s1] {
						if (a-b)%int(odd) == 0 {
							p += pa * pb
						}
						if (a+b)%int(odd) == 0 {
							p += pa * pb
						}
					}
				}
			}
			total += float64(k-s1) * float64(k-s2) * float64(g) * p
		}
	}
	return total
}

// lineWeights returns h[L], the weighted number of matchable sub-lines of
// L >= 3 points: for each line of the k x k grid of (key probe, query
// probe) pairs with a primitive direction (q, p), q >= 1, p != 0, and each
// divisor e of m below its length, φ(e) times each of its e classes of
// every e-th point.
func lineWeights(m uint64, k int) []float64 {
	h := make([]float64, k+1)
	var divs []int
	var phis []float64
	for e := 1; e < k; e++ {
		if m%uint64(e) == 0 {
			divs = append(divs, e)
			phis = append(phis, float64(totient(uint64(e))))
		}
	}
	for q := 1; q < k; q++ {
		for p := -(k - 1); p < k; p++ {
			if p == 0 || gcd64(uint64(q), uint64(abs(p))) != 1 {
				continue
			}
			for i0 := range k {
				for u0 := range k {
					if pi, pu := i0-q, u0-p; pi >= 0 && pi < k && pu >= 0 && pu < k {
						continue // not the first point of its line
					}
					L := 0
					for i, u := i0, u0; i >= 0 && i < k && u >= 0 && u < k; i, u = i+q, u+p {
						L++
					}
					for x, e := range divs {
						if 2*e >= L {
							break
						}
						w := phis[x]
						for t0 := range e {
							if c := (L - t0 + e - 1) / e; c >= 3 {
								h[c] += w
							}
						}
					}
				}
			}
		}
	}
	return h
}

// wrapTop is the longest line for which wrapCollinear computes C_j(L).
const wrapTop = 10

var (
	wrapOnce  sync.Once
	wrapTable [][]float64
)

// wrapCollinear returns C[L][j], L <= wrapTop: the expected number of
// j-subsets of the points (t, W'_t - W_t), t < L, that lie on one line,
// W and W' independent wrap patterns (a key and a query along a line):
// the subsets a key that matches the line at two points matches in full.
func wrapCollinear() [][]float64 {
	wrapOnce.Do(func() {
		wrapTable = make([][]float64, wrapTop+1)
		for L := 3; L <= wrapTop; L++ {
			masks, areas := sturmian(L)
			c := make([]float64, L+1)
			w1 := make([]int, L)
			w2 := make([]int, L)
			d := make([]int, L)
			for a, ma := range masks {
				for i := 1; i < L; i++ {
					w1[i] = w1[i-1] + int(ma>>(i-1)&1)
				}
				for b, mb := range masks {
					for i := 1; i < L; i++ {
						w2[i] = w2[i-1] + int(mb>>(i-1)&1)
					}
					for i := range d {
						d[i] = w2[i] - w1[i]
					}
					p := areas[a] * areas[b]
					for i := range L {
						for j := i + 1; j < L; j++ {
							dx, dy := j-i, d[j]-d[i]
							first, cnt := true, 2
							for t := range L {
								if t == i || t == j || (t-i)*dy != (d[t]-d[i])*dx {
									continue
								}
								if t < j {
									first = false
									break
								}
								cnt++
							}
							if first {
								for jj := 3; jj <= cnt; jj++ {
									c[jj] += p * binom(cnt, jj)
								}
							}
						}
					}
				}
			}
			wrapTable[L] = c
		}
	})
	return wrapTable
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// modInverse returns the inverse of a modulo n (gcd(a, n) = 1, n < 2^63).
func modInverse(a, n uint64) uint64 {
	if n == 1 {
		return 0
	}
	t, nt := int64(0), int64(1)
	r, nr := int64(n), int64(a%n)
	for nr != 0 {
		q := r / nr
		t, nt = nt, t-q*nt
		r, nr = nr, r-q*nr
	}
	if t < 0 {
		t += int64(n)
	}
	return uint64(t)
}

// totient returns Euler's φ(n).
func totient(n uint64) uint64 {
	r := n
	for p := uint64(2); p*p <= n; p++ {
		if n%p == 0 {
			for n%p == 0 {
				n /= p
			}
			r -= r / p
		}
	}
	if n > 1 {
		r -= r / n
	}
	return r
}

// binom returns C(n, j) as a float64.
func binom(n, j int) float64 {
	if j < 0 || j > n {
		return 0
	}
	c := 1.0
	for i := range j {
		c = c * float64(n-i) / float64(i+1)
	}
	return c
}
