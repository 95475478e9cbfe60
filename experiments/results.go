package experiments

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Results is the outcome of one run of an experiment: its metadata and one
// [Row] per measured point. It is plain data: [WriteCSV] and [WriteJSON] store
// it, [ReadJSON] loads it back, [Merge] combines shards of it, and package
// plots draws it.
//
// Results hold no timestamps and no worker count, so a rerun with the same
// seed and parameters writes byte-identical files on any number of
// workers. Only the time columns (NsPerAdd, NsPerQuery, NsPerPresent,
// NsAssembly, NsPureGo, AsmRatio), the memory of a Go map (Bytes of the
// "go map" series) and the description of the machine (Caches, Machine)
// differ from run to run.
type Results struct {
	// Experiment is the experiment's name, for example "fill", or
	// [Measured] for the results of [Measure].
	Experiment string `json:"experiment"`
	// Variant is the variant measured (the spec's name for [Measure]), or
	// "all" when the rows cover several.
	Variant string `json:"variant"`
	// Params are the parameters of the run, defaults filled in.
	Params Params `json:"params"`
	// Seed is the seed from which every filter's hash seed and keys derive.
	Seed uint64 `json:"seed"`
	// GoVersion is runtime.Version() of the program that measured.
	GoVersion string `json:"go_version"`
	// ModuleVersion is the bloomlab module version from the build
	// information, "(devel)" when run from a source tree.
	ModuleVersion string `json:"module_version"`
	// Shard is set on the partial results of one shard of a sharded run
	// (see [Options.Shard] and [Merge]), nil on complete results.
	Shard *Shard `json:"shard,omitempty"`
	// Notes are remarks on the results in plain words: points where the
	// theory lies outside the measured interval, how many independent
	// groups of filters the points come from and the theory checked once
	// per group, rates too small to measure, ratios the experiment
	// derives.
	Notes []string `json:"notes,omitempty"`
	// Caches are the data caches of the machine that measured, by level,
	// for the speed experiment, whose times depend on them; empty where
	// the system does not report them.
	Caches []CacheLevel `json:"caches,omitempty"`
	// Machine describes the processor that measured, for the experiments
	// whose times depend on it (see [MachineCPU]); nil for the others.
	Machine *Machine `json:"machine,omitempty"`
	// Rows are the measured points, grouped by series, in a fixed order.
	Rows []Row `json:"rows"`
}

