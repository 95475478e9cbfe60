package variants

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/bloomlab/bloomlab/analysis"
)

// ownHashings are the hash options of the variants with their own
// indexing.
var ownHashings = []Hashing{{}, {Kind: Metro, Seed: 7}, {Seed: 3}}

func TestSetOpsBlocked(t *testing.T) {
	for _, b := range []int{256, 512} {
		testSetOps(t, ownHashings, func(h Hashing) *Blocked {
			f, err := blockedFor(5000, 0.01, b, h)
			if err != nil {
				t.Fatal(err)
			}
			return f
		})
	}
}

func TestSetOpsSplitBlock(t *testing.T) {
	testSetOps(t, append(ownHashings, Hashing{Kind: XXH64}), func(h Hashing) *SplitBlock {
		f, err := NewSplitBlockFor(5000, 0.01, h)
		if err != nil {
			t.Fatal(err)
		}
		return f
	})
}

// TestBlockedIncompatible: set operations name every difference.
func TestBlockedIncompatible(t *testing.T) {
	mk := func(m uint64, k, b int, h Hashing) *Blocked {
		f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: m, Hashes: k}, BlockBits: b, Hashing: h})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, c := range []struct {
		f, g *Blocked
		want string
	}{
		{mk(4096, 3, 512, Hashing{}), mk(8192, 3, 512, Hashing{}), "bits 4096 != 8192"},
		{mk(4096, 3, 512, Hashing{}), mk(4096, 3, 256, Hashing{}), "block bits 512 != 256"},
		{mk(4096, 3, 512, Hashing{}), mk(4096, 4, 512, Hashing{}), "hashes 3 != 4"},
		{mk(4096, 3, 512, Hashing{}), mk(4096, 3, 512, Hashing{Seed: 1}), "seed 0 != 1"},
	} {
		if err := c.f.Union(c.g); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Union: %v, want ErrIncompatible naming %q", err, c.want)
		}
		if err := c.f.Intersect(c.g); !errors.Is(err, ErrIncompatible) {
			t.Errorf("Intersect: %v", err)
		}
	}
	s1, _ := NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, Hashing{})
	s2, _ := NewSplitBlock(Geometry{Bits: 1024, Hashes: 8}, Hashing{Kind: XXH64})
	if err := s1.Union(s2); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "blocks 2 != 4, hash kind xxh3 != xxh64") {
		t.Errorf("split-block Union: %v", err)
	}
}

