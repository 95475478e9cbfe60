package analysis

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// fillMultiblock adds the keys ids (each key's positions drawn from a
// generator seeded by its id, so that a key shared by two filters sets
// the same bits in both) to the table tbl of geometry b (linear, as Boost's).
func fillMultiblock(b Multiblock, tbl []uint64, ids []uint64, seed uint64) {
	p, d, w := b.Starts(), b.Stride(), b.WordBits
	g, t := b.Windows(), b.perWindow()
	for _, id := range ids {
		r := rand.New(rand.NewPCG(seed, id))
		base := r.Uint64N(p) * d
		for i := 0; i < g; i++ {
			for range t {
				x := base + uint64(i)*w + r.Uint64N(w)
				tbl[x/64] |= 1 << (x % 64)
			}
		}
	}
}

func popcount(tbl []uint64) uint64 {
	var s int
	for _, v := range tbl {
		s += bits.OnesCount64(v)
	}
	return uint64(s)
}

type moments struct{ n, s, s2 float64 }

func (m *moments) add(x float64) { m.n++; m.s += x; m.s2 += x * x }
func (m moments) mean() float64  { return m.s / m.n }
func (m moments) sd() float64 {
	mu := m.mean()
	return math.Sqrt((m.s2/m.n - mu*mu) * m.n / (m.n - 1))
}

// checkEstimate compares the sample mean and standard deviation of
// estimates of the true count n with the predicted error, within 4
// standard errors of each.
func checkEstimate(t *testing.T, name string, mo moments, n float64, e EstimateError) {
	t.Helper()
	bias, sd := mo.mean()-n, mo.sd()
	seMean := sd / math.Sqrt(mo.n)
	seSD := sd / math.Sqrt(2*(mo.n-1))
	zb, zs := (bias-e.Bias)/seMean, (sd-e.StdDev)/seSD
	t.Logf("%-44s bias %+8.3f (predicted %+8.3f, z %+.2f)  sd %8.3f (predicted %8.3f, z %+.2f)", name, bias, e.Bias, zb, sd, e.StdDev, zs)
	if math.Abs(zb) > 4 || math.Abs(zs) > 4 {
		t.Errorf("%s: bias %.3f sd %.3f, predicted %.3f and %.3f", name, bias, sd, e.Bias, e.StdDev)
	}
}

func TestMultiblockCountMonteCarlo(t *testing.T) {
	layouts := []struct {
		name string
		b    Multiblock
	}{
		{"block<uint64_t[8], 6>", Multiblock{Hashes: 6, WordBits: 512}},
		{"block<uint64_t, 5>", Multiblock{Hashes: 5, WordBits: 64}},
		{"multiblock<uint64_t, 5>", Multiblock{Hashes: 5, WordBits: 64, Multi: true}},
		{"split block (multiblock<uint32_t, 8>)", Multiblock{Hashes: 8, WordBits: 32, Multi: true}},
	}
	const filters = 300
	for li, l := range layouts {
		b := l.b
		b.Bits = b.BlockBits() * (1 << 15 / b.BlockBits())
		nA, nB, shared := b.Bits/10, b.Bits/12, b.Bits/30
		var est, ests, union, inter moments
		var clear moments
		tA := make([]uint64, (b.Bits+63)/64)
		tB := make([]uint64, len(tA))
		tU := make([]uint64, len(tA))
		for f := 0; f < filters; f++ {
			seed := uint64(li*1000 + f)
			// A holds ids [0, nA); B holds [nA-shared, nA-shared+nB).
			a := make([]uint64, nA)
			for i := range a {
				a[i] = uint64(i)
			}
			bb := make([]uint64, nB)
			for i := range bb {
				bb[i] = nA - shared + uint64(i)
			}
			clear2(tA, tB)
			fillMultiblock(b, tA, a, seed)
			fillMultiblock(b, tB, bb, seed)
			for i := range tU {
				tU[i] = tA[i] | tB[i]
			}
			sa, sb, su := popcount(tA), popcount(tB), popcount(tU)
			clear.add(float64(b.Bits - sa))
			est.add(b.EstimateItems(sa))
			ests.add(b.EstimateItems(sb))
			se := b.EstimateSets(sa, sb, su)
			union.add(se.Union)
			inter.add(se.Intersection)
		}
		// The mean clear bits, exact.
		want := b.ExpectedClearBits(nA)
		if z := (clear.mean() - want) / (clear.sd() / math.Sqrt(clear.n)); math.Abs(z) > 4 {
			t.Errorf("%s: clear bits %.2f, expected %.2f (z %.2f)", l.name, clear.mean(), want, z)
		}
		eA, err := b.EstimateError(nA)
		if err != nil {
			t.Fatal(err)
		}
		eB, _ := b.EstimateError(nB)
		checkEstimate(t, l.name+" n̂_A", est, float64(nA), eA)
		checkEstimate(t, l.name+" n̂_B", ests, float64(nB), eB)
		sErr, err := b.SetError(nA, nB, shared)
		if err != nil {
			t.Fatal(err)
		}
		checkEstimate(t, l.name+" union", union, float64(nA+nB-shared), sErr.Union)
		checkEstimate(t, l.name+" intersection", inter, float64(shared), sErr.Intersection)
		// Boost's classic formula -(m/k) ln(1 - X/m) against ours.
		x := b.Bits - uint64(math.Round(want))
		classic := -float64(b.Bits) / float64(b.Hashes) * math.Log1p(-float64(x)/float64(b.Bits))
		t.Logf("%-44s at the mean fill: ours %.1f, the classic formula %.1f (%+.2f%%), n = %d", l.name, b.EstimateItems(x), classic, 100*(classic/float64(nA)-1), nA)
	}
}

func clear2(a, b []uint64) {
	clear(a)
	clear(b)
}

// TestMultiblockClearBitsOverlap checks the exact mean clear bits of an
// overlapping layout, edges included, against a simulation of Boost's
// linear table.
func TestMultiblockClearBitsOverlap(t *testing.T) {
	b := Multiblock{Hashes: 4, WordBits: 64, Multi: true, StrideBits: 8}
	b.Bits = b.BlockBits() + 8*2000
	n := uint64(1500)
	var mo moments
	tbl := make([]uint64, (b.Bits+63)/64)
	ids := make([]uint64, n)
	for f := 0; f < 200; f++ {
		clear(tbl)
		for i := range ids {
			ids[i] = uint64(f)*n + uint64(i)
		}
		fillMultiblock(b, tbl, ids, 7)
		mo.add(float64(b.Bits - popcount(tbl)))
	}
	want := b.ExpectedClearBits(n)
	z := (mo.mean() - want) / (mo.sd() / math.Sqrt(mo.n))
	t.Logf("clear bits: simulated %.2f ± %.2f, exact %.2f (z %+.2f)", mo.mean(), mo.sd()/math.Sqrt(mo.n), want, z)
	if math.Abs(z) > 4 {
		t.Errorf("clear bits %.2f, expected %.2f", mo.mean(), want)
	}
}
