package catalog

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/stats"
	"github.com/bloomlab/bloomlab/variants"
)

// adversaryCandidates are the default numbers T of candidate keys the
// pollution attacker of the adversary experiment examines for each key it
// inserts (Params.Candidates): T = 1 is no attack, the keys are random.
var adversaryCandidates = []uint64{1, 10, 100, 1000}

// maxCandidates is the largest T the adversary experiment takes: a
// million candidates per inserted key.
const maxCandidates = 1 << 20

// pollutionModel names the theory of the rows of a greedy attacker with
// T candidates per key against a standard filter: analysis.PollutedFPR,
// a Markov chain over the set bits.
const pollutionModel = "greedy chain"

// forgedKeys is the number of forged keys per filter that the adversary
// experiment tests online: a tenth of the queries, at least 100.
func forgedKeys(p experiments.Params) uint64 { return max(100, p.Queries/10) }

// Attacks of the adversary experiment, the second part of its series
// names ("<variant>: <attack>").
const (
	// attackRandom inserts the trial's random keys: the baseline the
	// theory describes.
	attackRandom = "random keys"
	// attackChosen inserts keys chosen by an attacker who knows the
	// filter's hashing (its kind and seed, as a saved filter records
	// them): of each T candidates, the one with the most fresh cells,
	// one row per T.
	attackChosen = "chosen keys, known hashing"
	// attackChosenKeyed is the same attacker, with the largest T, against
	// a filter with the keyed hash, whose key it does not know: it chooses
	// with the default hashing (xxh3, seed 0), the best it can do.
	attackChosenKeyed = "chosen keys, keyed hash"
	// attackForgeOffline is the offline search of an attacker who knows
	// the hashing and the filter's bits: the rate at which candidates test
	// present on its copy; 1/rate trials per forged key.
	attackForgeOffline = "forging offline, known hashing"
	// attackForgedOnline is the fraction of the forged keys that the
	// filter itself reports present: the attacker's hit rate per query.
	attackForgedOnline = "forged keys online, known hashing"
	// attackForgedKeyed is the same for a keyed filter, against which the
	// attacker forged on a copy built with the default hashing.
	attackForgedKeyed = "forged keys online, keyed hash"
	// attackRemoveRandom, attackRemoveForged and attackRemoveKeyed remove
	// from a counting filter never-inserted random keys, keys forged with
	// the known hashing, and keys forged against a keyed filter without
	// its key; the rate is the fraction of members that then test absent.
	attackRemoveRandom = "removing random keys"
	attackRemoveForged = "removing forged keys, known hashing"
	attackRemoveKeyed  = "removing forged keys, keyed hash"
)

// adversaryVariants are the variants the pollution and forging parts
// attack.
var adversaryVariants = []string{"standard", "partitioned", "blocked", "scalable"}

var adversaryExperiment = Experiment{
	Name: "adversary",
	Summary: "filters under attack: pollution by keys chosen with known hashing (standard, partitioned, blocked, scalable), " +
		"forged false positives, false negatives from removing forged keys (counting), each against random keys, theory, and a keyed hash",
	Variants:  append(append([]string(nil), adversaryVariants...), "counting"),
	Shardable: true,
	flags:     fixedFlags("n", "p", "filters", "queries", "candidates"),
	defaults: func(_ string, quick bool) experiments.Params {
		if quick {
			return experiments.Params{N: 1000, P: 0.01, Filters: 10, Queries: 10_000, Conf: 0.95, Span: 1, Checkpoints: 1,
				Candidates: []uint64{1, 10, 100}}
		}
		return experiments.Params{N: 5000, P: 0.01, Filters: 20, Queries: 20_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			Candidates: adversaryCandidates}
	},
	plan:      planAdversary,
	summarize: summarizeAdversary,
	figure:    adversaryFigure,
}

// adversaryBuilder returns a builder for one of adversaryVariants sized
// for n at p (a scalable filter grows from n/10), and its theory at n
// items.
func adversaryBuilder(variant string, n uint64, p float64) (builder, variants.Stats, float64, string, error) {
	if variant == "scalable" {
		spec := scalableSpec{P: p, R: variants.DefaultTighteningRatio, S: variants.DefaultGrowth, N0: max(1, n/10)}
		geom := analysis.Scalable{P: spec.P, R: spec.R, S: spec.S, N0: spec.N0}
		if err := geom.Validate(); err != nil {
			return nil, variants.Stats{}, 0, "", paramError("p", "%v", err)
		}
		th, err := scalableFPR(geom, n)
		if err != nil {
			return nil, variants.Stats{}, 0, "", paramError("n", "%v", err)
		}
		return scalableBuilder(spec), variants.Stats{}, th, "scalable", nil
	}
	b, err := sized(variant, n, p, 0)
	if err != nil {
		return nil, variants.Stats{}, 0, "", err
	}
	st, err := probe(b)
	if err != nil {
		return nil, variants.Stats{}, 0, "", paramError("n", "%v", err)
	}
	theory, model := variantTheory(variant, st)
	return b, st, theory(n), model, nil
}

