// Command window measures the sliding-window filters of other Go libraries
// beside bloomlab's age-partitioned filter, by the harness of package
// experiments (experiments.MeasureWindow): decred's age-partitioned Bloom
// filter (github.com/decred/dcrd/container/apbf v1.0.1) as its NewFilter
// sizes it for a window and a target rate, bloomlab's filter sized by its
// exact theory for the window decred's filter really guarantees at the same
// target, and BoomFilters' stable Bloom filter with decred's memory. For
// each it measures the rate against the stream position (every filter with
// keys of its own, never-inserted queries), the recall against age, the
// memory per item of the guaranteed window and the time per operation, and
// sets bloomlab's exact theory (analysis.AgePartitioned, independent
// slices) beside decred's filter, at its geometry. It checks decred's
// window promise, that the newest Capacity() = (L+1) g items always test
// present, after every add of one generation, and measures decred's rate
// at small slices, where its double hashing across slices makes them
// dependent.
//
// It prints the results as Markdown; every number in it is measured in the
// run. With -out it also writes the measurements as CSV and JSON.
//
// Usage (from the compare directory):
//
//	go run ./cmd/window [-seed 1] [-filters 20] [-queries 20000] [-window 10000] [-targets 0.1,0.01,0.001] [-out dir]
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/compare"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
	"github.com/decred/dcrd/container/apbf"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "window:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// config holds the flags.
type config struct {
	seed, queries, window uint64
	filters, workers      int
	phaseFilters          int
	targets               []float64
	small                 []uint64
	out                   string
}

