package catalog

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
)

// windowClaims returns the numbers of the window figure's caption,
// formatted from the committed results r as the README writes them.
func windowClaims(t *testing.T, r *experiments.Results) []string {
	caption, _ := windowNumbers(t, r)
	return caption
}

// windowNumbers returns the caption's claims and the bare lists of
// numbers (one per target) that paper-notes §14 quotes too.
func windowNumbers(t *testing.T, r *experiments.Results) (caption, lists []string) {
	t.Helper()
	var targets []float64
	series := map[string]map[float64]string{} // kind, target -> series
	for _, row := range r.Rows {
		if row.AgeEnd > 0 || row.Target == 0 {
			continue
		}
		if series[row.Variant] == nil {
			series[row.Variant] = map[float64]string{}
		}
		if _, ok := series[row.Variant][row.Target]; !ok {
			series[row.Variant][row.Target] = row.Series
			if row.Variant == "age-partitioned" {
				targets = append(targets, row.Target)
			}
		}
	}
	window := float64(r.Rows[0].Capacity)
	list := func(kind string, f func(series string) string) string {
		var s []string
		for _, p := range targets {
			s = append(s, f(series[kind][p]))
		}
		return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
	}
	ratio := func(series string) string {
		x, _, _ := pooled(t, r, series)
		return fmt.Sprintf("%.4g", x)
	}
	bits := func(series string) string {
		return fmt.Sprintf("%.2f", float64(plots.Rows(r, series, nil)[0].Bits)/window)
	}
	geom := func(series string) string {
		for _, n := range r.Notes {
			if strings.HasPrefix(n, series+": k = ") {
				var k, l, g int
				fmt.Sscanf(strings.TrimPrefix(n, series+": "), "k = %d, l = %d, g = %d", &k, &l, &g)
				return fmt.Sprintf("(k = %d, l = %d, g = %d)", k, l, g)
			}
		}
		t.Fatalf("no geometry note for %s", series)
		return ""
	}
	slice := func(series string) string {
		// "age-partitioned k=K l=L p=P": the geometry is in the notes.
		for _, n := range r.Notes {
			if strings.HasPrefix(n, series+": k = ") {
				var k, l, g, b int
				fmt.Sscanf(strings.TrimPrefix(n, series+": "), "k = %d, l = %d, g = %d, %d-bit slices", &k, &l, &g, &b)
				return fmt.Sprintf("%d", b)
			}
		}
		t.Fatalf("no geometry note for %s", series)
		return ""
	}
	var missed, checked uint64
	for _, row := range r.Rows {
		missed += row.FalseNegatives
		checked += row.Members * uint64(row.Filters)
	}
	top := targets[0]
	saw := plots.Rows(r, series["age-partitioned"][top], func(row *experiments.Row) bool { return row.AgeEnd == 0 })
	saw = saw[len(saw)-33:]
	low := math.Inf(1)
	for _, row := range saw {
		low = math.Min(low, row.Theory)
	}
	var worst, mean, formula float64
	for _, n := range r.Notes {
		if strings.HasPrefix(n, series["age-partitioned"][top]+": k = ") {
			i := strings.Index(n, "worst ")
			fmt.Sscanf(n[i:], "worst %g, mean %g; the implementations' one-number formula %g", &worst, &mean, &formula)
		}
	}
	lists = []string{
		list("age-partitioned", ratio), list("age-partitioned", bits), list("age-partitioned-blocked", bits),
		list("alternating", bits), list("double-hashed", ratio), list("age-partitioned-blocked", ratio),
	}
	return []string{
		fmt.Sprintf("%d of the %s checks of an item of the window found it absent", missed, thousands(checked)),
		fmt.Sprintf("its false positives are %s times what its exact theory expects", list("age-partitioned", ratio)),
		fmt.Sprintf("age-partitioned filter %s bits per key of the window", list("age-partitioned", bits)),
		fmt.Sprintf("blocked layout %s", list("age-partitioned-blocked", bits)),
		fmt.Sprintf("two standard filters used alternately %s", list("alternating", bits)),
		fmt.Sprintf("one filter cleared at twice the window %s", list("cleared", bits)),
		fmt.Sprintf("%s times the theory of independent slices (%s-bit slices)", list("double-hashed", ratio), list("age-partitioned", slice)),
		fmt.Sprintf("the blocked layout's false positives are %s times its estimated rate", list("age-partitioned-blocked", ratio)),
		"At 1%, the age-partitioned filter " + geom(series["age-partitioned"][0.01]),
		"The sawtooth at 0.1 " + geom(series["age-partitioned"][top]),
		fmt.Sprintf("from %.4g just after a shift to %.4g just before one (mean %.4g); the one-number formula of the implementations says %.4g",
			low, worst, mean, formula),
	}, lists
}

// TestWindowCaption checks the lists of numbers of the window figure that
// paper-notes §14 quotes too; TestCaptionNumbers checks its caption.
func TestWindowCaption(t *testing.T) {
	r := committed(t)["window-all"]
	if r == nil {
		t.Skip("no committed window results")
	}
	_, lists := windowNumbers(t, r)
	checkClaims(t, "../../paper-notes.md", lists)
}
