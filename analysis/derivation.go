package analysis

import (
	"math"
	"slices"
)

// MaxDerivationHashes is the most hashes [NewDerivationRate] takes: the
// line measures are tabulated up to lines of this many points (computing
// them grows as k^7), and the law of distinct cells, whose work grows
// about as k^4 for double hashing, takes about 50 ms at this k.
const MaxDerivationHashes = 24

// MaxDerivationBits is the largest table, in bits, for which
// [NewDerivationRate] computes the rate: the law of distinct cells
// integrates over pieces of y about 1/k^2 cells long, which float64
// positions i m y resolve to 2^-18 cells up to this size. Beyond it the
// derivations' excess over [ExactFPR] is of order k^2/m, below 10^-7.
const MaxDerivationBits = 1 << 32

// The derivation names [NewDerivationRate] takes, as package variants
// prints its Derivation values.
const (
	// DerivationEnhancedDouble is enhanced double hashing, variants'
	// default: g_i = h1 + i h2 + w (i^3 - i)/6, w = 0x9e3779b97f4a7c15.
	DerivationEnhancedDouble = "enhanced-double"
	// DerivationDouble is plain double hashing: g_i = h1 + i h2.
	DerivationDouble = "double"
	// DerivationTriple is triple hashing: g_i = h1 + i h2 + (i^2 - i)/2 h3.
	DerivationTriple = "triple"
	// DerivationIndependent is k independent cells, whose rate is
	// [ExactFPR]'s.
	DerivationIndependent = "independent"
)

// weylConst is 0x9e3779b97f4a7c15, the enhanced derivation's multiplier
// of its cubic term (see variants.EnhancedDouble).
const weylConst uint64 = 0x9e3779b97f4a7c15

// DerivationRate is the false-positive rate of a standard filter of m bits
// and k hashes whose keys and queries derive their k cells as package
// variants does: 64-bit values g_i from the digest (h1, h2), each mapped
// to the cell floor(g_i m / 2^64) by multiply-shift, (h1, h2) uniform and
// independent between keys, the query's too.
//
//   - "double": g_i = h1 + i h2.
//   - "enhanced-double": g_i = h1 + i h2 + w (i^3 - i)/6, w =
//     0x9e3779b97f4a7c15.
//   - "triple": g_i = h1 + i h2 + (i^2 - i)/2 h3, h3 (a bijective mix of
//     h1 xor h2 in variants) taken as a third uniform value.
//   - "independent": k independent uniform cells: [ExactFPR].
//
// The model is the continuous limit x = h1/2^64, y = h2/2^64 uniform on the
// torus, where a key's cells are floor(m frac(x + i y + w_i)), w_i the
// derivation's fixed offsets (exact up to the 64-bit grid, m k / 2^64).
// Any two cells of a key are then independent and uniform, as independent
// probes' are (any three for triple hashing); what differs is how more
// cells of a key, or of a key and a query, fall together. The rate has
// two parts ([DerivationRate.Terms]).
//
// Mixture: exact for the model it states. For double and enhanced double
// hashing the law of the number D of distinct cells of a key (and of a
// query) is computed exactly: cells i
// and j can coincide only where (j - i) y + w_j - w_i lies within 1/m of an
// integer (a window of y); inside the windows, between the points where
// such a sum over two of the cells involved is a multiple of 1/m, the
// x-measure of each value of D is linear in y, so each piece is
// integrated exactly by its midpoint. Near y = p/q double hashing makes
// cell i share its cell with i + q, i + 2q, ... at once (a cluster), where
// independent probes collide by pairs: fewer keys lose a cell, some lose
// many, and a query with few distinct cells is a false positive far more
// often. Triple hashing has clusters too: cells i and s - i differ by
// (s - 2i)(y + (s - 1) z/2), so the pairs of one centre s coincide
// together; its law is exact to first order in 1/m (see
// tripleDistinctLaw). The mixture is the exact rate of a filter whose keys set
// uniformly random sets of D distinct cells and whose query tests a
// uniformly random set of d cells, D and d of that law (a Markov chain
// over how many of k given cells are set, raised to the n-th power).
//
// Lines: first order in n/m^2. A key and a query are both progressions.
// A key whose step y' has α y' ≈ β y + p (α >= 1, β != 0 coprime, both
// below k) and whose start lines up covers the query's cells along a line
// of the k x k grid of (key probe, query probe) pairs, or with α y' - β y
// near p'/q' every q'-th point of it (weight φ(q')/q'). Along a (sub-)line
// of L points the law of the number c of the query's cells covered is
// universal: with the query's cell phases frac(φ + t θ), (φ, θ) uniform,
// the keys covering them form a region of measure m^-2 times that of
// pairs of digital line segments floor(D + t E) whose differences lie on
// one line of integer slope, computed exactly over the Sturmian patterns
// of L points (tabulated in derivation_lines.go; a test recomputes it). A
// query with k distinct cells then has rate f^k (1 + (n/m^2) S3), f the
// expected fill 1 - (1 - E[D]/m)^n, r = (1 - f)/f, S3 the sum over
// (sub-)lines of sum over j >= 3 of E[C(c, j)] r^j (pairs, j = 2, are in
// the mixture). Enhanced double hashing keeps the lines along which its
// cubic offsets cancel exactly (the diagonal, key probe i against query
// probe i, and its sub-lines); triple hashing has none (a line needs a
// third parameter within 1/m).
//
// Neglected: second order in n/m^2 (two aligned keys at once); three or
// more matches off a line, and aligned keys meeting queries with d < k
// cells (both order m^-3); the key's probes off the line (order k^2/m of
// the line term); enhanced double hashing's near-lines, whose offsets are
// off affine by the distance from an integer multiple of w to the nearest
// integer, which m makes small for few multiples only; for triple hashing
// the joint clusters of several centres (order k^4/m^2, taken as
// independent) and its lines, which need the key's third value within
// 1/m of one fixed by the query (order 1/m^3). Against seeded Monte Carlo
// of the derivations the rate is within 2.1 standard errors at the 20
// geometries of paper-notes.md §13e1, from +0.05% to +115% over
// [ExactFPR].
type DerivationRate struct {
	m     uint64
	k     int
	pd    []float64 // P(D = d) for a key or a query, d = 0..k
	mu    float64   // E[D]
	lines []float64 // lines[L]: total weight of sub-lines of L >= 3 points
}