// Row is one measured point: the parameters of the point, the raw
// per-filter measurements, and the aggregates computed from them.
//
// Count/Queries is the measured rate of one filter. For the
// false-positive experiments Count is the number of false positives among
// Queries keys that were never inserted; the counting experiment reuses the
// columns for other proportions (members that test absent, counters of a
// given value, saturated counters), which its Model and Series name.
type Row struct {
	// Series names the curve the point belongs to: a variant, a hashing
	// option, a parameter setting.
	Series string `json:"series"`
	// Variant is the filter variant measured.
	Variant string `json:"variant,omitempty"`
	// Hashing is the hash function and index derivation, as
	// "xxh3/enhanced-double", or a reference scheme such as "md5".
	Hashing string `json:"hashing,omitempty"`
	// Keys names the key source of the filters' keys ([KeySource.Name])
	// where it is not the uniform one.
	Keys string `json:"keys,omitempty"`
	// R and S are the tightening ratio and growth factor of a scalable
	// filter.
	R float64 `json:"r,omitempty"`
	S float64 `json:"s,omitempty"`
	// Width is the counter width of a counting filter, in bits.
	Width int `json:"width,omitempty"`
	// Value is the counter value a histogram row counts.
	Value int `json:"value,omitempty"`
	// Items is the number of keys inserted (offered to Add) at this point.
	Items uint64 `json:"items"`
	// Window is the number of newest items a sliding-window filter
	// promises to hold at every point (see [WindowSpec]): the items each
	// filter was checked to hold, at this point, for a rate row.
	Window uint64 `json:"window,omitempty"`
	// Age and AgeEnd bound the ages [Age, AgeEnd) of a recall row of a
	// sliding-window filter: the fraction of the items of these ages (adds
	// after them) that test present (see [WindowSpec]).
	Age    uint64 `json:"age,omitempty"`
	AgeEnd uint64 `json:"age_end,omitempty"`
	// Removals is the number of never-inserted keys offered to Remove
	// (counting).
	Removals uint64 `json:"removals,omitempty"`
	// Candidates is T, the candidate keys an attacker examined for each
	// key it inserted (adversary).
	Candidates uint64 `json:"candidates,omitempty"`
	// Capacity is the number of items the filter was sized for (the first
	// stage's, n0, for a scalable filter).
	Capacity uint64 `json:"capacity,omitempty"`
	// Bits is the memory of the filter's cells in bits (m for a bit
	// filter); for a scalable filter the mean over the filters at this
	// point.
	Bits uint64 `json:"bits,omitempty"`
	// Cells is the number of counters of a counting filter (m), whose Bits
	// are Cells times the counter width; 0 for bit filters, where it
	// equals Bits.
	Cells uint64 `json:"cells,omitempty"`
	// Hashes is k (a scalable filter's newest stage's k).
	Hashes int `json:"hashes,omitempty"`
	// Stages is the mean number of stages of a scalable filter.
	Stages float64 `json:"stages,omitempty"`
	// BitsPerKey is Bits/Items; for a sliding-window filter's rows,
	// Bits/Window, the bits per key of the window it guarantees.
	BitsPerKey float64 `json:"bits_per_element,omitempty"`

	// Filters is the number of independently seeded filters measured.
	Filters int `json:"filters"`
	// Queries is the number of queries each filter answered.
	Queries uint64 `json:"queries,omitempty"`
	// Members is the number of inserted keys each filter was queried with
	// to count its false negatives (see [Spec.Members]), 0 for rows that do
	// not check them.
	Members uint64 `json:"members,omitempty"`
	// FalseNegatives is the number of those keys that tested absent,
	// summed over the filters: 0 for every correct Bloom filter.
	FalseNegatives uint64 `json:"false_negatives,omitempty"`
	// Trials are the raw per-filter measurements, in filter order. A
	// shard holds only its own filters' trials.
	Trials []Trial `json:"trials"`

	// Rate is the mean over the filters of Count/Queries.
	Rate float64 `json:"rate"`
	// Lo and Hi bound the confidence interval of Rate at level
	// [Params.Conf] (see Interval).
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// Interval names how Lo and Hi were computed: "t" for the Student t
	// interval over the filters' rates; "pooled" for the Clopper-Pearson
	// interval of the pooled counts, used when there is one filter or the
	// filters' rates are all equal (typically all zero), where the t
	// interval says nothing.
	Interval string `json:"interval,omitempty"`
	// Estimated is the mean over the filters of the false-positive rate
	// each filter's fill implies (Stats.EstimatedFPR): the rate conditional
	// on the filter's contents, free of query noise.
	Estimated float64 `json:"estimated,omitempty"`

	// Classic is the classic rate (1 - e^(-kn/m))^k at the built
	// geometry; for a counter histogram, the Poisson approximation.
	Classic float64 `json:"classic,omitempty"`
	// Theory is the prediction Model names, at the built geometry.
	Theory float64 `json:"theory,omitempty"`
	// Model names the source of Theory: "exact" (the exact finite-m rate
	// of a standard filter), "partitioned", "scalable" (the compound rate
	// of the stages), "binomial" (counter distribution), a Spec's Model,
	// or "" for none.
	Model string `json:"model,omitempty"`
	// Target is the false-positive rate the filter was sized for.
	Target float64 `json:"target,omitempty"`
	// Inside is "yes" if Theory lies inside [Lo, Hi], "no" if not, and ""
	// when the row has no theory.
	Inside string `json:"inside,omitempty"`

	// NsPerAdd and NsPerQuery are the mean times of one Add and one
	// Contains, in nanoseconds, for the experiments that time.
	NsPerAdd   float64 `json:"ns_per_add,omitempty"`
	NsPerQuery float64 `json:"ns_per_query,omitempty"`
	// NsPerPresent is the mean time of one Contains of a key the filter
	// holds ([Time]; NsPerQuery is then that of an absent key).
	NsPerPresent float64 `json:"ns_per_present,omitempty"`
	// NsAssembly and NsPureGo are the times of one operation of a block
	// probe with the assembly probes on and off (variants.SetAssembly),
	// for the self experiment, and AsmRatio their ratio, the median of the
	// ratios of rounds timed one after the other: below 1 the assembly
	// pays on the machine that measured. NsAssembly and AsmRatio are 0
	// where the build or the processor has no assembly.
	NsAssembly float64 `json:"ns_assembly,omitempty"`
	NsPureGo   float64 `json:"ns_pure_go,omitempty"`
	AsmRatio   float64 `json:"asm_ratio,omitempty"`
	// LinesAbsent and LinesPresent are the mean numbers of distinct
	// 64-byte lines a query of an absent and of a present key reads,
	// counted from the probe sequence (variants.LineCounter), for the
	// speed experiment; LinesPredicted is the prediction of package
	// analysis for an absent key, where it has one (scalable and standard
	// filters).
	LinesAbsent    float64 `json:"lines_absent,omitempty"`
	LinesPresent   float64 `json:"lines_present,omitempty"`
	LinesPredicted float64 `json:"lines_predicted,omitempty"`
	// Bytes is the memory of the structure, in bytes.
	Bytes float64 `json:"bytes,omitempty"`
	// Removed is the mean number of successful removals (counting).
	Removed float64 `json:"removed,omitempty"`

	// The cardinality experiment's columns (see CardinalityRow).
	CardinalityRow
}

