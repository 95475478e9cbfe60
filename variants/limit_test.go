package variants

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// withLimit sets the process limit to bytes for the rest of the test.
func withLimit(t *testing.T, bytes int64) {
	t.Helper()
	prev := SetMemoryLimit(bytes)
	t.Cleanup(func() { SetMemoryLimit(prev) })
}

// TestParseCgroupLimit checks the parser of memory.max and
// memory.limit_in_bytes texts.
func TestParseCgroupLimit(t *testing.T) {
	for text, want := range map[string]int64{
		"max\n":                  0,
		"":                       0,
		"0\n":                    0,
		"-1\n":                   0,
		"lots":                   0,
		"9223372036854771712\n":  0, // cgroup v1's "unlimited"
		"1152921504606846976\n":  0, // 2^60: beyond any machine
		"1048576\n":              1 << 20,
		" 2147483648 ":           2 << 30,
		"1152921504606846975\n":  1<<60 - 1,
		"18446744073709551615\n": 0,
	} {
		if got := parseCgroupLimit(text); got != want {
			t.Errorf("parseCgroupLimit(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestCgroupMemoryLimit runs the cgroup reader on sample file contents of
// cgroup v2, v1 and hybrid systems, with and without limits.
func TestCgroupMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		name  string
		self  string
		files map[string]string
		want  int64
	}{
		{"v2 limit on the parent", "0::/user.slice/app.scope\n", map[string]string{
			"/sys/fs/cgroup/user.slice/app.scope/memory.max": "max\n",
			"/sys/fs/cgroup/user.slice/memory.max":           "4294967296\n",
		}, 4 << 30},
		{"v2 smallest along the path", "0::/a/b\n", map[string]string{
			"/sys/fs/cgroup/a/b/memory.max": "1073741824\n",
			"/sys/fs/cgroup/a/memory.max":   "4294967296\n",
		}, 1 << 30},
		{"v2 container namespace", "0::/\n", map[string]string{
			"/sys/fs/cgroup/memory.max": "536870912\n",
		}, 512 << 20},
		{"v2 no limit", "0::/user.slice\n", map[string]string{
			"/sys/fs/cgroup/user.slice/memory.max": "max\n",
		}, 0},
		{"v2 no file", "0::/gone\n", nil, 0},
		{"v1 unlimited", "4:memory:/process_api/cb21\n0::/\n", map[string]string{
			"/sys/fs/cgroup/memory/process_api/cb21/memory.limit_in_bytes": "9223372036854771712\n",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes":                  "9223372036854771712\n",
		}, 0},
		{"v1 limit, joint controllers", "11:cpuacct,memory:/docker/abc\n3:cpu:/\n", map[string]string{
			"/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "2147483648\n",
		}, 2 << 30},
		{"hybrid: v1 memory with an empty v2 line", "0::/init.scope\n7:memory:/init.scope\n", map[string]string{
			"/sys/fs/cgroup/memory/init.scope/memory.limit_in_bytes": "268435456\n",
		}, 256 << 20},
		{"memory as a name prefix is not the controller", "4:memoryx:/a\n", map[string]string{
			"/sys/fs/cgroup/memory/a/memory.limit_in_bytes": "1024\n",
		}, 0},
		{"garbage", "no colons here\n::\n", nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := cgroupMemoryLimit(c.self, func(file string) (string, bool) {
				text, ok := c.files[file]
				return text, ok
			})
			if got != c.want {
				t.Errorf("cgroupMemoryLimit = %d, want %d", got, c.want)
			}
		})
	}
}

// TestMemoryLimitDefault: the default is half of the smaller of physical
// memory and the cgroup limit, where known.
func TestMemoryLimitDefault(t *testing.T) {
	got := defaultMemoryLimit()
	total := uint64(math.MaxInt64)
	if mem := physicalMemory(); mem > 0 {
		total = mem
	}
	if cg := cgroupLimit(); cg > 0 {
		total = min(total, uint64(cg))
	}
	want := int64(math.MaxInt64)
	if total != math.MaxInt64 {
		want = int64(total / 2)
	}
	if got != want {
		t.Errorf("defaultMemoryLimit = %d, want %d", got, want)
	}
	t.Logf("default limit %d bytes (physical %d, cgroup %d)", got, physicalMemory(), cgroupLimit())
}

// TestSetMemoryLimit: a positive value sets the limit and returns the
// previous one; zero and negative values only report; concurrent use is
// safe (run under -race).
func TestSetMemoryLimit(t *testing.T) {
	prev := SetMemoryLimit(1 << 30)
	defer SetMemoryLimit(prev)
	if prev != MemoryLimit() && MemoryLimit() != 1<<30 {
		t.Fatalf("MemoryLimit = %d after SetMemoryLimit(1 GiB)", MemoryLimit())
	}
	for _, v := range []int64{0, -1, math.MinInt64} {
		if got := SetMemoryLimit(v); got != 1<<30 || MemoryLimit() != 1<<30 {
			t.Errorf("SetMemoryLimit(%d) = %d, limit now %d; want both 1 GiB", v, got, MemoryLimit())
		}
	}
	if got := SetMemoryLimit(2 << 30); got != 1<<30 {
		t.Errorf("SetMemoryLimit returned %d, want the previous 1 GiB", got)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 100 {
				SetMemoryLimit(int64(1<<30 + i*100 + j))
				_ = MemoryLimit()
			}
		}()
	}
	wg.Wait()
	if l := MemoryLimit(); l < 1<<30 || l >= 1<<30+400 {
		t.Errorf("limit %d after concurrent sets", l)
	}
}

