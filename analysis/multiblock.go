package analysis

import (
	"fmt"
	"math"
)

// Boost.Bloom (boostorg/bloom, Boost 1.89; headers read at commit
// 7eda52eec0f44cb9936393568e58891376cc9ccf) builds every cache-local
// layout from one scheme, which [Multiblock] describes:
//
//   - The table is an array of bytes. filter_core takes the 64-bit hash,
//     sets its lowest bit, and picks a start p = hi64(hash * P) (Lemire's
//     fastrange over P starts), then multiplies the hash by an odd
//     constant for the next use. The subfilter's bits begin at byte
//     p * Stride; Stride defaults to the subfilter's used size, so that
//     blocks do not overlap, and may be any smaller number of bytes, so
//     that consecutive starts overlap. The array holds
//     P * Stride + (used - Stride) bytes, every start's block inside it.
//   - block<Word, K>: K bits in one w-bit block (w = bits of Word, or of
//     Word[N]), bit i taken from bits [s(i+1), s(i+2)) of the hash,
//     s = log2 w (remixing with mulx64 when they run out): K positions
//     drawn with replacement.
//   - multiblock<Word, K>: one bit in each of K consecutive w-bit words,
//     taken the same way; its used size is K words.
//   - fast_multiblock32<K> / fast_multiblock64<K> (AVX2): one bit in each
//     of K consecutive 32- or 64-bit words, the bit of each word from its
//     own 5- or 6-bit field of the hash (distinct fields for the eight
//     words of one 256-bit lane, a remix per further eight): a multiblock
//     as far as positions go. The split-block filter is
//     fast_multiblock32<8>.
//   - The classic filter<T, K> is block<unsigned char, 1> applied K
//     times: K uniform bits of the whole table, [ExactFPR].
//
// Words are loaded as little-endian integers, so bit j of a word that
// starts at byte a is bit 8a + j of the table: a key whose block starts at
// byte p*Stride sets bits in the windows [8 p Stride + w i, 8 p Stride +
// w (i+1)) for its G windows (G = K for multiblock, 1 for block).
//
// The model (the one every rate here assumes): starts uniform over the P
// starts and independent between keys; inside each window the key's t bits
// (t = K for block, 1 for multiblock) uniform with replacement and
// independent of the start and of the other windows. Boost's fields of
// one 64-bit hash are independent bits of a good hash, so this is Boost's
// scheme under an ideal hash.
//
// # Rates
//
// At the natural stride (blocks do not overlap) the load J of the
// query's block is Binomial(n, 1/P), and given J = j each of its G
// windows is a w-bit filter with t hashes holding the same j keys,
// independently of the others given j, so
//
//	FPR = sum_j P(J = j) ExactFPR(w, j, t)^G,
//
// exact (the sum cut where the load's probability falls below 1e-30 of
// the mode's, as [BlockedFPR]). For block<Word[8], K> (w = 512, G = 1)
// this is BlockedFPR(m, n, K, 512); for multiblock (t = 1) the inner rate
// is (1 - (1 - 1/w)^j)^K.
//
// At a smaller stride the windows of neighbouring starts overlap and the
// words a query reads are covered by different, overlapping sets of keys.
// Condition on the query's start (an interior one) and on the set S of
// its bits that are to be clear. Every key independently hits S with
// probability H(S)/P, where H(S) = sum over the starts a whose block meets
// the query's of 1 - prod_i (1 - |S ∩ W_i(a)|/w)^t, so S stays clear with
// probability exactly (1 - H(S)/P)^n, and by inclusion-exclusion
//
//	FPR = sum_S (-1)^|S| P(S ⊆ query bits) (1 - H(S)/P)^n.
//
// H depends on S only through how many of its bits fall in each cell of
// g = gcd(8 Stride, w) bits (every window edge is a multiple of g from the
// query's start), so the sum runs over the count vectors of the cells, at
// most t bits per window of the query, with the multiplicities
// prod C(g, x) and P(S ⊆ query bits) = prod over the query's windows of
// the probability that t draws from w bits cover the r given ones. That
// is exact for the interior starts (overlapExact; for multiblock layouts
// overlapExactMulti sums the same terms as a tree over the query's
// windows, building each key's product on the way, and the two agree to
// 1e-14); its cost is the number of count vectors times the starts, which
// [Multiblock.FPR] takes while it is below overlapBudget (1e8, about a
// second on a loaded machine). Beyond it, for
// G = 1 (block layouts with wide blocks at a byte stride), the key counts
// of the starts are taken as independent Poisson(n/P) (the binomial
// counts' dependence is O(1/n)), which makes the probability that S
// stays clear a product over the starts, each a function of a prefix or a
// suffix count of S, and a dynamic programme over the cells with the
// prefix count as state sums the whole alternating series exactly for
// that model in C^2 K^2 operations (overlapPoissonBlock). For G > 1 at a
// stride that is not a whole number of words the number of count vectors
// grows as (1 + w/g)^G (9^K for 64-bit words at a byte stride, 5^K for
// 32-bit ones), and beyond the budget FPR sums the same series by rows
// (overlapRows, multiblock_rows.go): the starts grouped by their offset
// modulo the window, each row's keys a function of per-window counts, so
// that 3^G states per window (no bit of S, a bit of S in its column, or
// moved one column left) carry the sum over the rows, in about 3^G C G
// operations whatever n. Its combinatorics is exact; the binomial factor
// (1 - H/P)^n is taken as exp(-lambda H) (1 - lambda H^2/(2P)), lambda =
// n/P, an error of order lambda H^3/P^2 per term (1e-13 relative to the
// count-vector sum for Boost's geometries). FPR takes it while G <= 14 and
// the work is below overlapRowBudget (1e9): every multiblock of Boost's
// table at a byte stride (K up to 14, 0.8 s of CPU for K = 14 and 64-bit
// words), and reports an error beyond. (An older programme that treated
// two bits of S in one key window as in two ran for any K but was 0.7 to
// 2% high where the exact sums check it; it is gone.)
//
// Starts within one block of either end of the table see fewer
// neighbours; the overlapping rates treat every start as interior, which
// moves the rate by a relative amount of the order of (2L/stride)/P, at
// most 1.3e-5 in Boost's table (L the bits of a block); the
// Monte Carlo test simulates a circular table, the interior model.