// NewDerivationRate returns the rate model of derivation (one of
// "double", "enhanced-double", "triple", "independent") for a standard
// filter of m bits and k hashes. Its work does not depend on m; it is
// bounded by the number of hashes. It reports an error wrapping
// [ErrInvalidParams] unless 1 <= m <= [MaxDerivationBits] and
// 1 <= k <= [MaxDerivationHashes], and for an unknown derivation.
func NewDerivationRate(m uint64, k int, derivation string) (DerivationRate, error) {
	if m < 1 || m > MaxDerivationBits {
		return DerivationRate{}, invalid("derivation rate over m = %d bits; want 1 to %d", m, uint64(MaxDerivationBits))
	}
	if k < 1 || k > MaxDerivationHashes {
		return DerivationRate{}, invalid("derivation rate with k = %d; want 1 <= k <= %d (lines up to that length are tabulated)", k, MaxDerivationHashes)
	}
	dr := DerivationRate{m: m, k: k}
	switch derivation {
	case DerivationDouble:
		dr.pd = msDistinctLaw(m, k, make([]float64, k))
		dr.lines = msLineWeights(k, nil)
	case DerivationEnhancedDouble:
		w := enhancedOffsets(k)
		wf := make([]float64, k)
		for i, x := range w {
			wf[i] = math.Ldexp(float64(x), -64)
		}
		dr.pd = msDistinctLaw(m, k, wf)
		dr.lines = msLineWeights(k, w)
	case DerivationTriple:
		dr.pd = tripleDistinctLaw(m, k)
		dr.lines = make([]float64, k+1)
	case DerivationIndependent:
		dr.pd = independentDistinctLaw(m, k)
		dr.lines = make([]float64, k+1)
	default:
		return DerivationRate{}, invalid("derivation %q; want %q, %q, %q or %q", derivation,
			DerivationEnhancedDouble, DerivationDouble, DerivationTriple, DerivationIndependent)
	}
	var sum float64
	for _, p := range dr.pd {
		sum += p
	}
	for d := range dr.pd {
		dr.pd[d] /= sum // sum = 1 up to rounding, which n steps would amplify
		dr.mu += float64(d) * dr.pd[d]
	}
	return dr, nil
}

