package variants

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// multiblockFor builds a conformance filter of the layout p, sized by
// MultiblockGeometry at the natural stride, then built at p's stride with
// the same bits and K: an overlapping stride lowers the rate at equal bits,
// and sizing at it would cost the suite the exact overlapping sums.
func multiblockFor(p MultiblockParams) newFilterFunc {
	return func(t testing.TB, n uint64, fpr float64, h Hashing) Filter {
		natural := p
		natural.StrideBits = 0
		g, err := MultiblockGeometry(n, fpr, natural)
		if err != nil {
			t.Fatal(err)
		}
		q := p
		q.Geometry, q.Hashing = g, h
		f, err := NewMultiblock(q)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
}

// multiblockGeometry builds a filter of the layout p from a geometry, its
// bits raised to one block.
func multiblockGeometry(p MultiblockParams) func(g Geometry, h Hashing) (persistent, error) {
	return func(g Geometry, h Hashing) (persistent, error) {
		l := max(p.WordBits, 8)
		if p.Multi {
			l *= uint64(g.Hashes)
		}
		p.Geometry, p.Hashing = g, h
		p.Bits = max(g.Bits, l)
		return NewMultiblock(p)
	}
}

// multiblockGolden builds the multiblock filters frozen in testdata: a
// block<uint64_t, 4> at a stride of one byte, and a multiblock<uint32_t, 8>
// at the natural stride (the split-block layout), each holding the golden
// keys.
func multiblockGolden(t testing.TB) map[string]persistent {
	a, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: 300, Hashes: 4}, WordBits: 64, StrideBits: 8, Hashing: Hashing{Kind: Metro, Seed: 31}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: 512, Hashes: 8, Capacity: 5}, WordBits: 32, Multi: true, Hashing: Hashing{Seed: 37}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{a, b} {
		for _, k := range goldenKeys {
			f.Add([]byte(k))
		}
	}
	return map[string]persistent{"multiblock-block64-stride8-v1": a, "multiblock-multi32-v1": b}
}

// TestMultiblockGoldenLayout reads the golden files' fields at the offsets
// FormatVersion documents for code 17.
func TestMultiblockGoldenLayout(t *testing.T) {
	le := binary.LittleEndian
	a := readHex(t, "testdata/multiblock-block64-stride8-v1.golden")
	b := readHex(t, "testdata/multiblock-multi32-v1.golden")
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"variant", uint64(a[6]), 17},
		{"bits", le.Uint64(a[17:]), 64 + 30*8}, // 300 rounded up: 64 + 30 strides of 8
		{"hashes", uint64(le.Uint32(a[25:])), 4},
		{"word bits", uint64(le.Uint32(a[29:])), 64},
		{"layout", uint64(le.Uint32(a[33:])), 0},
		{"stride", uint64(le.Uint32(a[37:])), 8},
		{"items", le.Uint64(a[49:]), 5},
		{"length", uint64(len(a)), 61 + 8*5},
		{"multi layout", uint64(le.Uint32(b[33:])), 1},
		{"multi stride", uint64(le.Uint32(b[37:])), 256},
		{"multi capacity", le.Uint64(b[41:]), 5},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestMultiblockMatchesBlocked: a block layout at the natural stride sets
// the bits of a Blocked filter of blocks of w bits, as documented.
func TestMultiblockMatchesBlocked(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, w := range []uint64{64, 256, 512, 4096} {
		for _, k := range []int{1, 3, 8, 13} {
			m := 40 * w
			bl, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: m, Hashes: k}, BlockBits: int(w)})
			if err != nil {
				t.Fatal(err)
			}
			mb, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: m, Hashes: k}, WordBits: w})
			if err != nil {
				t.Fatal(err)
			}
			for range 300 {
				d := Digest{r.Uint64(), r.Uint64()}
				bl.AddDigest(d)
				mb.AddDigest(d)
			}
			if !bytes.Equal(encodedWords(bl.words), encodedWords(mb.words)) {
				t.Errorf("w = %d, k = %d: the tables differ", w, k)
			}
		}
	}
}

