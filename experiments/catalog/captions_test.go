package catalog

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
	"github.com/bloomlab/bloomlab/variants"
)

// The numbers of the README's figure captions are checked here against
// the committed results the figures are drawn from: each is formatted
// from the data and must appear, so written, in the README.

// The files that hold the captions, from this package's directory.
const (
	readmeFile  = "../../README.md"
	galleryFile = "../../docs/figures.md"
)

// text returns the words of file joined by single spaces: captions wrap
// anywhere.
func text(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// checkClaims checks that file says every string of want.
func checkClaims(t *testing.T, file string, want []string) {
	t.Helper()
	text := text(t, file)
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not say %q, which the committed data give", file, w)
		}
	}
}

// pooled returns the ratio and its interval of series' pooled note.
var pooledNote = regexp.MustCompile(`false positives are ([0-9.e-]+) times the number .*?: ([0-9.e-]+) to ([0-9.e-]+)\)`)

func pooled(t *testing.T, r *experiments.Results, series string) (ratio, lo, hi float64) {
	t.Helper()
	for _, n := range r.Notes {
		if !strings.HasPrefix(n, series+", pooled") {
			continue
		}
		m := pooledNote.FindStringSubmatch(n)
		if m == nil {
			t.Fatalf("note %q", n)
		}
		v := make([]float64, 3)
		for i := range v {
			v[i], _ = strconv.ParseFloat(m[i+1], 64)
		}
		return v[0], v[1], v[2]
	}
	t.Fatalf("%s: no pooled note for %s", r.Experiment, series)
	return
}

// one returns the row of series that keep selects, which must be unique.
func one(t *testing.T, r *experiments.Results, series string, keep func(*experiments.Row) bool) *experiments.Row {
	t.Helper()
	rows := plots.Rows(r, series, keep)
	if len(rows) != 1 {
		t.Fatalf("%s: %d rows of %s selected, want 1", r.Experiment, len(rows), series)
	}
	return rows[0]
}

func bpeIs(v float64) func(*experiments.Row) bool {
	return func(r *experiments.Row) bool {
		return r.Target == 0 && math.Abs(float64(r.Bits)/float64(r.Items)-v) < 0.5
	}
}

// thousands writes n with commas: 95,851.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func insideCount(rows []experiments.Row) (yes, all int) {
	for _, r := range rows {
		switch r.Inside {
		case "yes":
			yes++
			all++
		case "no":
			all++
		}
	}
	return yes, all
}

// A caption lists the numbers of one figure's caption.
type caption struct {
	figure string // the committed results' name, as in plots/figures/data
	file   string // the file that holds the caption
	claims func(t *testing.T, r *experiments.Results) []string
}

// captions are the figures whose captions quote numbers from their data,
// each with the file its caption is in: every number is checked in that
// file, so that a stale number in one file cannot hide behind the other.
var captions = []caption{
	{"fill-scalable", readmeFile, claimsFillScalableInside},
	{"fill-scalable", galleryFile, claimsFillScalable},
	{"fill-standard", galleryFile, claimsFillStandard},
	{"bits-all", readmeFile, claimsBitsAll},
	{"bits-all", galleryFile, claimsBitsAll},
	{"hashes-all", galleryFile, claimsHashesAll},
	{"blocking-all", readmeFile, claimsBlockingRates},
	{"blocking-all", galleryFile, claimsBlockingAll},
	{"small-m-all", galleryFile, claimsSmallMAll},
	{"hashing-all", galleryFile, claimsHashingAll},
	{"counting-all", galleryFile, claimsCountingAll},
	{"scalable-all", galleryFile, claimsScalableAll},
	{"growth-all", galleryFile, growthClaims},
	{"speed-all", galleryFile, claimsSpeedAll},
	{"self-all", galleryFile, claimsSelfAll},
	{"memory-all", galleryFile, claimsMemoryAll},
	{"cardinality-all", galleryFile, claimsCardinalityAll},
	{"window-all", galleryFile, windowClaims},
	{"adversary-all", galleryFile, claimsAdversaryAll},
}

// TestCaptionNumbers checks every caption's numbers against the
// committed results its figure is drawn from.
func TestCaptionNumbers(t *testing.T) {
	data := committed(t)
	for _, c := range captions {
		t.Run(c.figure+"/"+filepath.Base(c.file), func(t *testing.T) {
			r := data[c.figure]
			if r == nil {
				t.Skipf("no committed results for %s", c.figure)
			}
			checkClaims(t, c.file, c.claims(t, r))
		})
	}
}

