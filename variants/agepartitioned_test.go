package variants

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
)

// newAgeFor builds an age-partitioned filter whose window holds twice
// capacity keys, for the shared suites (whose adds all stay in the window).
func newAgeFor(blocked bool) newFilterFunc {
	return func(t testing.TB, n uint64, p float64, h Hashing) Filter {
		f, err := NewAgePartitionedFor(2*n, p, AgePartitionedOptions{Blocked: blocked, Hashing: h})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
}

// newAgeGeometry builds an age-partitioned filter from a geometry, for the
// format tests: K = Hashes slices per key, L = 3, slices of about
// Bits/(K + L) bits (whole words for the blocked layout), generations that
// half fill a full slice.
func newAgeGeometry(g Geometry, h Hashing, blocked bool) (persistent, error) {
	b := max(g.Bits/uint64(g.Hashes+3), 1)
	if blocked {
		b = (b + 63) / 64 * 64
	}
	return NewAgePartitioned(AgePartitionedParams{K: g.Hashes, L: 3, G: max(b*7/10/uint64(g.Hashes), 1), SliceBits: b, AgePartitionedOptions: AgePartitionedOptions{Blocked: blocked, Hashing: h}})
}

// ageDigests returns the digests of n distinct keys.
func ageDigests(seed uint64, set byte, n int) []Digest {
	keys := testKeys(seed, set, n)
	ds := make([]Digest, n)
	for i, k := range keys {
		ds[i] = Hashing{}.Digest(k)
	}
	return ds
}

// TestAgePartitionedWindowEveryPhase adds keys one by one to small filters
// and checks after every add that each of the most recent Window() keys
// tests present: every phase of many generation cycles, for both layouts.
func TestAgePartitionedWindowEveryPhase(t *testing.T) {
	for _, p := range []AgePartitionedParams{
		{K: 3, L: 2, G: 5, SliceBits: 40},
		{K: 1, L: 1, G: 1, SliceBits: 8},
		{K: 4, L: 4, G: 7, SliceBits: 30},
		{K: 5, L: 3, G: 9, SliceBits: 64, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 7, L: 10, G: 3, SliceBits: 128, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
	} {
		f, err := NewAgePartitioned(p)
		if err != nil {
			t.Fatal(err)
		}
		w := int(f.Window())
		if w != p.L*int(p.G)+1 {
			t.Fatalf("Window() = %d, want L G + 1 = %d", w, p.L*int(p.G)+1)
		}
		ds := ageDigests(uint64(p.K), 1, 20000)
		for i, d := range ds {
			f.AddDigest(d)
			for a := 0; a < w && a <= i; a++ {
				if !f.ContainsDigest(ds[i-a]) {
					t.Fatalf("%+v: after %d adds (position %d) the key of age %d tests absent; the window is %d", p, i+1, f.Position(), a, w)
				}
			}
		}
	}
}

// TestAgePartitionedTenMillion adds ten million keys to small filters (four
// geometries, both layouts) and checks after every add that the key of
// age Window() - 1, the oldest the promise covers, tests present (a key
// can only lose its bits by ageing, so the younger keys are then present
// too unless the filter drops slices out of turn, which
// TestAgePartitionedWindowEveryPhase checks at every age). Skipped with
// -short.
func TestAgePartitionedTenMillion(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("ten million adds")
	}
	const total = 10_000_000
	geoms := []AgePartitionedParams{
		{K: 3, L: 2, G: 4, SliceBits: 30},
		{K: 2, L: 5, G: 3, SliceBits: 20},
		{K: 4, L: 4, G: 16, SliceBits: 64, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 6, L: 2, G: 2, SliceBits: 64, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
	}
	ds := ageDigests(7, 1, 1<<16)
	for _, p := range geoms {
		f, err := NewAgePartitioned(p)
		if err != nil {
			t.Fatal(err)
		}
		w := int(f.Window())
		mask := len(ds) - 1
		for i := range total / len(geoms) {
			f.AddDigest(ds[i&mask])
			if i >= w-1 && !f.ContainsDigest(ds[(i-w+1)&mask]) {
				t.Fatalf("%+v: after %d adds a key within the window %d tests absent", p, i+1, w)
			}
		}
	}
}

// measureRate builds filters filters of p (seeds differ), brings each to
// the steady state, and at each position of cs measures the rate of
// queries absent keys; it returns the per-position mean over filters and
// the standard error from their spread.
func measureRate(t *testing.T, p AgePartitionedParams, cs []uint64, filters, queries int) (mean, se []float64) {
	rates := make([][]float64, len(cs))
	for fi := range filters {
		p.Hashing = Hashing{Seed: uint64(1000 + fi)}
		f, err := NewAgePartitioned(p)
		if err != nil {
			t.Fatal(err)
		}
		warm := (p.K + p.L + 1) * int(p.G) // ends with a full generation
		ins := testKeys(uint64(fi), 1, warm+int(p.G))
		for _, k := range ins[:warm] {
			f.Add(k)
		}
		n := warm
		absent := testKeys(uint64(fi), 2, queries)
		// cs rises from below G, so each position is reached in the
		// generation after the warm-up.
		for ci, c := range cs {
			for f.Position() != c {
				f.Add(ins[n])
				n++
			}
			fp := 0
			for _, k := range absent {
				if f.Contains(k) {
					fp++
				}
			}
			rates[ci] = append(rates[ci], float64(fp)/float64(queries))
		}
	}
	for _, r := range rates {
		var s, s2 float64
		for _, v := range r {
			s += v
			s2 += v * v
		}
		m := s / float64(len(r))
		v := (s2 - float64(len(r))*m*m) / float64(len(r)-1)
		mean, se = append(mean, m), append(se, math.Sqrt(max(v, 0)/float64(len(r))))
	}
	return mean, se
}

// TestAgePartitionedRate measures the rate at three positions of the
// generation cycle (just after a shift, mid-generation, just before the
// next shift) for four (K, L) geometries with rates from about 1e-1 to
// 1e-4, each over 24 filters, against the exact theory: within 4 standard
// errors of the between-filter spread (floored at the binomial error of
// the pooled queries, for the rarest rates).
func TestAgePartitionedRate(t *testing.T) {
	t.Parallel()
	const filters, queries = 24, 20000
	for _, kl := range [][2]int{{3, 3}, {7, 5}, {10, 7}, {12, 6}} {
		k, l := kl[0], kl[1]
		g := uint64(150)
		b := uint64(math.Ceil(float64(k) * float64(g) / math.Ln2))
		p := AgePartitionedParams{K: k, L: l, G: g, SliceBits: b}
		geom := analysis.AgePartitioned{K: k, L: l, G: g, SliceBits: b}
		cs := []uint64{1, g / 2, g}
		mean, se := measureRate(t, p, cs, filters, queries)
		for i, c := range cs {
			want := geom.FPR(c)
			floor := math.Sqrt(want / (filters * queries))
			s := max(se[i], floor)
			t.Logf("k=%d l=%d c=%d: measured %.4g ± %.2g, exact %.4g, one-number %.4g", k, l, c, mean[i], s, want, geom.OneNumberFPR())
			if math.Abs(mean[i]-want) > 4*s {
				t.Errorf("k=%d l=%d c=%d: measured rate %v, exact theory %v (se %v)", k, l, c, mean[i], want, s)
			}
		}
	}
}

// TestAgePartitionedBlockedRate: the blocked layout's measured rate against
// analysis.AgePartitioned.BlockedFPR, and above the independent-slice rate
// it would have without blocking.
func TestAgePartitionedBlockedRate(t *testing.T) {
	t.Parallel()
	const filters, queries = 24, 20000
	g := uint64(300)
	p := AgePartitionedParams{K: 7, L: 9, G: g, SliceBits: 64 * 48, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}}
	geom := analysis.AgePartitioned{K: 7, L: 9, G: g, SliceBits: 64 * 48}
	cs := []uint64{1, g}
	mean, se := measureRate(t, p, cs, filters, queries)
	for i, c := range cs {
		want, wse := geom.BlockedFPR(c, 1<<14)
		s := math.Hypot(max(se[i], math.Sqrt(want/(filters*queries))), wse)
		t.Logf("blocked c=%d: measured %.4g ± %.2g, blocked theory %.4g ± %.2g, independent slices %.4g", c, mean[i], s, want, wse, geom.FPR(c))
		if math.Abs(mean[i]-want) > 4*s {
			t.Errorf("blocked c=%d: measured %v, theory %v (se %v)", c, mean[i], want, s)
		}
	}
}

// TestAgePartitionedRecall measures the fraction of keys of each age that
// test present, at every add of a stream, against
// analysis.AgePartitioned.Recall: 1 within the window, then falling.
func TestAgePartitionedRecall(t *testing.T) {
	const filters = 20
	k, l, g := 4, 3, uint64(40)
	b := uint64(math.Ceil(float64(k) * float64(g) / math.Ln2))
	geom := analysis.AgePartitioned{K: k, L: l, G: g, SliceBits: b}
	ages := []uint64{0, uint64(l) * g, uint64(l)*g + 1, uint64(l)*g + 10, uint64(l)*g + 20, uint64(l)*g + 30, uint64(l+1) * g, uint64(l+1)*g + 60, 600}
	hits := make([]int, len(ages))
	tries := 0
	for fi := range filters {
		f, err := NewAgePartitioned(AgePartitionedParams{K: k, L: l, G: g, SliceBits: b, AgePartitionedOptions: AgePartitionedOptions{Hashing: Hashing{Seed: uint64(fi)}}})
		if err != nil {
			t.Fatal(err)
		}
		keys := testKeys(uint64(fi), 3, 3000)
		for i, key := range keys {
			f.Add(key)
			if i < 1000 {
				continue
			}
			tries++
			for ai, a := range ages {
				if f.Contains(keys[i-int(a)]) {
					hits[ai]++
				}
			}
		}
	}
	for ai, a := range ages {
		got := float64(hits[ai]) / float64(tries)
		want := geom.Recall(a)
		// A key is queried at consecutive adds, so answers are correlated;
		// the binomial error is widened threefold for that.
		se := 3 * math.Sqrt(max(want*(1-want), 1e-4)/float64(tries))
		t.Logf("age %d: recall %.4f, theory %.4f", a, got, want)
		if a < geom.Window() && hits[ai] != tries {
			t.Errorf("age %d within the window: %d of %d present", a, hits[ai], tries)
		}
		if math.Abs(got-want) > 4*se {
			t.Errorf("age %d: recall %v, theory %v (se %v)", a, got, want, se)
		}
	}
}

func TestAgePartitionedErrors(t *testing.T) {
	good := AgePartitionedParams{K: 3, L: 2, G: 10, SliceBits: 64}
	for _, mod := range []func(*AgePartitionedParams){
		func(p *AgePartitionedParams) { p.K = 0 },
		func(p *AgePartitionedParams) { p.L = 0 },
		func(p *AgePartitionedParams) { p.G = 0 },
		func(p *AgePartitionedParams) { p.SliceBits = 0 },
		func(p *AgePartitionedParams) { p.K, p.L = 200, 100 },
		func(p *AgePartitionedParams) { p.Blocked, p.SliceBits = true, 100 },
		func(p *AgePartitionedParams) { p.Refresh = -time.Second },
		func(p *AgePartitionedParams) { p.Hashing.Derivation = Double },
	} {
		p := good
		mod(&p)
		if _, err := NewAgePartitioned(p); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v: error %v, want ErrInvalidParams", p, err)
		}
	}
	for _, tc := range []struct {
		w uint64
		p float64
	}{{0, 0.01}, {100, 0}, {100, 1}, {100, math.NaN()}} {
		if _, err := NewAgePartitionedFor(tc.w, tc.p, AgePartitionedOptions{}); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("NewAgePartitionedFor(%d, %v): error %v, want ErrInvalidParams", tc.w, tc.p, err)
		}
	}
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestAgePartitionedClock(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	f, err := NewAgePartitioned(AgePartitionedParams{K: 2, L: 3, G: 1000, SliceBits: 4096, AgePartitionedOptions: AgePartitionedOptions{Refresh: time.Minute, Clock: clk.now}})
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("event")
	f.Add(key)
	// Present for L = 3 whole minutes after its generation began, gone
	// after L + 1 shifts.
	for _, d := range []time.Duration{30 * time.Second, 2 * time.Minute, 3*time.Minute + 59*time.Second} {
		clk.t = clk.t.Add(d - clk.t.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
		if !f.Contains(key) {
			t.Fatalf("absent %v after its add, refresh 1m, L = 3", d)
		}
	}
	clk.t = time.Date(2026, 1, 1, 0, 4, 0, 0, time.UTC)
	if f.Contains(key) {
		t.Fatal("present after L + 1 = 4 refresh periods")
	}
	// Contains did not age the filter; Tick does.
	if got := f.Stats().Slices[1].Items; got != 1 {
		t.Fatalf("Contains changed the filter: slice 1 holds %d items", got)
	}
	if err := f.Tick(); err != nil {
		t.Fatal(err)
	}
	if f.Contains(key) || f.Stats().Items != 1 {
		t.Fatal("Tick did not age the filter by four generations")
	}
	f.Add([]byte("later"))
	clk.t = clk.t.Add(-time.Second)
	if err := f.Tick(); !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("clock going back: Tick error %v, want ErrInvalidParams", err)
	}
	f.Add([]byte("after"))
	if !errors.Is(f.Err(), ErrInvalidParams) || !f.Contains([]byte("later")) {
		t.Fatalf("clock going back: Err %v; the filter must not age", f.Err())
	}
	f.Reset()
	if f.Err() != nil {
		t.Fatal("Reset did not clear Err")
	}
}