func encodedWords(w []uint64) []byte {
	var b []byte
	for _, x := range w {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

// TestMultiblockReference checks the probes against the bits the
// documented derivation gives (positions), for every kind of window and
// stride, in tables small enough that windows straddle words and end the
// table: after each add the table holds exactly the union of the
// positions, and Contains answers whether all of a digest's are set.
func TestMultiblockReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range []MultiblockParams{
		{Geometry: Geometry{Hashes: 3}, WordBits: 8},
		{Geometry: Geometry{Hashes: 5}, WordBits: 16, StrideBits: 8},
		{Geometry: Geometry{Hashes: 7}, WordBits: 32, StrideBits: 24},
		{Geometry: Geometry{Hashes: 11}, WordBits: 64, StrideBits: 8},
		{Geometry: Geometry{Hashes: 11}, WordBits: 64, StrideBits: 40},
		{Geometry: Geometry{Hashes: 64}, WordBits: 64},
		{Geometry: Geometry{Hashes: 9}, WordBits: 128, StrideBits: 56},
		{Geometry: Geometry{Hashes: 20}, WordBits: 512, StrideBits: 8},
		{Geometry: Geometry{Hashes: 8}, WordBits: 32, Multi: true},
		{Geometry: Geometry{Hashes: 8}, WordBits: 32, Multi: true, StrideBits: 8},
		{Geometry: Geometry{Hashes: 5}, WordBits: 64, Multi: true, StrideBits: 40},
		{Geometry: Geometry{Hashes: 3}, WordBits: 8, Multi: true, StrideBits: 16},
		{Geometry: Geometry{Hashes: 4}, WordBits: 256, Multi: true, StrideBits: 1000},
	} {
		for _, bits := range []uint64{1, 333, 2000} {
			q := p
			q.Bits = bits
			sh, err := q.shape(q.Hashes)
			if err != nil {
				t.Fatal(err)
			}
			q.Bits = max(bits, sh.l)
			f, err := NewMultiblock(q)
			if err != nil {
				t.Fatal(err)
			}
			ref := make([]bool, f.m)
			for range 200 {
				d := Digest{r.Uint64(), r.Uint64()}
				pos := f.positions(nil, d)
				want := true
				for _, b := range pos {
					want = want && ref[b]
				}
				if got := f.ContainsDigest(d); got != want {
					t.Fatalf("%+v m = %d: ContainsDigest = %v, want %v", q, f.m, got, want)
				}
				f.AddDigest(d)
				for _, b := range pos {
					ref[b] = true
				}
				for x := range f.m {
					if (f.words[x/64]>>(x%64)&1 != 0) != ref[x] {
						t.Fatalf("%+v m = %d: bit %d is %v, want %v", q, f.m, x, !ref[x], ref[x])
					}
				}
				if f.words[len(f.words)-1]>>(f.m%64) != 0 && f.m%64 != 0 {
					t.Fatalf("%+v: bits set above m", q)
				}
			}
		}
	}
}

// TestMultiblockInvalid: impossible layouts give errors wrapping
// ErrInvalidParams.
func TestMultiblockInvalid(t *testing.T) {
	for _, p := range []MultiblockParams{
		{Geometry: Geometry{Bits: 1000, Hashes: 65}, WordBits: 64},                              // K beyond the window's bits
		{Geometry: Geometry{Bits: 1000, Hashes: 9}, WordBits: 8},                                // likewise
		{Geometry: Geometry{Bits: 1 << 20, Hashes: 129}, WordBits: 512, Multi: true},            // 129 x 512 bits beyond 65536
		{Geometry: Geometry{Bits: 1000, Hashes: 4}, WordBits: 64, StrideBits: 12},               // not a whole number of bytes
		{Geometry: Geometry{Bits: 1000, Hashes: 4}, WordBits: 64, StrideBits: 72},               // beyond the block
		{Geometry: Geometry{Bits: 1000, Hashes: 4}, WordBits: 32, Multi: true, StrideBits: 136}, // beyond 4 x 32
		{Geometry: Geometry{Bits: 63, Hashes: 4}, WordBits: 64},                                 // smaller than one block
		{Geometry: Geometry{Bits: 255, Hashes: 8}, WordBits: 32, Multi: true},                   // likewise
		{Geometry: Geometry{Bits: 1000, Hashes: 4}, WordBits: 48},                               // not a power of two
		{Geometry: Geometry{Bits: 1000, Hashes: 4}, WordBits: 4},                                // below 8
		{Geometry: Geometry{Bits: 1 << 20, Hashes: 4}, WordBits: 8192},                          // above 4096
		{Geometry: Geometry{Bits: 1000, Hashes: 0}, WordBits: 64},                               // no hashes
		{Geometry: Geometry{Bits: MaxBits + 1, Hashes: 4}, WordBits: 64},                        // beyond MaxBits
		{Geometry: Geometry{Bits: 1000, Hashes: 4}, Hashing: Hashing{Derivation: Double}},
	} {
		if _, err := NewMultiblock(p); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v: error %v, want ErrInvalidParams", p, err)
		}
	}
	if _, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: 1 << 24, Hashes: 4}, MaxBytes: 1 << 20}); !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("2 MiB under a limit of 1 MiB: error %v, want ErrMemoryLimit", err)
	}
	if _, err := MultiblockGeometry(1000, 0.01, MultiblockParams{WordBits: 64, StrideBits: 4}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("sizing a stride of 4 bits: error %v", err)
	}
}

