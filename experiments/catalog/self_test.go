package catalog

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// TestSelf runs the self experiment at a tiny size: one row per assembly
// path of BenchmarkProbeAsmVsGo, times of both forms where this build and
// processor have the assembly (of the pure-Go form alone where not), the
// machine and its caches recorded, and the switch left as it was.
func TestSelf(t *testing.T) {
	saved := variants.Assembly()
	r := mustRun(t, "self", "all", tiny("self"), experiments.Options{Seed: 1})
	if variants.Assembly() != saved {
		t.Errorf("the run left variants.Assembly() = %v, was %v", variants.Assembly(), saved)
	}
	have := hasAssembly()
	// split-block: 4 calls; blocked: 3 k at 2 block sizes; scalable: 2
	// block sizes, 2 rates, 1 size.
	if len(r.Rows) != 4+6+4 {
		t.Fatalf("%d rows, want 14", len(r.Rows))
	}
	for _, row := range r.Rows {
		if row.NsPureGo <= 0 {
			t.Errorf("%s: pure-Go time %g", row.Series, row.NsPureGo)
		}
		if have != (row.NsAssembly > 0 && row.AsmRatio > 0) {
			t.Errorf("%s: assembly %v but asm time %g and ratio %g", row.Series, have, row.NsAssembly, row.AsmRatio)
		}
		if row.Bits == 0 {
			t.Errorf("%s: no bits recorded", row.Series)
		}
	}
	if r.Machine == nil || r.Machine.Arch == "" || r.Machine.CPUs < 1 {
		t.Errorf("machine %+v", r.Machine)
	}
	if !strings.HasPrefix(r.Notes[0], "machine: ") {
		t.Errorf("first note %q, want the machine", r.Notes[0])
	}
}

// TestSummarizeSelf: a WARNING for every path slower in assembly, a note
// naming the paths above selfWarn, and the range.
func TestSummarizeSelf(t *testing.T) {
	r := &experiments.Results{Rows: []experiments.Row{
		{Series: "fast", AsmRatio: 0.4, NsAssembly: 4, NsPureGo: 10},
		{Series: "meh", AsmRatio: 0.9, NsAssembly: 9, NsPureGo: 10},
		{Series: "bad", AsmRatio: 1.5, NsAssembly: 15, NsPureGo: 10},
	}}
	got := summarizeSelf(r)
	want := []string{
		"WARNING: assembly slower than pure Go on this machine: bad, asm/go 1.50 (15.0 ns against 10.0)",
		"above 0.8 (the assembly gains little here): meh 0.90",
		"1 of 3 assembly paths are slower than their pure-Go form on this machine: asm/go from 0.40 to 1.50 over 3 paths",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	r.Rows = r.Rows[:1]
	if got := summarizeSelf(r); len(got) != 1 || !strings.HasPrefix(got[0], "every assembly path is faster") {
		t.Errorf("one fast path: %q", got)
	}
	r.Rows[0].AsmRatio = 0
	if got := summarizeSelf(r); len(got) != 1 || !strings.HasPrefix(got[0], "no assembly path timed") {
		t.Errorf("no assembly: %q", got)
	}
}

// TestSelfPrefetchSizes checks the self experiment's note on the prefetch
// pass of streamBlockedTest: with the default sizes, every scalable filter
// it times at 1M keys has a newest stage above 512 KiB (variants'
// prefetchBytes), and none at 10k. It fills the smallest of those at 1M
// (B = 512, P = 0.01) and the largest at 10k (B = 256, P = 0.001).
func TestSelfPrefetchSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a filter of a million keys")
	}
	e, _ := Lookup("self")
	d := e.Defaults("all", false)
	if len(d.Keys) != 2 || d.Keys[0] != 10_000 || d.Keys[1] != 1_000_000 {
		t.Fatalf("default sizes %v: the note on the prefetch pass names 10k and 1M", d.Keys)
	}
	for _, c := range []struct {
		b        int
		p        float64
		keys     uint64
		prefetch bool
	}{{512, 0.01, 1_000_000, true}, {256, 0.001, 10_000, false}} {
		f, err := variants.NewScalable(variants.ScalableParams{P: c.p, N0: d.N, BlockBits: c.b})
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.keys {
			f.AddDigest(variants.Digest{H1: splitmix64(2 * i), H2: splitmix64(2*i + 1)})
		}
		st := f.Stats().Stages
		if newest := st[len(st)-1].Bits / 8; (newest > 1<<19) != c.prefetch {
			t.Errorf("B = %d, P = %g, %d keys: newest stage of %d bytes, want prefetch %v", c.b, c.p, c.keys, newest, c.prefetch)
		}
	}
}