func run(ctx context.Context, args []string, out io.Writer) error {
	var c config
	var targets, small string
	fs := flag.NewFlagSet("window", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Uint64Var(&c.seed, "seed", 1, "seed of every filter's keys (and hash seed, where the library takes one)")
	fs.IntVar(&c.filters, "filters", 20, "filters per measurement (at least 2)")
	fs.Uint64Var(&c.queries, "queries", 20_000, "never-inserted keys queried per filter and position, at least (raised to 10/target)")
	fs.Uint64Var(&c.window, "window", 10_000, "the window decred's NewFilter is asked for (at least 100)")
	fs.StringVar(&targets, "targets", "0.1,0.01,0.001", "target rates, comma-separated, each in (0, 0.5)")
	fs.StringVar(&small, "small", "8,32,128,512", "generations g of decred's filters at small slices (k and l of the last target), comma-separated")
	fs.IntVar(&c.phaseFilters, "phase-filters", 2, "filters whose window is checked after every add of a generation")
	fs.IntVar(&c.workers, "workers", 0, "parallel workers (0: all cores)")
	fs.StringVar(&c.out, "out", "", "if set, a directory for the CSV and JSON of the measurements")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var err error
	if c.targets, err = floats(targets); err != nil {
		return fmt.Errorf("%w: -targets: %v", errUsage, err)
	}
	if c.small, err = uints(small); err != nil {
		return fmt.Errorf("%w: -small: %v", errUsage, err)
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	case c.filters < 2:
		return fmt.Errorf("%w: -filters %d: want at least 2", errUsage, c.filters)
	case c.queries < 100:
		return fmt.Errorf("%w: -queries %d: want at least 100", errUsage, c.queries)
	case c.window < 100 || c.window > 1<<24:
		return fmt.Errorf("%w: -window %d: want 100 <= window <= 2^24", errUsage, c.window)
	case c.phaseFilters < 1:
		return fmt.Errorf("%w: -phase-filters %d: want at least 1", errUsage, c.phaseFilters)
	case c.workers < 0:
		return fmt.Errorf("%w: -workers %d: want 0 or more", errUsage, c.workers)
	}
	for _, p := range c.targets {
		if !(p > 0 && p < 0.5) {
			return fmt.Errorf("%w: -targets: %v, want 0 < p < 0.5 (decred's filter has no l below that)", errUsage, p)
		}
	}
	for _, g := range c.small {
		if g < 1 || g > 1<<20 {
			return fmt.Errorf("%w: -small: %d, want 1 <= g <= 2^20", errUsage, g)
		}
	}
	start := time.Now()
	var b bytes.Buffer
	fmt.Fprintf(&b, "Measured by `go run ./cmd/window -seed %d -filters %d -queries %d -window %d -targets %s -small %s -phase-filters %d` (%s, %d CPUs):\n",
		c.seed, c.filters, c.queries, c.window, targets, small, c.phaseFilters, runtime.Version(), runtime.NumCPU())
	fmt.Fprintf(&b, "every filter with keys of its own (16 bytes: a stream id, then a counter), queried with never-inserted keys,\n")
	fmt.Fprintf(&b, "fresh at every position; a rate is the mean over %d filters with its 95%% t interval. decred's filter and\n", c.filters)
	fmt.Fprintf(&b, "BoomFilters' stable filter take no seed (decred keys SipHash from the clock, BoomFilters draws its\n")
	fmt.Fprintf(&b, "clears from math/rand), so their numbers differ from run to run within their intervals.\n\n")

	type entry struct {
		p       float64
		d       compare.DecredGeometry
		th, our analysis.AgePartitioned
		strict  analysis.AgePartitioned // ours at decred's true worst rate
		st      compare.StableGeometry
		res     *experiments.Results
	}
	var entries []entry
	var all []*experiments.Results
	o := experiments.Options{Seed: c.seed, Workers: c.workers}
	for _, p := range c.targets {
		d, err := compare.DecredFor(uint32(c.window), p)
		if err != nil {
			return err
		}
		th, err := d.Theory()
		if err != nil {
			return err
		}
		our, err := analysis.AgePartitionedSize(d.Guaranteed(), p)
		if err != nil {
			return err
		}
		strict, err := analysis.AgePartitionedSize(d.Guaranteed(), th.WorstFPR())
		if err != nil {
			return err
		}
		st, err := compare.StableFor(d.Bits(), p)
		if err != nil {
			return err
		}
		q := max(c.queries, uint64(math.Ceil(10/p)))
		specs := []experiments.WindowSpec{
			decredSpec(d, th, uint32(c.window), p, q),
			oursSpec(our, d, p, q),
			stableSpec(st, d, p, q),
		}
		res, err := experiments.MeasureWindow(ctx, specs, experiments.Params{Filters: c.filters}, o)
		if err != nil {
			return err
		}
		entries = append(entries, entry{p: p, d: d, th: th, our: our, strict: strict, st: st, res: res})
		all = append(all, res)
	}

	fmt.Fprintf(&b, "**Geometry.** decred's `NewFilter(%d, p)` takes k = ceil(log2(1/p)) and the largest l whose one-number\n", c.window)
	fmt.Fprintf(&b, "formula (`CalcFPRate`) is at most p, then g = ceil(window/(l+1)) and slices of ceil(k g/ln 2) bits. It promises\n")
	fmt.Fprintf(&b, "the newest `Capacity()` = (l+1) g items; it holds the newest l g + 1 at every phase. bloomlab's filter is\n")
	fmt.Fprintf(&b, "sized by `analysis.AgePartitionedSize` for that guaranteed window at the target, and at decred's true worst rate:\n\n")
	fmt.Fprintf(&b, "| target | decred k, l, g, slice bits | Capacity() | guaranteed | decred bits / guaranteed item | decred's formula | exact worst, mean | bloomlab k, l, g, slice bits | bloomlab bits / item (allocated) | at decred's worst rate |\n")
	fmt.Fprintf(&b, "|---:|---|---:|---:|---:|---:|---|---|---:|---:|\n")
	for _, e := range entries {
		g := float64(e.d.Guaranteed())
		fmt.Fprintf(&b, "| %g | %d, %d, %d, %d | %d | %d | %.2f | %.4g | %.4g, %.4g | %d, %d, %d, %d | %.2f (%.2f) | %.2f |\n",
			e.p, e.d.K, e.d.L, e.d.Generation, e.d.SliceBits, e.d.Capacity(), e.d.Guaranteed(), float64(e.d.Bits())/g,
			apbf.CalcFPRate(uint8(e.d.K), uint8(e.d.L)), e.th.WorstFPR(), e.th.MeanFPR(),
			e.our.K, e.our.L, e.our.G, e.our.SliceBits, float64(e.our.Bits())/g, float64(allocated(e.our))/g, float64(e.strict.Bits())/g)
	}

	fmt.Fprintf(&b, "\n**Rate against stream position.** decred's filter against the exact theory at its geometry (independent\n")
	fmt.Fprintf(&b, "slices); at 10 times its capacity (the point of decred's published table, the end of a generation)\n")
	fmt.Fprintf(&b, "and over its steady cycle; bloomlab's and the stable filter beside it:\n\n")
	fmt.Fprintf(&b, "| target | filter | positions | at 10 x capacity: measured [95%%] | theory | largest measured [95%%] | theory there | mean measured over the last 2 cycles | theory mean | pooled measured / theory [95%%] | bits / guaranteed item | ns/add | ns/absent query |\n")
	fmt.Fprintf(&b, "|---:|---|---:|---|---:|---|---:|---:|---:|---|---:|---:|---:|\n")
	for _, e := range entries {
		for _, s := range seriesOf(e.res) {
			rateRow(&b, e.p, e.res, s, 10*e.d.Capacity())
		}
	}

	fmt.Fprintf(&b, "\n**Recall against age**: the fraction of the items of each age range (adds since the item) that test\n")
	fmt.Fprintf(&b, "present, at %d positions over a generation after the rate positions, measured (theory): bloomlab's exact\n", recallPhases)
	fmt.Fprintf(&b, "recall for decred's and bloomlab's filters, the one-cell model for the stable filter. The stable filter\n")
	fmt.Fprintf(&b, "forgets items by design, from the newest on:\n\n")
	fmt.Fprintf(&b, "| target | ages | decred | bloomlab | stable |\n|---:|---|---|---|---|\n")
	for _, e := range entries {
		series := seriesOf(e.res)
		for _, row := range e.res.Rows {
			if row.AgeEnd == 0 || row.Series != series[0]+" recall" {
				continue
			}
			cells := []string{}
			for _, s := range series {
				for _, x := range e.res.Rows {
					if x.Series == s+" recall" && x.Age == row.Age {
						cells = append(cells, recallCell(&x))
					}
				}
			}
			fmt.Fprintf(&b, "| %g | %d-%d | %s |\n", e.p, row.Age, row.AgeEnd-1, strings.Join(cells, " | "))
		}
		// The stable filter's false negatives among the items decred's
		// filter guarantees.
		var lost, asked float64
		for _, x := range e.res.Rows {
			if x.Series == series[2]+" recall" && x.AgeEnd <= e.d.Guaranteed() {
				lost += (1 - x.Rate) * float64(x.Queries)
				asked += float64(x.Queries)
			}
		}
		if asked > 0 {
			fmt.Fprintf(&b, "| %g | **0-%d: the stable filter misses %.1f%% of them** | | | |\n", e.p, e.d.Guaranteed()-1, 100*lost/asked)
		}
	}

	fmt.Fprintf(&b, "\n**Window promise**, checked after every add of one generation (from 10 times the capacity on), on %d filters\n", c.phaseFilters)
	fmt.Fprintf(&b, "each: the items among the newest promised that tested absent, and the youngest absent age seen:\n\n")
	fmt.Fprintf(&b, "| target | filter | promised | phases | phases with a miss | misses | youngest absent age (window held) | l g + 1 |\n|---:|---|---:|---:|---:|---:|---:|---:|\n")
	key := func(seed uint64) func(int, uint64) []byte {
		return func(f int, i uint64) []byte {
			var k [16]byte
			binary.LittleEndian.PutUint64(k[:8], seed^uint64(f)*0x9e3779b97f4a7c15)
			binary.LittleEndian.PutUint64(k[8:], i)
			return k[:]
		}
	}
	for _, e := range entries {
		warm := 10 * e.d.Capacity()
		for _, x := range []struct {
			name     string
			promised uint64
			nf       func(uint64) (experiments.Filter, error)
			g        uint64
			safe     uint64
		}{
			{"decred: Capacity()", e.d.Capacity(), compare.NewDecred(uint32(c.window), e.d), e.d.Generation, e.d.Guaranteed()},
			{"decred: l g + 1", e.d.Guaranteed(), compare.NewDecred(uint32(c.window), e.d), e.d.Generation, e.d.Guaranteed()},
			{"bloomlab: Window()", e.our.Window(), compare.NewOurs(e.our, false), e.our.G, e.our.Window()},
		} {
			pc, err := compare.CheckPhases(x.nf, c.phaseFilters, warm, int(x.g), x.promised, key(c.seed))
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "| %g | %s | %d | %d | %d | %d | %d | %d |\n", e.p, x.name, x.promised, pc.Phases, pc.PhasesMissed, pc.Missed, pc.Safe, x.safe)
		}
	}

	if len(c.small) > 0 && len(entries) > 0 {
		last := entries[len(entries)-1]
		k, l := last.d.K, last.d.L
		fmt.Fprintf(&b, "\n**Small slices.** decred's `NewFilterKL(window, %d, %d)` with small generations, slices of ceil(k g/ln 2) bits,\n", k, l)
		fmt.Fprintf(&b, "against the exact theory of independent slices, beside bloomlab's filter of the same geometry, over two\n")
		fmt.Fprintf(&b, "generations of the steady state:\n\n")
		fmt.Fprintf(&b, "| g | slice bits | filter | pooled measured / theory [95%%] | theory worst, mean |\n|---:|---:|---|---|---|\n")
		for _, g := range c.small {
			w := uint32(g * uint64(l+1))
			d, err := compare.DecredKL(w, k, l)
			if err != nil {
				return err
			}
			th, err := d.Theory()
			if err != nil {
				return err
			}
			steady := uint64(k+l-1)*d.Generation + 1
			var pos []uint64
			for j := range uint64(17) {
				pos = append(pos, steady+d.Generation+j*d.Generation/8)
			}
			pos = slices.Compact(pos)
			rate, _ := compare.APTheory(th)
			q := max(c.queries, uint64(math.Ceil(200/th.WorstFPR())))
			specs := []experiments.WindowSpec{
				{Name: fmt.Sprintf("decred g=%d", g), New: compare.NewDecred(w, d), Positions: pos, Queries: q, Window: d.Guaranteed(), Theory: rate, Model: "exact, independent slices"},
				{Name: fmt.Sprintf("bloomlab g=%d", g), New: compare.NewOurs(th, false), Positions: pos, Queries: q, Window: d.Guaranteed(), Theory: rate, Model: "exact, independent slices"},
			}
			res, err := experiments.MeasureWindow(ctx, specs, experiments.Params{Filters: c.filters}, o)
			if err != nil {
				return err
			}
			all = append(all, res)
			for _, s := range seriesOf(res) {
				fmt.Fprintf(&b, "| %d | %d | %s | %s | %.4g, %.4g |\n", g, d.SliceBits, strings.Fields(s)[0], pooledRatio(res, s), th.WorstFPR(), th.MeanFPR())
			}
		}
	}
	fmt.Fprintf(&b, "\nRun time %.0f s.\n", time.Since(start).Seconds())

	if c.out != "" {
		for i, r := range all {
			var name string
			if i < len(entries) {
				name = fmt.Sprintf("window-peers-p%g", entries[i].p)
			} else {
				name = fmt.Sprintf("window-peers-small-%d", c.small[i-len(entries)])
			}
			if err := write(c.out, name, r); err != nil {
				return err
			}
		}
	}
	_, err = out.Write(b.Bytes())
	return err
}

