package compare

import (
	"context"
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
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

// timeChunk is the number of keys generated (untimed) before each timed
// run of operations.
const timeChunk = 1024

// keyChunk writes keys first to first+len(dst)-1 of stream into buf and
// returns them in dst: 16 bytes, the stream id then the key's index, both
// little-endian.
func keyChunk(buf []byte, dst [][]byte, stream, first uint64) [][]byte {
	for i := range dst {
		k := buf[16*i : 16*i+16 : 16*i+16]
		binary.LittleEndian.PutUint64(k, stream)
		binary.LittleEndian.PutUint64(k[8:], first+uint64(i))
		dst[i] = k
	}
	return dst
}

// Time measures the speed of the filter of c holding n keys, on one
// goroutine: the time per key of filling empty filters (Add, then Build
// for a static filter), then the time per Contains of present and of
// absent keys on the last filter filled. The keys depend only on o.Seed,
// so every config gets the same keys: members key(s1, 0..n-1), absent keys
// key(s2, 0..Queries-1) of a second stream. Keys are generated in chunks of
// 1024 between timed runs, so their cost is not timed. Each measurement
// is repeated o.Passes times and the median reported. Time also counts the
// false positives among the absent keys, and reports an error if a member
// tests absent or a static filter cannot be built.
//
// The filter is called through the experiments.Filter interface, as the
// harness calls it; every filter hashes the key itself (a static filter
// with XXH3 to the 64 bits its library takes). Times are wall-clock, on a
// machine that may be shared: compare them within one run.
func Time(ctx context.Context, c Config, n uint64, o TimeOptions) (Timing, error) {
	if n < 1 || o.Queries < 1 || o.Passes < 1 {
		return Timing{}, fmt.Errorf("compare: timing %s with %d keys, %d queries, %d passes: want at least 1 of each", c.Spec.Name, n, o.Queries, o.Passes)
	}
	members, absent := splitmix64(o.Seed^0x6d656d62), splitmix64(o.Seed^0x61627365)
	buf := make([]byte, 16*timeChunk)
	keys := make([][]byte, timeChunk)
	var f experiments.Filter
	fill := func() (time.Duration, error) {
		g, err := c.Spec.New(splitmix64(o.Seed))
		if err != nil {
			return 0, fmt.Errorf("compare: %s: %w", c.Spec.Name, err)
		}
		var took time.Duration
		for i := uint64(0); i < n; i += timeChunk {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			batch := keyChunk(buf, keys[:min(timeChunk, n-i)], members, i)
			start := time.Now()
			for _, k := range batch {
				g.Add(k)
			}
			took += time.Since(start)
		}
		if b, ok := g.(Builder); ok {
			start := time.Now()
			err := b.Build()
			took += time.Since(start)
			if err != nil {
				return 0, err
			}
		}
		f = g
		return took, nil
	}
	rounds := max(1, (o.MinInserts+n-1)/n)
	var insert []float64
	for range o.Passes {
		var took time.Duration
		f = nil
		runtime.GC() // collect the last pass's filters, untimed
		for range rounds {
			d, err := fill()
			if err != nil {
				return Timing{}, err
			}
			took += d
		}
		insert = append(insert, float64(took.Nanoseconds())/float64(rounds*n))
	}

	var present, miss []float64
	var positives uint64
	for pass := range o.Passes {
		var took time.Duration
		var hits uint64
		for done := uint64(0); done < o.Queries; {
			if err := ctx.Err(); err != nil {
				return Timing{}, err
			}
			first := done % n // cycle through the members
			batch := keyChunk(buf, keys[:min(timeChunk, o.Queries-done, n-first)], members, first)
			done += uint64(len(batch))
			start := time.Now()
			for _, k := range batch {
				if f.Contains(k) {
					hits++
				}
			}
			took += time.Since(start)
		}
		if hits != o.Queries {
			return Timing{}, fmt.Errorf("compare: %s: %d of %d members test absent", c.Spec.Name, o.Queries-hits, o.Queries)
		}
		present = append(present, float64(took.Nanoseconds())/float64(o.Queries))

		took, hits = 0, 0
		for i := uint64(0); i < o.Queries; i += timeChunk {
			if err := ctx.Err(); err != nil {
				return Timing{}, err
			}
			batch := keyChunk(buf, keys[:min(timeChunk, o.Queries-i)], absent, i)
			start := time.Now()
			for _, k := range batch {
				if f.Contains(k) {
					hits++
				}
			}
			took += time.Since(start)
		}
		if pass == 0 {
			positives = hits
		}
		miss = append(miss, float64(took.Nanoseconds())/float64(o.Queries))
	}
	if err := c.Err(); err != nil {
		return Timing{}, err
	}
	var bits uint64
	switch s := f.(type) {
	case interface{ Stats() variants.Stats }:
		bits = s.Stats().Bits
	case experiments.Sizer:
		bits = s.Bits()
	}
	iv, err := analysis.ClopperPearson(positives, o.Queries, 0.95)
	if err != nil {
		return Timing{}, fmt.Errorf("compare: %w", err)
	}
	return Timing{
		Series: c.Spec.Name, Structure: c.Structure, Target: c.Target, Static: c.Static,
		Items: n, Bits: bits, BitsPerKey: float64(bits) / float64(n),
		NsPerInsert: median(insert), NsPerPresent: median(present), NsPerAbsent: median(miss),
		Queries: o.Queries, FalsePositives: positives, Rate: float64(positives) / float64(o.Queries), Lo: iv.Lo, Hi: iv.Hi,
	}, nil
}

// median returns the median of xs (the mean of the middle two for an even
// count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