// Multiblock is the geometry of a cache-local Bloom filter in Boost.Bloom's
// scheme (see above): each key chooses one of the starts 0..P-1 of an array
// of Bits bits, the block at start p begins at bit p*StrideBits, and the
// key sets bits in Windows() consecutive windows of WordBits bits from
// there: one bit in each of Hashes windows (Multi, Boost's multiblock and
// fast_multiblock32/64), or Hashes bits with replacement in one window
// (not Multi, Boost's block<Word, K>, w the bits of Word or Word[N]).
type Multiblock struct {
	// Bits is the size of the array m, in bits: (P - 1) StrideBits + L
	// with L = Windows() * WordBits, Boost's capacity().
	Bits uint64
	// Hashes is the number of bits a key sets, K.
	Hashes int
	// WordBits is the width w of a window: 32 or 64 for a word, 512 for
	// Word[8] with 64-bit words.
	WordBits uint64
	// Multi selects one bit in each of Hashes consecutive windows; if false
	// the key sets Hashes bits in one window.
	Multi bool
	// StrideBits is the distance between consecutive starts, a multiple of
	// 8 up to L; 0 means L (no overlap, Boost's default Stride).
	StrideBits uint64
}

// overlapBudget bounds the work of the exact overlapping sum (count vectors
// times starts times windows).
const overlapBudget = 1e8

// MaxMultiblockWordBits bounds WordBits.
const MaxMultiblockWordBits = MaxBlockBits

// Windows returns G, the windows a key touches: Hashes if Multi, else 1.
func (b Multiblock) Windows() int {
	if b.Multi {
		return b.Hashes
	}
	return 1
}

// perWindow returns t, the bits a key sets in each of its windows.
func (b Multiblock) perWindow() int {
	if b.Multi {
		return 1
	}
	return b.Hashes
}

// BlockBits returns L, the bits a key's block spans: Windows() * WordBits.
func (b Multiblock) BlockBits() uint64 { return uint64(b.Windows()) * b.WordBits }

// Stride returns the stride in bits, L if StrideBits is 0.
func (b Multiblock) Stride() uint64 {
	if b.StrideBits == 0 {
		return b.BlockBits()
	}
	return b.StrideBits
}