// TestAgePartitionedGoldenLayout checks the age-partitioned golden
// encodings field by field against the layout documented at
// FormatVersion.
func TestAgePartitionedGoldenLayout(t *testing.T) {
	le := binary.LittleEndian
	for _, tc := range []struct {
		file          string
		code          byte
		k, l, g, b    uint64
		words         int
		front, newest uint64
	}{
		// Five keys in generations of two: slots 0, 4, 3 received two,
		// two and one keys, the newest slice is in slot 3.
		{"age-partitioned-v1", 14, 3, 2, 2, 70, 5 * 2, 3, 1},
		{"age-partitioned-blocked-v1", 15, 3, 5, 2, 128, 2 * 8, 6, 1},
	} {
		data := readHex(t, filepath.Join("testdata", tc.file+".golden"))
		n := int(tc.k + tc.l)
		got := []uint64{uint64(data[6]), uint64(le.Uint32(data[17:])), uint64(le.Uint32(data[21:])), le.Uint64(data[25:]), le.Uint64(data[33:]),
			le.Uint64(data[41:]), le.Uint64(data[49:]), uint64(le.Uint32(data[57:])), le.Uint64(data[61:]), le.Uint64(data[69+8*int(tc.front):]), uint64(len(data))}
		want := []uint64{uint64(tc.code), tc.k, tc.l, tc.g, tc.b, 0, 0, tc.front, uint64(len(goldenKeys)), tc.newest, uint64(73 + 8*n + 8*tc.words)}
		names := []string{"variant", "K", "L", "G", "slice bits", "refresh", "start", "front", "items", "newest generation", "length"}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %s = %d, want %d", tc.file, names[i], got[i], want[i])
			}
		}
	}
}

