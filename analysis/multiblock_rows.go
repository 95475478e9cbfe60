package analysis

import "math"

// The rate of an overlapping multiblock layout by rows (overlapRows).
//
// The inclusion-exclusion sum of [Multiblock.FPR] over the bits S of the
// query that are to stay clear needs, for every start a that meets the
// query's block, the probability p_a that a key of that start hits S. A
// multiblock key sets one bit in each of its G windows, so
//
//	p_a = 1 - (1 - 1/w)^(x - 2y) (1 - 2/w)^y,
//
// x the bits of S inside the key's block and y the key windows that hold
// two of them (one query bit per window, and a key window of w bits meets
// at most two query windows). Group the starts by their offset from the
// query's modulo the window, in cells: the row r = offset mod C. In row r
// a key's window j covers the cells [r, C) of query window q+j and [0, r)
// of window q+j+1, so the query bit of window i (in cell c_i) falls in
// "column" i of that row if c_i >= r and in column i-1 if c_i < r, and the
// keys of the row are runs of G consecutive columns: a prefix of the
// columns for a start before the query's, a suffix for one after. Given
// which windows hold a bit of S and which of those bits have moved one
// column left, a row's keys are a function of the column counts alone.
//
// So the sum runs over the rows in order with the state, per query window,
// of three values: no bit of S, a bit of S still in its column (c_i >= r),
// or a bit of S moved (c_i < r), 3^G states. It starts with every bit of
// S unmoved and the sign (-1)^|S|, multiplies each state by its row's
// factor, and between rows r-1 and r moves each unmoved bit with
// probability 1/(C - r + 1), the chance that c_i = r - 1 given c_i >= r -
// 1 (cells uniform and independent). A row's factor comes from walks over
// the windows, from the left for the keys before the query's start and
// from the right for those after, split at the middle window so that each
// half is walked once per summary (x, y and the straddling bit) of the
// other. The work is of the order of 3^G C G whatever n and P, the memory
// three float64 per state: at a byte stride (C = w/8) 4.8 million states,
// 115 MB and 0.8 s of CPU for multiblock<uint64_t, 14>, 1, where the sum by
// count vectors has 9^14 leaves.
//
// The key counts: with the n keys' starts independent and uniform, S stays
// clear with probability (1 - H/P)^n, H = sum_a p_a. The rows carry
// exp(-lambda H), lambda = n/P, and its first two moments in H, sum of
// weight H^j exp(-lambda H) for j = 0, 1, 2 (H adds up over the rows), and
// the result is the sum of the terms of
//
//	(1 - H/P)^n = exp(-lambda H) (1 - lambda H^2 / (2P) + R),
//
// with |R| of the order of lambda H^3 / P^2 + (lambda H^2 / P)^2 / 8 (H
// is at most G^2/s at a stride of s bits): below 1e-9 of a term in
// Boost's table (P > 10^7, H < 25). The rows' combinatorics is exact: with
// exp(-lambda H) for the binomial factor in both, the sums by rows and by
// count vectors agree to rounding (1e-12); with the binomial factor, to
// 3e-12 at Boost's multiblock<uint64_t, 8>, 1 (c = 12) and
// fast_multiblock32<11>, 1 (c = 16), whose sums by count vectors take two
// minutes each, and to 2.4e-6 at P = 3000, where the truncation shows.
// Below the count vectors' budget FPR keeps their sum, exact for any P.

// overlapRowBudget bounds the work of overlapRows, states times rows times
// windows; with overlapRowMaxWindows it also bounds the memory, three
// float64 per state (115 MB at 3^14 states).
const overlapRowBudget = 1e9

// overlapRowMaxWindows bounds G for overlapRows: 3^14 states.
const overlapRowMaxWindows = 14

// overlapRowWork returns the work of overlapRows, or +Inf beyond
// overlapRowMaxWindows.
func (b Multiblock) overlapRowWork() float64 {
	if !b.Multi || b.Windows() > overlapRowMaxWindows {
		return math.Inf(1)
	}
	_, cells, _ := b.cellGeometry()
	return math.Pow(3, float64(b.Windows())) * float64(cells) * float64(b.Windows()+1)
}

// rowKeys is the keys of one row: pre[e] for a start before the query's
// whose block ends at column e (stored at e+1, e from -1), suf[q] for one
// at or after it whose block begins at column q.
type rowKeys struct {
	pre, suf []bool
	any      bool
}

// overlapRows returns the rate of an overlapping multiblock layout by rows
// (see above); with poisson it takes exp(-lambda H) for the binomial
// factor, the model the test compares with the count-vector sum.
func (b Multiblock) overlapRows(n uint64, poisson bool) float64 {
	sum, _ := b.overlapRowsSum(n, poisson)
	return min(max(sum, 0), 1)
}