// claimsFillScalableInside returns the number of the main job's caption
// that both the README and the gallery quote: how many points the theory
// lies inside the interval at.
func claimsFillScalableInside(t *testing.T, r *experiments.Results) []string {
	yes, all := insideCount(r.Rows)
	return []string{fmt.Sprintf("inside the measured interval at %d of %d points", yes, all)}
}

// claimsFillScalable returns the numbers of the gallery's caption of the
// main job, fill-scalable.
func claimsFillScalable(t *testing.T, r *experiments.Results) []string {
	ratio, lo, hi := pooled(t, r, plots.SeriesNames(r)[0])
	return append(claimsFillScalableInside(t, r),
		fmt.Sprintf("false positives are %.2f times the number it expects (95%% t interval over the %d filters: %.2f to %.2f)", ratio, r.Rows[0].Filters, lo, hi))
}

// claimsFillStandard returns the numbers of the caption of fill-standard, formatted
// from its committed results r as the caption writes them.
func claimsFillStandard(t *testing.T, r *experiments.Results) []string {
	var out []string
	row := r.Rows[0]
	out = append(out, fmt.Sprintf("(m = %s bits, k = %d)", thousands(row.Bits), row.Hashes))
	return out
}

// claimsBitsAll returns the numbers of the caption of bits-all, formatted
// from its committed results r as the caption writes them.
func claimsBitsAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	a := one(t, r, "standard", bpeIs(1))
	b := one(t, r, "standard", bpeIs(32))
	out = append(out, fmt.Sprintf("from %.0f%% at one bit to %s at 32", 100*a.Rate, num(b.Rate, 1)))
	return out
}

// claimsHashesAll returns the numbers of the caption of hashes-all, formatted
// from its committed results r as the caption writes them.
func claimsHashesAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	var best *experiments.Row
	for _, row := range plots.Rows(r, "standard", nil) {
		if best == nil || row.Rate < best.Rate {
			best = row
		}
	}
	out = append(out, fmt.Sprintf("the rate is lowest at k = %d, next to the classic optimum (m/n) ln 2 = %.2f",
		best.Hashes, float64(best.Bits)/float64(best.Items)*math.Ln2))
	return out
}

// claimsBlockingRates returns the rates at 10 and 20 bits per key of
// the blocking figure's caption, which the README and the gallery quote.
func claimsBlockingRates(t *testing.T, r *experiments.Results) []string {
	var at []string
	for _, bpe := range []float64{10, 20} {
		for _, s := range []string{"standard", "blocked B=512", "split-block"} {
			at = append(at, num(one(t, r, s, bpeIs(bpe)).Rate, 2))
		}
	}
	return []string{fmt.Sprintf("At 10 bits per key a standard filter measures %s, a blocked filter with 512-bit blocks %s and the split-block filter %s; at 20 bits %s, %s and %s.", at[0], at[1], at[2], at[3], at[4], at[5])}
}

// claimsBlockingAll returns the numbers of the caption of blocking-all, formatted
// from its committed results r as the caption writes them.
func claimsBlockingAll(t *testing.T, r *experiments.Results) []string {
	out := claimsBlockingRates(t, r)
	outside, points := 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range r.Rows {
		points++
		if row.Inside == "no" {
			outside++
		}
		if row.Target > 0 {
			lo, hi = math.Min(lo, row.Rate/row.Theory), math.Max(hi, row.Rate/row.Theory)
		}
	}
	var boost []string
	for _, s := range []string{"multiblock<uint64_t,K>", "block<uint64_t,K>", "block<uint64_t,K>,1"} {
		for _, bpe := range []float64{10, 20} {
			boost = append(boost, num(one(t, r, s, bpeIs(bpe)).Rate, 2))
		}
	}
	// Panel (d), from theory: the memory of multiblock<uint64_t,K> over
	// the standard filter's.
	var extra []string
	for _, p := range []float64{0.01, 1e-3, 1e-4} {
		sd, err := analysis.StandardSize(penaltyItems, p)
		if err != nil {
			t.Fatal(err)
		}
		l := blockingLayouts["multiblock-64"]
		g, err := variants.MultiblockGeometry(penaltyItems, p, l.params(variants.Geometry{}, variants.Hashing{}))
		if err != nil {
			t.Fatal(err)
		}
		extra = append(extra, fmt.Sprintf("%.2g%%", 100*(float64(g.Bits)/float64(sd.Bits)-1)))
	}
	out = append(out,
		fmt.Sprintf("multiblock<uint64_t,K> (one bit in each of K 64-bit words) measures %s at 10 bits and %s at 20", boost[0], boost[1]),
		fmt.Sprintf("block<uint64_t,K> (K bits in one 64-bit word, the blocked filter with B = 64) %s and %s", boost[2], boost[3]),
		fmt.Sprintf("block<uint64_t,K>,1, %s and %s", boost[4], boost[5]),
		fmt.Sprintf("over the run's %d points the theory is outside the 95%% interval at %d, about the %.0f that chance gives", points, outside, (1-r.Params.Conf)*float64(points)),
		fmt.Sprintf("measure %.2f to %.2f times their theory", lo, hi),
		fmt.Sprintf("multiblock<uint64_t,K> needs %s, %s and %s more", extra[0], extra[1], extra[2]))
	return out
}