// TestMultiblockDecodeLimit: the decoder checks the table against the
// memory limit before it allocates it.
func TestMultiblockDecodeLimit(t *testing.T) {
	f, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: 1 << 24, Hashes: 4}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	withLimit(t, 1<<20)
	var g Multiblock
	if err := g.UnmarshalBinary(data); !errors.Is(err, ErrMemoryLimit) || !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("decoding 2 MiB under a limit of 1 MiB: %v", err)
	}
}

// TestMultiblockCorrupt: crafted files of code 17 (fields out of range or
// contradicting each other, checksum fixed) give ErrCorrupt.
func TestMultiblockCorrupt(t *testing.T) {
	for name, data := range multiblockCrafted(t) {
		var f Multiblock
		if err := f.UnmarshalBinary(data); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", name, err)
		}
		if g, err := Unmarshal(data); g != nil || !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Unmarshal = %v, %v", name, g, err)
		}
	}
}

// multiblockCrafted returns encodings of a valid multiblock filter with
// one field made invalid and the checksum fixed.
func multiblockCrafted(t testing.TB) map[string][]byte {
	f, err := NewMultiblock(MultiblockParams{Geometry: Geometry{Bits: 300, Hashes: 4}, WordBits: 64, StrideBits: 8})
	if err != nil {
		t.Fatal(err)
	}
	f.Add([]byte("x"))
	valid, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	out := map[string][]byte{}
	craft := func(name string, edit func(b []byte) []byte) {
		out[name] = fixChecksum(edit(bytes.Clone(valid)))
	}
	craft("layout-2", func(b []byte) []byte { le.PutUint32(b[33:], 2); return b })
	craft("word-bits-0", func(b []byte) []byte { le.PutUint32(b[29:], 0); return b })
	craft("word-bits-48", func(b []byte) []byte { le.PutUint32(b[29:], 48); return b })
	craft("word-bits-4", func(b []byte) []byte { le.PutUint32(b[29:], 4); return b })
	craft("stride-0", func(b []byte) []byte { le.PutUint32(b[37:], 0); return b })
	craft("stride-12", func(b []byte) []byte { le.PutUint32(b[37:], 12); return b })
	craft("stride-beyond-block", func(b []byte) []byte { le.PutUint32(b[37:], 72); return b })
	craft("hashes-beyond-window", func(b []byte) []byte { le.PutUint32(b[25:], 65); return b })
	craft("hashes-0", func(b []byte) []byte { le.PutUint32(b[25:], 0); return b })
	craft("multi-block-too-wide", func(b []byte) []byte { le.PutUint32(b[33:], 1); le.PutUint32(b[25:], 1025); return b })
	craft("bits-not-whole-strides", func(b []byte) []byte { le.PutUint64(b[17:], 300); return b })
	craft("bits-below-block", func(b []byte) []byte { le.PutUint64(b[17:], 56); return b })
	craft("bits-more-than-words", func(b []byte) []byte { le.PutUint64(b[17:], 304+64); return b })
	craft("bits-huge", func(b []byte) []byte { le.PutUint64(b[17:], 1<<62); return b })
	craft("padding-bit", func(b []byte) []byte { b[len(b)-5] |= 0x80; return b })
	craft("derivation-double", func(b []byte) []byte { b[8] = 1; return b })
	craft("hash-kind-xxh64", func(b []byte) []byte { b[7] = 2; return b })
	craft("truncated", func(b []byte) []byte { return b[:len(b)-12] })
	return out
}

