package catalog

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/stats"
)

// TestCardinalityAgainstTheory runs the cardinality experiment at a small
// size and checks every row against its prediction with the raw trials:
// mean error within 4.5 standard errors of the predicted bias, variance
// within 4.5 standard errors of the predicted one, saturated estimates
// within 4 standard errors of their predicted number. With 142 rows, 4.5
// rather than 4 standard errors keeps the chance of a false alarm in the
// whole run below 0.1%. A wrong truth (the overlap of the two sets, the
// keys a scalable filter skips) or scale would move the means by many
// standard errors.
func TestCardinalityAgainstTheory(t *testing.T) {
	p := experiments.Params{N: 1000, Filters: 300}
	if testing.Short() {
		p = experiments.Params{N: 300, Filters: 100}
	}
	r := mustRun(t, "cardinality", "all", p, experiments.Options{Seed: 14})
	if len(r.Rows) != 5*13+6*11+11 {
		t.Fatalf("%d rows", len(r.Rows))
	}
	checkCardinalityRows(t, r, p)
}

// checkCardinalityRows checks every row of a cardinality run of
// parameters p against its prediction, as TestCardinalityAgainstTheory
// says.
func checkCardinalityRows(t *testing.T, r *experiments.Results, p experiments.Params) {
	t.Helper()
	for _, row := range r.Rows {
		var errs []float64
		for _, tr := range row.Trials {
			if !tr.Saturated {
				errs = append(errs, tr.Error)
			}
		}
		mo, err := stats.SampleMoments(errs)
		if err != nil {
			t.Fatal(err)
		}
		what := row.Series + " items " + strconv.FormatUint(row.Items, 10)
		if want := row.PSaturated * float64(row.Filters); math.Abs(float64(row.Saturated)-want) > 4*math.Sqrt(want)+1 {
			t.Errorf("%s: %d saturated estimates, predicted %.3g", what, row.Saturated, want)
		}
		if row.Model == "counter sum" {
			if row.Items <= p.N && (mo.Mean != 0 || mo.Variance != 0) {
				t.Errorf("%s: exact count off: %+v", what, mo)
			}
			continue
		}
		if math.Abs(mo.Mean-row.Bias) > 4.5*mo.MeanSE {
			t.Errorf("%s: mean error %.4g, predicted %.4g (%.1f standard errors)", what, mo.Mean, row.Bias, (mo.Mean-row.Bias)/mo.MeanSE)
		}
		if v := row.StdError * row.StdError; math.Abs(mo.Variance-v) > 4.5*mo.VarianceSE+1e-18 {
			t.Errorf("%s: spread %.4g, predicted %.4g", what, mo.StdDev(), row.StdError)
		}
		// The aggregates are those of the trials.
		if !near(row.Error, mo.Mean) || !near(row.Spread, mo.StdDev()) || row.Scale <= 0 ||
			!(row.ErrorLo <= row.Error && row.Error <= row.ErrorHi && row.SpreadLo <= row.Spread && row.Spread <= row.SpreadHi) {
			t.Errorf("%s: aggregates %+v, trials' moments %+v", what, row.CardinalityRow, mo)
		}
		if rmse := math.Sqrt(mo.Mean*mo.Mean + mo.Variance*float64(mo.N-1)/float64(mo.N)); !near(row.RMSE, rmse) {
			t.Errorf("%s: RMSE %v, want %v", what, row.RMSE, rmse)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestCardinalitySaturated runs filters small enough to saturate: the
// infinite estimates are counted and left out, never written as numbers,
// and the results still encode as JSON.
func TestCardinalitySaturated(t *testing.T) {
	r := mustRun(t, "cardinality", "standard", experiments.Params{N: 4, P: 0.1, Filters: 200}, experiments.Options{Seed: 1})
	saturated := 0
	for _, row := range r.Rows {
		n := 0
		for _, tr := range row.Trials {
			if tr.Saturated {
				n++
				if tr.Error != 0 {
					t.Errorf("%s: saturated trial with error %v", row.Series, tr.Error)
				}
			}
		}
		if n != row.Saturated {
			t.Errorf("%s items %d: Saturated %d, trials say %d", row.Series, row.Items, row.Saturated, n)
		}
		saturated += n
	}
	if saturated == 0 {
		t.Fatal("no filter saturated; the test needs smaller filters")
	}
	back, err := experiments.ReadJSON(bytes.NewReader(jsonOf(t, r)))
	if err != nil || !bytes.Equal(jsonOf(t, back), jsonOf(t, r)) {
		t.Errorf("JSON round trip: %v", err)
	}
	found := false
	for _, n := range r.Notes {
		found = found || bytes.Contains([]byte(n), []byte("saturated estimates (+Inf) left out"))
	}
	if !found {
		t.Errorf("no note on the saturated estimates: %q", r.Notes)
	}
}