// claimsSmallMAll returns the numbers of the caption of small-m-all, formatted
// from its committed results r as the caption writes them.
func claimsSmallMAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	row := r.Rows[0]
	out = append(out, fmt.Sprintf("(classic %.4g, exact %.4g, measured %.4g with interval [%.4g, %.4g] over %d filters)",
		row.Classic, row.Theory, row.Rate, row.Lo, row.Hi, row.Filters))
	return out
}

// claimsHashingAll returns the numbers of the caption of hashing-all, formatted
// from its committed results r as the caption writes them.
func claimsHashingAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	lo, hi := math.Inf(1), math.Inf(-1)
	flo, fhi := math.Inf(1), math.Inf(-1)
	var maxBits uint64
	for _, row := range r.Rows {
		ex := 100 * (row.Rate/row.Theory - 1)
		switch {
		case strings.HasPrefix(row.Series, "xxh3/"), strings.HasPrefix(row.Series, "metro/"):
			lo, hi = math.Min(lo, ex), math.Max(hi, ex)
		case strings.HasPrefix(row.Series, "fnv"):
			flo, fhi = math.Min(flo, ex), math.Max(fhi, ex)
		}
		maxBits = max(maxBits, row.Bits)
	}
	atMax := func(r *experiments.Row) bool { return r.Bits == maxBits }
	x := one(t, r, "xxh3/enhanced-double", atMax)
	md5 := one(t, r, "md5 (Java tutorial)", atMax)
	out = append(out,
		fmt.Sprintf("(from %+.1f%% to %+.1f%%)", lo, hi),
		fmt.Sprintf("by %.0f to %.0f%%", flo, fhi),
		fmt.Sprintf("xxh3 is %.1f times faster per add and %.1f times per query than the MD5 hashing", md5.NsPerAdd/x.NsPerAdd, md5.NsPerQuery/x.NsPerQuery))
	return out
}

// claimsCountingAll returns the numbers of the caption of counting-all, formatted
// from its committed results r as the caption writes them.
func claimsCountingAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	sat := one(t, r, "saturated, width 2", func(row *experiments.Row) bool { return row.Items == r.Params.N })
	var lost *experiments.Row
	for _, row := range plots.Rows(r, countingFalseNegatives, nil) {
		if row.Removals == row.Items {
			lost = row
		}
	}
	if lost == nil {
		t.Fatal("counting: no row with as many removals as members")
	}
	out = append(out,
		fmt.Sprintf("(%.0f%% at capacity)", 100*sat.Rate),
		fmt.Sprintf("%.1f%% of the members test absent", 100*lost.Rate))
	return out
}