// recallPhases is the number of positions over one generation at which
// the recall is measured.
const recallPhases = 8

// positions returns rate positions every step up to end, with 16 per
// cycle over the last two cycles before end.
func positions(step, end, cycle uint64) []uint64 {
	var ps []uint64
	for x := step; x <= end; x += step {
		ps = append(ps, x)
	}
	start := end - min(end-1, 2*cycle)
	for j := range uint64(33) {
		ps = append(ps, start+j*(end-start)/32)
	}
	ps = append(ps, end)
	slices.Sort(ps)
	return slices.Compact(ps)
}

// ages returns the edges of the recall buckets: every window/8 up to 3
// windows.
func ages(window uint64) []uint64 {
	var a []uint64
	for j := range uint64(25) {
		a = append(a, j*window/8)
	}
	return slices.Compact(a)
}

// recallAt returns recallPhases positions over one cycle from start.
func recallAt(start, cycle uint64) []uint64 {
	var at []uint64
	for j := range uint64(recallPhases) {
		at = append(at, start+j*cycle/recallPhases+1)
	}
	return slices.Compact(at)
}

// decredSpec measures decred's filter of geometry d (NewFilter(window,
// p)) up to 10 times its capacity, against the exact theory th.
func decredSpec(d compare.DecredGeometry, th analysis.AgePartitioned, window uint32, p float64, q uint64) experiments.WindowSpec {
	end := 10 * d.Capacity()
	rate, recall := compare.APTheory(th)
	return experiments.WindowSpec{
		Name: fmt.Sprintf("decred k=%d l=%d p=%g", d.K, d.L, p), New: compare.NewDecred(window, d),
		Positions: positions(d.Capacity()/4, end, d.Generation), Queries: q, Window: d.Guaranteed(),
		Theory: rate, Model: "exact, independent slices",
		Ages: ages(d.Guaranteed()), RecallAt: recallAt(end, d.Generation), RecallTheory: recall, RecallModel: "exact recall",
	}
}