// TestBlockedBadParams: every bad parameter gives ErrInvalidParams naming it.
func TestBlockedBadParams(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1000, Hashes: 3}, BlockBits: 100})), "block bits B = 100"},
		{second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1000, Hashes: 3}, BlockBits: 8192})), "block bits B = 8192"},
		{second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 0, Hashes: 3}})), "bits m = 0"},
		{second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1000, Hashes: 0}})), "hashes k = 0"},
		{second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: MaxBits, Hashes: 3}})) /* fits */, ""},
		{second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1000, Hashes: 3}, Hashing: Hashing{Derivation: Double}})), "derivation double"},
		{second(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1000, Hashes: 3}, Hashing: Hashing{Kind: XXH64}})), "hash kind xxh64"},
		{second(NewBlockedFor(0, 0.01, Hashing{})), "capacity n = 0"},
		{second(NewBlockedFor(10, 1.5, Hashing{})), "rate p = 1.5"},
		{second(NewBlockedFor(10, math.NaN(), Hashing{})), "rate p = NaN"},
		{second(NewSplitBlock(Geometry{Bits: 0, Hashes: 8}, Hashing{})), "bits m = 0"},
		{second(NewSplitBlock(Geometry{Bits: 1 << 41, Hashes: 8}, Hashing{})), "blocks"},
		{second(NewSplitBlock(Geometry{Bits: 256, Hashes: 8}, Hashing{Derivation: Triple})), "derivation triple"},
		{second(NewSplitBlock(Geometry{Bits: 256}, Hashing{})), "hashes k = 0"},
		{second(NewSplitBlock(Geometry{Bits: 256, Hashes: 7}, Hashing{})), "hashes k = 7"},
		{second(NewCounting(CountingParams{Geometry: Geometry{Bits: 256, Hashes: 3}, Width: 3})), "counter width w = 3"},
		{second(NewSplitBlockFor(0, 0.01, Hashing{})), "capacity n = 0"},
		{second(NewSplitBlockFromBitset(make([]byte, 33))), "bitset of 33 bytes"},
		{second(NewSplitBlockFromBitset(nil)), "bitset of 0 bytes"},
	} {
		if c.want == "" {
			continue // documents a size that is valid in principle; not allocated here
		}
		if !errors.Is(c.err, ErrInvalidParams) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want ErrInvalidParams naming %q", c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestBlockedGeometry: bits round up to whole blocks, blocks are aligned to
// 64 bytes, and the sized filter reaches at most its target in theory.
func TestBlockedGeometry(t *testing.T) {
	for _, b := range []int{64, 256, 512, 1024, 4096} {
		f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1000, Hashes: 5}, BlockBits: b})
		if err != nil {
			t.Fatal(err)
		}
		want := (1000 + uint64(b) - 1) / uint64(b) * uint64(b)
		if g := f.Geometry(); g.Bits != want || g.Hashes != 5 || f.BlockBits() != b {
			t.Errorf("B = %d: geometry %+v, block bits %d, want %d bits", b, g, f.BlockBits(), want)
		}
		if uintptr(unsafe.Pointer(&f.words[0]))&63 != 0 {
			t.Errorf("B = %d: table not aligned to 64 bytes", b)
		}
		if st := f.Stats(); st.Blocks.Count != want/uint64(b) || st.Blocks.Bits != b {
			t.Errorf("B = %d: block stats %+v", b, st.Blocks)
		}
	}
	s, err := NewSplitBlock(Geometry{Bits: 1000, Hashes: 8}, Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	if g := s.Geometry(); g.Bits != 1024 || g.Hashes != 8 {
		t.Errorf("split-block geometry %+v, want 1024 bits, 8 hashes", g)
	}
	if uintptr(unsafe.Pointer(&s.words[0]))&63 != 0 {
		t.Error("split-block table not aligned to 64 bytes")
	}
	// A loaded filter is aligned too, whatever the decoder allocated.
	for range 20 {
		data, _ := s.MarshalBinary()
		var g SplitBlock
		if err := g.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		if uintptr(unsafe.Pointer(&g.words[0]))&63 != 0 {
			t.Fatal("loaded split-block table not aligned to 64 bytes")
		}
	}
}

// TestBlockedKeysInOneBlock: every bit a key sets lies in the block its
// digest picks, and a key sets at most k bits.
func TestBlockedKeysInOneBlock(t *testing.T) {
	for _, b := range []int{64, 256, 512, 1024} {
		for _, k := range []int{1, 7, 8, 13, 40} {
			f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: 64 * 1024, Hashes: k}, BlockBits: b, Hashing: Hashing{Seed: 5}})
			if err != nil {
				t.Fatal(err)
			}
			for i, key := range testKeys(4, 1, 50) {
				f.Reset()
				f.Add(key)
				d := f.hashing.Digest(key)
				blk := reduce(d.H1, f.blocks)
				wpb := uint64(b / 64)
				var set uint64
				for j, w := range f.words {
					if w != 0 && uint64(j)/wpb != blk {
						t.Fatalf("B=%d k=%d key %d: bits outside block %d (word %d)", b, k, i, blk, j)
					}
				}
				set = f.setBits()
				if set < 1 || set > uint64(k) {
					t.Fatalf("B=%d k=%d: key set %d bits", b, k, set)
				}
			}
		}
	}
}