// TestAgePartitionedDecodeErrors crafts bad encodings of both layouts: each
// gives an error wrapping ErrCorrupt that names the problem.
func TestAgePartitionedDecodeErrors(t *testing.T) {
	le := binary.LittleEndian
	for _, blocked := range []bool{false, true} {
		f, err := NewAgePartitioned(AgePartitionedParams{K: 3, L: 3, G: 4, SliceBits: 64 * 3, AgePartitionedOptions: AgePartitionedOptions{Blocked: blocked}})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range testKeys(1, 1, 10) {
			f.Add(k)
		}
		good, _ := f.MarshalBinary()
		edit := func(fn func(b []byte)) []byte {
			b := bytes.Clone(good)
			fn(b)
			return fixChecksum(b)
		}
		lastWord := len(good) - 4 - 8
		for _, tc := range []struct {
			name string
			data []byte
			want string
		}{
			{"k 0", edit(func(b []byte) { le.PutUint32(b[17:], 0) }), "k = 0"},
			{"l 0", edit(func(b []byte) { le.PutUint32(b[21:], 0) }), "l = 0"},
			{"k + l too many", edit(func(b []byte) { le.PutUint32(b[21:], 1000) }), "l = 1000"},
			{"g 0", edit(func(b []byte) { le.PutUint64(b[25:], 0) }), "g = 0"},
			{"slice bits 0", edit(func(b []byte) { le.PutUint64(b[33:], 0) }), "slice bits = 0"},
			{"slice bits beyond the data", edit(func(b []byte) { le.PutUint64(b[33:], 1<<40) }), "bytes of cells"},
			{"refresh 2^63", edit(func(b []byte) { le.PutUint64(b[41:], 1<<63) }), "refresh"},
			{"start without refresh", edit(func(b []byte) { le.PutUint64(b[49:], 5) }), "without a refresh"},
			{"front beyond the slots", edit(func(b []byte) { le.PutUint32(b[57:], 6) }), "slot 6 of 6"},
			{"generation beyond g", edit(func(b []byte) { le.PutUint64(b[69:], 5) }), "more than G"},
			{"derivation", edit(func(b []byte) { b[8] = byte(Double) }), "derivation"},
			{"truncated", good[:len(good)-9], "truncated"},
			{"checksum", func() []byte { b := bytes.Clone(good); b[30] ^= 1; return b }(), "checksum"},
		} {
			t.Run(fmt.Sprintf("blocked=%v/%s", blocked, tc.name), func(t *testing.T) {
				checkDecodeError(t, tc.data, tc.want, ErrCorrupt)
			})
		}
		// A bit outside the slices: above b = 192 in a plain slot's last
		// word is impossible (b is whole words), so use a blocked padding
		// word, or a plain filter with b = 100.
		if blocked {
			checkDecodeError(t, edit(func(b []byte) { b[lastWord] |= 1 }), "padding", ErrCorrupt)
		}
	}
	p, _ := NewAgePartitioned(AgePartitionedParams{K: 2, L: 1, G: 4, SliceBits: 100})
	good, _ := p.MarshalBinary()
	bad := bytes.Clone(good)
	bad[len(bad)-5] |= 0x80 // the top bit of the last slot's last word
	checkDecodeError(t, fixChecksum(bad), "beyond the 100 bits", ErrCorrupt)
	bad = bytes.Clone(good)
	le.PutUint64(bad[25:], 1<<60) // g beyond 2^48
	checkDecodeError(t, fixChecksum(bad), "g =", ErrCorrupt)
	bl, _ := NewAgePartitioned(AgePartitionedParams{K: 2, L: 1, G: 4, SliceBits: 128, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}})
	good, _ = bl.MarshalBinary()
	bad = bytes.Clone(good)
	le.PutUint64(bad[33:], 100) // not whole words
	checkDecodeError(t, fixChecksum(bad), "multiple of 64", ErrCorrupt)
}