// oursSpec measures bloomlab's filter of geometry a over the same stream
// as decred's filter of geometry d.
func oursSpec(a analysis.AgePartitioned, d compare.DecredGeometry, p float64, q uint64) experiments.WindowSpec {
	end := 10 * d.Capacity()
	rate, recall := compare.APTheory(a)
	return experiments.WindowSpec{
		Name: fmt.Sprintf("bloomlab k=%d l=%d p=%g", a.K, a.L, p), New: compare.NewOurs(a, false),
		Positions: positions(d.Capacity()/4, end, a.G), Queries: q, Window: a.Window(),
		Theory: rate, Model: "exact",
		Ages: ages(d.Guaranteed()), RecallAt: recallAt(end, a.G), RecallTheory: recall, RecallModel: "exact recall",
	}
}

// stableSpec measures BoomFilters' stable filter of decred's memory over
// the same stream, against the one-cell model. Its window is 0: it
// promises none.
func stableSpec(st compare.StableGeometry, d compare.DecredGeometry, p float64, q uint64) experiments.WindowSpec {
	end := 10 * d.Capacity()
	rate, recall := st.Model()
	return experiments.WindowSpec{
		Name: fmt.Sprintf("stable K=%d P=%d p=%g", st.Hashes, st.Clears, p), New: compare.NewStable(st.Cells, p),
		Positions: positions(d.Capacity()/4, end, d.Generation), Queries: q,
		Theory: rate, Model: "one-cell model",
		Ages: ages(d.Guaranteed()), RecallAt: recallAt(end, d.Generation), RecallTheory: recall, RecallModel: "one-cell model",
	}
}