// TestStaticFiltersOverLimit: every static constructor refuses a filter
// larger than the process limit with an error wrapping both
// ErrInvalidParams and ErrMemoryLimit.
func TestStaticFiltersOverLimit(t *testing.T) {
	withLimit(t, 1<<20)
	g := Geometry{Bits: 1 << 24, Hashes: 7} // 2 MiB of bits
	_, e1 := NewStandard(g, Hashing{})
	_, e2 := NewPartitioned(g, Hashing{})
	_, e3 := NewCounting(CountingParams{Geometry: Geometry{Bits: 1 << 22, Hashes: 7}})
	_, e4 := NewBlocked(BlockedParams{Geometry: g})
	_, e5 := NewSplitBlock(Geometry{Bits: 1 << 24, Hashes: 8}, Hashing{XXH64, 0, 0, HashKey{}})
	_, e6 := NewAgePartitioned(AgePartitionedParams{K: 4, L: 4, G: 1000, SliceBits: 1 << 22})
	for i, err := range []error{e1, e2, e3, e4, e5, e6} {
		if !errors.Is(err, ErrMemoryLimit) || !errors.Is(err, ErrInvalidParams) || !strings.HasPrefix(err.Error(), "variants: ") {
			t.Errorf("constructor %d: %v, want ErrInvalidParams and ErrMemoryLimit", i, err)
		}
	}
	if _, err := NewStandard(Geometry{Bits: 1 << 22, Hashes: 7}, Hashing{}); err != nil {
		t.Errorf("a filter of half the limit: %v", err)
	}
}

