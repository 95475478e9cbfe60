package catalog

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// selfExperiment times, on the machine it runs on, every assembly block
// probe of package variants against its pure-Go form (the paths of
// BenchmarkProbeAsmVsGo), through the public call that reaches it, and
// records the processor and its caches: evidence, in a minute, of whether
// the assembly pays here. It is a named experiment of its own rather than
// a part of speed -quick, which takes minutes and measures the filters'
// scaling, not the machine.
var selfExperiment = Experiment{
	Name:       "self",
	Summary:    "this machine: its processor and caches, and every assembly block probe timed against its pure-Go form, with a warning where the assembly is slower",
	Variants:   selfVariants,
	Timed:      true,
	sequential: true,
	flags:      fixedFlags(),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 1000, P: 0.01, Filters: 1, Queries: 100_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			Passes: 31, Keys: []uint64{10_000, 1_000_000}}
	},
	plan:      planSelf,
	summarize: summarizeSelf,
	figure:    selfFigure,
}

// selfVariants are the variants whose probes have an assembly form.
var selfVariants = []string{"blocked", "split-block", "scalable"}

// The self experiment's scalable filters start at n0 = N (1000 by
// default), as the speed experiment's do.

// selfKeys is the number of keys of the self experiment's blocked and
// split-block filters, which hold 10 bits per key (a table in cache, as
// in BenchmarkProbeAsmVsGo), and the number of digests its probes cycle
// through.
const selfKeys = 4096

// selfBatch is the number of digests per batch call of the self
// experiment (AddDigestBatch, ContainsDigestBatch).
const selfBatch = 256

// selfWarn is the ratio of assembly to pure-Go time above which the self
// experiment notes that a path gains little; above 1 it warns.
const selfWarn = 0.8

// selfPath is one assembly entry point of package variants at one setting
// that has a code path of its own, reached through a public call.
type selfPath struct {
	series  string // the entry point, the setting and the public call
	variant string
	// The filter: a blocked filter of k hashes and blockBits-bit blocks,
	// the split-block filter (k = 8), or a scalable filter of blocked
	// stages at target p grown to keys keys.
	k, blockBits int
	p            float64
	keys         uint64
	// call is the public call: "AddHash64", "ContainsHash64",
	// "AddDigestBatch", "ContainsDigestBatch" or "ContainsDigest".
	call string
}

// selfPaths returns the paths of the self experiment's variants: the
// split-block filter's single-hash and batch probes, the blocked filter's
// one-pass test (k = 64/s, the largest it serves) and loop (k = 64/s + 1
// and 16) at B = 256 and 512, and the scalable filter's one-call stage
// query at B = 256 and 512, P = 0.01 and 0.001, for each size in keys.
func selfPaths(variant string, keys []uint64) []selfPath {
	var out []selfPath
	for _, v := range selected(variant, selfVariants) {
		switch v {
		case "split-block":
			for _, c := range []struct{ entry, call string }{
				{"splitAddHash", "AddHash64"}, {"splitContainsHash", "ContainsHash64"},
				{"splitAdd", "AddDigestBatch"}, {"splitContains", "ContainsDigestBatch"},
			} {
				out = append(out, selfPath{series: fmt.Sprintf("%s (SplitBlock.%s)", c.entry, c.call), variant: v, k: 8, keys: selfKeys, call: c.call})
			}
		case "blocked":
			for _, b := range []int{256, 512} {
				per := 64 / map[int]int{256: 8, 512: 9}[b]
				for _, k := range []int{per, per + 1, 16} {
					form := "one pass"
					if k > per {
						form = "loop"
					}
					out = append(out, selfPath{series: fmt.Sprintf("blockedTest B=%d k=%d %s (Blocked.ContainsDigest)", b, k, form),
						variant: v, k: k, blockBits: b, keys: selfKeys, call: "ContainsDigest"})
				}
			}
		case "scalable":
			for _, n := range keys {
				for _, b := range []int{256, 512} {
					for _, p := range []float64{0.01, 0.001} {
						out = append(out, selfPath{series: fmt.Sprintf("streamBlockedTest B=%d P=%g n=%s (Scalable.ContainsDigest)", b, p, countText(n)),
							variant: v, blockBits: b, p: p, keys: n, call: "ContainsDigest"})
					}
				}
			}
		}
	}
	return out
}

