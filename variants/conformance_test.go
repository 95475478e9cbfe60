package variants

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// newFilterFunc builds a filter sized for capacity items at rate p with
// hashing h.
type newFilterFunc func(t testing.TB, capacity uint64, p float64, h Hashing) Filter

// conformanceVariant is one row of the shared suite: a name, which also
// names its subtests, and a constructor from capacity, rate and hashing.
type conformanceVariant struct {
	name string
	new  newFilterFunc
}

// sized adapts a constructor that reports an error to newFilterFunc.
func sized[F Filter](build func(n uint64, p float64, h Hashing) (F, error)) newFilterFunc {
	return func(t testing.TB, n uint64, p float64, h Hashing) Filter {
		f, err := build(n, p, h)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
}

// conformanceVariants lists, in order, every variant the shared suites
// (TestConformance, TestAddContainsNoAllocs, TestEveryVariantPersists,
// TestRaceContains) run over. A new variant gets a row here.
var conformanceVariants = []conformanceVariant{
	{"standard", sized(func(n uint64, p float64, h Hashing) (*Standard, error) {
		return NewStandardFor(n, p, h)
	})},
	{"partitioned", sized(func(n uint64, p float64, h Hashing) (*Partitioned, error) {
		return NewPartitionedFor(n, p, h)
	})},
	{"counting", sized(func(n uint64, p float64, h Hashing) (*Counting, error) {
		return NewCountingFor(n, p, h)
	})},
	// Two-bit counters saturate at a load of 3 and so exercise the sticky
	// path in the shared suite.
	{"counting-w2", sized(func(n uint64, p float64, h Hashing) (*Counting, error) {
		return countingFor(n, p, 2, h)
	})},
	{"blocked-256", sized(func(n uint64, p float64, h Hashing) (*Blocked, error) {
		return blockedFor(n, p, 256, h)
	})},
	{"blocked", sized(func(n uint64, p float64, h Hashing) (*Blocked, error) {
		return NewBlockedFor(n, p, h)
	})},
	{"blocked-1024", sized(func(n uint64, p float64, h Hashing) (*Blocked, error) {
		return blockedFor(n, p, 1024, h)
	})},
	{"split-block", sized(NewSplitBlockFor)},
	{"concurrent-standard", sized(NewConcurrentStandardFor)},
	// The first stage holds a sixteenth of the suite's capacity, so the
	// suite's keys fill five stages and exercise growth.
	{"scalable", sized(func(n uint64, p float64, h Hashing) (*Scalable, error) {
		return NewScalable(ScalableParams{P: p, N0: max(n/16, 1), Hashing: h})
	})},
	// As for "scalable": the suite's keys fill five stages.
	{"scalable-blocked", sized(func(n uint64, p float64, h Hashing) (*Scalable, error) {
		return NewScalable(ScalableParams{P: p, N0: max(n/16, 1), BlockBits: 512, Hashing: h})
	})},
	// Horizon-aware (an Estimate given), both stage kinds: the estimate
	// is half the suite's capacity, so the suite's keys fill the horizon
	// stages from n/16 up and go on into the tail.
	{"scalable-horizon", sized(func(n uint64, p float64, h Hashing) (*Scalable, error) {
		return NewScalable(ScalableParams{P: p, N0: max(n/16, 1), Estimate: max(n/2, 1), Hashing: h})
	})},
	{"scalable-horizon-blocked", sized(func(n uint64, p float64, h Hashing) (*Scalable, error) {
		return NewScalable(ScalableParams{P: p, N0: max(n/16, 1), Estimate: max(n/2, 1), Spread: 4, BlockBits: 512, Hashing: h})
	})},
	// Four stages of a quarter of the suite's capacity at a quarter of its
	// rate: about the suite's rate once its keys fill them.
	{"dynamic", sized(func(n uint64, p float64, h Hashing) (*Dynamic, error) {
		return NewDynamic(DynamicParams{N: max(n/4, 1), P: p / 4, Hashing: h})
	})},
	// The first link holds a sixteenth of the suite's capacity, so the
	// suite's keys open five links. RedisBloom's hashing is its own: the
	// suite's hash options give only the seed.
	{"redisbloom", sized(func(n uint64, p float64, h Hashing) (*RedisBloom, error) {
		return NewRedisBloom(RedisBloomParams{ErrorRate: p, Capacity: max(n/16, 1), Seed: h.Seed})
	})},
	{"redisbloom-power-of-two", sized(func(n uint64, p float64, h Hashing) (*RedisBloom, error) {
		return NewRedisBloom(RedisBloomParams{ErrorRate: p, Capacity: max(n/16, 1), PowerOfTwo: true, Seed: h.Seed})
	})},
	{"age-partitioned", newAgeFor(false)},
	{"age-partitioned-blocked", newAgeFor(true)},
	// Boost's layouts (see multiblock_test.go): block<uint64_t, K>,
	// block<uint64_t[8], K>, multiblock<uint32_t, K> at the natural
	// stride, block<uint64_t, K> and multiblock<uint64_t, K> at a
	// stride of one byte, and multiblock<uint64_t[8], 15>, a block of 7680
	// bits.
	{"multiblock-block64", multiblockFor(MultiblockParams{WordBits: 64})},
	{"multiblock-block512", multiblockFor(MultiblockParams{WordBits: 512})},
	{"multiblock-multi32", multiblockFor(MultiblockParams{WordBits: 32, Multi: true})},
	{"multiblock-block64-stride8", multiblockFor(MultiblockParams{WordBits: 64, StrideBits: 8})},
	{"multiblock-multi64-stride8", multiblockFor(MultiblockParams{WordBits: 64, Multi: true, StrideBits: 8})},
	{"multiblock-multi512-k15", multiblockFor(MultiblockParams{Geometry: Geometry{Hashes: 15}, WordBits: 512, Multi: true})},
}

// persistentTypes builds, by name, an empty filter of every type that
// implements the format, from a geometry and hashing.
var persistentTypes = map[string]func(g Geometry, h Hashing) (persistent, error){
	"standard":    func(g Geometry, h Hashing) (persistent, error) { return NewStandard(g, h) },
	"partitioned": func(g Geometry, h Hashing) (persistent, error) { return NewPartitioned(g, h) },
	"counting": func(g Geometry, h Hashing) (persistent, error) {
		return NewCounting(CountingParams{Geometry: g, Hashing: h})
	},
	"counting-w2": func(g Geometry, h Hashing) (persistent, error) {
		return NewCounting(CountingParams{Geometry: g, Width: 2, Hashing: h})
	},
	"counting-w16": func(g Geometry, h Hashing) (persistent, error) {
		return NewCounting(CountingParams{Geometry: g, Width: 16, Hashing: h})
	},
	"blocked-256": func(g Geometry, h Hashing) (persistent, error) {
		return NewBlocked(BlockedParams{Geometry: g, BlockBits: 256, Hashing: h})
	},
	"blocked": func(g Geometry, h Hashing) (persistent, error) {
		return NewBlocked(BlockedParams{Geometry: g, BlockBits: 512, Hashing: h})
	},
	"blocked-1024": func(g Geometry, h Hashing) (persistent, error) {
		return NewBlocked(BlockedParams{Geometry: g, BlockBits: 1024, Hashing: h})
	},
	"split-block": func(g Geometry, h Hashing) (persistent, error) {
		return NewSplitBlock(Geometry{Bits: g.Bits, Hashes: 8}, h)
	},
	"concurrent": func(g Geometry, h Hashing) (persistent, error) { return NewConcurrentStandard(g, h) },
	// A scalable filter whose first stage holds about m/16 keys, so that
	// small geometries grow several stages.
	"scalable": func(g Geometry, h Hashing) (persistent, error) {
		return NewScalable(ScalableParams{P: 0.01, N0: max(1, g.Bits/16), Hashing: h})
	},
	// Horizon-aware scalable filters, an estimate of m/4 keys.
	"scalable-horizon": func(g Geometry, h Hashing) (persistent, error) {
		return NewScalable(ScalableParams{P: 0.01, N0: max(1, g.Bits/16), Estimate: max(1, g.Bits/4), Hashing: h})
	},
	"dynamic": func(g Geometry, h Hashing) (persistent, error) {
		return NewDynamic(DynamicParams{N: max(1, g.Bits/16), P: 0.01, Hashing: h})
	},
	"redisbloom": func(g Geometry, h Hashing) (persistent, error) {
		return NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: max(1, g.Bits/16), Seed: h.Seed})
	},
	"redisbloom-power-of-two": func(g Geometry, h Hashing) (persistent, error) {
		return NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: max(1, g.Bits/16), PowerOfTwo: true, Seed: h.Seed})
	},
	// From a geometry: K = Hashes slices per key, L = 3, slices of about
	// Bits/(K + L) bits (whole words for the blocked layout), generations
	// that half fill a full slice.
	"age-partitioned":         func(g Geometry, h Hashing) (persistent, error) { return newAgeGeometry(g, h, false) },
	"age-partitioned-blocked": func(g Geometry, h Hashing) (persistent, error) { return newAgeGeometry(g, h, true) },
	// Multiblock layouts from a geometry (bits raised to one block).
	"multiblock-block64":         multiblockGeometry(MultiblockParams{WordBits: 64}),
	"multiblock-multi32-stride8": multiblockGeometry(MultiblockParams{WordBits: 32, Multi: true, StrideBits: 8}),
}