// Trial is the raw measurement of one filter at one point.
type Trial struct {
	// Filter is the filter's index, from 0 to Row.Filters-1.
	Filter int `json:"filter"`
	// Count is the number of the row's queries this filter answered
	// positively (see [Row]).
	Count uint64 `json:"count"`
	// FalseNegatives is the number of the row's Members inserted keys
	// this filter answered negatively.
	FalseNegatives uint64 `json:"false_negatives,omitempty"`
	// Estimated is the filter's Stats().EstimatedFPR.
	Estimated float64 `json:"estimated,omitempty"`
	// Bits and Stages are the filter's Stats().Bits and number of stages.
	Bits   uint64 `json:"bits,omitempty"`
	Stages int    `json:"stages,omitempty"`
	// NsPerAdd, NsPerQuery and NsPerPresent are the filter's times per
	// operation.
	NsPerAdd     float64 `json:"ns_per_add,omitempty"`
	NsPerQuery   float64 `json:"ns_per_query,omitempty"`
	NsPerPresent float64 `json:"ns_per_present,omitempty"`
	// NsAssembly, NsPureGo and AsmRatio are the times of one probe with
	// the assembly on and off and their ratio (see [Row]).
	NsAssembly float64 `json:"ns_assembly,omitempty"`
	NsPureGo   float64 `json:"ns_pure_go,omitempty"`
	AsmRatio   float64 `json:"asm_ratio,omitempty"`
	// LinesAbsent, LinesPresent and LinesPredicted are the filter's lines
	// per query (see [Row]).
	LinesAbsent    float64 `json:"lines_absent,omitempty"`
	LinesPresent   float64 `json:"lines_present,omitempty"`
	LinesPredicted float64 `json:"lines_predicted,omitempty"`
	// Bytes is the memory measured for this trial.
	Bytes uint64 `json:"bytes,omitempty"`
	// Removed is the number of successful removals (counting).
	Removed uint64 `json:"removed,omitempty"`
	// Error is the filter's count estimate less the true count, divided
	// by the row's Scale (cardinality); Saturated reports that the
	// estimate was +Inf, every cell set, and Error is then 0.
	Error     float64 `json:"error,omitempty"`
	Saturated bool    `json:"saturated,omitempty"`
}

// aggregate computes the row's aggregates from its trials at confidence
// level conf. It is a pure function of the row's trials and plan-time
// fields, which is what makes merged shards equal the unsharded run.
func (r *Row) aggregate(conf float64) error {
	t := r.Trials
	if len(t) == 0 {
		return fmt.Errorf("experiments: row %s items %d has no trials", r.Series, r.Items)
	}
	nf := float64(len(t))
	var est, bits, stages, add, query, present, bytes, removed, la, lp, lw, asm, pure, ratio float64
	r.FalseNegatives = 0
	for _, x := range t {
		r.FalseNegatives += x.FalseNegatives
		la += x.LinesAbsent
		lp += x.LinesPresent
		lw += x.LinesPredicted
		est += x.Estimated
		bits += float64(x.Bits)
		stages += float64(x.Stages)
		add += x.NsPerAdd
		query += x.NsPerQuery
		present += x.NsPerPresent
		asm += x.NsAssembly
		pure += x.NsPureGo
		ratio += x.AsmRatio
		bytes += float64(x.Bytes)
		removed += float64(x.Removed)
	}
	r.Estimated = est / nf
	if bits > 0 {
		r.Bits = uint64(math.Round(bits / nf))
	}
	r.Stages = stages / nf
	r.NsPerAdd = add / nf
	r.NsPerQuery = query / nf
	r.NsPerPresent = present / nf
	r.NsAssembly, r.NsPureGo, r.AsmRatio = asm/nf, pure/nf, ratio/nf
	r.LinesAbsent, r.LinesPresent, r.LinesPredicted = la/nf, lp/nf, lw/nf
	r.Bytes = bytes / nf
	r.Removed = removed / nf
	switch {
	case r.Window > 0 && r.Bits > 0:
		r.BitsPerKey = bits / nf / float64(r.Window)
	case r.Items > 0 && r.Bits > 0:
		r.BitsPerKey = bits / nf / float64(r.Items)
	}
	r.Rate, r.Lo, r.Hi, r.Interval, r.Inside = 0, 0, 0, "", ""
	if r.Scale > 0 {
		return r.aggregateErrors(conf)
	}
	if r.Queries == 0 {
		return nil
	}
	rates := make([]float64, len(t))
	var total uint64
	equal := true
	for i, x := range t {
		rates[i] = float64(x.Count) / float64(r.Queries)
		total += x.Count
		equal = equal && x.Count == t[0].Count
	}
	if len(t) >= 2 && !equal {
		mean, lo, hi, err := tInterval(rates, conf)
		if err != nil {
			return fmt.Errorf("experiments: %s items %d: %w", r.Series, r.Items, err)
		}
		r.Rate, r.Lo, r.Hi, r.Interval = mean, max(lo, 0), min(hi, 1), "t"
	} else {
		lo, hi, err := clopperPearson(total, r.Queries*uint64(len(t)), conf)
		if err != nil {
			return fmt.Errorf("experiments: %s items %d: %w", r.Series, r.Items, err)
		}
		r.Rate, r.Lo, r.Hi, r.Interval = rates[0], lo, hi, "pooled"
		if !equal {
			r.Rate = float64(total) / float64(r.Queries) / nf
		}
	}
	if r.Model != "" {
		if r.Lo <= r.Theory && r.Theory <= r.Hi {
			r.Inside = "yes"
		} else {
			r.Inside = "no"
		}
	}
	return nil
}