// planAdversary plans the three parts of the adversary experiment on
// filters sized for N at P, each series on its own Filters filters.
//
// Pollution: for each of adversaryVariants, N keys are inserted, random
// (attackRandom), chosen with the known hashing as the best of T
// candidates for each T of Candidates (attackChosen, one row per T), or
// chosen so with the largest T against a keyed filter
// (attackChosenKeyed); Rate is then the fraction of Queries
// never-inserted keys that test present. Theory is the variant's rate at
// N random keys for the random and keyed rows and for T = 1 (random
// candidates are random keys); for T > 1 it is the greedy attacker's
// rate analysis.PollutedFPR for a standard filter, and none for the other
// variants, whose state under attack is not one number (see there).
//
// Forging: filters hold N random keys; the attacker, who knows the
// hashing and the bits, tests candidates offline on its copy until it
// has Queries/10 (at least 100) that test present. attackForgeOffline rows count the
// forged keys among the first Queries/(10 P) candidates (Rate is the
// offline success rate; 1/Rate candidates per forged key);
// attackForgedOnline and attackForgedKeyed rows count the forged keys
// the filter itself reports present.
//
// Counting: counting filters hold N members; the attacker removes keys
// (random never-inserted ones, forged ones, or ones forged without the
// key of a keyed filter) up to N/100 and N/10 removals; Rate is the
// fraction of members that then test absent, Removed the removals that
// succeeded.
//
// A run on one variant plans only that variant's part.
func planAdversary(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	known := variants.Hashing{}
	keyed := variants.Hashing{Kind: variants.SipHash}
	ts := p.Candidates
	if len(ts) == 0 {
		return nil, paramError("candidates", "none given, want at least one T >= 1")
	}
	most := slices.Max(ts)
	if p.N > maxQueries/most {
		return nil, paramError("candidates", "%d: the attacker would examine n T = %d x %d candidates per filter, more than %d", most, p.N, most, uint64(maxQueries))
	}
	for _, v := range adversaryVariants {
		if variant != "all" && variant != v {
			continue
		}
		b, st, th, model, err := adversaryBuilder(v, p.N, p.P)
		if err != nil {
			return nil, err
		}
		type attack struct {
			attack string
			h      variants.Hashing
			t      uint64 // candidates per key; 0 for random keys
		}
		attacks := []attack{{attackRandom, known, 0}}
		for _, t := range ts {
			attacks = append(attacks, attack{attackChosen, known, t})
		}
		attacks = append(attacks, attack{attackChosenKeyed, keyed, most})
		for _, a := range attacks {
			row := experiments.Row{Series: v + ": " + a.attack, Variant: v, Hashing: hashingName(a.h), Items: p.N, Capacity: p.N,
				Candidates: a.t, Hashes: st.Hashes, Filters: p.Filters, Queries: p.Queries, Theory: th, Target: p.P}
			key := "adversary/pollution/" + v + "/" + a.attack
			switch {
			case a.attack != attackChosen || a.t == 1:
				// The theory describes keys independent of the hash:
				// random ones, the one candidate of T = 1, and chosen
				// ones the key hides from.
				row.Model = model
			case v == "standard":
				if row.Theory, err = analysis.PollutedFPR(st.Cells, p.N, st.Hashes, a.t); err != nil {
					return nil, paramError("n", "%v", err)
				}
				row.Model = pollutionModel
			default:
				row.Theory = 0
			}
			if a.attack == attackChosen {
				key += fmt.Sprintf("/T=%d", a.t)
			}
			pl.Groups = append(pl.Groups, experiments.Group{Key: key, Filters: p.Filters, Hashing: a.h,
				Rows: []int{pl.AddRow(row)}, Run: pollution(b, p.N, a.t, a.h.Kind == variants.SipHash)})
		}

		forged := forgedKeys(p)
		offline := uint64(math.Ceil(float64(forged) / p.P))
		if offline > maxQueries {
			return nil, paramError("p", "%g: forging would test %d candidates per filter", p.P, offline)
		}
		g := experiments.Group{Key: "adversary/forging/" + v, Filters: p.Filters, Hashing: known, Run: forging(b, p.N, offline, forged, false)}
		g.Rows = append(g.Rows,
			pl.AddRow(experiments.Row{Series: v + ": " + attackForgeOffline, Variant: v, Hashing: hashingName(known), Items: p.N, Capacity: p.N,
				Filters: p.Filters, Queries: offline, Theory: th, Model: model, Target: p.P}),
			pl.AddRow(experiments.Row{Series: v + ": " + attackForgedOnline, Variant: v, Hashing: hashingName(known), Items: p.N, Capacity: p.N,
				Filters: p.Filters, Queries: forged, Theory: 1, Target: p.P}))
		pl.Groups = append(pl.Groups, g)
		pl.Groups = append(pl.Groups, experiments.Group{Key: "adversary/forging-keyed/" + v, Filters: p.Filters, Hashing: keyed, Run: forging(b, p.N, offline, forged, true),
			Rows: []int{pl.AddRow(experiments.Row{Series: v + ": " + attackForgedKeyed, Variant: v, Hashing: hashingName(keyed), Items: p.N, Capacity: p.N,
				Filters: p.Filters, Queries: forged, Theory: th, Model: model, Target: p.P})}})
	}

	if variant != "all" && variant != "counting" {
		return pl, nil
	}
	cb := countingBuilder(p.N, p.P, 0)
	st, err := probe(cb)
	if err != nil {
		return nil, paramError("n", "%v", err)
	}
	removals := []uint64{max(1, p.N/100), max(1, p.N/10)}
	for _, a := range []struct {
		attack string
		h      variants.Hashing
	}{{attackRemoveRandom, known}, {attackRemoveForged, known}, {attackRemoveKeyed, keyed}} {
		g := experiments.Group{Key: "adversary/counting/" + a.attack, Filters: p.Filters, Hashing: a.h, Run: forgedRemovals(cb, a.attack)}
		for _, r := range removals {
			g.Rows = append(g.Rows, pl.AddRow(experiments.Row{Series: "counting: " + a.attack, Variant: "counting", Hashing: hashingName(a.h),
				Width: variants.DefaultCounterWidth, Items: p.N, Capacity: p.N, Removals: r, Bits: st.Bits, Cells: st.Cells,
				Hashes: st.Hashes, Filters: p.Filters, Queries: p.N, Target: p.P}))
		}
		pl.Groups = append(pl.Groups, g)
	}
	pl.Notes = append(pl.Notes,
		fmt.Sprintf("filters sized for n = %d at p = %g (a scalable filter grows from n0 = n/10); pollution: for each inserted key the attacker examines T = %s candidates and inserts the first with the most distinct fresh cells (variants.FreshCounter), stopping early at one whose k cells are all fresh, which no other can beat; the theory for T > 1 is analysis.PollutedFPR (standard filters only)", p.N, p.P, joinUints(ts)),
		"the attacker knows the hashing (kind and seed, as a saved filter records them); against a keyed filter it does not know the key and chooses or forges with the default hashing",
		fmt.Sprintf("forging: the attacker also knows the filter's bits (a copy) and searches offline; %d forged keys per filter are tested online; a blind attacker needs 1/rate queries per false positive", forgedKeys(p)))
	return pl, nil
}

