package variants

import (
	"fmt"
	"testing"
)

// BenchmarkCSCounting measures a counting filter with 4-bit counters sized
// for n = 1e6 at p = 0.01 beside the standard filter of the same geometry
// and hashing and one XXH3 128-bit hash of the same 16-byte keys, in one
// run so that their ratios compare like with like. The queries run on the
// filter holding exactly n keys; Add inserts the n keys in a cycle,
// resetting the filter after each cycle. remove-add removes a member and adds it
// back, two operations that leave the filter unchanged.
func BenchmarkCSCounting(b *testing.B) {
	const n, p = 1_000_000, 0.01
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	b.Run("op=xxh3-128/key=16", func(b *testing.B) { benchXXH3(b, present) })
	g, err := StandardGeometry(n, p)
	if err != nil {
		b.Fatal(err)
	}
	counting, err := NewCounting(CountingParams{Geometry: g})
	if err != nil {
		b.Fatal(err)
	}
	standard, err := NewStandard(g, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []struct {
		name string
		f    Filter
	}{{"counting", counting}, {"standard", standard}} {
		name := fmt.Sprintf("variant=%s/n=1e6/p=%g/key=16", v.name, p)
		for _, k := range present {
			v.f.Add(k)
		}
		bpk := float64(v.f.Stats().Bits) / n
		b.Run(name+"/op=contains-present", func(b *testing.B) { benchQueries(b, v.f, present, true, bpk) })
		b.Run(name+"/op=contains-absent", func(b *testing.B) { benchQueries(b, v.f, absent, false, bpk) })
		b.Run(name+"/op=add", func(b *testing.B) { benchAdds(b, v.f, present) })
	}
	counting.Reset()
	for _, k := range present {
		counting.Add(k)
	}
	b.Run("variant=counting/n=1e6/p=0.01/key=16/op=remove-add", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if !counting.Remove(present[i]) {
				b.Fatal("Remove of a member reported false")
			}
			counting.Add(present[i])
			i++
			if i == n {
				i = 0
			}
		}
	})
}

// BenchmarkCSScalable measures a scalable filter at P = 0.001 (r and s the
// defaults) holding n = 1e6 keys in exactly 1, 5 or 10 stages: the first
// stage holds ceil(n / (2^j - 1)) keys, so that j doubling stages hold n.
// The filters hold the same keys in about the same memory, so the
// benchmarks isolate the cost of the number of stages. The queries run on
// the full filter; Add inserts the keys in a cycle (each Add first tests
// every stage), emptying the filter after each cycle. Beside them, one XXH3 128-bit hash of the same keys.
func BenchmarkCSScalable(b *testing.B) {
	const n, P = 1_000_000, 0.001
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	b.Run("op=xxh3-128/key=16", func(b *testing.B) { benchXXH3(b, present) })
	for _, stages := range []int{1, 5, 10} {
		n0 := (n + 1<<stages - 2) / (1<<stages - 1)
		f, err := NewScalable(ScalableParams{P: P, N0: uint64(n0)})
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("variant=scalable/n=1e6/P=%g/stages=%d/key=16", P, stages)
		for _, k := range present {
			f.Add(k)
		}
		if f.Stages() != stages {
			b.Fatalf("n0 = %d: %d stages, want %d", n0, f.Stages(), stages)
		}
		st := f.Stats()
		bpk := float64(st.Bits) / float64(st.Items)
		b.Run(name+"/op=contains-present", func(b *testing.B) { benchQueries(b, f, present, true, bpk) })
		b.Run(name+"/op=contains-absent", func(b *testing.B) { benchQueries(b, f, absent, false, bpk) })
		// After Reset the filter reuses the stages already built, so
		// this measures steady-state adds, without allocation.
		b.Run(name+"/op=add", func(b *testing.B) { benchAdds(b, f, present) })
	}
}