// TestAgePartitionedClockRoundTrip: a filter with a refresh interval saves
// the start of its newest generation and ages from it after loading.
func TestAgePartitionedClockRoundTrip(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	f, err := NewAgePartitioned(AgePartitionedParams{K: 2, L: 2, G: 100, SliceBits: 512, AgePartitionedOptions: AgePartitionedOptions{Refresh: time.Minute, Clock: clk.now}})
	if err != nil {
		t.Fatal(err)
	}
	f.Add([]byte("a"))
	data, _ := f.MarshalBinary()
	var g AgePartitioned
	if err := g.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	g.SetClock(clk.now)
	clk.t = clk.t.Add(2*time.Minute + 59*time.Second)
	if !g.Contains([]byte("a")) {
		t.Fatal("loaded filter lost a key within L refresh periods")
	}
	clk.t = clk.t.Add(time.Second)
	if g.Contains([]byte("a")) {
		t.Fatal("loaded filter kept a key past L + 1 refresh periods")
	}
}

// TestAgePartitionedBatch: the batch forms answer as the single ones and
// leave the same filter, across generation shifts, in both layouts.
func TestAgePartitionedBatch(t *testing.T) {
	for _, blocked := range []bool{false, true} {
		p := AgePartitionedParams{K: 4, L: 4, G: 37, SliceBits: 256, AgePartitionedOptions: AgePartitionedOptions{Blocked: blocked}}
		a, _ := NewAgePartitioned(p)
		b, _ := NewAgePartitioned(p)
		c, _ := NewAgePartitioned(p)
		keys := testKeys(5, 1, 1000)
		for lo := 0; lo < len(keys); lo += 53 {
			hi := min(lo+53, len(keys))
			for _, k := range keys[lo:hi] {
				a.Add(k)
			}
			b.AddBatch(keys[lo:hi])
			ds := make([]Digest, hi-lo)
			for i, k := range keys[lo:hi] {
				ds[i] = c.Hashing().Digest(k)
			}
			c.AddDigestBatch(ds)
		}
		da, db, dc := encoded(t, a), encoded(t, b), encoded(t, c)
		if !bytes.Equal(da, db) || !bytes.Equal(da, dc) {
			t.Fatalf("blocked=%v: the batch adds built a different filter", blocked)
		}
		probe := append(testKeys(5, 1, 1000), testKeys(6, 2, 1000)...)
		out, outH := make([]bool, len(probe)), make([]bool, len(probe))
		ds := make([]Digest, len(probe))
		for i, k := range probe {
			ds[i] = a.Hashing().Digest(k)
		}
		a.ContainsBatch(probe, out)
		a.ContainsDigestBatch(ds, outH)
		for i, k := range probe {
			if want := a.Contains(k); out[i] != want || outH[i] != want {
				t.Fatalf("blocked=%v: key %d: batch %v, hash batch %v, single %v", blocked, i, out[i], outH[i], want)
			}
		}
	}
}