// claimsScalableAll returns the numbers of the caption of scalable-all, formatted
// from its committed results r as the caption writes them.
func claimsScalableAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	var top float64
	for _, row := range plots.Rows(r, "scalable r=0.5 s=2", nil) {
		top = math.Max(top, row.Theory)
	}
	ratio, lo, hi := pooled(t, r, "scalable r=0.75 s=2")
	bratio, blo, bhi := pooled(t, r, "scalable r=0.9 s=2 blocked B=512")
	last := func(row *experiments.Row) bool { return row.Items == 1_000_000 }
	bmin, bmax := math.Inf(1), math.Inf(-1)
	var blocked, standard float64
	for _, name := range plots.SeriesNames(r) {
		row := one(t, r, name, last)
		switch {
		case strings.Contains(name, "blocked"):
			blocked = row.BitsPerKey
		case strings.HasPrefix(name, "standard"):
			standard = row.BitsPerKey
		default:
			bmin, bmax = math.Min(bmin, row.BitsPerKey), math.Max(bmax, row.BitsPerKey)
		}
	}
	zeros := 0
	for _, row := range plots.Rows(r, plots.SeriesNames(r)[len(plots.SeriesNames(r))-1], nil) {
		if row.Rate == 0 {
			zeros++
		}
	}
	// Panel (d): an absent query's time at a million items, by growth factor.
	qmin := map[float64]float64{2: math.Inf(1), 4: math.Inf(1)}
	qmax := map[float64]float64{2: math.Inf(-1), 4: math.Inf(-1)}
	var qblocked, qstandard float64
	for _, name := range plots.SeriesNames(r) {
		row := one(t, r, name, last)
		switch {
		case strings.Contains(name, "blocked"):
			qblocked = row.NsPerQuery
		case strings.HasPrefix(name, "standard"):
			qstandard = row.NsPerQuery
		default:
			qmin[row.S], qmax[row.S] = math.Min(qmin[row.S], row.NsPerQuery), math.Max(qmax[row.S], row.NsPerQuery)
		}
	}
	out = append(out,
		fmt.Sprintf("an absent key's query takes %.0f to %.0f ns with s = 2 (%.0f with blocked stages), %.0f to %.0f with s = 4, against %.0f for the standard filter",
			qmin[2], qmax[2], qblocked, qmin[4], qmax[4], qstandard),
		fmt.Sprintf("measures no false positive at %d of its %d checkpoints", zeros, len(plots.Rows(r, plots.SeriesNames(r)[len(plots.SeriesNames(r))-1], nil))),
		fmt.Sprintf("At r = 0.5 the theory reaches %.2f P", top/r.Params.P),
		fmt.Sprintf("measures %.2f times its theory (95%% interval %.2f to %.2f)", ratio, lo, hi),
		fmt.Sprintf("%.2f times it pooled here (%.2f to %.2f, %d filters)", bratio, blo, bhi, r.Params.Filters),
		fmt.Sprintf("the filters use %.0f to %.0f bits per key (%.1f with blocked stages) against %.1f", bmin, bmax, blocked, standard))
	return out
}

// claimsSpeedAll returns the numbers of the caption of speed-all, formatted
// from its committed results r as the caption writes them.
func claimsSpeedAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	at := func(series string, n uint64) *experiments.Row {
		return one(t, r, series, func(row *experiments.Row) bool { return row.Items == n })
	}
	small, large := r.Params.Keys[0], r.Params.Keys[len(r.Params.Keys)-1]
	span := func(names []string, f func(*experiments.Row) float64) string {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, name := range names {
			v := f(at(name, large))
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		return fmt.Sprintf("%.0f to %.0f", lo, hi)
	}
	add := func(row *experiments.Row) float64 { return row.NsPerAdd }
	query := func(row *experiments.Row) float64 { return row.NsPerQuery }
	var caches []string
	for _, c := range r.Caches {
		caches = append(caches, fmt.Sprintf("L%d %s", c.Level, bytesText(c.Bytes)))
	}
	st, sc, sb := at("standard", large), at("scalable", large), at(scalableBlocked, large)
	out = append(out,
		"("+strings.Join(caches, ", ")+", as its system reports them)",
		fmt.Sprintf("With %d keys a standard filter adds in %.0f ns and answers a query for an absent key in %.0f.", small, at("standard", small).NsPerAdd, at("standard", small).NsPerQuery),
		fmt.Sprintf("At %d million keys (%.0f MB) it takes %.0f and %.0f ns;", large/1_000_000, float64(st.Bits)/8e6, st.NsPerAdd, st.NsPerQuery),
		fmt.Sprintf("the scalable filter, which probes every stage, %.0f and %.0f ns, and with blocked stages %.0f and %.0f ns", sc.NsPerAdd, sc.NsPerQuery, sb.NsPerAdd, sb.NsPerQuery),
		fmt.Sprintf("blocked and split-block filters take %s ns per add and %s per query there", span([]string{"blocked", "split-block"}, add), span([]string{"blocked", "split-block"}, query)),
		fmt.Sprintf("batched (dashed), %s and %s ns per key", span([]string{"blocked batched", "split-block batched"}, add), span([]string{"blocked batched", "split-block batched"}, query)),
		fmt.Sprintf("against %.0f ns for one independent random 64-byte load", at(experiments.RandomLines, large).NsPerQuery))
	// Panel (c): the lines a query reads, and how close the prediction is.
	worst := 0.0
	for _, row := range r.Rows {
		if row.LinesPredicted > 0 {
			worst = math.Max(worst, math.Abs(row.LinesAbsent/row.LinesPredicted-1))
		}
	}
	out = append(out,
		fmt.Sprintf("The scalable filter reads %.1f lines at %d keys and %.1f at %d million (%.0f stages", at("scalable", small).LinesAbsent, small, sc.LinesAbsent, large/1_000_000, sc.Stages),
		fmt.Sprintf("it reads exactly one per stage, 1 to %.0f", sb.LinesAbsent),
		fmt.Sprintf("Counted and predicted agree within %.1f%%", math.Ceil(1000*worst)/10))
	return out
}

