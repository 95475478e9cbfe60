package variants

import (
	"fmt"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// BenchmarkScalable measures a scalable filter at P = 0.01 (n0 = 1000, r
// and s the defaults) grown to n = 1e4 (4 stages, in cache), 1e6 (10
// stages) and 3e7 (15 stages, far beyond the last-level cache), the same
// with blocked stages (B = 512, variant=scalable-blocked), and a standard
// filter of the partitioned scalable filter's total memory holding the
// same keys (k optimal for its bits per key), one key at a time (and
// batched where a filter has batched operations). Queries run on the full
// filters. Adds run on a filter holding the first half of the keys and
// insert the second half, so that every timed add meets all the stages of
// size n; when the second half is used up the filter is refilled with the
// timer stopped. Run a single size with -bench 'Scalable/n=3e7'.
//
// Beside each query time it reports lines/query, the mean number of
// distinct 64-byte lines a query reads (LineCounter, counted from the
// probe sequence over up to 10,000 of the keys, outside the timer), and
// lines-predicted/query, the prediction of package analysis for the same
// filter: Scalable.Lines for the scalable filters, TableLines at the
// filter's fill for the standard one.
func BenchmarkScalable(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000, 30_000_000} {
		b.Run(sizeName(n), func(b *testing.B) { benchScalableAt(b, n) })
	}
}

// sizeName names a benchmark size: n=1e4, n=1e6, n=3e7.
func sizeName(n int) string {
	return map[int]string{10_000: "n=1e4", 1_000_000: "n=1e6", 30_000_000: "n=3e7"}[n]
}

func benchScalableAt(b *testing.B, n int) {
	const p = 0.01
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	sc, err := NewScalable(ScalableParams{P: p})
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range present {
		sc.Add(k)
	}
	sb, err := NewScalable(ScalableParams{P: p, BlockBits: DefaultBlockBits})
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range present {
		sb.Add(k)
	}
	m := sc.Stats().Bits
	st, err := NewStandard(Geometry{Bits: m, Hashes: analysis.OptimalHashes(m, uint64(n))}, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range present {
		st.Add(k)
	}
	for _, v := range []struct {
		name string
		f    Filter
	}{{"standard", st}, {"scalable", sc}, {"scalable-blocked", sb}} {
		bpk := float64(v.f.Stats().Bits) / float64(n)
		b.Run("variant="+v.name+"/op=contains-present", func(b *testing.B) {
			benchQueries(b, v.f, present, true, bpk)
			reportLines(b, v.f, present, true)
		})
		b.Run("variant="+v.name+"/op=contains-absent", func(b *testing.B) {
			benchQueries(b, v.f, absent, false, bpk)
			reportLines(b, v.f, absent, false)
		})
		add := func(keys [][]byte) { v.f.Add(keys[0]) }
		b.Run("variant="+v.name+"/op=add", func(b *testing.B) { benchHalfAdds(b, v.f, present, 1, add) })
		if bf, ok := v.f.(Batcher); ok {
			b.Run("variant="+v.name+"/op=addbatch", func(b *testing.B) { benchHalfAdds(b, v.f, present, batchKeys, bf.AddBatch) })
			b.Run("variant="+v.name+"/op=containsbatch-present", func(b *testing.B) { benchContainsBatch(b, bf, present, true, bpk) })
			b.Run("variant="+v.name+"/op=containsbatch-absent", func(b *testing.B) { benchContainsBatch(b, bf, absent, false, bpk) })
		}
	}
}

// reportLines reports the mean lines a query of f reads over up to 10,000
// of keys (evenly spaced), and their prediction.
func reportLines(b *testing.B, f Filter, keys [][]byte, present bool) {
	lc := f.(LineCounter)
	var h Hashing
	step := max(1, len(keys)/10_000)
	var sum, n float64
	for i := 0; i < len(keys); i += step {
		sum += float64(lc.QueryLines(h.Digest(keys[i])))
		n++
	}
	b.ReportMetric(sum/n, "lines/query")
	var want float64
	switch f := f.(type) {
	case *Scalable:
		g := f.Params()
		geom := analysis.Scalable{P: g.P, R: g.R, S: g.S, N0: g.N0, BlockBits: uint64(g.BlockBits)}
		abs, pres, err := geom.Lines(f.Stats().Items, 2)
		if err != nil {
			b.Fatal(err)
		}
		want = abs
		if present {
			want = pres
		}
	case *Standard:
		fill := float64(f.setBits()) / float64(f.m)
		pass := fill
		if present {
			pass = 1
		}
		want = analysis.TableLines(f.m, f.k, 4, pass)
	default:
		return
	}
	b.ReportMetric(want, "lines-predicted/query")
}

// benchHalfAdds times Add of the second half of keys into a filter that
// holds the first half, step keys per call of add, refilling the filter
// with the timer stopped whenever the second half is used up; it reports
// ns/key. It leaves the filter holding all the keys.
func benchHalfAdds(b *testing.B, f Filter, keys [][]byte, step int, add func([][]byte)) {
	b.ReportAllocs()
	half := len(keys) / 2
	refill := func() {
		f.Reset()
		for _, k := range keys[:half] {
			f.Add(k)
		}
	}
	refill()
	i, added := half, 0
	for b.Loop() {
		add(keys[i : i+step])
		i += step
		added += step
		if i+step > len(keys) {
			b.StopTimer()
			refill()
			i = half
			b.StartTimer()
		}
	}
	for _, k := range keys[i:] {
		f.Add(k)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(added), "ns/key")
}

// BenchmarkScalableStages measures how the first stage's capacity n0 and
// the growth factor s set the number of stages of a scalable filter
// holding n = 1e6 keys at P = 0.01 (r the default), and what each choice
// costs: stages, bits per key, the measured rate of absent keys (fpr),
// the lines an absent query reads (lines/query) and its time (ns/op), one
// key at a time. Every filter is filled to n keys, which leaves its newest
// stage partly empty by an amount that depends on n0 and s.
func BenchmarkScalableStages(b *testing.B) {
	const n, p = 1_000_000, 0.01
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	for _, n0 := range []uint64{1000, 10_000, 100_000} {
		for _, s := range []float64{2, 4} {
			f, err := NewScalable(ScalableParams{P: p, N0: n0, S: s})
			if err != nil {
				b.Fatal(err)
			}
			for _, k := range present {
				f.Add(k)
			}
			b.Run(fmt.Sprintf("n0=%d/s=%g/op=contains-absent", n0, s), func(b *testing.B) {
				benchQueries(b, f, absent, false, float64(f.Stats().Bits)/n)
				reportLines(b, f, absent, false)
				b.ReportMetric(float64(f.Stages()), "stages")
			})
		}
	}
}