// DerivationFPR returns the false-positive rate of a standard filter of m
// bits, k hashes and n keys under the named derivation (see
// [DerivationRate]). It is NewDerivationRate(m, k, derivation).FPR(n).
func DerivationFPR(m, n uint64, k int, derivation string) (float64, error) {
	dr, err := NewDerivationRate(m, k, derivation)
	if err != nil {
		return 0, err
	}
	return dr.FPR(n), nil
}

// Distinct returns P(D = d), d = 0..k, the law of the number of distinct
// cells of a key (and of a query).
func (dr DerivationRate) Distinct() []float64 { return slices.Clone(dr.pd) }

// DerivationTerms are the parts of a [DerivationRate] with n keys.
type DerivationTerms struct {
	Mixture float64 // the exact rate of random sets of the derivation's distinct-cell law
	Lines   float64 // the first-order rate added by keys aligned with the query
}

// FPR returns the rate with n keys, Mixture + Lines: 0 for n = 0.
func (dr DerivationRate) FPR(n uint64) float64 {
	t := dr.Terms(n)
	return min(t.Mixture+t.Lines, 1)
}

// Terms returns the two parts of the rate with n keys.
func (dr DerivationRate) Terms(n uint64) DerivationTerms {
	if n == 0 {
		return DerivationTerms{}
	}
	k := dr.k
	mf, nf := float64(dr.m), float64(n)
	mix := dr.mixture(n)
	var lines float64
	f := -math.Expm1(nf * math.Log1p(-dr.mu/mf))
	if f > 0 && f < 1 {
		r := (1 - f) / f
		var s3 float64
		for L, w := range dr.lines {
			if w == 0 {
				continue
			}
			for j, a := range lineTable[L-3] {
				s3 += w * a * math.Pow(r, float64(j+3))
			}
		}
		lines = dr.pd[k] * math.Pow(f, float64(k)) * nf / (mf * mf) * s3
	}
	return DerivationTerms{Mixture: mix, Lines: lines}
}

// mixture returns the rate of the model in which each key sets a uniformly
// random set of D cells and a query tests one of d, D and d of law pd,
// independent. Over K = min(k, m) given cells the number J of them that
// are set after n keys is a Markov chain whose step (one key) is
// hypergeometric given D; n steps are the n-th power of its upper
// triangular matrix, taken by repeated squaring, all terms positive (no
// cancellation at any load). By symmetry d given cells are all set with
// probability E[C(J, d)]/C(K, d).
func (dr DerivationRate) mixture(n uint64) float64 {
	K := dr.k
	if uint64(K) > dr.m {
		K = int(dr.m)
	}
	mf := float64(dr.m)
	// step[j][j+i]: a key sets i of the K - j unset given cells.
	step := newSquare(K + 1)
	for j := 0; j <= K; j++ {
		u := float64(K - j)
		for D, p := range dr.pd {
			if p == 0 || uint64(D) > dr.m { // more cells than the table: rounding
				continue
			}
			for i := 0; i <= min(D, K-j); i++ {
				// C(D, i) (u)_i (m - u)_(D-i) / (m)_D
				v := binom(D, i)
				for a := range i {
					v *= (u - float64(a)) / (mf - float64(a))
				}
				for b := range D - i {
					v *= (mf - u - float64(b)) / (mf - float64(i) - float64(b))
				}
				if v > 0 {
					step[j][j+i] += p * v
				}
			}
		}
	}
	normalizeRows(step)
	// dist = row 0 of step^n.
	dist := make([]float64, K+1)
	dist[0] = 1
	pow := step
	for e := n; e > 0; e >>= 1 {
		if e&1 == 1 {
			next := make([]float64, K+1)
			for j, v := range dist {
				if v == 0 {
					continue
				}
				for l := j; l <= K; l++ {
					next[l] += v * pow[j][l]
				}
			}
			dist = next
		}
		if e > 1 {
			pow = mulUpper(pow, pow)
			normalizeRows(pow)
		}
	}
	var rate float64
	for d, p := range dr.pd {
		if p == 0 || d == 0 || d > K {
			continue
		}
		var e float64
		for j := d; j <= K; j++ {
			e += dist[j] * binom(j, d)
		}
		rate += p * e / binom(K, d)
	}
	return min(rate, 1)
}

// normalizeRows scales the rows of a stochastic matrix to sum to 1, so
// that rounding does not compound over the squarings of its powers.
func normalizeRows(a [][]float64) {
	for _, row := range a {
		var s float64
		for _, v := range row {
			s += v
		}
		if s > 0 {
			for j := range row {
				row[j] /= s
			}
		}
	}
}