// growers builds one of each growing filter with the given MaxBytes.
func growers(t *testing.T, maxBytes int64) map[string]Grower {
	t.Helper()
	sc, err := NewScalable(ScalableParams{P: 0.01, N0: 1000, MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	bl, err := NewScalable(ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 2, BlockBits: 512, MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	dy, err := NewDynamic(DynamicParams{N: 1000, P: 0.01, MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 1000, MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Grower{"scalable": sc, "scalable-blocked": bl, "dynamic": dy, "redisbloom": rb}
}

// TestGrowersStopAtLimit: a growing filter under a small limit (its own
// MaxBytes, or the process limit) refuses the key that needs a stage
// beyond it from TryAdd with ErrMemoryLimit, stays unchanged and under the
// limit; Add then keeps every key, and Err and Stats tell.
func TestGrowersStopAtLimit(t *testing.T) {
	const limit = 48 << 10
	for _, perFilter := range []bool{true, false} {
		var fs map[string]Grower
		if perFilter {
			fs = growers(t, limit)
		} else {
			withLimit(t, limit)
			fs = growers(t, 0)
		}
		for name, f := range fs {
			keys := testKeys(91, 1, 200_000)
			n := 0
			var err error
			for ; n < len(keys); n++ {
				if err = f.TryAdd(keys[n]); err != nil {
					break
				}
			}
			if !errors.Is(err, ErrMemoryLimit) || errors.Is(err, ErrInvalidParams) || !strings.HasPrefix(err.Error(), "variants: ") {
				t.Fatalf("%s (per filter %v): TryAdd after %d keys = %v, want ErrMemoryLimit", name, perFilter, n, err)
			}
			before := f.Stats()
			if before.Bits/8 > limit {
				t.Errorf("%s: %d bytes, over the limit %d", name, before.Bits/8, limit)
			}
			if f.TryAdd(keys[n]) == nil || f.Err() != nil {
				t.Errorf("%s: a second TryAdd succeeded or set Err", name)
			}
			if after := f.Stats(); after.Items != before.Items || len(after.Stages) != len(before.Stages) {
				t.Errorf("%s: a refused TryAdd changed the filter: %d items in %d stages, then %d in %d", name, before.Items, len(before.Stages), after.Items, len(after.Stages))
			}
			extra := keys[n : n+1000]
			for _, k := range extra {
				f.Add(k)
			}
			if !errors.Is(f.Err(), ErrMemoryLimit) {
				t.Errorf("%s: Err() = %v after Add past the limit", name, f.Err())
			}
			for _, k := range keys[:n+1000] {
				if !f.Contains(k) {
					t.Fatalf("%s: false negative", name)
				}
			}
			st := f.Stats()
			last := st.Stages[len(st.Stages)-1]
			if st.Bits/8 > limit || last.Items <= last.Capacity {
				t.Errorf("%s: %d bytes, newest stage %d of %d items: want the overflow visible under the limit", name, st.Bits/8, last.Items, last.Capacity)
			}
			if _, err := f.(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary(); err != nil {
				t.Errorf("%s: MarshalBinary: %v", name, err)
			}
		}
	}
}

// TestRedTeamScalableReproducer is defect 2 of the red-team review of
// 2026-11-26: NewScalable(P 0.01, r 0.5, s 1, n0 2, 64-bit blocks) took
// 3.87 GiB after 119 keys, and MarshalBinary then died. s = 1 is now
// refused; with s = 2 the 64-bit blocks stop at the first stage they
// cannot serve (ErrStageLimit), kilobytes in; with 512-bit blocks and a
// process limit of 1 MiB, TryAdd stops at the limit.
func TestRedTeamScalableReproducer(t *testing.T) {
	_, err := NewScalable(ScalableParams{P: 0.01, R: 0.5, S: 1, N0: 2, BlockBits: 64})
	if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "S = 1") {
		t.Fatalf("S = 1: %v, want ErrInvalidParams naming S", err)
	}
	withLimit(t, 1<<20)
	for _, b := range []int{64, 512} {
		f, err := NewScalable(ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 2, BlockBits: b})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		for n = 0; n < 1e6; n++ {
			if err = f.TryAdd(fmt.Appendf(nil, "key-%d", n)); err != nil {
				break
			}
		}
		if !errors.Is(err, ErrStageLimit) && !errors.Is(err, ErrMemoryLimit) {
			t.Fatalf("B = %d: TryAdd after %d keys: %v", b, n, err)
		}
		st := f.Stats()
		if st.Bits/8 > 1<<20 {
			t.Errorf("B = %d: %d bytes after %d keys, over the limit", b, st.Bits/8, n)
		}
		if _, err := f.MarshalBinary(); err != nil {
			t.Errorf("B = %d: MarshalBinary: %v", b, err)
		}
		t.Logf("B = %d: stops after %d keys, %d stages, %d bytes: %v", b, n, len(st.Stages), st.Bits/8, err)
	}
}

// TestScalableReach: parameters whose 256 stages cannot hold
// MinScalableReach items are refused, by the constructor and by the
// decoder of a checksum-valid file.
func TestScalableReach(t *testing.T) {
	for _, p := range []ScalableParams{
		{P: 0.01, S: 1, N0: 1000},
		{P: 0.01, S: 1.01, N0: 1000},
		{P: 0.01, S: 1.05, N0: 1000},
	} {
		if _, err := NewScalable(p); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "MinScalableReach") {
			t.Errorf("%+v: %v, want ErrInvalidParams", p, err)
		}
	}
	for _, p := range []ScalableParams{{P: 0.01, S: 1.1, N0: 1000}, {P: 0.01, S: 2, N0: 1}} {
		if _, err := NewScalable(p); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
	f, err := NewScalable(ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 2})
	if err != nil {
		t.Fatal(err)
	}
	f.Add([]byte("x"))
	data, _ := f.MarshalBinary()
	binary.LittleEndian.PutUint64(data[33:], math.Float64bits(1)) // s
	fixChecksum(data)
	if _, err := Unmarshal(data); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "S = 1") {
		t.Errorf("a checksum-valid file with s = 1: %v, want ErrCorrupt naming S", err)
	}
}

// TestBlockedStagesEconomy: blocks too small for the first stage's error
// are refused (64-bit blocks at P = 1e-3); the decoder refuses the same
// parameters in a checksum-valid file.
func TestBlockedStagesEconomy(t *testing.T) {
	_, err := NewScalable(ScalableParams{P: 0.001, N0: 1000, BlockBits: 64})
	if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "BlockBits = 64") || !strings.Contains(err.Error(), "MaxBlockedStageCost") {
		t.Fatalf("64-bit blocks at P = 1e-3: %v", err)
	}
	for _, b := range []int{256, 512} {
		if _, err := NewScalable(ScalableParams{P: 0.001, N0: 1000, BlockBits: b}); err != nil {
			t.Errorf("%d-bit blocks at P = 1e-3: %v", b, err)
		}
	}
	f, err := NewScalable(ScalableParams{P: 0.01, N0: 1000, BlockBits: 64})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := f.MarshalBinary()
	binary.LittleEndian.PutUint64(data[17:], math.Float64bits(0.001)) // P
	fixChecksum(data)
	if _, err := Unmarshal(data); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "BlockBits = 64") {
		t.Errorf("a checksum-valid file with 64-bit blocks at P = 1e-3: %v", err)
	}
}