// planSelf plans one group per path of selfPaths: its filter filled with
// the path's keys, then its call timed with the assembly on and off in
// Passes alternating rounds of Queries probes each.
func planSelf(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{Caches: experiments.MachineCaches(), Machine: experiments.MachineCPU()}
	h := variants.Hashing{}
	for _, sp := range selfPaths(variant, p.Keys) {
		row := experiments.Row{Series: sp.series, Variant: sp.variant, Hashing: hashingName(h), Items: sp.keys, Capacity: sp.keys, Hashes: sp.k, Filters: 1}
		if sp.variant == "scalable" {
			row.Capacity, row.Target = min(p.N, sp.keys), sp.p
		}
		pl.Groups = append(pl.Groups, experiments.Group{
			Key:     "self/" + sp.series,
			Filters: 1,
			Hashing: h,
			Run:     timeSelf(sp, p),
			Rows:    []int{pl.AddRow(row)},
		})
	}
	on := "on"
	if !hasAssembly() {
		on = "not available in this build or on this processor (variants.Assembly is false): only the pure-Go form is timed"
	}
	pl.Notes = append(pl.Notes,
		"machine: "+pl.Machine.String()+", caches "+cachesText(pl.Caches),
		"assembly block probes: "+on,
		fmt.Sprintf("each path is a public call that reaches one assembly entry point; its filter holds %d keys (blocked and split-block, 10 bits per key, in cache) or n keys (scalable, from n0 = %d, blocked stages, target P); the call cycles through the digests of up to 65536 keys, half of them added; ns per probe with the assembly on and off (variants.SetAssembly), medians of %d alternating rounds of %d probes each on one goroutine; asm/go is the median of the rounds' ratios", selfKeys, p.N, p.Passes, p.Queries),
		"streamBlockedTest prefetches every stage's block first once the newest stage exceeds 512 KiB, which the default sizes reach at n = 1M, not at n = 10k",
		fmt.Sprintf("ratio above 1: the assembly is slower than pure Go on this machine, a bug to report (variants.SetAssembly(false) is the way round it); above %g: it gains little; BenchmarkProbeAsmVsGo times the entry points alone", selfWarn))
	return pl, nil
}

// hasAssembly reports whether the assembly probes can be turned on, and
// leaves the switch as it found it.
func hasAssembly() bool {
	saved := variants.SetAssembly(true)
	defer variants.SetAssembly(saved)
	return variants.Assembly()
}

// cachesText describes the caches of a machine: "L1 32 KiB, L2 1 MiB".
func cachesText(cs []experiments.CacheLevel) string {
	if len(cs) == 0 {
		return "not reported"
	}
	var s []string
	for _, c := range cs {
		s = append(s, fmt.Sprintf("L%d %s", c.Level, bytesText(c.Bytes)))
	}
	return strings.Join(s, ", ")
}

// selfFilter is what the self experiment needs of its filters.
type selfFilter interface {
	filter
	AddDigest(variants.Digest)
	ContainsDigest(variants.Digest) bool
}

// timeSelf is the experiments.RunFunc of path sp: it builds and fills the
// filter, untimed, then times its call with the assembly on and off.
func timeSelf(sp selfPath, p experiments.Params) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		var f selfFilter
		var err error
		switch sp.variant {
		case "split-block":
			f, err = variants.NewSplitBlock(variants.Geometry{Bits: 10 * sp.keys, Hashes: 8}, t.Hashing)
		case "blocked":
			f, err = variants.NewBlocked(variants.BlockedParams{Geometry: variants.Geometry{Bits: 10 * sp.keys, Hashes: sp.k}, BlockBits: sp.blockBits, Hashing: t.Hashing})
		case "scalable":
			f, err = variants.NewScalable(variants.ScalableParams{P: sp.p, N0: min(p.N, sp.keys), BlockBits: sp.blockBits, Hashing: t.Hashing})
		}
		if err != nil {
			return err
		}
		for i := range sp.keys {
			if i%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			f.AddDigest(t.Hashing.Digest(t.Member(i)))
		}
		// The digests the call cycles through: added and absent keys
		// alternately, enough of them that a large filter's blocks do
		// not all stay in cache.
		nd := int(min(max(sp.keys, selfKeys), 1<<16))
		nd -= nd % selfBatch
		ds := make([]variants.Digest, nd)
		for i := range ds {
			if i%2 == 0 {
				ds[i] = t.Hashing.Digest(t.Member(uint64(i/2) % sp.keys))
			} else {
				ds[i] = t.Hashing.Digest(t.Query(uint64(i / 2)))
			}
		}
		per, op := selfOp(sp, f, ds)
		asm, pure, ratio, err := timeAsmVsGo(ctx, op, max(1, int(p.Queries)/per), p.Passes)
		if err != nil {
			return err
		}
		st := f.Stats()
		o := &out[0]
		o.Bits, o.Stages = st.Bits, len(st.Stages)
		o.NsAssembly, o.NsPureGo, o.AsmRatio = asm/float64(per), pure/float64(per), ratio
		return nil
	}
}