// newSquare returns an n x n matrix of zeros.
func newSquare(n int) [][]float64 {
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
	}
	return a
}

// mulUpper returns a b for upper triangular a and b.
func mulUpper(a, b [][]float64) [][]float64 {
	n := len(a)
	c := newSquare(n)
	for i := range n {
		for l := i; l < n; l++ {
			if a[i][l] == 0 {
				continue
			}
			for j := l; j < n; j++ {
				c[i][j] += a[i][l] * b[l][j]
			}
		}
	}
	return c
}

// enhancedOffsets returns w (i^3 - i)/6 mod 2^64, i < k.
func enhancedOffsets(k int) []uint64 {
	w := make([]uint64, k)
	for i := range w {
		c := uint64(i) * uint64(i) * uint64(i)
		w[i] = weylConst * ((c - uint64(i)) / 6)
	}
	return w
}

// independentDistinctLaw returns the law of the number of distinct values
// among k independent uniform cells of m: a recurrence over the probes.
func independentDistinctLaw(m uint64, k int) []float64 {
	mf := float64(m)
	p := make([]float64, k+1)
	p[0] = 1
	for range k {
		q := make([]float64, k+1)
		for d, v := range p {
			if v == 0 {
				continue
			}
			q[d] += v * math.Min(float64(d)/mf, 1)
			if d < k {
				q[d+1] += v * math.Max(1-float64(d)/mf, 0)
			}
		}
		p = q
	}
	return p
}

// tripleDistinctLaw returns the law of the number of distinct cells
// among floor(m frac(x + i y + C(i, 2) z)), i < k, (x, y, z) uniform.
// Cells i < j differ by (j - i) u_s, u_s = y + (s - 1) z/2 with s = i + j:
// the pairs of one centre s (disjoint, of differences δ = s - 2i) share
// u_s, so near u_s = p/q they coincide together, a cluster. Given u_s the
// pair of difference δ coincides with probability (1 - m ||δ u_s||)^+
// over its cell phase, and the phases of a centre's pairs turn at
// different rates in the free direction (x, z), so the pairs coincide
// independently given u_s up to order 1/m. Per centre the number of its
// coinciding pairs has a law integrated exactly over u_s (piecewise
// polynomial of degree below k/2 between the breakpoints (p ± 1/m)/δ and
// p/δ, by Gauss-Legendre of 8 nodes); the centres, whose u_s are jointly
// uniform, are combined as independent, and each coinciding pair removes
// one distinct cell. Exact to first order in 1/m; the joint events of
// several centres (order k^4/m^2) are taken as independent, as they are
// for independent probes.
func tripleDistinctLaw(m uint64, k int) []float64 {
	mf := float64(m)
	total := []float64{1}
	var cuts []float64
	var deltas []float64
	for s := 1; s <= 2*k-3; s++ {
		deltas = deltas[:0]
		for i := max(0, s-(k-1)); 2*i < s; i++ {
			deltas = append(deltas, float64(s-2*i))
		}
		if len(deltas) == 0 {
			continue
		}
		cuts = append(cuts[:0], 0, 1)
		for _, d := range deltas {
			for p := 0.0; p <= d; p++ {
				for _, e := range []float64{-1 / mf, 0, 1 / mf} {
					if u := (p + e) / d; u > 0 && u < 1 {
						cuts = append(cuts, u)
					}
				}
			}
		}
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		law := make([]float64, len(deltas)+1)
		dp := make([]float64, len(deltas)+1)
		for c := 0; c+1 < len(cuts); c++ {
			a, b := cuts[c], cuts[c+1]
			for g, x := range gaussNodes {
				u := (a+b)/2 + (b-a)/2*x
				clear(dp)
				dp[0] = 1
				for r, d := range deltas {
					_, fr := math.Modf(d * u)
					q := math.Max(1-mf*math.Min(fr, 1-fr), 0)
					for j := r + 1; j > 0; j-- {
						dp[j] = dp[j]*(1-q) + dp[j-1]*q
					}
					dp[0] *= 1 - q
				}
				wt := (b - a) / 2 * gaussWeights[g]
				for j, v := range dp {
					law[j] += wt * v
				}
			}
		}
		next := make([]float64, len(total)+len(law)-1)
		for i, v := range total {
			for j, w := range law {
				next[i+j] += v * w
			}
		}
		total = next
	}
	pd := make([]float64, k+1)
	for r, v := range total {
		pd[max(k-r, 1)] += v
	}
	return pd
}