// TestAgePartitionedLines counts the lines of inserts and absent queries
// of the blocked layout with the exact line counter: the insert mean over
// a whole cycle of slots equals analysis.AgePartitioned.BlockedInsertLines,
// and no insert exceeds 3 lines nor any query 4, for the geometries that
// NewAgePartitionedFor picks at 1e-2 to 1e-4 (K <= 16, K + L <= 32).
func TestAgePartitionedLines(t *testing.T) {
	t.Parallel()
	// The geometries NewAgePartitionedFor picks, and k = 10, l = 7, g =
	// 1000 with slices of ceil(k g/ln 2) bits (decred's for a 1e-3 target)
	// in both layouts.
	var filters []*AgePartitioned
	for _, fpr := range []float64{1e-2, 1e-3, 1e-4} {
		f, err := NewAgePartitionedFor(2000, fpr, AgePartitionedOptions{Blocked: true})
		if err != nil {
			t.Fatal(err)
		}
		filters = append(filters, f)
	}
	for _, p := range []AgePartitionedParams{{K: 10, L: 7, G: 1000, SliceBits: 14464, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}}, {K: 10, L: 7, G: 1000, SliceBits: 14427}} {
		f, err := NewAgePartitioned(p)
		if err != nil {
			t.Fatal(err)
		}
		filters = append(filters, f)
	}
	for _, f := range filters {
		fpr := f.Model().WorstFPR()
		geom := f.Model()
		ds := ageDigests(9, 1, int(geom.G)*geom.Slices()*2)
		absent := ageDigests(9, 2, 2000)
		var ins, insN, q, qN int
		maxIns, maxQ := 0, 0
		for i, d := range ds {
			if i >= int(geom.G)*geom.Slices() { // one cycle of slots in the steady state
				// The next add ages the filter first when the newest slice
				// is full; count the lines of the slot it will write.
				if f.Position() < geom.G {
					n := f.InsertLines(d)
					ins, insN, maxIns = ins+n, insN+1, max(maxIns, n)
				}
				if i%10 == 0 {
					for _, a := range absent[:50] {
						n := f.QueryLines(a)
						q, qN, maxQ = q+n, qN+1, max(maxQ, n)
					}
				}
			}
			f.AddDigest(d)
		}
		if !f.blocked {
			t.Logf("plain layout, %+v: lines per insert %.3f (max %d), per absent query %.3f (max %d)", geom, float64(ins)/float64(insN), maxIns, float64(q)/float64(qN), maxQ)
			if maxIns != geom.K {
				t.Errorf("plain layout: %d lines per insert, want K = %d (one per slice)", maxIns, geom.K)
			}
			continue
		}
		t.Logf("blocked, %+v (independent-slice worst rate %.3g): lines per insert %.3f (max %d; theory %.3f), per absent query %.3f (max %d)", geom, fpr, float64(ins)/float64(insN), maxIns, geom.BlockedInsertLines(), float64(q)/float64(qN), maxQ)
		if maxIns > 3 || maxQ > 4 || maxQ > geom.BlockedLines() {
			t.Errorf("p = %g: at most %d lines per insert and %d per query, want <= 3 and <= 4", fpr, maxIns, maxQ)
		}
		// Inserts at positions 1..G-1 of each of the K + L slots, weighted
		// equally per slot: the mean over slots.
		if got, want := float64(ins)/float64(insN), geom.BlockedInsertLines(); math.Abs(got-want) > 1e-9 {
			t.Errorf("p = %g: mean lines per insert %v, theory %v", fpr, got, want)
		}
	}
}