// finish aggregates every row and rewrites the notes that depend on the
// measurements. notes are the plan-time notes, kept first; groups are the
// plan's groups of rows measured on the same filters.
func (res *Results) finish(notes []string, pl *Plan) error {
	for i := range res.Rows {
		if err := res.Rows[i].aggregate(res.Params.Conf); err != nil {
			return err
		}
	}
	res.Notes = append([]string(nil), notes...)
	checks, err := outsideNotes(res, pl.Groups, pl.Label)
	if err != nil {
		return err
	}
	res.Notes = append(res.Notes, checks...)
	if pl.Summarize != nil {
		res.Notes = append(res.Notes, pl.Summarize(res)...)
	}
	return nil
}

// outsideNotes lists, per series, the points where the theory lies outside
// the measured interval, how many independent groups of filters the points
// come from, and, after it, the pooled check of each group of several
// points (see pooledCheck).
func outsideNotes(res *Results, groups []Group, label func(Row) string) ([]string, error) {
	groupOf := make([]int, len(res.Rows))
	for g, gr := range groups {
		for _, i := range gr.Rows {
			groupOf[i] = g
		}
	}
	var notes []string
	type tally struct {
		model   string
		checked int
		out     []string
		groups  []int // the groups of the checked rows, in order of first appearance
		multi   bool  // some group holds several checked rows
	}
	var order []string
	by := map[string]*tally{}
	for i, r := range res.Rows {
		if r.Inside == "" {
			continue
		}
		tl := by[r.Series]
		if tl == nil {
			tl = &tally{model: r.Model}
			by[r.Series] = tl
			order = append(order, r.Series)
		}
		if tl.model != r.Model {
			tl.model = "" // several models: "the theory"
		}
		tl.checked++
		if r.Inside == "no" {
			tl.out = append(tl.out, pointLabel(r, label))
		}
		if g := groupOf[i]; !slices.Contains(tl.groups, g) {
			tl.groups = append(tl.groups, g)
		} else {
			tl.multi = true
		}
	}
	for _, s := range order {
		tl := by[s]
		var note string
		if len(tl.out) == 0 {
			note = fmt.Sprintf("%s: %s lies inside the measured %g%% interval at all %d points", s, theoryName(tl.model), 100*res.Params.Conf, tl.checked)
		} else {
			note = fmt.Sprintf("%s: %s lies OUTSIDE the measured %g%% interval at %d of %d points (%s)", s, theoryName(tl.model), 100*res.Params.Conf, len(tl.out), tl.checked, strings.Join(tl.out, "; "))
		}
		switch {
		case tl.checked == 1:
		case !tl.multi:
			note += fmt.Sprintf("; each point is measured on its own filters, so the %d points are independent", tl.checked)
		case len(tl.groups) == 1 && groups[tl.groups[0]].pooled:
			note += fmt.Sprintf("; the %d points are checkpoints of the same %d growing filters, one independent group, so they are not %d independent pieces of evidence", tl.checked, groups[tl.groups[0]].Filters, tl.checked)
		case len(tl.groups) == 1:
			note += fmt.Sprintf("; the %d points are all measured on the same %d filters, one independent group, so they are not %d independent pieces of evidence", tl.checked, groups[tl.groups[0]].Filters, tl.checked)
		default:
			note += fmt.Sprintf("; the %d points come from %d independent groups of filters, and the points of one group, measured on the same filters, are not independent evidence", tl.checked, len(tl.groups))
		}
		notes = append(notes, note)
		for _, g := range tl.groups {
			if !groups[g].pooled {
				continue
			}
			check, err := pooledCheck(res, groups[g], s)
			if err != nil {
				return nil, err
			}
			if check != "" {
				notes = append(notes, check)
			}
		}
	}
	return notes, nil
}

