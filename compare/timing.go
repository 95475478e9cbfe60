package compare

import (
	"context"
	"fmt"

	"github.com/bloomlab/bloomlab/experiments"
)

// Timing is the speed of one filter of a Config holding Items keys, as Time
// measured it, and the false-positive rate of that one filter.
type Timing struct {
	// Series is the Config's spec name; Structure, Target and Static are
	// the Config's.
	Series    string  `json:"series"`
	Structure string  `json:"structure"`
	Target    float64 `json:"target"`
	Static    bool    `json:"static,omitempty"`
	// Items is the number of keys the filter holds, and Bits the bits of
	// its cells.
	Items      uint64  `json:"items"`
	Bits       uint64  `json:"bits"`
	BitsPerKey float64 `json:"bits_per_key"`
	// NsPerInsert is the time per key of filling an empty filter with
	// Items keys: Add for a Bloom filter; for a static filter, Add (which
	// hashes and keeps the key) and then Build, divided by Items.
	NsPerInsert float64 `json:"ns_per_insert"`
	// NsPerPresent and NsPerAbsent are the times of one Contains of a key
	// the filter holds and of one it does not.
	NsPerPresent float64 `json:"ns_per_present"`
	NsPerAbsent  float64 `json:"ns_per_absent"`
	// FalsePositives of Queries absent keys tested positive: the filter's
	// rate, Rate, in [Lo, Hi], the Clopper-Pearson interval at 95%.
	Queries        uint64  `json:"queries"`
	FalsePositives uint64  `json:"false_positives"`
	Rate           float64 `json:"rate"`
	Lo             float64 `json:"lo"`
	Hi             float64 `json:"hi"`
}

// TimeOptions are the parameters of Time.
type TimeOptions struct {
	// Seed selects the keys (the same for every config given the same
	// seed) and the filter's hash seed, where it takes one.
	Seed uint64
	// Queries is the number of present and of absent keys timed per pass
	// (present keys cycle through the filter's keys when Queries exceeds
	// them); at least 1.
	Queries uint64
	// MinInserts is the fewest insertions to time per pass: filling one
	// filter of n keys is repeated, on fresh filters, until at least
	// MinInserts keys were inserted, so that small filters are timed over
	// more than a few microseconds.
	MinInserts uint64
	// Passes is the number of times each measurement is repeated; the
	// median pass is reported. At least 1.
	Passes int
}

// Time measures the speed of the filter of c holding n keys by
// experiments.Time, the harness's open timing, so that the frontier's
// times come from the method its rates come from: on one goroutine, the
// time per key of filling empty filters (Add, then Build for a static
// filter; repeated on new filters until at least o.MinInserts keys were
// added), then the time per Contains of present and of absent keys on the
// last filter filled. Keys are made in chunks between timed runs, so their
// cost is not timed; every config gets the same keys at the same n (they
// depend on o.Seed and n only). Each measurement is repeated o.Passes
// times and the median reported. Time also counts the false positives
// among the absent keys (the rate of the first pass, with its 95%
// Clopper-Pearson interval), and reports an error if a member tests absent
// or a static filter cannot be built.
//
// Times are wall-clock, on a machine that may be shared: compare them
// within one run.
func Time(ctx context.Context, c Config, n uint64, o TimeOptions) (Timing, error) {
	if n < 1 || o.Queries < 1 || o.Passes < 1 {
		return Timing{}, fmt.Errorf("compare: timing %s with %d keys, %d queries, %d passes: want at least 1 of each", c.Spec.Name, n, o.Queries, o.Passes)
	}
	spec := experiments.TimeSpec{
		Name: c.Spec.Name,
		New:  func(_, seed uint64) (experiments.Filter, error) { return c.Spec.New(seed) },
	}
	p := experiments.Params{Keys: []uint64{n}, Queries: o.Queries, MinAdds: max(o.MinInserts, 1), Passes: o.Passes}
	r, err := experiments.Time(ctx, []experiments.TimeSpec{spec}, p, experiments.Options{Seed: o.Seed})
	if err != nil {
		if ctx.Err() != nil {
			return Timing{}, ctx.Err()
		}
		return Timing{}, fmt.Errorf("compare: %w", err)
	}
	if err := c.Err(); err != nil {
		return Timing{}, err
	}
	row := r.Rows[0]
	return Timing{
		Series: c.Spec.Name, Structure: c.Structure, Target: c.Target, Static: c.Static,
		Items: n, Bits: row.Bits, BitsPerKey: float64(row.Bits) / float64(n),
		NsPerInsert: row.NsPerAdd, NsPerPresent: row.NsPerPresent, NsPerAbsent: row.NsPerQuery,
		Queries: o.Queries, FalsePositives: row.Trials[0].Count, Rate: row.Rate, Lo: row.Lo, Hi: row.Hi,
	}, nil
}
