package analysis

import (
	"math"
	"math/bits"
	"slices"
)

// innerRates returns ExactFPR(m, j, k) for many loads j at one block size m
// and one k, bit for bit equal to ExactFPR, sharing the work between loads:
// a blocked rate needs ExactFPR(B, j, k) for every likely load j, and
// BlockedSize for the loads of every size it tries.
//
// ExactFPR's work for one load is the distribution of distinct query
// positions, which depends only on m and k, and the cover probabilities q
// after t = kj probes: by squaring, from the powers T^(2^i) of one
// transition matrix (again depending only on m and k), or by t steps of a
// recurrence whose state after s steps does not depend on t. innerRates
// keeps all three, so each new load costs only the matrix-vector products
// of the bits of t (or the steps past the last state), and performs the same
// floating-point operations in the same order as ExactFPR
// (TestInnerRatesExact checks the equality).
type innerRates struct {
	m      uint64
	k, kk  int
	mf     float64
	cache  map[uint64]float64 // rates of loads from denseLoads up
	dense  []float64          // dense[j] = rate of load j, NaN if not yet known
	dist   []float64          // queryDist(mf, k, kk), once needed
	pows   [][]float64        // pows[i] = T^(2^i) as coverSquare computes it
	iterQ  []float64          // coverIterate's vector after iterS steps
	iterS  uint64
	iterCk [][]float64 // iterCk[c] = the state after c iterCheckpoint steps
	up     []float64   // up[u] = u/m, stay[u] = (m - u)/m
	stay   []float64
	r      []float64 // scratch for the squaring path
	tmp    []float64
}

func newInnerRates(m uint64, k int) *innerRates {
	kk := k
	if uint64(kk) > m {
		kk = int(m)
	}
	return &innerRates{m: m, k: k, kk: kk, mf: float64(m), cache: make(map[uint64]float64)}
}

// denseLoads bounds the loads whose rates innerRates keeps in a slice
// rather than a map: the likely loads of a well-sized block are below B.
const denseLoads = 1 << 14

// rate returns ExactFPR(ir.m, j, ir.k).
func (ir *innerRates) rate(j uint64) float64 {
	if j >= denseLoads {
		if f, ok := ir.cache[j]; ok {
			return f
		}
		f := ir.compute(j)
		ir.cache[j] = f
		return f
	}
	if j >= uint64(len(ir.dense)) {
		n := max(2*len(ir.dense), int(j)+1, 64)
		n = min(n, denseLoads)
		old := len(ir.dense)
		ir.dense = append(ir.dense, make([]float64, n-old)...)
		for i := old; i < n; i++ {
			ir.dense[i] = math.NaN()
		}
	}
	f := ir.dense[j]
	if f != f { // NaN: not yet computed
		f = ir.compute(j)
		ir.dense[j] = f
	}
	return f
}

// compute follows ExactFPR step for step.
func (ir *innerRates) compute(j uint64) float64 {
	if badGeometry(ir.m, ir.k) || ir.m > ExactMaxBits {
		return ExactFPR(ir.m, j, ir.k)
	}
	if j == 0 {
		return 0
	}
	hi, t := bits.Mul64(uint64(ir.k), j)
	if hi != 0 {
		return 1
	}
	square, ok := exactPlan(ir.m, t, ir.k)
	if !ok {
		return asymptoticFPR(ir.m, j, ir.k)
	}
	if ir.dist == nil {
		ir.dist = queryDist(ir.mf, ir.k, ir.kk)
	}
	if square {
		return coverMix(ir.dist, ir.squared(t))
	}
	return coverMix(ir.dist, ir.iterated(t))
}