// pooledCheck returns a note that checks the theory once over the checked
// rows of group g in series, if they are several: for each filter f, the
// ratio of its false positives over all the rows to the number the theory
// expects, sum_r Count_rf / sum_r Queries_r Theory_r. The filters are
// independent, so the mean of these ratios has an honest interval (the
// Student t interval over the filters, or, where all are equal, the
// Clopper-Pearson interval of the pooled counts scaled to a ratio), which
// a consistent theory puts around 1, however correlated the rows are.
func pooledCheck(res *Results, g Group, series string) (string, error) {
	var rows []*Row
	for _, i := range g.Rows {
		if r := &res.Rows[i]; r.Series == series && r.Inside != "" {
			rows = append(rows, r)
		}
	}
	if len(rows) < 2 {
		return "", nil
	}
	nf := len(rows[0].Trials)
	var expected, queries float64
	for _, r := range rows {
		if len(r.Trials) != nf {
			return "", fmt.Errorf("experiments: %s: the rows of one group have %d and %d trials", series, nf, len(r.Trials))
		}
		expected += float64(r.Queries) * r.Theory
		queries += float64(r.Queries)
	}
	if expected == 0 {
		return "", nil
	}
	ratios := make([]float64, nf)
	var total uint64
	for f := range nf {
		var c uint64
		for _, r := range rows {
			c += r.Trials[f].Count
		}
		ratios[f] = float64(c) / expected
		total += c
	}
	equal := !slices.ContainsFunc(ratios, func(x float64) bool { return x != ratios[0] })
	conf := res.Params.Conf
	var mean, lo, hi float64
	var how string
	if nf >= 2 && !equal {
		var err error
		mean, lo, hi, err = tInterval(ratios, conf)
		if err != nil {
			return "", fmt.Errorf("experiments: %s: pooled check: %w", series, err)
		}
		lo = max(lo, 0)
		how = fmt.Sprintf("t interval over the %d filters", nf)
	} else {
		n := queries * float64(nf)
		plo, phi, err := clopperPearson(total, uint64(n), conf)
		if err != nil {
			return "", fmt.Errorf("experiments: %s: pooled check: %w", series, err)
		}
		scale := n / (expected * float64(nf))
		mean, lo, hi = float64(total)/(expected*float64(nf)), plo*scale, phi*scale
		how = fmt.Sprintf("Clopper-Pearson interval of the pooled counts of %d filters", nf)
	}
	verdict := "consistent with the theory"
	if lo > 1 || hi < 1 {
		verdict = "NOT consistent with the theory"
	}
	return fmt.Sprintf("%s, pooled over its %d points from %d to %d items: the filters' false positives are %.4g times the number %s expects (%g%% %s: %.4g to %.4g), %s",
		series, len(rows), rows[0].Items, rows[len(rows)-1].Items, mean, theoryName(rows[0].Model), 100*conf, how, lo, hi, verdict), nil
}

// theoryName names a model in a note: "the exact theory" for "exact", and
// "the theory" for a spec's unnamed model (Model "theory"), not "the
// theory theory".
func theoryName(model string) string {
	if model == "" || model == "theory" {
		return "the theory"
	}
	return "the " + model + " theory"
}

// pointLabel names a row's point in words for notes: its ages for a
// recall row, the plan's label if it has one, its items otherwise.
func pointLabel(r Row, label func(Row) string) string {
	if r.AgeEnd > 0 {
		return fmt.Sprintf("ages %d to %d", r.Age, r.AgeEnd-1)
	}
	if label != nil {
		if s := label(r); s != "" {
			return s
		}
	}
	return fmt.Sprintf("items %d", r.Items)
}