// TestMultiblockFuzzSeeds writes the crafted files to the FuzzUnmarshal
// corpus with -update, and otherwise checks that they are there.
func TestMultiblockFuzzSeeds(t *testing.T) {
	for name, data := range multiblockCrafted(t) {
		path := filepath.Join("testdata", "fuzz", "FuzzUnmarshal", "multiblock-"+name)
		text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if *update {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != text {
			t.Errorf("%s: missing or stale (run with -update): %v", path, err)
		}
	}
}

// TestMultiblockFPR measures the false-positive rate of seeded filters of
// three of Boost's layouts (and one more overlapping one) against
// analysis.Multiblock.FPR, the filter's Model: the mean over F filters of
// each filter's rate on Q fresh digests must lie within 4 standard errors
// (from the spread between filters) of the theory. The tables hold P of
// about 4,000 to 20,000 starts, so that the ends of the table (which the
// overlapping theory treats as interior) move the rate by less than 0.1%
// of itself, a fraction of one standard error.
func TestMultiblockFPR(t *testing.T) {
	const (
		n       = 20_000
		filters = 16
		queries = 25_000
	)
	for _, p := range []MultiblockParams{
		{Geometry: Geometry{Bits: 8 * n, Hashes: 5}, WordBits: 64, Multi: true},                // multiblock<uint64_t, 5>
		{Geometry: Geometry{Bits: 8 * n, Hashes: 6}, WordBits: 64},                             // block<uint64_t, 6>
		{Geometry: Geometry{Bits: 8 * n, Hashes: 6}, WordBits: 64, StrideBits: 8},              // block<uint64_t, 6>, stride 1
		{Geometry: Geometry{Bits: 8 * n, Hashes: 5}, WordBits: 64, Multi: true, StrideBits: 8}, // multiblock<uint64_t, 5>, stride 1
		{Geometry: Geometry{Bits: 8 * n, Hashes: 10}, WordBits: 512, Multi: true},              // multiblock<uint64_t[8], 10>, 5120 bits
	} {
		name := fmt.Sprintf("w=%d/multi=%v/k=%d/stride=%d", p.WordBits, p.Multi, p.Hashes, p.StrideBits)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(p.Hashes), p.StrideBits+p.WordBits))
			var sum, sumSq float64
			var model float64
			for range filters {
				f, err := NewMultiblock(p)
				if err != nil {
					t.Fatal(err)
				}
				for range n {
					f.AddDigest(Digest{r.Uint64(), r.Uint64()})
				}
				fp := 0
				for range queries {
					if f.ContainsDigest(Digest{r.Uint64(), r.Uint64()}) {
						fp++
					}
				}
				rate := float64(fp) / queries
				sum += rate
				sumSq += rate * rate
				if model, err = f.Model().FPR(n); err != nil {
					t.Fatal(err)
				}
			}
			mean := sum / filters
			sd := math.Sqrt((sumSq - filters*mean*mean) / (filters - 1))
			se := sd / math.Sqrt(filters)
			z := (mean - model) / se
			t.Logf("measured %.5f ± %.5f (SE), theory %.5f, z = %+.2f", mean, se, model, z)
			if math.Abs(z) > 4 {
				t.Errorf("measured %.5f ± %.5f, theory %.5f: z = %.2f", mean, se, model, z)
			}
		})
	}
}