// Overlapping reports whether consecutive blocks overlap (stride below L).
func (b Multiblock) Overlapping() bool { return b.Stride() < b.BlockBits() }

// Starts returns P, the number of starts: (Bits - L)/stride + 1.
func (b Multiblock) Starts() uint64 { return (b.Bits-b.BlockBits())/b.Stride() + 1 }

// Validate reports an error unless 1 <= Hashes <= [MaxHashes] (a block
// layout's draws are with replacement, so Hashes may exceed WordBits),
// 1 <= WordBits <= [MaxMultiblockWordBits], the
// stride is a positive multiple of 8 up to L (or 0), and Bits = (P - 1)
// stride + L for some P >= 1.
func (b Multiblock) Validate() error {
	if b.Hashes < 1 || b.Hashes > MaxHashes {
		return invalid("hashes k = %d, want 1 <= k <= %d", b.Hashes, MaxHashes)
	}
	if b.WordBits == 0 || b.WordBits > MaxMultiblockWordBits {
		return invalid("word bits = %d, want 1 <= w <= %d", b.WordBits, MaxMultiblockWordBits)
	}
	l := b.BlockBits()
	if b.StrideBits != 0 && (b.StrideBits%8 != 0 || b.StrideBits > l) {
		return invalid("stride = %d bits, want a positive multiple of 8 up to the block's %d bits", b.StrideBits, l)
	}
	if b.Bits < l || b.Bits > MaxBits || (b.Bits-l)%b.Stride() != 0 {
		return invalid("bits m = %d is not a block of %d bits plus a whole number of strides of %d bits", b.Bits, l, b.Stride())
	}
	return nil
}

// BoostMultiblock returns the geometry Boost.Bloom gives a filter
// constructed with a capacity of requested bits (filter(m)), for a
// subfilter of used bytes (Boost's used_value_size: w K/8 for multiblock,
// w/8 for block) and a stride of stride bytes (0 for the natural one):
// P = ceil((requested - 8(used - stride)) / (8 stride)) starts and
// 8 (P stride + used - stride) bits, as filter_core::requested_range and
// used_array_size compute them. Windows and hashes are set from the
// arguments.
func BoostMultiblock(requested uint64, k int, wordBits uint64, multi bool, strideBytes uint64) Multiblock {
	b := Multiblock{Hashes: k, WordBits: wordBits, Multi: multi}
	used := b.BlockBits() / 8
	if strideBytes == 0 {
		strideBytes = used
	}
	m := requested
	if m > (used-strideBytes)*8 {
		m -= (used - strideBytes) * 8
	}
	p := (m + 8*strideBytes - 1) / (8 * strideBytes)
	b.Bits = 8 * (p*strideBytes + used - strideBytes)
	if strideBytes != used {
		b.StrideBits = 8 * strideBytes
	}
	return b
}

// FPR returns the false-positive rate after n keys: exact at the natural
// stride, and for overlapping strides exact (interior starts) while the
// sum fits overlapBudget, else for block layouts the Poisson-count
// dynamic programme and for multiblock layouts the sum by rows (see
// above). It reports an error for an invalid geometry, or for an
// overlapping multiblock beyond both budgets (more than 14 windows, or
// 3^G C (G + 1) above 1e9 with C the window's cells).
func (b Multiblock) FPR(n uint64) (float64, error) {
	if err := b.Validate(); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	if !b.Overlapping() {
		return b.naturalFPR(n), nil
	}
	if b.overlapWork() <= overlapBudget {
		if b.Multi {
			sum, abs := b.overlapExactMultiSum(n, false)
			if cancelled(sum, abs) {
				return 0, b.cancelError(sum, abs)
			}
			return min(sum, 1), nil
		}
		sum, abs := b.overlapExactSum(n)
		if cancelled(sum, abs) {
			return 0, b.cancelError(sum, abs)
		}
		return min(sum, 1), nil
	}
	if !b.Multi {
		if w := b.overlapBlockWork(); w > overlapBudget {
			return 0, invalid("overlapping block layout of %d bits in a window of %d at a stride of %d bits: the sum needs %.3g operations, beyond %.3g", b.Hashes, b.WordBits, b.Stride(), w, float64(overlapBudget))
		}
		sum, abs := b.overlapPoissonBlockSum(float64(n) / float64(b.Starts()))
		if cancelled(sum, abs) {
			return 0, b.cancelError(sum, abs)
		}
		return min(sum, 1), nil
	}
	if b.overlapRowWork() <= overlapRowBudget {
		sum, abs := b.overlapRowsSum(n, false)
		if cancelled(sum, abs) {
			return 0, b.cancelError(sum, abs)
		}
		return min(sum, 1), nil
	}
	if b.Windows() > overlapRowMaxWindows {
		return 0, invalid("overlapping multiblock of %d windows of %d bits at a stride of %d bits: the sum by count vectors needs %.3g operations, beyond %.3g, and the sum by rows takes at most %d windows", b.Windows(), b.WordBits, b.Stride(), b.overlapWork(), float64(overlapBudget), overlapRowMaxWindows)
	}
	return 0, invalid("overlapping multiblock of %d windows of %d bits at a stride of %d bits: the sum by count vectors needs %.3g operations, beyond %.3g, and the sum by rows %.3g, beyond %.3g", b.Windows(), b.WordBits, b.Stride(), b.overlapWork(), float64(overlapBudget), b.overlapRowWork(), float64(overlapRowBudget))
}