// TestCraftedFileOneAddAway: a checksum-valid file whose next stage would
// exceed the limit loads (it is under it), and the key that needs the
// stage is refused by TryAdd, for every growing filter; a file over the
// limit is refused by the decoders, from bytes and from a stream, before
// its cells are allocated.
func TestCraftedFileOneAddAway(t *testing.T) {
	type codec interface {
		Grower
		MarshalBinary() ([]byte, error)
	}
	for name, g := range growers(t, 0) {
		f := g.(codec)
		// Fill the first stage exactly.
		keys := testKeys(93, 1, 100_000)
		n := 0
		for ; n < len(keys) && len(f.Stats().Stages) == 1; n++ {
			f.Add(keys[n])
		}
		f.Reset()
		for _, k := range keys[:n-1] {
			f.Add(k)
		}
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		size := int64(cellBytes(f))
		t.Run(name, func(t *testing.T) {
			withLimit(t, size)
			h, err := Unmarshal(data)
			if err != nil {
				t.Fatalf("a filter at the limit does not load: %v", err)
			}
			hg := h.(Grower)
			var refused error
			for _, k := range keys[n-1:] {
				if refused = hg.TryAdd(k); refused != nil {
					break
				}
			}
			if !errors.Is(refused, ErrMemoryLimit) || len(h.Stats().Stages) != 1 {
				t.Errorf("TryAdd = %v with %d stages, want ErrMemoryLimit and one stage", refused, len(h.Stats().Stages))
			}
			SetMemoryLimit(size - 1)
			if _, err := Unmarshal(data); !errors.Is(err, ErrMemoryLimit) || !errors.Is(err, ErrInvalidParams) {
				t.Errorf("Unmarshal over the limit: %v", err)
			}
			if _, err := ReadFilter(struct{ io.Reader }{bytes.NewReader(data)}); !errors.Is(err, ErrMemoryLimit) {
				t.Errorf("ReadFilter over the limit: %v", err)
			}
		})
	}
}

// TestMarshalBinaryOverLimit: MarshalBinary refuses a buffer over the
// process limit with ErrMemoryLimit; WriteTo, which streams, writes the
// same bytes MarshalBinary gives under a larger limit.
func TestMarshalBinaryOverLimit(t *testing.T) {
	f, err := NewStandard(Geometry{Bits: 1 << 23, Hashes: 7}, Hashing{}) // 1 MiB
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range testKeys(95, 1, 1000) {
		f.Add(k)
	}
	want, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	withLimit(t, 512<<10)
	if _, err := f.MarshalBinary(); !errors.Is(err, ErrMemoryLimit) || !strings.Contains(err.Error(), "WriteTo") {
		t.Errorf("MarshalBinary over the limit: %v", err)
	}
	var b bytes.Buffer
	if _, err := f.WriteTo(&b); err != nil || !bytes.Equal(b.Bytes(), want) {
		t.Errorf("WriteTo under the limit: %v, same bytes %v", err, bytes.Equal(b.Bytes(), want))
	}
}