// testKeys returns n distinct 16-byte keys from a seeded generator, tagged
// with set so that keys of different sets never coincide.
func testKeys(seed uint64, set byte, n int) [][]byte {
	r := rand.New(rand.NewPCG(seed, uint64(set)))
	keys := make([][]byte, n)
	buf := make([]byte, 16*n)
	for i := range keys {
		k := buf[16*i : 16*i+16 : 16*i+16]
		binary.LittleEndian.PutUint64(k, r.Uint64())
		binary.LittleEndian.PutUint64(k[8:], uint64(i))
		k[15] = set
		keys[i] = k
	}
	return keys
}

var allHashings = []Hashing{
	{},
	{Kind: Metro, Seed: 7},
	{Derivation: Double, Seed: 1},
	{Derivation: Triple, Seed: 2},
	{Derivation: Independent, Seed: 3},
	{Kind: Metro, Derivation: Independent, Seed: 4},
	{Kind: SipHash, Key: refKey},
	{Kind: SipHash, Derivation: Independent, Key: HashKey{15: 1}},
}

// refKey is the key of the SipHash reference vectors (Aumasson and
// Bernstein, vectors.h of the reference implementation): bytes 0 to 15.
var refKey = HashKey{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// ownIndexing lists the name prefixes of the variants that derive their
// bit positions themselves and so take only the default derivation.
var ownIndexing = []string{"blocked", "split-block", "scalable-blocked", "scalable-horizon-blocked", "dynamic", "age-partitioned", "multiblock"}

// supports reports whether the variant (a name in conformanceVariants or
// persistentTypes) takes hashing h.
func supports(name string, h Hashing) bool {
	if isRedis, ok := redisSupports(name, h); isRedis {
		return ok
	}
	for _, p := range ownIndexing {
		if strings.HasPrefix(name, p) {
			return h.Derivation == EnhancedDouble
		}
	}
	return true
}

// redisSupports reports whether the variant named name is a RedisBloom
// filter, which the suites run once, with the default hash options, since
// it hashes only with its own.
func redisSupports(name string, h Hashing) (isRedis, ok bool) {
	if !strings.HasPrefix(name, "redisbloom") {
		return false, false
	}
	return true, h.Kind == XXH3 && h.Derivation == EnhancedDouble
}

// TestConformance runs the shared contract over every variant and every
// hashing option.
func TestConformance(t *testing.T) {
	t.Parallel()
	for _, v := range conformanceVariants {
		name, newFilter := v.name, v.new
		for _, h := range allHashings {
			if !supports(name, h) {
				continue
			}
			t.Run(name+"/"+h.Kind.String()+"/"+h.Derivation.String(), func(t *testing.T) {
				t.Parallel()
				testFilter(t, func(capacity uint64, p float64) Filter { return newFilter(t, capacity, p, h) })
			})
		}
	}
}

func testFilter(t *testing.T, newFilter func(capacity uint64, p float64) Filter) {
	const n = 20000
	f := newFilter(n, 0.01)
	h := f.Hashing()
	present := testKeys(1, 1, n)
	absent := testKeys(2, 2, n)

	if st := f.Stats(); st.Items != 0 || st.FillRatio != 0 || st.EstimatedFPR != 0 || st.EstimatedItems != 0 {
		t.Fatalf("new filter not empty: %+v", st)
	}
	for _, k := range absent[:100] {
		if f.Contains(k) {
			t.Fatalf("empty filter contains %x", k)
		}
	}

	// TestAndAdd reports absence for new keys on a sparse filter most of
	// the time, and presence for keys added before, always.
	newBefore := 0
	for _, k := range present[:n/2] {
		if !f.TestAndAdd(k) {
			newBefore++
		}
	}
	if newBefore < n/4 {
		t.Errorf("TestAndAdd reported only %d of %d fresh keys as new", newBefore, n/2)
	}
	for _, k := range present[:n/2] {
		if !f.TestAndAdd(k) {
			t.Fatalf("TestAndAdd of an added key reported absent: %x", k)
		}
	}
	// Half by key, half by digest.
	for _, k := range present[n/2:] {
		f.AddDigest(h.Digest(k))
	}

	// No false negatives, by key and by digest.
	for _, k := range present {
		if !f.Contains(k) {
			t.Fatalf("false negative for %x", k)
		}
		if !f.ContainsDigest(h.Digest(k)) {
			t.Fatalf("false negative by digest for %x", k)
		}
	}
	// Key and digest paths agree on absent keys too.
	fp := 0
	for _, k := range absent {
		a, b := f.Contains(k), f.ContainsDigest(h.Digest(k))
		if a != b {
			t.Fatalf("Contains(%x) = %v but ContainsDigest = %v", k, a, b)
		}
		if a {
			fp++
		}
	}
	// Loose sanity bound; the statistical tests check the rate itself.
	if rate := float64(fp) / n; rate > 0.05 {
		t.Errorf("false-positive rate %v at capacity, sized for 0.01", rate)
	}

	st := f.Stats()
	// A window filter (age-partitioned) promises no false negative among
	// its most recent Window() keys only (checked at the end); its
	// constructor here gets a window that holds every add of this test,
	// so the checks above apply. Its Capacity is that window and its EstimatedItems counts
	// the keys of its newest slices (see AgePartitioned.Stats), which the
	// checks below do not cover; TestAgePartitioned* do.
	_, window := f.(interface{ Window() uint64 })
	if st.Variant == "" {
		t.Error("Stats.Variant empty")
	}
	if st.Cells == 0 || st.Bits != st.Cells*uint64(st.CellBits) || st.Hashes < 1 {
		t.Errorf("Stats geometry inconsistent: %+v", st)
	}
	wantItems := uint64(n + n/2) // TestAndAdd twice on the first half
	// A filter that skips keys testing present (scalable) skips repeats and
	// also the fresh keys that are false positives, within the 5% bound above.
	if st.Items != wantItems && (st.Items > n || st.Items < n-n/20) {
		t.Errorf("Stats.Items = %d, want %d (or %d to %d if keys that test present are skipped)", st.Items, wantItems, n-n/20, n)
	}
	if st.FillRatio <= 0 || st.FillRatio > 1 {
		t.Errorf("Stats.FillRatio = %v", st.FillRatio)
	}
	if st.EstimatedFPR <= 0 || st.EstimatedFPR > 0.05 || math.IsNaN(st.EstimatedFPR) {
		t.Errorf("Stats.EstimatedFPR = %v at capacity, sized for 0.01", st.EstimatedFPR)
	}
	if st.Capacity != n && len(st.Stages) == 0 && !window {
		t.Errorf("Stats.Capacity = %d, want %d", st.Capacity, n)
	}
	// Loose sanity bound; the statistical tests check the estimate
	// itself. A counting filter counts every add until a counter
	// saturates, the others the distinct keys (a scalable filter those it
	// inserted).
	distinct := float64(n)
	if st.Variant == "counting" && st.Saturated == 0 || len(st.Stages) > 0 {
		distinct = float64(st.Items)
	}
	if !window && math.Abs(st.EstimatedItems-distinct) > 0.05*distinct {
		t.Errorf("Stats.EstimatedItems = %v, want about %v", st.EstimatedItems, distinct)
	}

	f.Reset()
	st = f.Stats()
	if st.Items != 0 || st.FillRatio != 0 || st.EstimatedFPR != 0 || st.EstimatedItems != 0 {
		t.Errorf("after Reset: %+v", st)
	}
	for _, k := range present[:1000] {
		if f.Contains(k) && f.Contains(append([]byte{}, k...)) {
			// A reset filter is empty: any hit is a bug.
			t.Fatalf("Reset filter contains %x", k)
		}
	}
	// The filter works again after Reset.
	for _, k := range present[:1000] {
		f.Add(k)
	}
	for _, k := range present[:1000] {
		if !f.Contains(k) {
			t.Fatalf("false negative after Reset and refill: %x", k)
		}
	}

	// A window filter's own promise: no false negative among its most
	// recent Window() keys, at every add of a stream three windows long.
	if wf, ok := f.(interface{ Window() uint64 }); ok {
		w := int(wf.Window())
		stream := testKeys(4, 4, 3*w)
		for i, k := range stream {
			f.Add(k)
			if a := min(i, w-1); !f.Contains(stream[i-a]) {
				t.Fatalf("window filter: the key of age %d tests absent after %d adds; the window is %d", a, i+1, w)
			}
		}
		for _, k := range stream[len(stream)-w:] {
			if !f.Contains(k) {
				t.Fatalf("window filter: false negative among the last %d keys: %x", w, k)
			}
		}
	}
}

// TestAddContainsNoAllocs checks that the hot paths do not allocate.
func TestAddContainsNoAllocs(t *testing.T) {
	keys := testKeys(3, 1, 100)
	for _, v := range conformanceVariants {
		name, newFilter := v.name, v.new
		for _, h := range allHashings {
			if !supports(name, h) {
				continue
			}
			f := newFilter(t, 1000, 0.01, h)
			d := h.Digest(keys[0])
			allocs := testing.AllocsPerRun(100, func() {
				for _, k := range keys {
					f.Add(k)
					f.Contains(k)
					f.TestAndAdd(k)
				}
				f.AddDigest(d)
				f.ContainsDigest(d)
			})
			if allocs != 0 {
				t.Errorf("%s/%v/%v: %v allocations per run, want 0", name, h.Kind, h.Derivation, allocs)
			}
		}
	}
}