// column is one CSV column: its header and how to format a row's value,
// "" for none.
type column struct {
	name string
	get  func(r *Row) string
}

func fmtFloat(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func fmtUint(x uint64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatUint(x, 10)
}

func fmtInt(x int) string {
	if x == 0 {
		return ""
	}
	return strconv.Itoa(x)
}

// columns are the CSV columns in order. Columns empty in every row are left
// out of a file.
var columns = []column{
	{"series", func(r *Row) string { return r.Series }},
	{"variant", func(r *Row) string { return r.Variant }},
	{"hashing", func(r *Row) string { return r.Hashing }},
	{"keys", func(r *Row) string { return r.Keys }},
	{"r", func(r *Row) string { return fmtFloat(r.R) }},
	{"s", func(r *Row) string { return fmtFloat(r.S) }},
	{"width", func(r *Row) string { return fmtInt(r.Width) }},
	{"value", func(r *Row) string {
		if r.Model == "binomial" {
			return strconv.Itoa(r.Value)
		}
		return ""
	}},
	{"items", func(r *Row) string { return strconv.FormatUint(r.Items, 10) }},
	{"window", func(r *Row) string { return fmtUint(r.Window) }},
	{"age", func(r *Row) string {
		if r.AgeEnd == 0 {
			return ""
		}
		return strconv.FormatUint(r.Age, 10)
	}},
	{"age_end", func(r *Row) string { return fmtUint(r.AgeEnd) }},
	{"removals", func(r *Row) string { return fmtUint(r.Removals) }},
	{"candidates", func(r *Row) string { return fmtUint(r.Candidates) }},
	{"capacity", func(r *Row) string { return fmtUint(r.Capacity) }},
	{"bits", func(r *Row) string { return fmtUint(r.Bits) }},
	{"cells", func(r *Row) string { return fmtUint(r.Cells) }},
	{"hashes", func(r *Row) string { return fmtInt(r.Hashes) }},
	{"stages", func(r *Row) string { return fmtFloat(r.Stages) }},
	{"bits_per_element", func(r *Row) string { return fmtFloat(r.BitsPerKey) }},
	{"filters", func(r *Row) string { return strconv.Itoa(r.Filters) }},
	{"queries", func(r *Row) string { return fmtUint(r.Queries) }},
	{"members", func(r *Row) string { return fmtUint(r.Members) }},
	{"false_negatives", func(r *Row) string {
		if r.Members == 0 {
			return ""
		}
		return strconv.FormatUint(r.FalseNegatives, 10)
	}},
	{"rate", func(r *Row) string { return rateCell(r, r.Rate) }},
	{"lo", func(r *Row) string { return rateCell(r, r.Lo) }},
	{"hi", func(r *Row) string { return rateCell(r, r.Hi) }},
	{"interval", func(r *Row) string { return r.Interval }},
	{"estimated", func(r *Row) string { return fmtFloat(r.Estimated) }},
	{"classic", func(r *Row) string { return fmtFloat(r.Classic) }},
	{"theory", func(r *Row) string { return fmtFloat(r.Theory) }},
	{"model", func(r *Row) string { return r.Model }},
	{"target", func(r *Row) string { return fmtFloat(r.Target) }},
	{"inside", func(r *Row) string { return r.Inside }},
	{"removed", func(r *Row) string { return fmtFloat(r.Removed) }},
	{"ns_per_add", func(r *Row) string { return fmtFloat(r.NsPerAdd) }},
	{"ns_per_query", func(r *Row) string { return fmtFloat(r.NsPerQuery) }},
	{"ns_per_present", func(r *Row) string { return fmtFloat(r.NsPerPresent) }},
	{"ns_assembly", func(r *Row) string { return fmtFloat(r.NsAssembly) }},
	{"ns_pure_go", func(r *Row) string { return fmtFloat(r.NsPureGo) }},
	{"asm_ratio", func(r *Row) string { return fmtFloat(r.AsmRatio) }},
	{"lines_absent", func(r *Row) string { return fmtFloat(r.LinesAbsent) }},
	{"lines_present", func(r *Row) string { return fmtFloat(r.LinesPresent) }},
	{"lines_predicted", func(r *Row) string { return fmtFloat(r.LinesPredicted) }},
	{"bytes", func(r *Row) string { return fmtFloat(r.Bytes) }},
	{"estimate", func(r *Row) string { return r.Estimate }},
	{"overlap", func(r *Row) string { return overlapCell(r) }},
	{"scale", func(r *Row) string { return errorCell(r, r.Scale) }},
	{"error", func(r *Row) string { return errorCell(r, r.Error) }},
	{"error_lo", func(r *Row) string { return errorCell(r, r.ErrorLo) }},
	{"error_hi", func(r *Row) string { return errorCell(r, r.ErrorHi) }},
	{"bias", func(r *Row) string { return errorCell(r, r.Bias) }},
	{"spread", func(r *Row) string { return errorCell(r, r.Spread) }},
	{"spread_lo", func(r *Row) string { return errorCell(r, r.SpreadLo) }},
	{"spread_hi", func(r *Row) string { return errorCell(r, r.SpreadHi) }},
	{"std_error", func(r *Row) string { return errorCell(r, r.StdError) }},
	{"p_saturated", func(r *Row) string { return errorCell(r, r.PSaturated) }},
	{"rmse", func(r *Row) string { return errorCell(r, r.RMSE) }},
	{"saturated", func(r *Row) string { return fmtInt(r.Saturated) }},
}

// rateCell formats a rate column: "0" for a measured zero, "" for a row
// without queries.
func rateCell(r *Row, x float64) string {
	if r.Queries == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// WriteCSV writes r as CSV: a header row, then one line per [Row] with the
// point's parameters, filters and queries, the mean rate and its interval,
// the mean rate estimated from fill, the theory columns and the times.
// Columns that are empty in every row are left out. The raw per-filter
// counts are in the JSON form only. Numbers are written in the shortest
// form that reads back to the same float64.
func WriteCSV(w io.Writer, r *Results) error {
	var keep []column
	for _, c := range columns {
		for i := range r.Rows {
			if c.get(&r.Rows[i]) != "" {
				keep = append(keep, c)
				break
			}
		}
	}
	cw := csv.NewWriter(w)
	rec := make([]string, len(keep))
	for i, c := range keep {
		rec[i] = c.name
	}
	if err := cw.Write(rec); err != nil {
		return fmt.Errorf("experiments: writing CSV: %w", err)
	}
	for i := range r.Rows {
		for j, c := range keep {
			rec[j] = c.get(&r.Rows[i])
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("experiments: writing CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("experiments: writing CSV: %w", err)
	}
	return nil
}

// WriteJSON writes r as indented JSON, raw per-filter trials included.
// [ReadJSON] reads it back into equal [Results].
func WriteJSON(w io.Writer, r *Results) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("experiments: encoding JSON: %w", err)
	}
	b = append(b, '\n')
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("experiments: writing JSON: %w", err)
	}
	return nil
}

// ReadJSON reads [Results] written by [WriteJSON].
func ReadJSON(rd io.Reader) (*Results, error) {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	var r Results
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("experiments: reading results JSON: %w", err)
	}
	if r.Experiment == "" {
		return nil, fmt.Errorf("experiments: reading results JSON: no experiment name")
	}
	return &r, nil
}