// TestMultiblockGeometry: the sizing's bits reach the rate, one stride
// fewer does not, and the chosen K needs no more bits than its neighbours.
func TestMultiblockGeometry(t *testing.T) {
	for _, p := range []MultiblockParams{
		{WordBits: 64},
		{WordBits: 512},
		{WordBits: 32, Multi: true},
		{WordBits: 64, StrideBits: 8},
	} {
		const n, fpr = 10_000, 0.01
		g, err := MultiblockGeometry(n, fpr, p)
		if err != nil {
			t.Fatal(err)
		}
		q := p
		q.Geometry = g
		f, err := NewMultiblock(q)
		if err != nil {
			t.Fatal(err)
		}
		if f.m != g.Bits || g.Capacity != n {
			t.Errorf("%+v: built %d bits for a geometry of %d", p, f.m, g.Bits)
		}
		model := f.Model()
		rate, _ := model.FPR(n)
		model.Bits -= f.stride
		below, _ := model.FPR(n)
		if rate > fpr || below <= fpr {
			t.Errorf("%+v: %d bits give %v, one stride fewer %v, want them either side of %v", p, g.Bits, rate, below, fpr)
		}
		for _, k := range []int{g.Hashes - 1, g.Hashes + 1} {
			if k < 1 {
				continue
			}
			q := p
			q.Hashes = k
			h, err := MultiblockGeometry(n, fpr, q)
			if err == nil && h.Bits < g.Bits {
				t.Errorf("%+v: K = %d needs %d bits, fewer than the chosen K = %d's %d", p, k, h.Bits, g.Hashes, g.Bits)
			}
		}
		t.Logf("%+v: m = %d (%.2f bits per key), K = %d, rate %.5f", p, g.Bits, float64(g.Bits)/n, g.Hashes, rate)
	}
}

// TestMultiblockStatsOverlap: Stats's sliding windows at an overlapping
// stride agree with counting every start's windows afresh.
func TestMultiblockStatsOverlap(t *testing.T) {
	for _, p := range []MultiblockParams{
		{Geometry: Geometry{Bits: 5000, Hashes: 6}, WordBits: 512, StrideBits: 24},
		{Geometry: Geometry{Bits: 5000, Hashes: 4}, WordBits: 128, Multi: true, StrideBits: 200},
	} {
		f, err := NewMultiblock(p)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(5, 6))
		for range 60 {
			f.AddDigest(Digest{r.Uint64(), r.Uint64()})
		}
		var want float64
		g, tt := uint64(1), float64(f.k)
		if f.multi {
			g, tt = uint64(f.k), 1
		}
		for s := range f.starts {
			prod := 1.0
			for i := range g {
				prod *= math.Pow(float64(f.popRange(s*f.stride+i*f.w, f.w))/float64(f.w), tt)
			}
			want += prod
		}
		want /= float64(f.starts)
		if got := f.Stats().EstimatedFPR; math.Abs(got-want) > 1e-12*want {
			t.Errorf("%+v: EstimatedFPR %v, want %v", p, got, want)
		}
	}
}

// TestMultiblockGeometryHuge: a capacity that no table of MaxBits bits can
// hold at the rate is refused, not sized from rates that lose precision.
func TestMultiblockGeometryHuge(t *testing.T) {
	for _, c := range []struct {
		n   uint64
		fpr float64
	}{{1 << 62, 1e-9}, {1 << 47, 0.01}} {
		if g, err := MultiblockGeometry(c.n, c.fpr, MultiblockParams{WordBits: 64, Multi: true}); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("n = %d, p = %v: %+v, %v; want ErrInvalidParams", c.n, c.fpr, g, err)
		}
	}
}

// TestMultiblockModelBoost: the bits a filter builds for a requested size
// are Boost's for a filter(m) of the same layout (analysis.BoostMultiblock,
// from filter_core's requested_range and used_array_size), and Model
// carries them with the layout.
func TestMultiblockModelBoost(t *testing.T) {
	for _, p := range []MultiblockParams{
		{Geometry: Geometry{Hashes: 6}, WordBits: 64},
		{Geometry: Geometry{Hashes: 6}, WordBits: 64, StrideBits: 8},
		{Geometry: Geometry{Hashes: 7}, WordBits: 512, StrideBits: 24},
		{Geometry: Geometry{Hashes: 8}, WordBits: 32, Multi: true},
		{Geometry: Geometry{Hashes: 5}, WordBits: 64, Multi: true, StrideBits: 8},
		{Geometry: Geometry{Hashes: 3}, WordBits: 16, Multi: true, StrideBits: 40},
	} {
		for _, m := range []uint64{512, 1000, 4097, 123_457, 1 << 20} {
			p.Bits = m
			f, err := NewMultiblock(p)
			if err != nil {
				t.Fatal(err)
			}
			want := analysis.BoostMultiblock(m, p.Hashes, p.WordBits, p.Multi, p.StrideBits/8)
			if got := f.Model(); got != want {
				t.Errorf("%+v: Model() = %+v, want Boost's %+v", p, got, want)
			}
		}
	}
}