// claimsSelfAll returns the numbers of the caption of self-all: the
// machine, the range of the ratios, and the ratio of each block size's
// loop form at k = 16 and of the scalable filter at 1M keys.
func claimsSelfAll(t *testing.T, r *experiments.Results) []string {
	lo, hi := math.Inf(1), math.Inf(-1)
	big := []float64{math.Inf(1), math.Inf(-1)}
	for _, row := range r.Rows {
		lo, hi = math.Min(lo, row.AsmRatio), math.Max(hi, row.AsmRatio)
		if strings.Contains(row.Series, "n=1M") {
			big[0], big[1] = math.Min(big[0], row.AsmRatio), math.Max(big[1], row.AsmRatio)
		}
	}
	ratio := func(series string) float64 { return one(t, r, series, nil).AsmRatio }
	return []string{
		r.Machine.String(),
		fmt.Sprintf("from %.2f to %.2f", lo, hi),
		fmt.Sprintf("%.2f and %.2f at k = 16", ratio("blockedTest B=256 k=16 loop (Blocked.ContainsDigest)"), ratio("blockedTest B=512 k=16 loop (Blocked.ContainsDigest)")),
		fmt.Sprintf("%.2f to %.2f at a million keys", big[0], big[1]),
	}
}

// claimsMemoryAll returns the numbers of the caption of memory-all, formatted
// from its committed results r as the caption writes them.
func claimsMemoryAll(t *testing.T, r *experiments.Results) []string {
	var out []string
	perKey := func(series string) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, row := range plots.Rows(r, series, nil) {
			v := row.Bytes / float64(row.Items)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		return lo, hi
	}
	std, _ := perKey("standard")
	bl, _ := perKey("blocked")
	sb, _ := perKey("split-block")
	co, _ := perKey("counting")
	slo, shi := perKey("scalable")
	mlo, mhi := perKey("go map")
	out = append(out,
		fmt.Sprintf("Bytes per key: %.2g for a standard or partitioned filter at 1%%, %.3g for a blocked and %.3g for a split-block filter", std, bl, sb),
		fmt.Sprintf("%.2g for a counting filter", co),
		fmt.Sprintf("%.2g to %.2g for a scalable filter", slo, shi),
		fmt.Sprintf("%.0f to %.0f for a Go map", mlo, mhi))
	return out
}