// TestBlockUniformity: a chi-square test that keys pick blocks uniformly,
// for a number of blocks that is and one that is not a power of two.
func TestBlockUniformity(t *testing.T) {
	for _, blocks := range []uint64{64, 1000} {
		f, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: blocks * 512, Hashes: 1}, BlockBits: 512, Hashing: Hashing{Seed: 11}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSplitBlock(Geometry{Bits: blocks * 256, Hashes: 8}, Hashing{Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		const perBlock = 200
		n := int(blocks) * perBlock
		countB := make([]float64, blocks)
		countS := make([]float64, blocks)
		base := uintptr(unsafe.Pointer(&f.words[0]))
		sbase := uintptr(unsafe.Pointer(&s.words[0]))
		for _, key := range testKeys(12, 1, n) {
			d := f.hashing.Digest(key)
			countB[(uintptr(f.block(d.H1))-base)/64]++
			countS[(uintptr(s.block(d.H1))-sbase)/32]++
		}
		for name, c := range map[string][]float64{"blocked": countB, "split-block": countS} {
			var chi2 float64
			for _, x := range c {
				chi2 += (x - perBlock) * (x - perBlock) / perBlock
			}
			// chi-square with blocks-1 degrees of freedom: mean df, sd
			// sqrt(2 df); 4 standard deviations either side.
			df := float64(blocks - 1)
			if math.Abs(chi2-df) > 4*math.Sqrt(2*df) {
				t.Errorf("%s, %d blocks: chi-square %.1f, want %v ± %.1f", name, blocks, chi2, df, 4*math.Sqrt(2*df))
			}
		}
	}
}

// TestBatchesMatchSingle: the batched operations give the same bits and
// answers as one key at a time, for lengths that are and are not
// multiples of the group.
func TestBatchesMatchSingle(t *testing.T) {
	type batchFilter interface {
		Filter
		Batcher
	}
	makers := map[string]func() batchFilter{
		"blocked": func() batchFilter {
			f, _ := NewBlockedFor(3000, 0.01, Hashing{Seed: 2})
			return f
		},
		"blocked-metro": func() batchFilter {
			f, _ := blockedFor(3000, 0.01, 256, Hashing{Kind: Metro, Seed: 2})
			return f
		},
		"split-block": func() batchFilter {
			f, _ := NewSplitBlockFor(3000, 0.01, Hashing{Seed: 2})
			return f
		},
		"split-block-xxh64": func() batchFilter {
			f, _ := NewSplitBlockFor(3000, 0.01, Hashing{Kind: XXH64})
			return f
		},
	}
	keys := testKeys(21, 1, 2000)
	queries := append(testKeys(22, 2, 2001), keys[:500]...)
	for name, mk := range makers {
		one, batch, digests := mk(), mk(), mk()
		for _, k := range keys {
			one.Add(k)
		}
		batch.AddBatch(keys[:37])
		batch.AddBatch(keys[37:])
		ds := make([]Digest, len(keys))
		for i, k := range keys {
			ds[i] = one.Hashing().Digest(k)
		}
		digests.AddDigestBatch(ds)
		if !equalFilters(one, batch) || !equalFilters(one, digests) {
			t.Fatalf("%s: batched adds set other bits", name)
		}
		if one.Stats().Items != batch.Stats().Items || one.Stats().Items != digests.Stats().Items {
			t.Errorf("%s: item counts differ", name)
		}
		out := make([]bool, len(queries)+3)
		batch.ContainsBatch(queries, out)
		qd := make([]Digest, len(queries))
		for i, q := range queries {
			qd[i] = one.Hashing().Digest(q)
		}
		outD := make([]bool, len(queries))
		batch.ContainsDigestBatch(qd, outD)
		for i, q := range queries {
			if want := one.Contains(q); out[i] != want || outD[i] != want {
				t.Fatalf("%s: query %d: batch %v, by digest %v, one at a time %v", name, i, out[i], outD[i], want)
			}
		}
		allocs := testing.AllocsPerRun(20, func() {
			batch.ContainsBatch(queries, out)
			batch.AddBatch(keys[:100])
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per batch", name, allocs)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: ContainsBatch with a short output did not panic", name)
				}
			}()
			batch.ContainsBatch(queries, out[:10])
		}()
	}
}

// equalFilters compares two filters of the same type by their encodings.
func equalFilters(a, b Filter) bool {
	switch a := a.(type) {
	case *Blocked:
		return a.Equal(b.(*Blocked))
	case *SplitBlock:
		return a.Equal(b.(*SplitBlock))
	}
	panic("equalFilters: type")
}

// TestBlockedStatsEstimate: the estimated rate is the mean over blocks of
// (X_b/B)^k, checked on a hand-built table.
func TestBlockedStatsEstimate(t *testing.T) {
	f, _ := NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1024, Hashes: 2}, BlockBits: 512})
	f.words[0] = 0xffff_ffff_ffff_ffff // block 0: 64 of 512 bits set
	st := f.Stats()
	want := (math.Pow(64.0/512, 2) + 0) / 2
	if math.Abs(st.EstimatedFPR-want) > 1e-15 || math.Abs(st.FillRatio-64.0/1024) > 1e-15 {
		t.Errorf("estimate %v, fill %v; want %v, %v", st.EstimatedFPR, st.FillRatio, want, 64.0/1024)
	}
	if st.Blocks.FillMax != 0.125 || st.Blocks.FillMin != 0 || math.Abs(st.Blocks.FillStdDev-0.0625) > 1e-15 {
		t.Errorf("block spread %+v", st.Blocks)
	}
	s, _ := NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, Hashing{})
	s.words[0] = 0x0000_0003_0000_0001 // block 0: word 0 one bit, word 1 two bits
	for i := 1; i < 4; i++ {
		s.words[i] = 0x0000_0001_0000_0001 // words 2..7 one bit each
	}
	if got, want := s.Stats().EstimatedFPR, 2*math.Pow(1.0/32, 8)/2; math.Abs(got-want) > 1e-25 {
		t.Errorf("split-block estimate %v, want %v", got, want)
	}
}