// decodePeak returns the bytes allocated by decode, over the heap's total
// before and after.
func decodePeak(decode func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	decode()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestDecodePeak: decoding a 32 MiB filter allocates at most 1.25 times
// its cells, from bytes and from a stream of unknown length (the review
// measured 2x for a standard filter and 3x for an age-partitioned one
// from a stream).
func TestDecodePeak(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MiB filters")
	}
	st, err := NewStandard(Geometry{Bits: 1 << 28, Hashes: 7}, Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	ap, err := NewAgePartitioned(AgePartitionedParams{K: 4, L: 4, G: 1 << 20, SliceBits: 1 << 25})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := NewScalable(ScalableParams{P: 0.01, N0: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	type codec interface {
		Filter
		io.WriterTo
		io.ReaderFrom
		UnmarshalBinary([]byte) error
	}
	for name, c := range map[string]struct {
		f     codec
		empty func() codec
	}{
		"standard":        {st, func() codec { return new(Standard) }},
		"age-partitioned": {ap, func() codec { return new(AgePartitioned) }},
		"scalable":        {sc, func() codec { return new(Scalable) }},
	} {
		for _, k := range testKeys(97, 1, 1000) {
			c.f.Add(k)
		}
		var buf bytes.Buffer
		if _, err := c.f.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		cells := float64(c.f.Stats().Bits / 8)
		stream := decodePeak(func() {
			if _, err := c.empty().ReadFrom(struct{ io.Reader }{bytes.NewReader(data)}); err != nil {
				t.Fatal(err)
			}
		})
		known := decodePeak(func() {
			if err := c.empty().UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s, %.0f bytes of cells: stream %.3fx, bytes %.3fx", name, cells, float64(stream)/cells, float64(known)/cells)
		if float64(stream) > 1.25*cells || float64(known) > 1.25*cells {
			t.Errorf("%s: decoding allocates %.3fx (stream) and %.3fx (bytes) its cells, want at most 1.25x", name, float64(stream)/cells, float64(known)/cells)
		}
	}
}

// cellBytes returns the bytes of f's cells as the limit counts them.
func cellBytes(f Filter) uint64 {
	switch f := f.(type) {
	case *Scalable:
		return f.liveBytes()
	case *Dynamic:
		return f.liveBytes()
	case *RedisBloom:
		return f.liveBytes()
	}
	panic("cellBytes: not a growing filter")
}

// TestDecodeKeepsMaxBytes: UnmarshalBinary and ReadFrom keep the
// receiver's MaxBytes, refuse a filter over it, and the decoded filter
// grows under it.
func TestDecodeKeepsMaxBytes(t *testing.T) {
	type codec interface {
		Grower
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
		io.ReaderFrom
	}
	// empty returns a zero filter of the kind name with MaxBytes n.
	empty := func(name string, n int64) codec {
		switch name {
		case "dynamic":
			return &Dynamic{maxBytes: n}
		case "redisbloom":
			return &RedisBloom{maxBytes: n}
		}
		return &Scalable{maxBytes: n}
	}
	for name, g := range growers(t, 0) {
		f := g.(codec)
		for _, k := range testKeys(99, 1, 3000) {
			f.Add(k)
		}
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		size := int64(cellBytes(f))
		into := empty(name, 1) // nothing fits
		if err := into.UnmarshalBinary(data); !errors.Is(err, ErrMemoryLimit) {
			t.Errorf("%s: UnmarshalBinary into a MaxBytes of 1: %v", name, err)
		}
		if _, err := into.ReadFrom(struct{ io.Reader }{bytes.NewReader(data)}); !errors.Is(err, ErrMemoryLimit) {
			t.Errorf("%s: ReadFrom into a MaxBytes of 1: %v", name, err)
		}
		h := empty(name, size)
		if err := h.UnmarshalBinary(data); err != nil {
			t.Fatalf("%s: UnmarshalBinary at its size: %v", name, err)
		}
		var refused error
		for _, k := range testKeys(99, 2, 100_000) {
			if refused = h.TryAdd(k); refused != nil {
				break
			}
		}
		if !errors.Is(refused, ErrMemoryLimit) || !strings.Contains(refused.Error(), "MaxBytes") || int64(cellBytes(h)) != size {
			t.Errorf("%s: TryAdd beyond the kept MaxBytes: %v, %d bytes of %d", name, refused, cellBytes(h), size)
		}
	}
}