// claimsCardinalityAll returns the numbers of the caption of cardinality-all, formatted
// from its committed results r as the caption writes them.
func claimsCardinalityAll(t *testing.T, r *experiments.Results) []string {
	var claims []string
	rows := plots.Rows(r, cardinalitySaturation, nil)
	var peak, last *experiments.Row
	for _, row := range rows {
		if peak == nil || row.Bias > peak.Bias {
			peak = row
		}
		last = row
	}
	clear := func(row *experiments.Row) float64 {
		return float64(row.Bits) * (1 - expectedFill(row))
	}
	yes, all := 0, 0
	below, above := math.Inf(1), math.Inf(-1)
	for _, row := range rows {
		all++
		if row.Inside == "yes" {
			yes++
		} else {
			below, above = math.Min(below, 100*(row.Bias-row.Error)), math.Max(above, 100*(row.Bias-row.Error))
		}
	}
	spreads := func(names ...string) string {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, name := range names {
			for _, row := range plots.Rows(r, name, nil) {
				if row.StdError > 0 && row.Spread > 0 {
					lo, hi = math.Min(lo, row.Spread/row.StdError), math.Max(hi, row.Spread/row.StdError)
				}
			}
		}
		return fmt.Sprintf("%.2f to %.2f", lo, hi)
	}
	out, pts := 0, 0
	for _, row := range plots.Rows(r, "standard intersection", nil) {
		pts++
		if row.Inside == "no" {
			out++
		}
	}
	n := r.Params.N
	std := func(series string, keep func(*experiments.Row) bool) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, row := range plots.Rows(r, series, keep) {
			lo, hi = math.Min(lo, 100*row.StdError), math.Max(hi, 100*row.StdError)
		}
		return lo, hi
	}
	items := func(lo, hi uint64) func(*experiments.Row) bool {
		return func(row *experiments.Row) bool { return row.Items >= lo && row.Items <= hi }
	}
	slo, shi := std("standard", items(0, 3*n/10))
	_, atN := std("standard", items(n, n))
	_, at3 := std("standard", items(3*n, 3*n))
	bias := 0.0
	for _, row := range plots.Rows(r, "standard", nil) {
		bias = math.Max(bias, math.Abs(100*row.Bias))
	}
	n0 := plots.Rows(r, "scalable", nil)[0].Capacity
	flo, fhi := std("scalable", items(0, n0))
	_, sharp := std("scalable", items(3*n, 3*n))
	overlap := func(v float64) func(*experiments.Row) bool {
		return func(row *experiments.Row) bool { return math.Abs(row.Overlap-v) < 1e-9 }
	}
	var ilo *experiments.Row
	for _, row := range plots.Rows(r, "standard intersection", nil) {
		if ilo == nil || row.StdError < ilo.StdError {
			ilo = row
		}
	}
	u0, _ := std("standard union", overlap(0))
	u1, _ := std("standard union", overlap(1))
	i0, _ := std("standard intersection", overlap(0))
	claims = append(claims,
		fmt.Sprintf("error is %.2f to %.2f%% from 1%% to 30%% of capacity, %.2f%% at capacity and %.2f%% at three times; the predicted bias is at most %.4f%%", slo, shi, atN, at3, bias),
		fmt.Sprintf("noisiest while its first stage fills, %.2f to %.2f%%, and sharpest at %s keys, %.2f%%", flo, fhi, thousands(3*n), sharp),
		fmt.Sprintf("the union's standard error falls from %.2f%% of n at no overlap to %.2f%% at full overlap, the intersection's from %.2f%% to %.2f%% at %.0f%%",
			u0, u1, i0, 100*ilo.StdError, 100*ilo.Overlap),
		fmt.Sprintf("The measured spread is %s times the predicted standard error for the standard, partitioned, counting (non-zero counters) and scalable filters",
			spreads("standard", "partitioned", "counting (non-zero counters)", "scalable")),
		fmt.Sprintf("measured spreads are %s times the prediction", spreads("standard union", "standard intersection", "partitioned union",
			"partitioned intersection", "counting union", "counting intersection")),
		fmt.Sprintf("outside the interval at %d of %d points", out, pts),
		fmt.Sprintf("%+.1f%% measured (%+.1f%% predicted) with %.0f clear bits expected", 100*peak.Error, 100*peak.Bias, clear(peak)),
		fmt.Sprintf("%+.1f%% (%+.1f%%) with %.0f", 100*last.Error, 100*last.Bias, clear(last)),
		fmt.Sprintf("%d of %d with one clear bit expected, %.0f predicted", last.Saturated, last.Filters, last.PSaturated*float64(last.Filters)),
		fmt.Sprintf("exact prediction lies inside the measured interval at %d of %d points", yes, all),
		fmt.Sprintf("where the measured mean is %.1f to %.1f percentage points below it", below, above))
	return claims
}