// naturalFPR is the mixture over the binomial load of the query's block of
// ExactFPR(w, j, t)^G.
func (b Multiblock) naturalFPR(n uint64) float64 {
	ir := newInnerRates(b.WordBits, b.perWindow())
	g := float64(b.Windows())
	return loadTable(n, b.Starts()).mix(func(j uint64) float64 {
		return math.Pow(ir.rate(j), g)
	})
}

// cellGeometry returns g = gcd(stride, w), the cells per window C = w/g
// and the stride in cells.
func (b Multiblock) cellGeometry() (g, cells, strideCells uint64) {
	d, w := b.Stride(), b.WordBits
	g = gcd(d, w)
	return g, w / g, d / g
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// overlapStarts returns the offsets, in cells, of the starts whose block
// meets the query's block (the query's at 0).
func (b Multiblock) overlapStarts() []int {
	_, cells, sc := b.cellGeometry()
	total := int(cells) * b.Windows()
	var out []int
	for a := -(total / int(sc)); a <= total/int(sc); a++ {
		off := a * int(sc)
		if off+total > 0 && off < total {
			out = append(out, off)
		}
	}
	return out
}

// countVectors returns the number of cell count vectors the exact sum
// visits: per window, vectors over C cells of counts up to g with total
// up to t.
func (b Multiblock) countVectors() float64 {
	g, cells, _ := b.cellGeometry()
	t := b.perWindow()
	// ways[r] = vectors over the cells so far with total r.
	ways := make([]float64, t+1)
	ways[0] = 1
	for c := uint64(0); c < cells; c++ {
		next := make([]float64, t+1)
		for r, v := range ways {
			for x := 0; r+x <= t && uint64(x) <= g; x++ {
				next[r+x] += v
			}
		}
		ways = next
	}
	var per float64
	for _, v := range ways {
		per += v
	}
	return math.Pow(per, float64(b.Windows()))
}

func (b Multiblock) overlapWork() float64 {
	if b.Multi {
		// overlapExactMulti: one pass over the starts per node of the
		// tree of segment choices.
		_, cells, _ := b.cellGeometry()
		return b.countVectors() * (1 + 1/float64(cells)) * float64(len(b.overlapStarts()))
	}
	return b.countVectors() * float64(len(b.overlapStarts())) * float64(b.Windows())
}

// overlapExactMulti is overlapExact for multiblock layouts (one bit per
// window), organised as a tree over the query's windows: each is clear of
// S or holds one S bit in one of its C cells (weight -1/C), and a key's
// probability of missing S, prod_i (1 - n_i/w), is built up as the windows
// are chosen, since a key's window i meets only two adjacent windows of the
// query (the tail of one from the key's cell offset r, the head of the
// next). Same terms as overlapExact, summed in another order.
func (b Multiblock) overlapExactMulti(n uint64) float64 {
	return b.overlapExactMultiTerm(n, false)
}

// overlapExactMultiTerm is overlapExactMulti, with exp(-lambda H) for the
// binomial factor (1 - H/P)^n if poisson, the model overlapRows's test
// compares.
func (b Multiblock) overlapExactMultiTerm(n uint64, poisson bool) float64 {
	sum, _ := b.overlapExactMultiSum(n, poisson)
	return min(max(sum, 0), 1)
}

// overlapExactMultiSum is overlapExactMultiTerm's alternating sum before
// clamping, and the sum of its terms' magnitudes (see cancelled).
func (b Multiblock) overlapExactMultiSum(n uint64, poisson bool) (sum, abs float64) {
	_, cells, _ := b.cellGeometry()
	C, G := int(cells), b.Windows()
	w := float64(b.WordBits)
	offs := b.overlapStarts()
	type key struct{ q, r int }
	keys := make([]key, len(offs))
	for i, o := range offs {
		q := o / C
		if o < 0 && o%C != 0 {
			q--
		}
		keys[i] = key{q, o - q*C}
	}
	miss := [3]float64{1, 1 - 1/w, 1 - 2/w}
	p, nf := float64(b.Starts()), float64(n)
	prods := make([][]float64, G+2)
	for j := range prods {
		prods[j] = make([]float64, len(keys))
	}
	for i := range prods[0] {
		prods[0][i] = 1
	}
	sel := make([]int, G+1) // S_j: -1 for none, else its cell
	// advance multiplies, into prods[j+1], the factor of every key window
	// that covers the tail of window j-1 and the head of window j, now
	// both chosen (S_G = none closes the last).
	advance := func(j int) {
		src, dst := prods[j], prods[j+1]
		for i, k := range keys {
			v := src[i]
			if wi := j - k.q - 1; wi >= 0 && wi < G {
				c := 0
				if j >= 1 && sel[j-1] >= k.r {
					c++
				}
				if j < G && sel[j] >= 0 && sel[j] < k.r {
					c++
				}
				v *= miss[c]
			}
			dst[i] = v
		}
	}
	// The recursion reads prods[j+1] as produced by advance(j); since the
	// level below overwrites only prods[j+2], each level's products stay
	// valid across its loop.
	var walk func(j int, weight float64)
	walk = func(j int, weight float64) {
		if j == G {
			sel[G] = -1
			advance(G)
			var h float64
			for _, v := range prods[G+1] {
				h += 1 - v
			}
			term := weight * math.Exp(nf*math.Log1p(-h/p))
			if poisson {
				term = weight * math.Exp(-nf/p*h)
			}
			sum += term
			abs += math.Abs(term)
			return
		}
		for c := -1; c < C; c++ {
			sel[j] = c
			advance(j)
			wt := weight
			if c >= 0 {
				wt = -weight / float64(C)
			}
			walk(j+1, wt)
		}
	}
	walk(0, 1)
	return sum, abs
}

// coverProb returns P(t draws with replacement from w bits cover r given
// bits), by the chain over the number of the r bits hit so far (no
// alternating sum, which cancels catastrophically for r near t).
func coverProb(r, t int, w float64) float64 {
	if r > t {
		return 0
	}
	q := make([]float64, r+1)
	q[0] = 1
	for s := 0; s < t; s++ {
		for i := r; i >= 0; i-- {
			stay := q[i] * (1 - float64(r-i)/w)
			if i > 0 {
				stay += q[i-1] * float64(r-i+1) / w
			}
			q[i] = stay
		}
	}
	return q[r]
}

// overlapExact is the inclusion-exclusion sum over the cell count vectors
// of the bits S to stay clear, each term (1 - H(S)/P)^n exactly.
func (b Multiblock) overlapExact(n uint64) float64 {
	sum, _ := b.overlapExactSum(n)
	return min(max(sum, 0), 1)
}

// overlapExactSum is overlapExact's alternating sum before clamping, and
// the sum of its terms' magnitudes (see cancelled).
func (b Multiblock) overlapExactSum(n uint64) (sum, abs float64) {
	g, cells, _ := b.cellGeometry()
	t, gw := b.perWindow(), b.Windows()
	w := float64(b.WordBits)
	total := int(cells) * gw
	starts := b.overlapStarts()
	p := float64(b.Starts())
	nf := float64(n)
	cover := make([]float64, t+1)
	for r := range cover {
		cover[r] = coverProb(r, t, w)
	}
	chooseG := make([]float64, t+1)
	for x := range chooseG {
		chooseG[x] = math.Exp(logChoose(float64(g), float64(x)))
	}
	// missPow[c] = (1 - c/w)^t: a key's window with c bits of S misses
	// them all (c <= 2t: a key's window meets two of the query's).
	missPow := make([]float64, 2*t+1)
	for c := range missPow {
		missPow[c] = math.Pow(max(1-float64(c)/w, 0), float64(t))
	}
	x := make([]int, total)        // S bits per cell
	prefix := make([]int, total+1) // filled at the leaves
	var rec func(cell, rWin int, weight float64)
	rec = func(cell, rWin int, weight float64) {
		if cell > 0 && cell%int(cells) == 0 {
			// A window is complete: its cover probability and sign.
			weight *= cover[rWin]
			if rWin%2 == 1 {
				weight = -weight
			}
			rWin = 0
		}
		if cell == total {
			for i := 0; i < total; i++ {
				prefix[i+1] = prefix[i] + x[i]
			}
			count := func(lo, hi int) int {
				lo, hi = max(lo, 0), min(hi, total)
				if lo >= hi {
					return 0
				}
				return prefix[hi] - prefix[lo]
			}
			var h float64
			if prefix[total] > 0 {
				for _, off := range starts {
					miss := 1.0
					for i := 0; i < gw; i++ {
						lo := off + i*int(cells)
						if c := count(lo, lo+int(cells)); c > 0 {
							miss *= missPow[c]
						}
					}
					h += 1 - miss
				}
			}
			term := weight * math.Exp(nf*math.Log1p(-h/p))
			sum += term
			abs += math.Abs(term)
			return
		}
		for v := 0; rWin+v <= t && uint64(v) <= g; v++ {
			x[cell] = v
			rec(cell+1, rWin+v, weight*chooseG[v])
		}
		x[cell] = 0
	}
	rec(0, 0, 1)
	return sum, abs
}

// cancelled reports whether an alternating sum whose terms add up, in
// magnitude, to abs has lost the digits of its result sum: float64 keeps
// about 16 digits of abs, so with rounding errors that add up as a random
// walk over up to 10^5 terms (about 3.5e-14 abs), a result of 1e-10 abs
// still holds about three and a half digits, and one below 1e-16 abs none.
// The rates the sums give at practical sizes sit far above the bound (the
// sum for Boost's table and for sizing down to p = 1e-4 at K = 16 at
// least 1.3e-10 abs); tiny rates of lightly loaded tables fall below it
// (2e-12 for a rate of order 1e-20 at 5 windows of 64 bits).
func cancelled(sum, abs float64) bool { return !(sum >= 1e-10*abs) || math.IsNaN(sum) }

// overlapPoissonBlock is the rate of an overlapping block layout (G = 1)
// with the starts' key counts independent Poisson(lambda): for each
// number r of bits to stay clear, a dynamic programme over the C cells of
// the query's window with the count of S bits before the cell as state,
// multiplying at each cell edge the factors exp(-lambda f) of the starts
// whose window begins (suffix count) or ends (prefix count) there.
func (b Multiblock) overlapPoissonBlock(lambda float64) float64 {
	sum, _ := b.overlapPoissonBlockSum(lambda)
	return min(max(sum, 0), 1)
}

// overlapPoissonBlockSum is overlapPoissonBlock's alternating sum before
// clamping, and the sum of its terms' magnitudes (see cancelled).
func (b Multiblock) overlapPoissonBlockSum(lambda float64) (total, abs float64) {
	g, cells, sc := b.cellGeometry()
	t := b.Hashes
	w := float64(b.WordBits)
	chooseG := make([]float64, min(g, uint64(t))+1)
	for x := range chooseG {
		chooseG[x] = math.Exp(logChoose(float64(g), float64(x)))
	}
	f := func(x int) float64 { return -math.Expm1(float64(t) * math.Log1p(-float64(x)/w)) } // a key hits one of x given bits
	C := int(cells)
	for r := 0; r <= t; r++ {
		cp := coverProb(r, t, w)
		if cp == 0 {
			continue
		}
		state := make([]float64, r+1)
		state[0] = 1
		for c := 0; c < C; c++ {
			if c > 0 {
				for pc := range state {
					var e float64
					if uint64(c)%sc == 0 {
						e += f(r - pc) // a start at +c covers cells c.. (suffix)
					}
					if uint64(C-c)%sc == 0 {
						e += f(pc) // a start at c-C covers cells ..c-1 (prefix)
					}
					state[pc] *= math.Exp(-lambda * e)
				}
			}
			next := make([]float64, r+1)
			for pc, v := range state {
				if v == 0 {
					continue
				}
				for x := 0; pc+x <= r && x < len(chooseG); x++ {
					next[pc+x] += v * chooseG[x]
				}
			}
			state = next
		}
		term := cp * state[r] * math.Exp(-lambda*f(r))
		abs += math.Abs(term)
		if r%2 == 1 {
			total -= term
		} else {
			total += term
		}
	}
	return total, abs
}

// cancelError is the error of FPR when its alternating sum cancels (see
// cancelled): the rate is too small beside the sum's terms for float64.
func (b Multiblock) cancelError(sum, abs float64) error {
	layout := fmt.Sprintf("overlapping block layout of %d bits in a window of %d", b.Hashes, b.WordBits)
	if b.Multi {
		layout = fmt.Sprintf("overlapping multiblock of %d windows of %d bits", b.Windows(), b.WordBits)
	}
	return invalid("%s at a stride of %d bits: the inclusion-exclusion sum cancels (result %.3g beside terms of %.3g in all), beyond float64's precision: the rate is too small to compute this way", layout, b.Stride(), sum, abs)
}

// overlapBlockWork is the work of overlapPoissonBlock: for each number r
// of bits to stay clear, up to K, C cells of r + 1 states, each taking up
// to g + 1 counts of the cell's bits.
func (b Multiblock) overlapBlockWork() float64 {
	g, cells, _ := b.cellGeometry()
	t := float64(b.Hashes)
	return float64(cells) * (t + 1) * (t + 2) / 2 * math.Min(float64(g)+1, t+1)
}

// BoostApproxFPR returns Boost.Bloom's own estimate of the rate (its
// fpr_for, doc/bloom/fpr_estimation.adoc): with b the window bits, s the
// stride in bits and one subfilter application (Boost's outer k = 1), for
// block Σ Pois(i, n(2b - s)/m) FPR(i, 2b - s, K) and for multiblock
// Σ Pois(i, n(2bK - s)/m) FPR(i, (2bK - s)/K, 1)^K, FPR(n, m, k) = (1 -
// (1 - 1/m)^(kn))^k; at the natural stride these are the Poisson mixtures
// of its non-overlapping formulas. It returns NaN for an invalid geometry.
func (b Multiblock) BoostApproxFPR(n uint64) float64 {
	if b.Validate() != nil {
		return math.NaN()
	}
	if n == 0 {
		return 0
	}
	m, nf, s := float64(b.Bits), float64(n), float64(b.Stride())
	bw, k := float64(b.WordBits), float64(b.Hashes)
	classic := func(i uint64, mm, kk float64) float64 {
		return math.Pow(-math.Expm1(kk*float64(i)*math.Log1p(-1/mm)), kk)
	}
	if b.Multi {
		span := 2*bw*k - s
		return poissonLoads(nf * span / m).mix(func(i uint64) float64 {
			return math.Pow(classic(i, span/k, 1), k)
		})
	}
	span := 2*bw - s
	return poissonLoads(nf * span / m).mix(func(i uint64) float64 { return classic(i, span, k) })
}

// MultiblockOptimalHashes returns the K in 1..maxK with the lowest FPR
// for the geometry b (whose Hashes it ignores) at n keys, keeping Bits (at
// a natural stride the block grows with K for multiblock layouts, so b's
// Bits is rounded down to a whole number of blocks for each K). It reports
// the errors of FPR.
func MultiblockOptimalHashes(b Multiblock, n uint64, maxK int) (int, float64, error) {
	bestK, best := 0, math.Inf(1)
	for k := 1; k <= maxK; k++ {
		c := b
		c.Hashes = k
		l := c.BlockBits()
		if c.Bits < l {
			break
		}
		c.Bits = l + (c.Bits-l)/c.Stride()*c.Stride()
		f, err := c.FPR(n)
		if err != nil {
			return 0, 0, err
		}
		if f < best {
			bestK, best = k, f
		}
	}
	if bestK == 0 {
		return 0, 0, invalid("no K in 1..%d fits %d bits", maxK, b.Bits)
	}
	return bestK, best, nil
}