// gaussNodes and gaussWeights are the 8-point Gauss-Legendre rule on
// [-1, 1], exact for polynomials of degree up to 15.
var (
	gaussNodes = [8]float64{-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
		0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363}
	gaussWeights = [8]float64{0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
		0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763}
)

// msDistinctLaw returns P(D = d), d = 0..k, for the cells
// floor(m frac(x + i y + w_i)), (x, y) uniform on the torus. In units of
// cells, X = m x and Y = m y; translating X by one cell translates every
// cell, so X ranges over [0, 1). Cells i and j can coincide only when
// (j - i) Y + W_j - W_i (W = m w) lies within 1 of a multiple of m: the
// pair's windows. Between consecutive window ends the set of pairs that
// can coincide is fixed, and so is the set I of their cells; in the
// pieces between the points where (j - i) Y + W_j - W_i is an integer for
// i, j in I, the circular order of the X-breakpoints frac(-(i Y + W_i)),
// i in I, and the integer parts that decide whether two cells coincide
// are fixed, so each value of D has an X-measure linear in Y, integrated
// exactly by the piece's midpoint.
func msDistinctLaw(m uint64, k int, w []float64) []float64 {
	mf := float64(m)
	W := make([]float64, k)
	for i, x := range w {
		W[i] = math.Mod(x*mf, mf)
	}
	type event struct {
		y    float64
		pair int // i k + j
		open bool
	}
	var ev []event
	add := func(lo, hi float64, pair int) {
		switch {
		case hi > mf:
			ev = append(ev, event{lo, pair, true}, event{mf, pair, false}, event{0, pair, true}, event{hi - mf, pair, false})
		case lo < 0:
			ev = append(ev, event{0, pair, true}, event{hi, pair, false}, event{lo + mf, pair, true}, event{mf, pair, false})
		default:
			ev = append(ev, event{lo, pair, true}, event{hi, pair, false})
		}
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			s := float64(j - i)
			dw := W[j] - W[i]
			h := math.Min(1/s, mf/2)
			for p := 0; p < j-i; p++ {
				c := math.Mod((mf*float64(p)-dw)/s, mf)
				if c < 0 {
					c += mf
				}
				add(c-h, c+h, i*k+j)
			}
		}
	}
	slices.SortFunc(ev, func(a, b event) int {
		switch {
		case a.y < b.y:
			return -1
		case a.y > b.y:
			return 1
		}
		return 0
	})
	active := make([]int, k*k)
	byCell := make([]int, k)
	pd := make([]float64, k+1)
	var covered float64
	var cuts, xs []float64
	var in []int
	cells := make([]float64, k)
	for e := 0; e < len(ev); {
		y0 := ev[e].y
		for ; e < len(ev) && ev[e].y == y0; e++ {
			d := 1
			if !ev[e].open {
				d = -1
			}
			active[ev[e].pair] += d
			byCell[ev[e].pair/k] += d
			byCell[ev[e].pair%k] += d
		}
		if e == len(ev) {
			break
		}
		y1 := ev[e].y
		in = in[:0]
		for i, c := range byCell {
			if c > 0 {
				in = append(in, i)
			}
		}
		if len(in) == 0 || y1 <= y0 {
			continue
		}
		covered += y1 - y0
		cuts = append(cuts[:0], y0, y1)
		for a, i := range in {
			for _, j := range in[a+1:] {
				sf, dw := float64(j-i), W[j]-W[i]
				for t := math.Ceil(sf*y0 + dw); t <= math.Floor(sf*y1+dw); t++ {
					if y := (t - dw) / sf; y > y0 && y < y1 {
						cuts = append(cuts, y)
					}
				}
			}
		}
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		for c := 0; c+1 < len(cuts); c++ {
			width := cuts[c+1] - cuts[c]
			if width <= 0 {
				continue
			}
			y := (cuts[c] + cuts[c+1]) / 2
			xs = append(xs[:0], 0, 1)
			for _, i := range in {
				_, fr := math.Modf(float64(i)*y + W[i])
				if fr > 0 {
					xs = append(xs, 1-fr)
				}
			}
			slices.Sort(xs)
			for a := 0; a+1 < len(xs); a++ {
				l := xs[a+1] - xs[a]
				if l <= 0 {
					continue
				}
				x := (xs[a] + xs[a+1]) / 2
				for _, i := range in {
					cells[i] = math.Mod(math.Floor(x+float64(i)*y+W[i]), mf)
				}
				d := k
				for a, i := range in {
					for _, j := range in[:a] {
						if cells[j] == cells[i] {
							d--
							break
						}
					}
				}
				pd[d] += width / mf * l
			}
		}
	}
	pd[k] += 1 - covered/mf
	return pd
}