// growthClaims returns the numbers of the growth figure's caption,
// formatted from its committed results r.
func growthClaims(t *testing.T, r *experiments.Results) []string {
	final := uint64(math.Round(float64(r.Params.N) * r.Params.Span))
	last := func(row *experiments.Row) bool { return row.Items == final }
	rate := func(d string) *experiments.Row { return one(t, r, d, last) }
	timed := func(d string) *experiments.Row { return one(t, r, d+growthTimed, last) }
	std := rate(growthStandard)
	times := func(d string) string {
		x, s := timed(d), timed(growthStandard)
		return fmt.Sprintf("%.0f and %.0f ns (%.1f and %.1f times the standard filter's)", x.NsPerAdd, x.NsPerQuery, x.NsPerAdd/s.NsPerAdd, x.NsPerQuery/s.NsPerQuery)
	}
	pct := func(row *experiments.Row) string {
		return fmt.Sprintf("%.3g%% [%.3g%%, %.3g%%]", 100*row.Rate, 100*row.Lo, 100*row.Hi)
	}
	var inside []string
	for _, d := range growthDesigns {
		yes, all := 0, 0
		for _, row := range plots.Rows(r, d, nil) {
			if row.Inside == "yes" {
				yes++
			}
			all++
		}
		inside = append(inside, fmt.Sprintf("%d/%d", yes, all))
	}
	dyn := func(n uint64) *experiments.Row {
		return one(t, r, growthDynamic, func(row *experiments.Row) bool { return row.Items == n })
	}
	redis, pow2 := rate(growthRedis), rate(growthRedisPow2)
	rr, rlo, rhi := pooled(t, r, growthRedis)
	pr, plo, phi := pooled(t, r, growthRedisPow2)
	a, b := rate(growthAlmeida), rate(growthAlmeidaBlocked)
	taffy, hx, h2, h10, hs := rate(growthTaffy), rate(growthHorizonExact), rate(growthHorizon2x), rate(growthHorizon10x), rate(growthHorizon10xSpread)
	tr, tlo, thi := pooled(t, r, growthTaffy)
	xr, xlo, xhi := pooled(t, r, growthHorizonExact)
	lines := func(d string) string {
		x := timed(d)
		return fmt.Sprintf("%.0f ns and %.2f lines", x.NsPerQuery, x.LinesAbsent)
	}
	// The power-of-two chain's false positives over independent probes.
	var ir, ilo, ihi float64
	excess := regexp.MustCompile(`^` + regexp.QuoteMeta(growthRedisPow2) + `, pooled over its \d+ points: the filters' false positives are ([0-9.e-]+) times the number independent probes .*?: ([0-9.e-]+) to ([0-9.e-]+)\)`)
	found := false
	for _, n := range r.Notes {
		if m := excess.FindStringSubmatch(n); m != nil {
			ir, _ = strconv.ParseFloat(m[1], 64)
			ilo, _ = strconv.ParseFloat(m[2], 64)
			ihi, _ = strconv.ParseFloat(m[3], 64)
			found = true
		}
	}
	if !found {
		t.Fatalf("growth-all: no note on %s over independent probes", growthRedisPow2)
	}
	return []string{
		fmt.Sprintf("%d filters per design, %d checkpoints", r.Params.Filters, len(plots.Rows(r, growthStandard, nil))),
		fmt.Sprintf("theory inside the measured interval at %s points", strings.Join(inside, ", ")),
		fmt.Sprintf("Almeida's filter ends at %s (theory %.3g%%) with %.2f bits per key, %.2f times the %.2f of the standard filter sized in advance; with blocked stages %s and %.2f bits (%.2f times)",
			pct(a), 100*a.Theory, a.BitsPerKey, a.BitsPerKey/std.BitsPerKey, std.BitsPerKey, pct(b), b.BitsPerKey, b.BitsPerKey/std.BitsPerKey),
		fmt.Sprintf("RedisBloom's chain ends at %s with %.0f links and %.2f bits per key (%.2f times); with power-of-two tables %s, %.0f links, %.2f bits",
			pct(redis), redis.Stages, redis.BitsPerKey, redis.BitsPerKey/std.BitsPerKey, pct(pow2), pow2.Stages, pow2.BitsPerKey),
		fmt.Sprintf("%.3f (%.3f to %.3f) and %.3f (%.3f to %.3f) times",
			rr, rlo, rhi, pr, plo, phi),
		fmt.Sprintf("%.3f (%.3f to %.3f) times the independent-probe theory's", ir, ilo, ihi),
		fmt.Sprintf("%.2f bits per key at the end, and its rate is %.3g%% at %s keys, %.3g%% at %s and %.4g%% at %s (%.0f stages)",
			dyn(final).BitsPerKey, 100*dyn(10*r.Params.N).Rate, thousands(10*r.Params.N), 100*dyn(100*r.Params.N).Rate, thousands(100*r.Params.N), 100*dyn(final).Rate, thousands(final), dyn(final).Stages),
		fmt.Sprintf("the standard filter takes %.0f ns per add and %.0f per absent query", timed(growthStandard).NsPerAdd, timed(growthStandard).NsPerQuery),
		fmt.Sprintf("Almeida's %s, with blocked stages %s, RedisBloom's %s, with power-of-two tables %s, and the dynamic filter's %s",
			times(growthAlmeida), times(growthAlmeidaBlocked), times(growthRedis), times(growthRedisPow2), times(growthDynamic)),
		// The second family: Taffy's schedule and the horizon-aware filter.
		fmt.Sprintf("Taffy's chain ends at %s (theory %.3g%%) with %.0f stages and %.2f bits per key (%.2f times), pooled %.3f (%.3f to %.3f) times its theory",
			pct(taffy), 100*taffy.Theory, taffy.Stages, taffy.BitsPerKey, taffy.BitsPerKey/std.BitsPerKey, tr, tlo, thi),
		fmt.Sprintf("told the final count exactly it ends at %s (theory %.3g%%) with %.2f bits per key (%.2f times), pooled %.3f (%.3f to %.3f) times its theory",
			pct(hx), 100*hx.Theory, hx.BitsPerKey, hx.BitsPerKey/std.BitsPerKey, xr, xlo, xhi),
		fmt.Sprintf("2x low %s with %.2f bits; 10x low %s with %.2f bits; 10x low with Spread 10 %s with %.2f bits",
			pct(h2), h2.BitsPerKey, pct(h10), h10.BitsPerKey, pct(hs), hs.BitsPerKey),
		fmt.Sprintf("Almeida's %s, with blocked stages %s, RedisBloom's %s (power-of-two tables %s), the dynamic filter's %s and the standard filter's %s",
			lines(growthAlmeida), lines(growthAlmeidaBlocked), lines(growthRedis), lines(growthRedisPow2), lines(growthDynamic), lines(growthStandard)),
		fmt.Sprintf("Taffy's chain %s; the horizon-aware filter %s told the count exactly, %s 2x low, %s 10x low and %s with Spread 10",
			lines(growthTaffy), lines(growthHorizonExact), lines(growthHorizon2x), lines(growthHorizon10x), lines(growthHorizon10xSpread)),
	}
}

