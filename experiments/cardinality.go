package experiments

import (
	"fmt"
	"math"
	"strconv"

	"github.com/bloomlab/bloomlab/stats"
)

// CardinalityRow holds the columns of a row of the cardinality experiment,
// which measures the error of count estimates rather than a rate: the
// plan-time prediction and the aggregates of the filters' errors. [Row]
// embeds it; it is zero in the other experiments' rows.
type CardinalityRow struct {
	// Estimate names what the row estimates: "items" for a filter's own
	// count, "union" or "intersection" for the sets of two filters.
	Estimate string `json:"estimate,omitempty"`
	// Overlap is the fraction of the keys of each of the two sets that
	// both hold (union and intersection rows).
	Overlap float64 `json:"overlap,omitempty"`
	// Scale is what the errors are divided by: the items inserted for a
	// filter's own count (so that errors are relative), the items of
	// each set for a union or intersection (whose true size may be 0).
	Scale float64 `json:"scale,omitempty"`
	// Bias and StdError are the predicted mean and standard deviation of
	// an estimate's error, divided by Scale; Model names their source.
	// PSaturated is the predicted probability that an estimate is +Inf.
	Bias       float64 `json:"bias,omitempty"`
	StdError   float64 `json:"std_error,omitempty"`
	PSaturated float64 `json:"p_saturated,omitempty"`
	// Error is the mean over the filters of the error divided by Scale,
	// ErrorLo and ErrorHi its Student t interval at level [Params.Conf].
	Error   float64 `json:"error,omitempty"`
	ErrorLo float64 `json:"error_lo,omitempty"`
	ErrorHi float64 `json:"error_hi,omitempty"`
	// Spread is the standard deviation of the errors over the filters,
	// SpreadLo and SpreadHi its interval at level [Params.Conf]
	// ([stats.Moments.StdDevInterval]).
	Spread   float64 `json:"spread,omitempty"`
	SpreadLo float64 `json:"spread_lo,omitempty"`
	SpreadHi float64 `json:"spread_hi,omitempty"`
	// RMSE is the root mean square of the errors.
	RMSE float64 `json:"rmse,omitempty"`
	// Saturated is the number of filters whose estimate was infinite
	// (every cell set), left out of the columns above.
	Saturated int `json:"saturated,omitempty"`
}

// template returns c without its aggregates.
func (c CardinalityRow) template() CardinalityRow {
	c.Error, c.ErrorLo, c.ErrorHi, c.Spread, c.SpreadLo, c.SpreadHi, c.RMSE, c.Saturated = 0, 0, 0, 0, 0, 0, 0, 0
	return c
}

// aggregateErrors computes the cardinality aggregates of a row from its
// trials: the mean error and its t interval, the spread and its interval,
// the RMSE, over the filters whose estimate was finite. The row's Inside
// is "yes" when the predicted bias lies inside the mean's interval and the
// predicted standard error inside the spread's.
func (r *Row) aggregateErrors(conf float64) error {
	var errs []float64
	r.Saturated = 0
	for _, t := range r.Trials {
		if t.Saturated {
			r.Saturated++
			continue
		}
		errs = append(errs, t.Error)
	}
	c := &r.CardinalityRow
	c.Error, c.ErrorLo, c.ErrorHi, c.Spread, c.SpreadLo, c.SpreadHi, c.RMSE = 0, 0, 0, 0, 0, 0, 0
	r.Inside = ""
	if len(errs) < 2 {
		return nil
	}
	mo, err := stats.SampleMoments(errs)
	if err != nil {
		return fmt.Errorf("experiments: %s items %d: %w", r.Series, r.Items, err)
	}
	mean, lo, hi, err := tInterval(errs, conf)
	if err != nil {
		return fmt.Errorf("experiments: %s items %d: %w", r.Series, r.Items, err)
	}
	spread, err := mo.StdDevInterval(conf)
	if err != nil {
		return err
	}
	nf := float64(mo.N)
	c.Error, c.ErrorLo, c.ErrorHi = mean, lo, hi
	c.Spread, c.SpreadLo, c.SpreadHi = mo.StdDev(), spread.Lo, spread.Hi
	c.RMSE = math.Sqrt(mean*mean + mo.Variance*(nf-1)/nf)
	if r.Model != "" {
		r.Inside = "no"
		if lo <= c.Bias && c.Bias <= hi && spread.Lo <= c.StdError && c.StdError <= spread.Hi {
			r.Inside = "yes"
		}
	}
	return nil
}

// errorCell formats a cardinality column: "0" for a measured zero, "" in
// the other experiments' rows.
func errorCell(r *Row, x float64) string {
	if r.Scale == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// overlapCell formats the overlap of a union or intersection row.
func overlapCell(r *Row) string {
	if r.Estimate != EstimateUnion && r.Estimate != EstimateIntersection {
		return ""
	}
	return strconv.FormatFloat(r.Overlap, 'g', -1, 64)
}

// The values of [CardinalityRow.Estimate].
const (
	EstimateItems        = "items"
	EstimateUnion        = "union"
	EstimateIntersection = "intersection"
)