// allocated returns the bits of bloomlab's filter of geometry a as its
// Stats report them (the memory of its slices as allocated).
func allocated(a analysis.AgePartitioned) uint64 {
	f, err := variants.NewAgePartitioned(variants.AgePartitionedParams{K: a.K, L: a.L, G: a.G, SliceBits: a.SliceBits})
	if err != nil {
		return 0
	}
	return f.Stats().Bits
}

// seriesOf returns the series of r's rate rows in order.
func seriesOf(r *experiments.Results) []string {
	var s []string
	for _, row := range r.Rows {
		if row.AgeEnd == 0 && !slices.Contains(s, row.Series) {
			s = append(s, row.Series)
		}
	}
	return s
}

// rateRow prints one filter's rate summary: the measurement at position
// at, the largest measured rate, the mean over the positions of the last
// two cycles (the dense ones), the pooled check, bits and times.
func rateRow(w io.Writer, p float64, r *experiments.Results, series string, at uint64) {
	var rows []*experiments.Row
	for i := range r.Rows {
		if row := &r.Rows[i]; row.Series == series && row.AgeEnd == 0 {
			rows = append(rows, row)
		}
	}
	atCell, thCell := "", ""
	var worst *experiments.Row
	// Times: per add over the stream (each position's weighted by the
	// adds before it), per query the mean over the positions.
	var add, query float64
	var adds, prev uint64
	for _, row := range rows {
		if row.Items == at {
			atCell, thCell = fmt.Sprintf("%.4g [%.4g, %.4g]", row.Rate, row.Lo, row.Hi), theoryCell(row)
		}
		if worst == nil || row.Rate > worst.Rate {
			worst = row
		}
		add += row.NsPerAdd * float64(row.Items-prev)
		adds += row.Items - prev
		prev = row.Items
		query += row.NsPerQuery
	}
	add /= float64(max(adds, 1))
	// The last 33 positions are the dense ones over the last two cycles.
	dense := rows[max(0, len(rows)-33):]
	var m, mt float64
	for _, row := range dense {
		m += row.Rate / float64(len(dense))
		mt += row.Theory / float64(len(dense))
	}
	mtCell := ""
	if dense[0].Model != "" {
		mtCell = fmt.Sprintf("%.4g", mt)
	}
	bpi := ""
	if rows[0].Window > 0 {
		bpi = fmt.Sprintf("%.2f", rows[0].BitsPerKey)
	} else {
		bpi = fmt.Sprintf("(%.0f bits)", float64(rows[0].Bits))
	}
	fmt.Fprintf(w, "| %g | %s | %d | %s | %s | %.4g [%.4g, %.4g] | %s | %.4g | %s | %s | %s | %.0f | %.0f |\n",
		p, series, len(rows), atCell, thCell, worst.Rate, worst.Lo, worst.Hi, theoryCell(worst), m, mtCell,
		pooledRatio(r, series), bpi, add, query/float64(len(rows)))
}