// TestAgePartitionedStats checks Stats in the steady state: the slices'
// item counts are the loads of the theory exactly, their fills and the
// rate estimated from them agree with the theory, and EstimatedItems
// estimates the adds that slice K-1 holds.
func TestAgePartitionedStats(t *testing.T) {
	for _, blocked := range []bool{false, true} {
		p := AgePartitionedParams{K: 6, L: 4, G: 2000, SliceBits: 64 * 270, AgePartitionedOptions: AgePartitionedOptions{Blocked: blocked}}
		f, err := NewAgePartitioned(p)
		if err != nil {
			t.Fatal(err)
		}
		geom := f.Model()
		keys := testKeys(12, 1, (p.K+p.L+1)*int(p.G)+700)
		for _, k := range keys {
			f.Add(k)
		}
		c := f.Position()
		st := f.Stats()
		if c != 700 || len(st.Slices) != p.K+p.L || st.Capacity != f.Window() || st.Bits != uint64(p.K+p.L)*p.SliceBits {
			t.Fatalf("blocked=%v: position %d, %d slices, capacity %d, bits %d", blocked, c, len(st.Slices), st.Capacity, st.Bits)
		}
		for j, s := range st.Slices {
			if s.Age != j || s.Items != geom.SliceLoad(j, c) {
				t.Errorf("blocked=%v: slice %d: age %d, %d items; want %d", blocked, j, s.Age, s.Items, geom.SliceLoad(j, c))
			}
			want := 1 - math.Pow(1-1/float64(p.SliceBits), float64(s.Items))
			if sd := math.Sqrt(want * (1 - want) / float64(p.SliceBits)); math.Abs(s.FillRatio-want) > 5*sd+1e-3 {
				t.Errorf("blocked=%v: slice %d: fill %v, expected %v", blocked, j, s.FillRatio, want)
			}
		}
		if want := float64(geom.SliceLoad(p.K-1, c)); math.Abs(st.EstimatedItems-want) > 0.05*want {
			t.Errorf("blocked=%v: EstimatedItems %v, want about %v", blocked, st.EstimatedItems, want)
		}
		if want := geom.FPR(c); math.Abs(st.EstimatedFPR-want) > 0.1*want {
			t.Errorf("blocked=%v: EstimatedFPR %v, the theory %v", blocked, st.EstimatedFPR, want)
		}
	}
}

