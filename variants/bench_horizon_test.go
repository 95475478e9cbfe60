package variants

import "testing"

// horizonSink keeps the benchmark's answers alive.
var horizonSink int

// BenchmarkScalableHorizon builds, at P = 0.01 (n0 = 1000, s = 2), the
// default scalable filter (Almeida's schedule, r = 0.9) and horizon-aware
// ones with the estimate exact (1e6, Spread 1), ten times low (1e5,
// Spread 1 and Spread 10), and exact with blocked stages (B = 512,
// Spread 1), each holding exactly 1e6 inserted keys, and times absent
// queries on them. Beside the time it reports the filter's bits per key,
// its stages and the rate measured on 100,000 absent keys outside the
// timer. The filters are built before the timer starts, once per run.
func BenchmarkScalableHorizon(b *testing.B) {
	const n = 1_000_000
	absent := benchKeys(2, 1<<16, 16)
	for _, c := range []struct {
		name string
		p    ScalableParams
	}{
		{"almeida", ScalableParams{P: 0.01}},
		{"exact", ScalableParams{P: 0.01, Estimate: n}},
		{"10x-low", ScalableParams{P: 0.01, Estimate: n / 10}},
		{"10x-low-spread-10", ScalableParams{P: 0.01, Estimate: n / 10, Spread: 10}},
		{"exact-blocked", ScalableParams{P: 0.01, Estimate: n, BlockBits: 512}},
	} {
		b.Run(c.name, func(b *testing.B) {
			f, err := NewScalable(c.p)
			if err != nil {
				b.Fatal(err)
			}
			var buf [16]byte
			for i, held := uint64(0), 0; held < n; i++ {
				if !f.TestAndAdd(streamKey(&buf, 1, 1, i)) {
					held++
				}
			}
			fp := 0
			for i := range uint64(100_000) {
				if f.Contains(streamKey(&buf, 1, 2, i)) {
					fp++
				}
			}
			b.ResetTimer()
			hits := 0
			for i := range b.N {
				if f.Contains(absent[i&(len(absent)-1)]) {
					hits++
				}
			}
			b.StopTimer()
			horizonSink = hits
			// After the loop: ResetTimer deletes the metrics reported.
			st := f.Stats()
			b.ReportMetric(float64(st.Bits)/float64(st.Items), "bits/key")
			b.ReportMetric(float64(f.Stages()), "stages")
			b.ReportMetric(float64(fp)/100_000, "fpr")
		})
	}
}