func expectedFill(r *experiments.Row) float64 {
	return analysis.ExpectedFill(r.Bits, r.Items, r.Hashes)
}

// num writes x as the README does: %.*g, and below 0.001 as 7.1e-5.
func num(x float64, sig int) string {
	if x >= 1e-3 || x == 0 {
		return strconv.FormatFloat(x, 'g', sig, 64)
	}
	m, e, _ := strings.Cut(strconv.FormatFloat(x, 'e', sig-1, 64), "e")
	n, _ := strconv.Atoi(e)
	return fmt.Sprintf("%se%d", m, n)
}

// claimsAdversaryAll returns the numbers of the caption of adversary-all:
// the standard filter's rate and theory at every T, the bound (n k/m)^k,
// the other variants at the largest T, and the keyed filters' rates over
// their theory.
func claimsAdversaryAll(t *testing.T, r *experiments.Results) []string {
	chosen := func(v string) []*experiments.Row {
		return plots.Rows(r, v+": "+attackChosen, nil)
	}
	std := chosen("standard")
	if len(std) < 2 {
		t.Fatal("adversary: fewer than two chosen rows for standard")
	}
	var ts, rates, theories []string
	for _, row := range std {
		ts = append(ts, strconv.FormatUint(row.Candidates, 10))
		rates = append(rates, fmt.Sprintf("%.4g", row.Rate))
		theories = append(theories, fmt.Sprintf("%.4g", row.Theory))
	}
	and := func(xs []string) string { return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1] }
	last := func(v string) *experiments.Row { rows := chosen(v); return rows[len(rows)-1] }
	top := std[len(std)-1]
	rnd := one(t, r, "scalable: "+attackRandom, nil)
	var keyed []string
	for _, v := range adversaryVariants {
		ky := one(t, r, v+": "+attackChosenKeyed, nil)
		keyed = append(keyed, fmt.Sprintf("%.2f", ky.Rate/ky.Theory))
	}
	return []string{
		fmt.Sprintf("(m = %s, k = %d)", thousands(top.Bits), top.Hashes),
		fmt.Sprintf("measured %s at T = %s against %s", and(rates), and(ts), and(theories)),
		fmt.Sprintf("(n k/m)^k = %.4g", analysis.PollutionBound(top.Bits, top.Items, top.Hashes)),
		fmt.Sprintf("At T = %d a partitioned filter reaches %.4g, a blocked one %.4g", top.Candidates, last("partitioned").Rate, last("blocked").Rate),
		fmt.Sprintf("a scalable one %.4g, %.1f times its random-key rate of %.3g", last("scalable").Rate, last("scalable").Rate/rnd.Rate, rnd.Rate),
		fmt.Sprintf("gets %s times the theory", and(keyed)),
	}
}