// selfOp returns the probes one call of path sp on filter f makes, and
// the call as a function of its number, cycling through the digests ds,
// which returns the call's answer (a query's, or false).
func selfOp(sp selfPath, f selfFilter, ds []variants.Digest) (int, func(i int) bool) {
	n := len(ds)
	switch sp.call {
	case "AddHash64":
		sb := f.(*variants.SplitBlock)
		return 1, func(i int) bool { sb.AddHash64(ds[i%n].H1); return false }
	case "ContainsHash64":
		sb := f.(*variants.SplitBlock)
		return 1, func(i int) bool { return sb.ContainsHash64(ds[i%n].H1) }
	case "AddDigestBatch":
		sb := f.(*variants.SplitBlock)
		groups := n / selfBatch
		return selfBatch, func(i int) bool {
			g := i % groups * selfBatch
			sb.AddDigestBatch(ds[g : g+selfBatch])
			return false
		}
	case "ContainsDigestBatch":
		sb := f.(*variants.SplitBlock)
		groups := n / selfBatch
		answers := make([]bool, selfBatch)
		return selfBatch, func(i int) bool {
			g := i % groups * selfBatch
			sb.ContainsDigestBatch(ds[g:g+selfBatch], answers)
			return answers[0]
		}
	}
	return 1, func(i int) bool { return f.ContainsDigest(ds[i%n]) }
}

// timeAsmVsGo times calls of op with the assembly probes on and with them
// off (variants.SetAssembly), in rounds of calls calls, the two forms
// alternating and the one that goes first alternating too, after one
// untimed round of each; it returns the median time per call of each form
// over the rounds and the median of the rounds' ratios. Where the
// assembly cannot be turned on it times the pure-Go form only and returns
// 0 for the assembly's time and the ratio. It leaves the switch as it
// found it. It must not run while another goroutine uses a filter.
func timeAsmVsGo(ctx context.Context, op func(i int) bool, calls, rounds int) (asm, pure, ratio float64, err error) {
	saved := variants.Assembly()
	defer variants.SetAssembly(saved)
	variants.SetAssembly(true)
	have := variants.Assembly()
	next, hits := 0, 0
	defer runtime.KeepAlive(&hits) // the answers are used
	round := func(on bool) float64 {
		variants.SetAssembly(on)
		start := time.Now()
		for i := next; i < next+calls; i++ {
			if op(i) {
				hits++
			}
		}
		d := time.Since(start)
		next += calls
		return float64(d.Nanoseconds()) / float64(calls)
	}
	if have {
		round(true)
	}
	round(false)
	var as, ps, rs []float64
	for r := range rounds {
		if ctx.Err() != nil {
			return 0, 0, 0, ctx.Err()
		}
		if !have {
			ps = append(ps, round(false))
			continue
		}
		var a, g float64
		if r%2 == 0 {
			a, g = round(true), round(false)
		} else {
			g, a = round(false), round(true)
		}
		as, ps, rs = append(as, a), append(ps, g), append(rs, a/g)
	}
	if !have {
		return 0, median(ps), 0, nil
	}
	return median(as), median(ps), median(rs), nil
}

// median returns the median of xs, which it sorts; 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}

// summarizeSelf returns the self experiment's verdicts: a WARNING for
// every path whose assembly is slower than its pure-Go form, a note for
// every path above selfWarn, and the range of the ratios.
func summarizeSelf(r *experiments.Results) []string {
	var warn, slow []string
	lo, hi := 0.0, 0.0
	n := 0
	for _, row := range r.Rows {
		x := row.AsmRatio
		if x == 0 {
			continue
		}
		if n == 0 || x < lo {
			lo = x
		}
		if n == 0 || x > hi {
			hi = x
		}
		n++
		switch {
		case x > 1:
			warn = append(warn, fmt.Sprintf("WARNING: assembly slower than pure Go on this machine: %s, asm/go %.2f (%.1f ns against %.1f)", row.Series, x, row.NsAssembly, row.NsPureGo))
		case x > selfWarn:
			slow = append(slow, fmt.Sprintf("%s %.2f", row.Series, x))
		}
	}
	if n == 0 {
		return []string{"no assembly path timed: every probe of this build runs in pure Go"}
	}
	out := warn
	if len(slow) > 0 {
		out = append(out, fmt.Sprintf("above %g (the assembly gains little here): %s", selfWarn, strings.Join(slow, "; ")))
	}
	verdict := "every assembly path is faster than its pure-Go form on this machine"
	if len(warn) > 0 {
		verdict = fmt.Sprintf("%d of %d assembly paths are slower than their pure-Go form on this machine", len(warn), n)
	}
	return append(out, fmt.Sprintf("%s: asm/go from %.2f to %.2f over %d paths", verdict, lo, hi, n))
}

// countText writes a number of keys as the command's flags take it:
// 10k, 1M, 4096.
func countText(n uint64) string {
	switch {
	case n >= 1e6 && n%1e6 == 0:
		return fmt.Sprintf("%dM", n/1e6)
	case n >= 1e3 && n%1e3 == 0:
		return fmt.Sprintf("%dk", n/1e3)
	}
	return fmt.Sprint(n)
}
