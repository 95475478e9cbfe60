package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/internal/units"
)

// col is one column of the printed table.
type col struct {
	head string
	get  func(r *experiments.Row) string
}

func g4(x float64) string {
	if x == 0 {
		return "0"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func ns(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// lines formats lines per query, "" for none.
func lines(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

var (
	colSeries     = col{"series", func(r *experiments.Row) string { return r.Series }}
	colItems      = col{"items", func(r *experiments.Row) string { return strconv.FormatUint(r.Items, 10) }}
	colBits       = col{"m (bits)", func(r *experiments.Row) string { return strconv.FormatUint(r.Bits, 10) }}
	colK          = col{"k", func(r *experiments.Row) string { return strconv.Itoa(r.Hashes) }}
	colBitsPerKey = col{"bits per key", func(r *experiments.Row) string { return strconv.FormatFloat(r.BitsPerKey, 'f', 2, 64) }}
	colQueries    = col{"queries", func(r *experiments.Row) string { return strconv.FormatUint(r.Queries, 10) }}
	colMeasured   = col{"measured rate [interval]", func(r *experiments.Row) string {
		return fmt.Sprintf("%s [%s, %s]", g4(r.Rate), g4(r.Lo), g4(r.Hi))
	}}
	colTheory  = col{"theory", func(r *experiments.Row) string { return g4(r.Theory) }}
	colClassic = col{"classic", func(r *experiments.Row) string { return g4(r.Classic) }}
	colTarget  = col{"target", func(r *experiments.Row) string { return g4(r.Target) }}
	colInside  = col{"theory inside", func(r *experiments.Row) string { return r.Inside }}
	colStages  = col{"stages", func(r *experiments.Row) string {
		if r.Stages == 0 {
			return "-" // one table, not a growing filter
		}
		return units.FormatMean(r.Stages)
	}}
	colAdd   = col{"ns/add", func(r *experiments.Row) string { return ns(r.NsPerAdd) }}
	colQuery = col{"ns/query", func(r *experiments.Row) string { return ns(r.NsPerQuery) }}
	// colFalseNegatives is printed when some row has a false negative.
	colFalseNegatives = col{"FALSE NEGATIVES", func(r *experiments.Row) string {
		return fmt.Sprintf("%d of %d", r.FalseNegatives, r.Members*uint64(r.Filters))
	}}
)

// tableColumns returns the columns printed for res.
func tableColumns(res *experiments.Results) []col {
	switch res.Experiment {
	case "fill":
		if res.Variant == "scalable" {
			cs := []col{colItems, colStages, colBitsPerKey, colMeasured, colTheory, colTarget, colInside}
			if len(seriesNames(res)) > 1 {
				cs = append([]col{colSeries}, cs...)
			}
			return cs
		}
		if res.Params.M != 0 || res.Params.K != 0 {
			return []col{colItems, colMeasured, colTheory, colClassic, colInside} // a geometry given has no target
		}
		return []col{colItems, colMeasured, colTheory, colClassic, colTarget, colInside}
	case "bits":
		return []col{colSeries, colBitsPerKey, colK, colQueries, colMeasured, colTheory, colClassic, colInside}
	case "hashes":
		return []col{colSeries, colK, colMeasured, colTheory, colClassic, colInside}
	case "small-m":
		return []col{colBits, colItems, colK, colMeasured, col{"exact", colTheory.get}, colClassic,
			col{"exact inside", colInside.get},
			col{"classic inside", func(r *experiments.Row) string {
				if r.Lo <= r.Classic && r.Classic <= r.Hi {
					return "yes"
				}
				return "no"
			}}}
	case "hashing":
		return []col{colSeries, colBits, colK, colMeasured, col{"exact", colTheory.get},
			col{"excess", func(r *experiments.Row) string {
				return fmt.Sprintf("%+.1f%%", 100*(r.Rate/r.Theory-1))
			}}, colInside, colAdd, colQuery}
	case "scalable":
		return []col{colSeries, colItems, colStages, colBitsPerKey, colMeasured, colTheory, colInside, colQuery}
	case "memory":
		return []col{colSeries, col{"keys", colItems.get},
			col{"bytes", func(r *experiments.Row) string { return strconv.FormatFloat(r.Bytes, 'f', 0, 64) }},
			col{"bytes/key", func(r *experiments.Row) string { return strconv.FormatFloat(r.Bytes/float64(r.Items), 'f', 2, 64) }},
			col{"optimal bytes", func(r *experiments.Row) string {
				if r.Theory == 0 {
					return ""
				}
				return strconv.FormatFloat(r.Theory, 'f', 0, 64)
			}}}
	case "speed":
		return []col{colSeries, col{"keys", colItems.get},
			col{"bytes", func(r *experiments.Row) string { return strconv.FormatUint((r.Bits+7)/8, 10) }},
			colAdd, colQuery, col{"measured rate", func(r *experiments.Row) string { return g4(r.Rate) }},
			col{"lines absent", func(r *experiments.Row) string { return lines(r.LinesAbsent) }},
			col{"predicted", func(r *experiments.Row) string { return lines(r.LinesPredicted) }},
			col{"lines present", func(r *experiments.Row) string { return lines(r.LinesPresent) }}}
	case "self":
		verdict := func(r *experiments.Row) string {
			switch {
			case r.AsmRatio > 1:
				return "WARNING: assembly slower"
			case r.AsmRatio > 0.8:
				return "gains little"
			}
			return ""
		}
		nsOr := func(x float64) string {
			if x == 0 {
				return ""
			}
			return ns(x)
		}
		return []col{colSeries, col{"keys", colItems.get},
			col{"bytes", func(r *experiments.Row) string { return strconv.FormatUint((r.Bits+7)/8, 10) }},
			col{"ns asm", func(r *experiments.Row) string { return nsOr(r.NsAssembly) }},
			col{"ns go", func(r *experiments.Row) string { return nsOr(r.NsPureGo) }},
			col{"asm/go", func(r *experiments.Row) string {
				if r.AsmRatio == 0 {
					return ""
				}
				return strconv.FormatFloat(r.AsmRatio, 'f', 2, 64)
			}},
			col{"", verdict}}
	case "blocking":
		// The sweep's rows differ in memory, the sized rows in n and p.
		return []col{colSeries, colItems,
			col{"bits per key", func(r *experiments.Row) string {
				return strconv.FormatFloat(float64(r.Bits)/float64(r.Items), 'f', 2, 64)
			}},
			colK,
			col{"sized for p", func(r *experiments.Row) string {
				if r.Target == 0 {
					return ""
				}
				return g4(r.Target)
			}},
			colMeasured, colTheory, colInside}
	case "window":
		// Rate rows: position, bits per key of the guaranteed window,
		// the rate; recall rows: the ages instead of the position.
		rateOnly := func(f func(*experiments.Row) string) func(*experiments.Row) string {
			return func(r *experiments.Row) string {
				if r.AgeEnd > 0 {
					return ""
				}
				return f(r)
			}
		}
		return []col{colSeries,
			col{"adds", rateOnly(colItems.get)},
			col{"ages", func(r *experiments.Row) string {
				if r.AgeEnd == 0 {
					return ""
				}
				return fmt.Sprintf("%d-%d", r.Age, r.AgeEnd-1)
			}},
			col{"window", func(r *experiments.Row) string { return strconv.FormatUint(r.Window, 10) }},
			col{"bits per key of the window", rateOnly(colBitsPerKey.get)},
			col{"measured [interval]", colMeasured.get}, colTheory, colInside,
			col{"ns/add", rateOnly(func(r *experiments.Row) string { return ns(r.NsPerAdd) })},
			col{"ns/query", rateOnly(func(r *experiments.Row) string { return ns(r.NsPerQuery) })}}
	case "counting":
		return countingColumns()
	case "cardinality":
		return cardinalityColumns()
	case "growth":
		// Rate rows and time rows share the table; each leaves the
		// other's columns blank. The time rows are those that carry
		// times: the rate rows of the growth experiment carry none.
		rate := func(f func(*experiments.Row) string) func(*experiments.Row) string {
			return func(r *experiments.Row) string {
				if r.NsPerAdd > 0 {
					return ""
				}
				return f(r)
			}
		}
		nsOr := func(f func(*experiments.Row) float64) func(*experiments.Row) string {
			return func(r *experiments.Row) string {
				if f(r) == 0 {
					return ""
				}
				return ns(f(r))
			}
		}
		return []col{colSeries, colItems,
			col{"stages", rate(colStages.get)}, col{"bits per key", rate(colBitsPerKey.get)},
			col{"measured rate [interval]", rate(colMeasured.get)}, col{"theory", rate(colTheory.get)},
			col{"target", rate(colTarget.get)}, col{"theory inside", rate(colInside.get)},
			col{"ns/add", nsOr(func(r *experiments.Row) float64 { return r.NsPerAdd })},
			col{"ns/query absent", nsOr(func(r *experiments.Row) float64 { return r.NsPerQuery })},
			col{"ns/query present", nsOr(func(r *experiments.Row) float64 { return r.NsPerPresent })}}
	case "adversary":
		blank := func(f func(*experiments.Row) string) func(*experiments.Row) string {
			return func(r *experiments.Row) string {
				if r.Removals == 0 {
					return ""
				}
				return f(r)
			}
		}
		return []col{colSeries, colItems,
			col{"T", func(r *experiments.Row) string {
				if r.Candidates == 0 {
					return ""
				}
				return strconv.FormatUint(r.Candidates, 10)
			}},
			colQueries,
			col{"removals", blank(func(r *experiments.Row) string { return strconv.FormatUint(r.Removals, 10) })},
			colMeasured,
			col{"theory", func(r *experiments.Row) string {
				if r.Theory == 0 {
					return ""
				}
				return g4(r.Theory)
			}},
			colInside,
			col{"removed", blank(func(r *experiments.Row) string { return strconv.FormatFloat(r.Removed, 'f', 1, 64) })}}
	}
	return []col{colSeries, colItems, colMeasured, colTheory, colInside}
}

func seriesNames(res *experiments.Results) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range res.Rows {
		if !seen[r.Series] {
			seen[r.Series] = true
			names = append(names, r.Series)
		}
	}
	return names
}

// printTable prints res's rows as an aligned table.
func printTable(w io.Writer, res *experiments.Results) {
	cols := tableColumns(res)
	for i := range res.Rows {
		if res.Rows[i].FalseNegatives > 0 {
			cols = append(cols, colFalseNegatives)
			break
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	fmt.Fprintln(tw, strings.Join(heads, "\t"))
	cells := make([]string, len(cols))
	for i := range res.Rows {
		for j, c := range cols {
			cells[j] = c.get(&res.Rows[i])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
}

// countingColumns are the columns of the counting experiment.
func countingColumns() []col {
	return []col{colSeries,
		col{"width", func(r *experiments.Row) string { return strconv.Itoa(r.Width) }},
		col{"value", func(r *experiments.Row) string {
			if r.Model == "binomial" {
				return strconv.Itoa(r.Value)
			}
			return ""
		}},
		colItems,
		col{"removals", func(r *experiments.Row) string {
			if r.Removals == 0 {
				return ""
			}
			return strconv.FormatUint(r.Removals, 10)
		}},
		colMeasured, colTheory,
		col{"poisson", func(r *experiments.Row) string {
			if r.Model != "binomial" {
				return ""
			}
			return g4(r.Classic)
		}},
		colInside,
		col{"removed", func(r *experiments.Row) string {
			if r.Removals == 0 {
				return ""
			}
			return strconv.FormatFloat(r.Removed, 'f', 1, 64)
		}}}
}

// cardinalityColumns are the columns of the cardinality experiment: the
// errors are fractions of the row's scale, printed in percent.
func cardinalityColumns() []col {
	pct := func(x float64) string { return strconv.FormatFloat(100*x, 'f', 3, 64) }
	return []col{colSeries, colItems,
		col{"overlap", func(r *experiments.Row) string {
			if r.Estimate == experiments.EstimateItems {
				return ""
			}
			return strconv.FormatFloat(r.Overlap, 'g', -1, 64)
		}},
		col{"mean error % [interval]", func(r *experiments.Row) string {
			return fmt.Sprintf("%s [%s, %s]", pct(r.Error), pct(r.ErrorLo), pct(r.ErrorHi))
		}},
		col{"bias %", func(r *experiments.Row) string { return pct(r.Bias) }},
		col{"spread % [interval]", func(r *experiments.Row) string {
			return fmt.Sprintf("%s [%s, %s]", pct(r.Spread), pct(r.SpreadLo), pct(r.SpreadHi))
		}},
		col{"std error %", func(r *experiments.Row) string { return pct(r.StdError) }},
		col{"model", func(r *experiments.Row) string { return r.Model }},
		colInside}
}