// pollution fills a filter with n keys, random (t = 0) or chosen, and
// counts the false positives among the row's queries. A chosen key is, of
// the next t candidates, the first with the most fresh cells in the
// attacker's view: the filter itself when the attacker knows the
// hashing, or a copy built with the default hashing when the filter is
// keyed.
func pollution(build builder, n, t uint64, keyed bool) experiments.RunFunc {
	chosen := t > 0
	return func(ctx context.Context, job *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := build(job.Hashing)
		if err != nil {
			return err
		}
		view, guess := f, job.Hashing
		if keyed {
			guess = variants.Hashing{}
			if view, err = build(guess); err != nil {
				return err
			}
		}
		fc, ok := view.(variants.FreshCounter)
		if chosen && !ok {
			return fmt.Errorf("experiments: %T cannot count fresh cells", view)
		}
		var next uint64
		var k int
		for i := range n {
			if i%(interruptEvery/(t+1)+1) == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if !chosen {
				f.Add(job.Member(i))
				continue
			}
			if i%256 == 0 {
				k = view.Stats().Hashes // a scalable filter's k grows with its stages
			}
			best := next
			if t > 1 {
				most := -1
				for c := next; c < next+t; c++ {
					if fresh := fc.FreshCells(guess.Digest(job.Candidate(c))); fresh > most {
						best, most = c, fresh
						if fresh >= k {
							break // no candidate can do better
						}
					}
				}
			}
			next += t
			f.Add(job.Candidate(best))
			if keyed {
				view.Add(job.Candidate(best))
			}
		}
		positives, err := job.CountPositives(ctx, f, rows[0].Queries)
		if err != nil {
			return err
		}
		st := f.Stats()
		out[0].Count, out[0].Bits, out[0].Estimated, out[0].Stages = positives, st.Bits, st.EstimatedFPR, len(st.Stages)
		return nil
	}
}