// msLineWeights returns lines[L], L >= 3: the weight of the sub-lines of
// L points of the k x k grid of (key probe i, query probe a) pairs along
// which a key can match a query. A primitive direction (α, β), α >= 1,
// β != 0, gives maximal lines of the grid; each of its classes of every
// q'-th point (q' >= 1, a key with α y' - β y near p'/q', φ(q') values of
// p') weighs φ(q')/q'. With offsets (enhanced double hashing) a sub-line
// counts only if w_i - w_a is affine along it, exactly, in 64-bit
// arithmetic; offsets nil count every one.
func msLineWeights(k int, w []uint64) []float64 {
	h := make([]float64, k+1)
	var ti, ta []int
	for al := 1; al < k; al++ {
		for be := -(k - 1); be < k; be++ {
			if be == 0 || gcd64(uint64(al), uint64(abs(be))) != 1 {
				continue
			}
			for i0 := range k {
				for a0 := range k {
					if pi, pa := i0-al, a0-be; pi >= 0 && pi < k && pa >= 0 && pa < k {
						continue // not the first point of its line
					}
					ti, ta = ti[:0], ta[:0]
					for i, a := i0, a0; i >= 0 && i < k && a >= 0 && a < k; i, a = i+al, a+be {
						ti = append(ti, i)
						ta = append(ta, a)
					}
					L := len(ti)
					for q := 1; 2*q < L; q++ {
						wq := float64(totient(uint64(q))) / float64(q)
						for t0 := range q {
							c := 0
							affine := true
							var o0, o1 uint64
							for t := t0; t < L; t += q {
								if w != nil {
									o := w[ti[t]] - w[ta[t]]
									switch c {
									case 0:
										o0 = o
									case 1:
										o1 = o - o0
									default:
										if o != o0+uint64(c)*o1 {
											affine = false
										}
									}
								}
								c++
							}
							if c >= 3 && affine {
								h[c] += wq
							}
						}
					}
				}
			}
		}
	}
	return h
}

// lineMeasure returns A[j], j = 0..L: m^2 times the expected number of
// j-subsets of the L query cells along a line that a key covers, summed
// over the keys near the line: the mean over two digital line segments
// N_t = floor(φ + t θ) and N'_t = floor(φ' + t θ'), t < L, (φ, θ) and
// (φ', θ') uniform on [0, 1)^2 (the query's cell phases and the key's
// offset from the line), of the number of j-subsets of the points
// (t, N_t - N'_t) on one line of integer slope. A[2] = sum over s < L of
// (L - s)/s, which is what independent pairs give. It sums over the
// pairs of Sturmian patterns of L points, each with its exact probability;
// lineTable holds its values for L = 3 .. MaxDerivationHashes.
func lineMeasure(L int) []float64 {
	masks, areas := sturmian(L)
	seqs := make([][]int, len(masks))
	for p, mk := range masks {
		s := make([]int, L)
		for t := 1; t < L; t++ {
			s[t] = s[t-1] + int(mk>>(t-1)&1)
		}
		seqs[p] = s
	}
	a := make([]float64, L+1)
	cnt := make([]int, 4*L+2)
	acc := make([]float64, L+1) // acc[c]: weight of lines of c points
	// The pair (q, p) mirrors (p, q): differences negated, slopes too.
	for p, sp := range seqs {
		for q := p; q < len(seqs); q++ {
			sq := seqs[q]
			pr := areas[p] * areas[q]
			if q != p {
				pr *= 2
			}
			for b := -1; b <= 1; b++ {
				for t := range L {
					cnt[sp[t]-sq[t]-t*b+2*L]++
				}
				for t := range L {
					v := sp[t] - sq[t] - t*b + 2*L
					if c := cnt[v]; c > 0 {
						acc[c] += pr
						cnt[v] = 0
					}
				}
			}
		}
	}
	for c, v := range acc {
		for j := 2; j <= c; j++ {
			a[j] += v * binom(c, j)
		}
	}
	return a
}