// meanRate fills each of filters filters made by mk(i) with n seeded keys,
// queries it with q absent keys, and returns the mean measured rate and its
// standard error from the spread between filters (which includes the
// filter-to-filter variation of the block loads, not only the binomial
// noise of the queries).
func meanRate(t *testing.T, filters, n, q int, mk func(i int) Filter) (mean, se float64) {
	t.Helper()
	rates := make([]float64, filters)
	for i := range rates {
		rates[i] = measureFPR(t, mk(i), uint64(5000+i), n, q)
		mean += rates[i] / float64(filters)
	}
	var ss float64
	for _, r := range rates {
		ss += (r - mean) * (r - mean)
	}
	return mean, math.Sqrt(ss / float64(filters-1) / float64(filters))
}

// TestBlockedRateMatchesTheory: for every block size and for the
// split-block filter, with each hash kind, the mean rate over 30 seeded
// filters lies within 4 standard errors of the exact blocked rate
// (analysis.BlockedFPR, analysis.SplitBlockFPR) of the geometry built, at
// capacity and at twice capacity.
func TestBlockedRateMatchesTheory(t *testing.T) {
	t.Parallel()
	const filters, capacity, q = 30, 20_000, 60_000
	type tc struct {
		name string
		mk   func(h Hashing) (Filter, error)
		rate func(st Stats, n uint64) float64
	}
	var cases []tc
	for _, b := range []int{64, 256, 512, 1024} {
		cases = append(cases, tc{fmt.Sprintf("blocked-%d", b),
			func(h Hashing) (Filter, error) { return blockedFor(capacity, 0.01, b, h) },
			func(st Stats, n uint64) float64 { return analysis.BlockedFPR(st.Cells, n, st.Hashes, uint64(b)) }})
	}
	cases = append(cases, tc{"split-block",
		func(h Hashing) (Filter, error) { return NewSplitBlockFor(capacity, 0.01, h) },
		func(st Stats, n uint64) float64 { return analysis.SplitBlockFPR(st.Cells, n) }})
	hashings := []Hashing{{}, {Kind: Metro}}
	for _, c := range cases {
		hs := hashings
		if c.name == "split-block" {
			hs = append(hs, Hashing{Kind: XXH64}, Hashing{Kind: XXH3_64})
		}
		for _, h := range hs {
			for _, n := range []int{capacity, 2 * capacity} {
				var st Stats
				mean, se := meanRate(t, filters, n, q, func(i int) Filter {
					h.Seed = uint64(i)
					f, err := c.mk(h)
					if err != nil {
						t.Fatal(err)
					}
					st = f.Stats()
					return f
				})
				want := c.rate(st, uint64(n))
				t.Logf("%s %v n=%d: mean %.5g ± %.2g, theory %.5g, standard filter %.5g", c.name, h.Kind, n, mean, se, want, analysis.ExactFPR(st.Cells, uint64(n), st.Hashes))
				if math.Abs(mean-want) > 4*se {
					t.Errorf("%s %v n=%d: mean rate %.5g over %d filters, theory %.5g (%.1f standard errors)", c.name, h.Kind, n, mean, filters, want, (mean-want)/se)
				}
			}
		}
	}
}

// blockedFor returns an empty blocked filter with blocks of b bits, sized
// by BlockedGeometry for capacity items at rate fpr: NewBlockedFor for a
// block size other than the default.
func blockedFor(capacity uint64, fpr float64, b int, h Hashing) (*Blocked, error) {
	g, err := BlockedGeometry(capacity, fpr, b)
	if err != nil {
		return nil, err
	}
	return NewBlocked(BlockedParams{Geometry: g, BlockBits: b, Hashing: h})
}