// TestRunOf checks runOf against a plain scan on every pattern of up to 12
// positions, and that it tests no position twice.
func TestRunOf(t *testing.T) {
	for n := 0; n <= 12; n++ {
		for k := 1; k <= n+1; k++ {
			for mask := 0; mask < 1<<n; mask++ {
				want, run := false, 0
				for j := range n {
					if run = (run + 1) * (mask >> j & 1); run >= k {
						want = true
					}
				}
				seen := 0
				got := runOf(n, k, func(j int) bool {
					if j < 0 || j >= n || seen>>j&1 == 1 {
						t.Fatalf("n = %d, k = %d, mask %b: position %d tested twice or out of range", n, k, mask, j)
					}
					seen |= 1 << j
					return mask>>j&1 == 1
				})
				if got != want {
					t.Fatalf("n = %d, k = %d, mask %b: runOf = %v, want %v", n, k, mask, got, want)
				}
			}
		}
	}
}

// TestAgePartitionedContainsMatchesSlices checks ContainsDigest of both
// layouts, with L < K and L >= K and with slices dropped by a pending
// clock shift, against a plain scan of the key's bits over the slices.
func TestAgePartitionedContainsMatchesSlices(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	for _, p := range []AgePartitionedParams{
		{K: 10, L: 7, G: 50, SliceBits: 700},
		{K: 4, L: 9, G: 30, SliceBits: 128},
		{K: 10, L: 7, G: 50, SliceBits: 704, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 3, L: 13, G: 20, SliceBits: 128, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 3, L: 4, G: 20, SliceBits: 128, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 12, L: 16, G: 20, SliceBits: 256, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 5, L: 30, G: 10, SliceBits: 128, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 6, L: 3, G: 40, SliceBits: 320, AgePartitionedOptions: AgePartitionedOptions{Refresh: time.Second, Clock: clk.now}},
		{K: 6, L: 3, G: 40, SliceBits: 320, AgePartitionedOptions: AgePartitionedOptions{Blocked: true, Refresh: time.Second, Clock: clk.now}},
	} {
		clk.t = time.Unix(1000, 0)
		f, err := NewAgePartitioned(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range testKeys(3, 1, (p.K+p.L+2)*int(p.G)+17) {
			f.Add(k)
		}
		for _, pending := range []time.Duration{0, 2 * time.Second} {
			clk.t = clk.t.Add(pending)
			live := f.live()
			hits := 0
			for _, k := range append(testKeys(3, 1, 2000), testKeys(4, 2, 2000)...) {
				d := f.hashing.Digest(k)
				s := streamSeed(d)
				want, run := false, 0
				for j := range live {
					if _, ok := f.probe(s, (f.front+j)%f.n); ok {
						if run++; run >= p.K {
							want = true
						}
					} else {
						run = 0
					}
				}
				if got := f.ContainsDigest(d); got != want {
					t.Fatalf("%+v, %d live slices: ContainsDigest = %v, the slices say %v", p, live, got, want)
				}
				if want {
					hits++
				}
			}
			if hits == 0 {
				t.Fatalf("%+v: no key present; the check is empty", p)
			}
		}
	}
}

// TestXXH3Sum checks the written-out short-key path of xxh3Sum against
// the xxh3 package (through Hashing.Digest) for every key length from 0 to
// 40 bytes, random bytes and seeds.
func TestXXH3Sum(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	buf := make([]byte, 40)
	for l := 0; l <= len(buf); l++ {
		for range 200 {
			for i := range buf {
				buf[i] = byte(r.Uint32())
			}
			seed := r.Uint64()
			if l == 12 {
				seed = 0
			}
			key := buf[:l]
			if got, want := xxh3Sum(key, seed), (Hashing{Seed: seed}).Digest(key); got != want {
				t.Fatalf("length %d, seed %#x: xxh3Sum = %x, xxh3 = %x", l, seed, got, want)
			}
		}
	}
}

// TestAgePartitionedInsertBits checks that AddDigest sets exactly the bits
// that probe names (the reference derivation of the doc comment, one
// slot at a time), for the newest slice at every slot and geometries
// whose K newest slots wrap and split unevenly over the outputs, in both
// layouts, and that TestAndAddDigest and AddBatch set the same bits.
func TestAgePartitionedInsertBits(t *testing.T) {
	for _, p := range []AgePartitionedParams{
		{K: 10, L: 7, G: 3, SliceBits: 700},
		{K: 3, L: 6, G: 2, SliceBits: 65},
		{K: 1, L: 1, G: 1, SliceBits: 9},
		{K: 2, L: 1, G: 4, SliceBits: 1<<24 + 64},
		{K: 10, L: 7, G: 3, SliceBits: 704, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 17, L: 9, G: 2, SliceBits: 128, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 1, L: 2, G: 1, SliceBits: 64, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
		{K: 9, L: 40, G: 1, SliceBits: 192, AgePartitionedOptions: AgePartitionedOptions{Blocked: true}},
	} {
		f, err := NewAgePartitioned(p)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := NewAgePartitioned(p)
		tst, _ := NewAgePartitioned(p)
		bat, _ := NewAgePartitioned(p)
		keys := testKeys(11, 5, f.n*int(p.G)*3)
		for i, key := range keys {
			d := Hashing{}.Digest(key)
			f.AddDigest(d)
			tst.TestAndAddDigest(d)
			bat.AddBatch(keys[i : i+1])
			// The reference: age ref as insert does, then set the bits
			// that probe names.
			if ref.gen[ref.front] >= p.G {
				ref.shift()
			}
			ref.gen[ref.front]++
			s := streamSeed(d)
			for j := range p.K {
				ptr, _ := ref.probe(s, (ref.front+j)%ref.n)
				var bit uint64
				if p.Blocked {
					bit = blockedBit(s, (ref.front+j)%ref.n)
				} else {
					bit = ref.slotIndex(s, (ref.front+j)%ref.n, p.SliceBits) & 63
				}
				*(*uint64)(ptr) |= 1 << bit
			}
			for name, g := range map[string]*AgePartitioned{"AddDigest": f, "TestAndAddDigest": tst, "AddBatch": bat} {
				if g.front != ref.front || !slices.Equal(g.words, ref.words) {
					t.Fatalf("%+v: after %d adds %s set other bits than the reference (front %d, want %d)", p, i+1, name, g.front, ref.front)
				}
			}
		}
	}
}