// joinUints formats xs as "1, 10 and 100".
func joinUints(xs []uint64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatUint(x, 10)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// forging fills a filter with n random keys, then forges keys that test
// present on the attacker's copy: the filter itself for known hashing, a
// copy with the same keys under the default hashing for a keyed filter.
// With known hashing the rows are the offline success rate over the
// first offline candidates and the online hit rate of the first
// forged forged keys; keyed, only the latter.
func forging(build builder, n, offline, forged uint64, keyed bool) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := build(t.Hashing)
		if err != nil {
			return err
		}
		view := f
		if keyed {
			if view, err = build(variants.Hashing{}); err != nil {
				return err
			}
		}
		for i := range n {
			if i%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			f.Add(t.Member(i))
			if keyed {
				view.Add(t.Member(i))
			}
		}
		var found, hits, tried uint64
		for c := uint64(0); found < forged || (!keyed && c < offline); c++ {
			if c%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if c >= 1<<40 {
				return fmt.Errorf("experiments: forging found %d keys in %d candidates", found, c)
			}
			key := t.Candidate(c)
			if !view.Contains(key) {
				continue
			}
			if c < offline {
				tried++
			}
			if found < forged {
				found++
				if f.Contains(key) {
					hits++
				}
			}
		}
		st := f.Stats()
		j := 0
		if !keyed {
			out[0].Count = tried
			out[0].Bits, out[0].Estimated, out[0].Stages = st.Bits, st.EstimatedFPR, len(st.Stages)
			j = 1
		}
		out[j].Count = hits
		out[j].Bits, out[j].Estimated, out[j].Stages = st.Bits, st.EstimatedFPR, len(st.Stages)
		return nil
	}
}

// forgedRemovals fills a counting filter with the row's Items members,
// then removes keys up to each row's Removals: random never-inserted keys
// (attackRemoveRandom), or keys that test present on the attacker's copy
// (the filter itself, or, keyed, a copy with the default hashing), and
// counts the members that test absent.
func forgedRemovals(build builder, attack string) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := build(t.Hashing)
		if err != nil {
			return err
		}
		rm, ok := f.(variants.Remover)
		if !ok {
			return fmt.Errorf("experiments: %T cannot remove", f)
		}
		view := f
		keyed := attack == attackRemoveKeyed
		if keyed {
			if view, err = build(variants.Hashing{}); err != nil {
				return err
			}
		}
		members := rows[0].Items
		for i := range members {
			if i%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			f.Add(t.Member(i))
			if keyed {
				view.Add(t.Member(i))
			}
		}
		var offered, removed, c uint64
		for j, r := range rows {
			for ; offered < r.Removals; offered++ {
				var key []byte
				if attack == attackRemoveRandom {
					key = t.Stranger(offered)
				} else {
					for ; ; c++ {
						if c%interruptEvery == 0 && ctx.Err() != nil {
							return ctx.Err()
						}
						if c >= 1<<40 {
							return fmt.Errorf("experiments: forging found no key in %d candidates", c)
						}
						if view.Contains(t.Candidate(c)) {
							break
						}
					}
					key = t.Candidate(c)
					c++
				}
				if rm.Remove(key) {
					removed++
				}
				if keyed {
					view.(variants.Remover).Remove(key)
				}
			}
			var lost uint64
			for i := range members {
				if !f.Contains(t.Member(i)) {
					lost++
				}
			}
			st := f.Stats()
			out[j].Count, out[j].Removed, out[j].Bits, out[j].Estimated = lost, removed, st.Bits, st.EstimatedFPR
		}
		return nil
	}
}