func theoryCell(r *experiments.Row) string {
	if r.Model == "" {
		return ""
	}
	return fmt.Sprintf("%.4g", r.Theory)
}

// pooledRatio returns the ratio and interval of the pooled check of
// series from r's notes, "" if there is none.
func pooledRatio(r *experiments.Results, series string) string {
	prefix := series + ", pooled over its "
	for _, n := range r.Notes {
		if !strings.HasPrefix(n, prefix) {
			continue
		}
		// "... are X times the number ... (95% ...: LO to HI), verdict"
		i := strings.Index(n, " are ")
		j := strings.Index(n, " times the number")
		k := strings.LastIndex(n, ": ")
		l := strings.LastIndex(n, "), ")
		if i < 0 || j < i || k < j || l < k {
			return ""
		}
		lohi := strings.Split(n[k+2:l], " to ")
		if len(lohi) != 2 {
			return ""
		}
		return fmt.Sprintf("%s [%s, %s]", n[i+5:j], lohi[0], lohi[1])
	}
	return ""
}

// write writes r as CSV and JSON under dir, each whole or not at all.
func write(dir, base string, r *experiments.Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		ext   string
		write func(io.Writer) error
	}{
		{"csv", func(w io.Writer) error { return experiments.WriteCSV(w, r) }},
		{"json", func(w io.Writer) error { return experiments.WriteJSON(w, r) }},
	} {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			return err
		}
		tmp, err := os.CreateTemp(dir, "."+base+"-*")
		if err != nil {
			return err
		}
		err = tmp.Chmod(0o644)
		if err == nil {
			_, err = tmp.Write(b.Bytes())
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(dir, base+"."+f.ext))
		}
		if err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}

// floats parses a comma-separated list of numbers.
func floats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, x)
	}
	return out, nil
}

// uints parses a comma-separated list of counts; empty is none.
func uints(s string) ([]uint64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a count", f)
		}
		out = append(out, x)
	}
	return out, nil
}

// recallCell formats a recall row: measured [interval] (theory).
func recallCell(r *experiments.Row) string {
	c := fmt.Sprintf("%.4g [%.4g, %.4g]", r.Rate, r.Lo, r.Hi)
	if r.Model != "" {
		c += fmt.Sprintf(" (%.4g)", r.Theory)
	}
	return c
}
