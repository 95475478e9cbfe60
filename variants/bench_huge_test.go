package variants

import (
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// BenchmarkHugePages measures what backing large tables with transparent
// huge pages is worth (see adviseHugePages): a standard filter and a
// scalable filter with blocked stages, P = 0.01, holding n = 3e7 keys
// (about 75 MB each, far beyond the last-level cache and beyond the reach
// of the TLB with 4 KiB pages), built once with the advice off (huge=0)
// and once with it on (huge=1), their queries interleaved in one run. On
// a kernel whose transparent huge pages are "never" the two are the same
// filter; in "always" mode both get huge pages.
func BenchmarkHugePages(b *testing.B) {
	const n = 30_000_000
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	build := func(huge bool) []Filter {
		saved := hugePages
		hugePages = huge
		defer func() { hugePages = saved }()
		st, err := NewStandard(Geometry{Bits: 20 * n, Hashes: analysis.OptimalHashes(20*n, n)}, Hashing{})
		if err != nil {
			b.Fatal(err)
		}
		sb, err := NewScalable(ScalableParams{P: 0.01, BlockBits: DefaultBlockBits})
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range present {
			st.Add(k)
			sb.Add(k)
		}
		return []Filter{st, sb}
	}
	off, on := build(false), build(true)
	for i, name := range []string{"standard", "scalable-blocked"} {
		for _, v := range []struct {
			huge string
			f    Filter
		}{{"huge=0", off[i]}, {"huge=1", on[i]}} {
			bpk := float64(v.f.Stats().Bits) / n
			b.Run("variant="+name+"/"+v.huge+"/op=contains-absent", func(b *testing.B) { benchQueries(b, v.f, absent, false, bpk) })
			b.Run("variant="+name+"/"+v.huge+"/op=contains-present", func(b *testing.B) { benchQueries(b, v.f, present, true, bpk) })
		}
	}
}