// overlapRowsSum is overlapRows's sum before clamping, and the sum of the
// magnitudes of the final states' terms (see cancelled): a lower bound on
// the magnitudes of all the terms, since the states already hold sums.
func (b Multiblock) overlapRowsSum(n uint64, poisson bool) (sum, abs float64) {
	_, cells, _ := b.cellGeometry()
	C, G := int(cells), b.Windows()
	w := float64(b.WordBits)
	p, nf := float64(b.Starts()), float64(n)
	lambda := nf / p
	rows := make([]rowKeys, C)
	for r := range rows {
		rows[r] = rowKeys{pre: make([]bool, G+1), suf: make([]bool, G)}
	}
	for _, off := range b.overlapStarts() {
		r := ((off % C) + C) % C
		q := (off - r) / C
		rk := &rows[r]
		if q < 0 {
			rk.pre[q+G] = true // end column q+G-1, stored at q+G
		} else {
			rk.suf[q] = true
		}
		rk.any = true
	}
	// The hit probability and its factor by (x, y).
	l1, l2 := math.Log1p(-1/w), math.Log1p(-2/w)
	hit := make([][]float64, G+1)
	fac := make([][]float64, G+1)
	for x := range hit {
		hit[x] = make([]float64, x/2+1)
		fac[x] = make([]float64, x/2+1)
		for y := range hit[x] {
			h := -math.Expm1(float64(x-2*y)*l1 + float64(y)*l2)
			hit[x][y], fac[x][y] = h, math.Exp(-lambda*h)
		}
	}
	pow3 := make([]int, G+1)
	pow3[0] = 1
	for i := 1; i <= G; i++ {
		pow3[i] = 3 * pow3[i-1]
	}
	N := pow3[G]
	m := make([]float64, 3*N) // moments j = 0, 1, 2 of H, interleaved
	// Every bit of S unmoved, sign (-1)^|S|.
	var initS func(i, idx int, sign float64)
	initS = func(i, idx int, sign float64) {
		if i == G {
			m[3*idx] = sign
			return
		}
		initS(i+1, idx, sign)
		initS(i+1, idx+pow3[i], -sign)
	}
	initS(0, 0, 1)

	// The windows split into a low half 0..h-1 and a high half h..G-1,
	// idx = low + 3^h high. The prefix keys that end within the low half
	// depend on the low digits only (lowH, lowF); the others on the high
	// digits and the low half's summary (its x, y, and whether bit h-1 is
	// unmoved), tabulated per high index as the suffix walk reaches it.
	h := G / 2
	lowN := pow3[h]
	nY := h/2 + 1
	nS := (h + 1) * nY * 2
	lowH := make([]float64, lowN)
	lowF := make([]float64, lowN)
	lowS := make([]int32, lowN)
	tH := make([]float64, nS)
	tF := make([]float64, nS)
	dig := make([]int, G)
	var rk *rowKeys
	// column takes a walk one column on: the column gets the pending bit
	// (pend) and one more if its digit d is add; x counts the bits of S in
	// the span so far, y the windows holding two; if on (a key's span ends
	// or begins here) the key's hit and factor at (x, y) join hh and f; the
	// next column's pending bit is whether d is hold.
	column := func(d, add, hold, pend, x, y int, on bool, hh, f float64) (nx, ny, np int, nh, nf float64) {
		c := pend
		if d == add {
			c++
		}
		nx, ny, nh, nf = x+c, y, hh, f
		if c == 2 {
			ny++
		}
		if on {
			nh += hit[nx][ny]
			nf *= fac[nx][ny]
		}
		if d == hold {
			np = 1
		}
		return
	}
	var prefix func(i, idx, x, y, pend int, hh, f float64)
	prefix = func(i, idx, x, y, pend int, hh, f float64) {
		if i == h {
			lowH[idx], lowF[idx] = hh, f
			lowS[idx] = int32((x*nY+y)*2 + pend)
			return
		}
		for d := 0; d < 3; d++ {
			// rk.pre[i]: a block ending at column i-1.
			nx, ny, np, nh, nf := column(d, 2, 1, pend, x, y, rk.pre[i], hh, f)
			prefix(i+1, idx+d*pow3[i], nx, ny, np, nh, nf)
		}
	}
	// highTable fills tH, tF for the high digits in dig.
	highTable := func() {
		for x0 := 0; x0 <= h; x0++ {
			for y0 := 0; 2*y0 <= x0; y0++ {
				for p0 := 0; p0 < 2 && x0+p0 <= h; p0++ {
					x, y, pend := x0, y0, p0
					hh, f := 0.0, 1.0
					for i := h; i < G; i++ {
						x, y, pend, hh, f = column(dig[i], 2, 1, pend, x, y, rk.pre[i], hh, f)
					}
					s := (x0*nY+y0)*2 + p0
					tH[s], tF[s] = hh, f
				}
			}
		}
	}
	// The suffix keys that begin within the low half depend on the low
	// digits and the high half's summary (its x, y and whether bit h is
	// moved): sufH, sufF by summary and low index.
	nHY := (G-h)/2 + 1
	nHS := (G - h + 1) * nHY * 2
	sufH := make([]float64, nHS*lowN)
	sufF := make([]float64, nHS*lowN)
	var lowSuffix func(sh, i, idx, x, y, pend int, hh, f float64)
	lowSuffix = func(sh, i, idx, x, y, pend int, hh, f float64) {
		if i < 0 {
			sufH[sh*lowN+idx], sufF[sh*lowN+idx] = hh, f
			return
		}
		for d := 0; d < 3; d++ {
			nx, ny, np, nh, nf := column(d, 1, 2, pend, x, y, rk.suf[i], hh, f)
			lowSuffix(sh, i-1, idx+d*pow3[i], nx, ny, np, nh, nf)
		}
	}
	// apply multiplies the row's factor into the moments of the states of
	// the high index hi, whose summary is sh and whose own suffix keys
	// give hh and f.
	apply := func(hi, sh int, hh, f float64) {
		highTable()
		base := hi * lowN
		sH, sF := sufH[sh*lowN:(sh+1)*lowN], sufF[sh*lowN:(sh+1)*lowN]
		v := m[3*base : 3*(base+lowN)]
		for low := 0; low < lowN; low++ {
			s := lowS[low]
			H := hh + sH[low] + lowH[low] + tH[s]
			F := f * sF[low] * lowF[low] * tF[s]
			e := v[3*low : 3*low+3 : 3*low+3]
			m0, m1, m2 := e[0], e[1], e[2]
			e[0] = m0 * F
			e[1] = (m1 + H*m0) * F
			e[2] = (m2 + 2*H*m1 + H*H*m0) * F
		}
	}
	// suffix walks the high bits G-1..h; before bit i, column i holds bit
	// i+1 if moved (pend).
	var suffix func(i, hi, x, y, pend int, hh, f float64)
	suffix = func(i, hi, x, y, pend int, hh, f float64) {
		if i < h {
			apply(hi, (x*nHY+y)*2+pend, hh, f)
			return
		}
		for d := 0; d < 3; d++ {
			nx, ny, np, nh, nf := column(d, 1, 2, pend, x, y, rk.suf[i], hh, f)
			dig[i] = d
			suffix(i-1, hi+d*pow3[i-h], nx, ny, np, nh, nf)
		}
	}
	// move applies the move of the unmoved bits of digits lo..hi-1 with
	// probability pm, in blocks of 3^hi states.
	move := func(lo, hi int, pm float64) {
		block := pow3[hi]
		for base := 0; base < N; base += block {
			for i := lo; i < hi; i++ {
				l, st := pow3[i], pow3[i+1]
				for b0 := base; b0 < base+block; b0 += st {
					a := m[3*(b0+l) : 3*(b0+2*l)]
					c := m[3*(b0+2*l) : 3*(b0+3*l)]
					for k := range a {
						v := a[k]
						c[k] += pm * v
						a[k] = v - pm*v
					}
				}
			}
		}
	}
	for r := 0; r < C; r++ {
		if r > 0 {
			// Bits with c_i = r-1 move: probability 1/(C - r + 1) of
			// those still unmoved.
			pm := 1 / float64(C-r+1)
			move(0, h, pm)
			for i := h; i < G; i++ {
				move(i, i+1, pm)
			}
		}
		rk = &rows[r]
		if !rk.any {
			continue
		}
		prefix(0, 0, 0, 0, 0, 0, 1)
		for xh := 0; xh <= G-h; xh++ {
			for yh := 0; 2*yh <= xh; yh++ {
				for ph := 0; ph < 2 && xh+ph <= G-h; ph++ {
					lowSuffix((xh*nHY+yh)*2+ph, h-1, 0, xh, yh, ph, 0, 1)
				}
			}
		}
		suffix(G-1, 0, 0, 0, 0, 0, 1)
	}
	c2 := -lambda / (2 * p)
	if poisson {
		c2 = 0
	}
	for idx := 0; idx < N; idx++ {
		t := m[3*idx] + c2*m[3*idx+2]
		sum += t
		abs += math.Abs(t)
	}
	return sum, abs
}
