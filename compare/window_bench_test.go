package compare

import (
	"fmt"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/variants"
	"github.com/decred/dcrd/container/apbf"
)

// BenchmarkWindow times decred's age-partitioned filter
// (github.com/decred/dcrd/container/apbf v1.0.1) beside bloomlab's
// AgePartitioned in its plain and blocked layouts, at decred's geometry
// for k = 10, l = 7 and g = 1e3 and 1e5 items per generation:
// apbf.NewFilterKL((l+1) g, k, l) sizes g = ceil(capacity/(l+1)) and
// slices of ceil(k g/ln 2) bits (read from its filter.go), and bloomlab's
// filters get the same k, l, g and slice bits (rounded up to whole words
// for the blocked layout). Both hash the 16-byte key in Add and Contains
// (decred SipHash-2-4 keyed, with its mutex; bloomlab xxh3).
// op=add inserts into a filter in the steady state, op=contains-present
// queries keys among the last l g added (within both filters' window),
// op=contains-absent keys never added; fpr is the measured rate of the
// absent queries. Ratios are meaningful only within one run; interleave
// with -count and compare with benchstat.
func BenchmarkWindow(b *testing.B) {
	const k, l = 10, 7
	for _, g := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("g=%.0e", float64(g)), func(b *testing.B) { benchWindowAt(b, k, l, g) })
	}
}

// windowFilter is what the benchmark needs of each filter.
type windowFilter interface {
	Add([]byte)
	Contains([]byte) bool
}

func benchWindowAt(b *testing.B, k, l, g int) {
	fill := (k + l + 1) * g
	present := keys(1, fill)
	// 2^16 keys each for the timed loops, so that reading the keys stays
	// in cache and the loops time the filters.
	absent := keys(2, 1<<16)
	adds := keys(3, 1<<16)
	sliceBits := uint64(math.Ceil(float64(k) * float64(g) / math.Ln2))
	build := map[string]func() windowFilter{
		"decred-apbf": func() windowFilter {
			f := apbf.NewFilterKL(uint32((l+1)*g), uint8(k), uint8(l))
			return f
		},
		"bloomlab-age-partitioned": func() windowFilter {
			f, err := variants.NewAgePartitioned(variants.AgePartitionedParams{K: k, L: l, G: uint64(g), SliceBits: sliceBits})
			if err != nil {
				b.Fatal(err)
			}
			return f
		},
		"bloomlab-age-partitioned-blocked": func() windowFilter {
			f, err := variants.NewAgePartitioned(variants.AgePartitionedParams{K: k, L: l, G: uint64(g), SliceBits: (sliceBits + 63) / 64 * 64, AgePartitionedOptions: variants.AgePartitionedOptions{Blocked: true}})
			if err != nil {
				b.Fatal(err)
			}
			return f
		},
	}
	for _, lib := range []string{"decred-apbf", "bloomlab-age-partitioned", "bloomlab-age-partitioned-blocked"} {
		f := build[lib]()
		for _, key := range present {
			f.Add(key)
		}
		// Up to 2^16 keys spread evenly over the last l g added.
		var window [][]byte
		for i := fill - l*g; i < fill; i += max(1, l*g>>16) {
			window = append(window, present[i])
		}
		b.Run("lib="+lib+"/op=add", func(b *testing.B) {
			h := build[lib]()
			for _, key := range present {
				h.Add(key)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				h.Add(adds[i&(len(adds)-1)])
				i++
			}
		})
		b.Run("lib="+lib+"/op=contains-present", func(b *testing.B) {
			b.ReportAllocs()
			i, miss := 0, 0
			for b.Loop() {
				if !f.Contains(window[i%len(window)]) {
					miss++
				}
				i++
			}
			if miss != 0 {
				b.Fatalf("%d keys of the window tested absent", miss)
			}
		})
		b.Run("lib="+lib+"/op=contains-absent", func(b *testing.B) {
			b.ReportAllocs()
			i, fp := 0, 0
			for b.Loop() {
				if f.Contains(absent[i&(len(absent)-1)]) {
					fp++
				}
				i++
			}
			b.ReportMetric(float64(fp)/float64(i), "fpr")
		})
	}
}
