// Package sidebyside holds what compare's side-by-side timing programs
// share: cmd/flb, which times RocksDB's FastLocalBloom beside bloomlab's
// filters, and cmd/boostside, which times Boost.Bloom's
// fast_multiblock32. Both drive a C++ program and time the same operations
// in Go on the same keys, in alternating rounds; this package is their
// thread clock, one timed run, the cyclic order in which a loop visits the
// keys, the split-block filter's loops, the hash alone, the random-line
// baseline and the run's load average. It is internal to the compare
// module.
package sidebyside

import (
	"math/bits"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/bloomlab/bloomlab/variants"
)

// Sample is one timed run: nanoseconds per operation of the thread's CPU
// time and of wall time.
type Sample struct{ CPU, Wall float64 }

// Time runs run(count) once after a garbage collection and returns its
// sample and result. The caller holds its OS thread (runtime.LockOSThread)
// so that the thread's CPU clock is the run's; where ThreadCPU is not
// available the wall time stands in for it.
func Time(count int, run func(count int) uint64) (Sample, uint64) {
	runtime.GC()
	c0, t0 := ThreadCPU(), time.Now()
	r := run(count)
	wall, c1 := time.Since(t0), ThreadCPU()
	s := Sample{Wall: float64(wall.Nanoseconds()) / float64(count)}
	s.CPU = s.Wall
	if c0 >= 0 && c1 >= 0 {
		s.CPU = float64(c1-c0) / float64(count)
	}
	return s, r
}

// Next returns the index after j among n, cycling.
func Next(j, n int) int {
	if j++; j == n {
		return 0
	}
	return j
}

// NextGroup returns the start of the group of size after the one at j,
// cycling over the whole groups of n.
func NextGroup(j, n, size int) int {
	if j += size; j+size > n {
		return 0
	}
	return j
}

// B2U is 1 for true and 0 for false, to count hits.
func B2U(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Loadavg returns the first three fields of /proc/loadavg, or "unknown".
func Loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// Median returns the median of xs, 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Key returns the j-th 16-byte key of keys.
func Key(keys []byte, j int) []byte { return keys[16*j : 16*j+16] }

// SplitAddHash adds count 64-bit hashes of hs[:n] to f, in cyclic order.
func SplitAddHash(f *variants.SplitBlock, hs []uint64, n, count int) uint64 {
	j := 0
	for range count {
		f.AddHash64(hs[j])
		j = Next(j, n)
	}
	return 0
}

// AddBatch adds count digests of ds[:n] to f, size at a time, with its
// batch method (the split-block and multiblock filters' both).
func AddBatch(f variants.Batcher, ds []variants.Digest, n, size, count int) uint64 {
	j := 0
	for i := 0; i < count; i += size {
		f.AddDigestBatch(ds[j : j+size])
		j = NextGroup(j, n, size)
	}
	return 0
}

// SplitQueries tests count 64-bit hashes of hs[:n] against f and returns
// the hits.
func SplitQueries(f *variants.SplitBlock, hs []uint64, n, count int) uint64 {
	j, hits := 0, uint64(0)
	for range count {
		hits += B2U(f.ContainsHash64(hs[j]))
		j = Next(j, n)
	}
	return hits
}

// QueriesBatch tests count digests of ds[:n] against f, len(out) at a
// time, with its batch method, and returns the hits.
func QueriesBatch(f variants.Batcher, ds []variants.Digest, out []bool, n, count int) uint64 {
	j, hits, size := 0, uint64(0), len(out)
	for i := 0; i < count; i += size {
		f.ContainsDigestBatch(ds[j:j+size], out)
		for _, x := range out {
			hits += B2U(x)
		}
		j = NextGroup(j, n, size)
	}
	return hits
}

// SplitAddKeys adds count 16-byte keys of keys (n of them) to f, hashing
// each.
func SplitAddKeys(f *variants.SplitBlock, keys []byte, n, count int) uint64 {
	j := 0
	for range count {
		f.Add(Key(keys, j))
		j = Next(j, n)
	}
	return 0
}

// SplitKeys tests count 16-byte keys of keys (n of them) against f,
// hashing each, and returns the hits.
func SplitKeys(f *variants.SplitBlock, keys []byte, n, count int) uint64 {
	j, hits := 0, uint64(0)
	for range count {
		hits += B2U(f.Contains(Key(keys, j)))
		j = Next(j, n)
	}
	return hits
}

// HashXXH3128 is bloomlab's default hash alone: the 128-bit XXH3 (seed 0)
// of count 16-byte keys of keys (n of them), its checksum the sum of
// Lo xor Hi, which the C++ programs compute the same way.
func HashXXH3128(keys []byte, n, count int) uint64 {
	sum, j := uint64(0), 0
	for range count {
		u := xxh3.Hash128Seed(Key(keys, j), 0)
		sum += u.Lo ^ u.Hi
		j = Next(j, n)
	}
	return sum
}

// RandomLines loads 8 bytes of a random 64-byte line of t per operation,
// count times, the lines from an LCG by multiply-shift so that no load
// depends on another: the C++ programs' random-lines, and variants'
// BenchmarkBlocked/op=random-lines.
func RandomLines(t []uint64, count int) uint64 {
	lines := uint64(len(t) / 8)
	sum, x := uint64(0), uint64(1)
	for range count {
		x = x*6364136223846793005 + 1442695040888963407
		hi, _ := bits.Mul64(x, lines)
		sum += t[hi*8]
	}
	return sum
}