// pow returns T^(2^i), computed as coverSquare computes it.
func (ir *innerRates) pow(i int) []float64 {
	n, m := ir.kk+1, ir.mf
	if len(ir.pows) == 0 {
		a := make([]float64, n*n)
		for u := 0; u < n; u++ {
			a[u*n+u] = (m - float64(u)) / m
			if u > 0 {
				a[u*n+u-1] = float64(u) / m
			}
		}
		ir.pows = append(ir.pows, a)
	}
	for len(ir.pows) <= i {
		a := ir.pows[len(ir.pows)-1]
		b := make([]float64, n*n)
		for u := 0; u < n; u++ {
			for v := 0; v <= u; v++ {
				var s float64
				for w := v; w <= u; w++ {
					s += a[u*n+w] * a[w*n+v]
				}
				b[u*n+v] = s
			}
		}
		power := float64(uint64(1) << len(ir.pows))
		for u := 1; u < n; u++ {
			b[u*n+u] = math.Exp(power * math.Log1p(-float64(u)/m))
		}
		ir.pows = append(ir.pows, b)
	}
	return ir.pows[i]
}

// squared returns coverSquare(ir.mf, t, ir.kk); the slice is reused by
// the next call.
func (ir *innerRates) squared(t uint64) []float64 {
	n := ir.kk + 1
	if ir.r == nil {
		ir.r, ir.tmp = make([]float64, n), make([]float64, n)
	}
	r, tmp := ir.r, ir.tmp
	clear(r)
	r[0] = 1
	for i := 0; ; i++ {
		if t&1 == 1 {
			a := ir.pow(i)
			for u := 0; u < n; u++ {
				// Row u up to the diagonal, summed in coverSquare's order.
				row := a[u*n : u*n+u+1]
				rv := r[:len(row)]
				var s float64
				for v, x := range row {
					s += x * rv[v]
				}
				tmp[u] = s
			}
			r, tmp = tmp, r
		}
		t >>= 1
		if t == 0 {
			ir.r, ir.tmp = r, tmp
			return r
		}
	}
}

// iterCheckpoint is the spacing of the states iterated keeps, so that a
// load below the last one restarts from the nearest kept state rather
// than from zero (mixBounds visits loads outward from the middle).
const iterCheckpoint = 16

// iterated returns coverIterate(ir.mf, t, ir.kk), continuing from the
// last state if it is not past t and otherwise from the last kept state
// at or before t; the slice is reused by the next call. Every state is
// the one coverIterate reaches after as many steps, so the result is its
// bit for bit whatever was computed before.
func (ir *innerRates) iterated(t uint64) []float64 {
	kk, m := ir.kk, ir.mf
	if ir.iterQ == nil {
		ir.iterQ = make([]float64, kk+1)
		ir.iterQ[0] = 1
		ir.iterS = 0
		ir.iterCk = append(ir.iterCk, slices.Clone(ir.iterQ))
	}
	// Continue from the last state or the nearest kept one, whichever
	// is later without being past t.
	if c := min(t/iterCheckpoint, uint64(len(ir.iterCk)-1)); ir.iterS > t || c*iterCheckpoint > ir.iterS {
		copy(ir.iterQ, ir.iterCk[c])
		ir.iterS = c * iterCheckpoint
	}
	if ir.up == nil {
		// The factors u/m and (m - u)/m of coverIterate's step,
		// computed once: the same values, so the same products.
		ir.up, ir.stay = make([]float64, kk+1), make([]float64, kk+1)
		for u := 1; u <= kk; u++ {
			ir.up[u], ir.stay[u] = float64(u)/m, (m-float64(u))/m
		}
	}
	q, up, stay := ir.iterQ, ir.up, ir.stay
	for s := ir.iterS; s < t; s++ {
		top := kk
		if s+1 < uint64(kk) {
			top = int(s + 1)
		}
		for u := top; u >= 1; u-- {
			q[u] = q[u-1]*up[u] + q[u]*stay[u]
		}
		if (s+1)%iterCheckpoint == 0 && (s+1)/iterCheckpoint == uint64(len(ir.iterCk)) {
			ir.iterCk = append(ir.iterCk, slices.Clone(q))
		}
	}
	ir.iterS = t
	return q
}