// template returns a copy of r without its trials and aggregates: the
// plan-time part that every shard of a run shares.
func (r Row) template() Row {
	r.Trials = nil
	r.FalseNegatives = 0
	r.Rate, r.Lo, r.Hi, r.Interval, r.Inside = 0, 0, 0, "", ""
	r.Estimated, r.Stages, r.NsPerAdd, r.NsPerQuery, r.Bytes, r.Removed = 0, 0, 0, 0, 0, 0
	r.NsPerPresent = 0
	r.NsAssembly, r.NsPureGo, r.AsmRatio = 0, 0, 0
	r.LinesAbsent, r.LinesPresent, r.LinesPredicted = 0, 0, 0
	r.BitsPerKey = 0
	r.CardinalityRow = r.CardinalityRow.template()
	return r
}

// Merge combines the results of all N shards of one sharded run (each run
// with the same plan, parameters and seed, and [Options.Shard] i/N for
// i = 0..N-1, in any order) into the results of the unsharded run:
// [WriteCSV] and [WriteJSON] of the merged results write exactly the bytes the
// unsharded run writes (up to the time columns, which differ run to run).
// pl is the plan of the run, made again from the shards' parameters, whose
// groups and summary the notes need; it is nil for the results of
// [Measure] and [MeasureWindow], whose groups are their specs.
// Merge reports an error if the shards do not belong to one run or a
// shard is missing or repeated; and, with the merged results, an error
// wrapping [ErrFalseNegative] if a filter of any shard had a false
// negative.
func Merge(shards []*Results, pl *Plan) (*Results, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("experiments: merge: no shard results")
	}
	first := shards[0]
	if first.Shard == nil {
		return nil, fmt.Errorf("experiments: merge: results of %s are not a shard", first.Experiment)
	}
	n := first.Shard.Count
	if len(shards) != n {
		return nil, fmt.Errorf("experiments: merge: have %d shard files, the run has %d shards", len(shards), n)
	}
	seen := make([]bool, n)
	for _, s := range shards {
		if s.Shard == nil {
			return nil, fmt.Errorf("experiments: merge: results of %s are complete, not a shard", s.Experiment)
		}
		if s.Shard.Count != n {
			return nil, fmt.Errorf("experiments: merge: shard %v does not belong to a run of %d shards", *s.Shard, n)
		}
		if s.Shard.Index < 0 || s.Shard.Index >= n {
			return nil, fmt.Errorf("experiments: merge: bad shard index %v", *s.Shard)
		}
		if seen[s.Shard.Index] {
			return nil, fmt.Errorf("experiments: merge: shard %v appears twice", *s.Shard)
		}
		seen[s.Shard.Index] = true
		if s.Experiment != first.Experiment || s.Variant != first.Variant || s.Seed != first.Seed ||
			s.GoVersion != first.GoVersion || s.ModuleVersion != first.ModuleVersion {
			return nil, fmt.Errorf("experiments: merge: shard %v is from a different run (experiment %s/%s seed %d, %s, bloomlab %s; want %s/%s seed %d, %s, bloomlab %s)",
				*s.Shard, s.Experiment, s.Variant, s.Seed, s.GoVersion, s.ModuleVersion,
				first.Experiment, first.Variant, first.Seed, first.GoVersion, first.ModuleVersion)
		}
		if !sameParams(s.Params, first.Params) {
			return nil, fmt.Errorf("experiments: merge: shard %v has different parameters", *s.Shard)
		}
		if len(s.Rows) != len(first.Rows) {
			return nil, fmt.Errorf("experiments: merge: shard %v has %d rows, shard %v has %d", *s.Shard, len(s.Rows), *first.Shard, len(first.Rows))
		}
	}
	// The groups of rows measured on the same filters, which the notes
	// need, are those of the run's plan: planned again from the
	// parameters for a named experiment, one per series for Measure.
	if pl == nil {
		if first.Experiment != Measured && first.Experiment != MeasuredWindow {
			return nil, fmt.Errorf("experiments: merge: results of %s need the plan of their run", first.Experiment)
		}
		pl = &Plan{Groups: measuredGroups(first)}
	} else {
		if len(pl.Rows) != len(first.Rows) {
			return nil, fmt.Errorf("experiments: merge: the shards have %d rows, their parameters plan %d", len(first.Rows), len(pl.Rows))
		}
		for i, r := range pl.Rows {
			if r.Series != first.Rows[i].Series || r.Items != first.Rows[i].Items {
				return nil, fmt.Errorf("experiments: merge: row %d of the shards is %s at %d items, their parameters plan %s at %d", i, first.Rows[i].Series, first.Rows[i].Items, r.Series, r.Items)
			}
		}
	}
	out := &Results{
		Experiment:    first.Experiment,
		Variant:       first.Variant,
		Params:        first.Params,
		Seed:          first.Seed,
		GoVersion:     first.GoVersion,
		ModuleVersion: first.ModuleVersion,
		Rows:          make([]Row, len(first.Rows)),
	}
	for i := range first.Rows {
		tmpl := first.Rows[i].template()
		var trials []Trial
		for _, s := range shards {
			if !rowsEqual(s.Rows[i].template(), tmpl) {
				return nil, fmt.Errorf("experiments: merge: row %d of shard %v differs from shard %v", i, *s.Shard, *first.Shard)
			}
			trials = append(trials, s.Rows[i].Trials...)
		}
		slices.SortFunc(trials, func(a, b Trial) int { return a.Filter - b.Filter })
		if len(trials) != tmpl.Filters {
			return nil, fmt.Errorf("experiments: merge: row %d has %d trials, want %d", i, len(trials), tmpl.Filters)
		}
		for j, t := range trials {
			if t.Filter != j {
				return nil, fmt.Errorf("experiments: merge: row %d: filter %d missing or repeated", i, j)
			}
		}
		row := first.Rows[i]
		row.Trials = trials
		out.Rows[i] = row
	}
	// The plan-time notes are those of the shards; recompute the rest.
	if err := out.finish(planNotes(first), pl); err != nil {
		return nil, err
	}
	// A false negative fails the merged run as it fails the unsharded one.
	return out, falseNegatives(out)
}

// planNotes returns the notes of shard results, which are the plan-time
// notes only (shards are not aggregated).
func planNotes(r *Results) []string { return r.Notes }

func sameParams(a, b Params) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func rowsEqual(a, b Row) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