// zScore returns (rate - theory)/se for a row with theory, se the
// standard error of the mean of its filters' rates, and false if the row
// has no theory or its filters all measured the same.
func zScore(r *experiments.Row) (float64, bool) {
	if r.Model == "" || r.Queries == 0 || len(r.Trials) < 2 {
		return 0, false
	}
	rates := make([]float64, len(r.Trials))
	for i, t := range r.Trials {
		rates[i] = float64(t.Count) / float64(r.Queries)
	}
	se := stats.StandardError(rates)
	if !(se > 0) {
		return 0, false
	}
	return (r.Rate - r.Theory) / se, true
}

// vsTheory formats a row's rate, interval and, where it has one, theory
// and z-score.
func vsTheory(r *experiments.Row) string {
	s := fmt.Sprintf("%.4g [%.4g, %.4g]", r.Rate, r.Lo, r.Hi)
	if r.Model == "" {
		return s + " (no theory)"
	}
	s += fmt.Sprintf(", theory %.4g", r.Theory)
	if z, ok := zScore(r); ok {
		s += fmt.Sprintf(", z = %+.1f", z)
	}
	return s
}

// summarizeAdversary states, per variant, the rate after chosen keys for
// each T beside its theory with z-scores, the factor by which the largest
// T raises the rate over random keys, the keyed filter's rate against
// theory, the queries per false positive of a forging and a blind
// attacker, and the members lost to removals.
func summarizeAdversary(r *experiments.Results) []string {
	find := func(series string, removals, t uint64) *experiments.Row {
		for i := range r.Rows {
			if row := &r.Rows[i]; row.Series == series && row.Removals == removals && row.Candidates == t {
				return row
			}
		}
		return nil
	}
	var notes []string
	for _, v := range adversaryVariants {
		var chosen []*experiments.Row
		for i := range r.Rows {
			if row := &r.Rows[i]; row.Series == v+": "+attackChosen {
				chosen = append(chosen, row)
			}
		}
		rnd := find(v+": "+attackRandom, 0, 0)
		if rnd != nil && len(chosen) > 0 && rnd.Rate > 0 {
			top := chosen[0]
			var parts []string
			for _, ch := range chosen {
				parts = append(parts, fmt.Sprintf("T = %d: %s", ch.Candidates, vsTheory(ch)))
				if ch.Candidates > top.Candidates {
					top = ch
				}
			}
			note := fmt.Sprintf("%s: after n random keys the rate is %s; after n keys chosen with known hashing as the best of T candidates, %s; T = %d gives %.1fx the rate of random keys",
				v, vsTheory(rnd), strings.Join(parts, "; "), top.Candidates, top.Rate/rnd.Rate)
			if ky := find(v+": "+attackChosenKeyed, 0, top.Candidates); ky != nil && ky.Theory > 0 {
				note += fmt.Sprintf("; against a keyed filter the same attacker gets %s, %.2fx the theory", vsTheory(ky), ky.Rate/ky.Theory)
			}
			if (v == "standard" || v == "partitioned") && top.Bits > 0 && top.Hashes > 0 {
				// Every chosen key setting k fresh bits (Gerbet, Kumar and
				// Lauradoux 2015): n k of the m bits set, a bound for any
				// attacker.
				note += fmt.Sprintf("; if every chosen key set k = %d fresh bits the rate would be (n k/m)^k = %.4g", top.Hashes,
					analysis.PollutionBound(top.Bits, top.Items, top.Hashes))
			}
			notes = append(notes, note)
		}
		off, on, onk := find(v+": "+attackForgeOffline, 0, 0), find(v+": "+attackForgedOnline, 0, 0), find(v+": "+attackForgedKeyed, 0, 0)
		if off != nil && on != nil && onk != nil && off.Rate > 0 && on.Rate > 0 && rnd != nil && rnd.Rate > 0 {
			kq := "no forged key tested present"
			if onk.Rate > 0 {
				kq = fmt.Sprintf("%.0f queries", 1/onk.Rate)
			}
			notes = append(notes, fmt.Sprintf("%s: forging with known hashing and bits takes %.0f offline trials and %.2f queries per false positive; a blind attacker needs %.0f queries (1/rate), and one forging against a keyed filter without its key %s",
				v, 1/off.Rate, 1/on.Rate, 1/rnd.Rate, kq))
		}
	}
	var parts []string
	for _, a := range []string{attackRemoveRandom, attackRemoveForged, attackRemoveKeyed} {
		for i := range r.Rows {
			row := &r.Rows[i]
			if row.Series == "counting: "+a {
				parts = append(parts, fmt.Sprintf("%s: %d removals lose %.3g%% of the members", a, row.Removals, 100*row.Rate))
			}
		}
	}
	if len(parts) > 0 {
		notes = append(notes, "counting: "+strings.Join(parts, "; "))
	}
	return notes
}
