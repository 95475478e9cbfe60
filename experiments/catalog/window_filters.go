package catalog

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// The two baselines of the window experiment, the usual engineering
// answers to a sliding window, as variants.Filter values built from
// variants.Standard. They live here, not in package variants, because
// they are reference designs to measure against, not filters to
// recommend: they forget items by design (so the variants conformance
// suite's "never a false negative" does not apply), and they have no
// format code of their own. Their exact theory is in package analysis
// (AlternatingWindow, ClearedWindow).

// alternatingFilter is analysis.AlternatingWindow as a filter: two
// standard filters of the same geometry; every key goes into both, a
// query asks the older, and after every half-th add the older is cleared
// and becomes the newer. The newest half items always test present.
type alternatingFilter struct {
	older, newer *variants.Standard
	half, adds   uint64
}

var _ variants.Filter = (*alternatingFilter)(nil)

// newAlternating returns an empty alternating pair of geometry w.
func newAlternating(w analysis.AlternatingWindow, h variants.Hashing) (*alternatingFilter, error) {
	if err := w.Validate(); err != nil {
		return nil, paramError("window", "%v", err)
	}
	g := variants.Geometry{Bits: w.Bits, Hashes: w.Hashes}
	a, err := variants.NewStandard(g, h)
	if err != nil {
		return nil, fmt.Errorf("experiments: alternating pair: %w", err)
	}
	b, err := variants.NewStandard(g, h)
	if err != nil {
		return nil, fmt.Errorf("experiments: alternating pair: %w", err)
	}
	return &alternatingFilter{older: a, newer: b, half: w.Half}, nil
}

// Add, Contains, TestAndAdd, ContainsDigest and Hashing are those of
// variants.Filter; the queries go to the older filter.
func (f *alternatingFilter) Add(key []byte)           { f.AddDigest(f.older.Hashing().Digest(key)) }
func (f *alternatingFilter) Contains(key []byte) bool { return f.older.Contains(key) }
func (f *alternatingFilter) TestAndAdd(key []byte) bool {
	return f.TestAndAddDigest(f.older.Hashing().Digest(key))
}
func (f *alternatingFilter) ContainsDigest(d variants.Digest) bool { return f.older.ContainsDigest(d) }
func (f *alternatingFilter) Hashing() variants.Hashing             { return f.older.Hashing() }

// AddDigest adds d to both filters, then swaps them after every half-th add.
func (f *alternatingFilter) AddDigest(d variants.Digest) {
	f.older.AddDigest(d)
	f.newer.AddDigest(d)
	f.adds++
	if f.adds%f.half == 0 {
		f.older.Reset()
		f.older, f.newer = f.newer, f.older
	}
}

// TestAndAddDigest reports whether d tested present before it was added.
func (f *alternatingFilter) TestAndAddDigest(d variants.Digest) bool {
	present := f.older.ContainsDigest(d)
	f.AddDigest(d)
	return present
}

// Stats reports the pair's memory (both filters) and the older filter's
// load, which is what queries see.
func (f *alternatingFilter) Stats() variants.Stats {
	st := f.older.Stats()
	st.Variant = "alternating"
	st.Cells *= 2
	st.Bits *= 2
	return st
}

// Reset empties both filters.
func (f *alternatingFilter) Reset() {
	f.older.Reset()
	f.newer.Reset()
	f.adds = 0
}

// clearedFilter is analysis.ClearedWindow as a filter: one standard
// filter that an add finding it at capacity clears first. Only the newest
// item is sure to test present.
type clearedFilter struct {
	f              *variants.Standard
	capacity, held uint64
}

var _ variants.Filter = (*clearedFilter)(nil)

// newCleared returns an empty cleared filter of geometry w.
func newCleared(w analysis.ClearedWindow, h variants.Hashing) (*clearedFilter, error) {
	if err := w.Validate(); err != nil {
		return nil, paramError("window", "%v", err)
	}
	s, err := variants.NewStandard(variants.Geometry{Bits: w.Bits, Hashes: w.Hashes}, h)
	if err != nil {
		return nil, fmt.Errorf("experiments: cleared filter: %w", err)
	}
	return &clearedFilter{f: s, capacity: w.Capacity}, nil
}

// Add, Contains, TestAndAdd, ContainsDigest and Hashing are those of
// variants.Filter.
func (c *clearedFilter) Add(key []byte)           { c.AddDigest(c.f.Hashing().Digest(key)) }
func (c *clearedFilter) Contains(key []byte) bool { return c.f.Contains(key) }
func (c *clearedFilter) TestAndAdd(key []byte) bool {
	return c.TestAndAddDigest(c.f.Hashing().Digest(key))
}
func (c *clearedFilter) ContainsDigest(d variants.Digest) bool { return c.f.ContainsDigest(d) }
func (c *clearedFilter) Hashing() variants.Hashing             { return c.f.Hashing() }

// AddDigest clears the filter if it holds capacity items, then adds d.
func (c *clearedFilter) AddDigest(d variants.Digest) {
	if c.held == c.capacity {
		c.f.Reset()
		c.held = 0
	}
	c.f.AddDigest(d)
	c.held++
}

// TestAndAddDigest reports whether d tested present before it was added.
func (c *clearedFilter) TestAndAddDigest(d variants.Digest) bool {
	present := c.f.ContainsDigest(d)
	c.AddDigest(d)
	return present
}

// Stats reports the filter's geometry and load.
func (c *clearedFilter) Stats() variants.Stats {
	st := c.f.Stats()
	st.Variant = "cleared"
	st.Capacity = c.capacity
	return st
}

// Reset empties the filter.
func (c *clearedFilter) Reset() {
	c.f.Reset()
	c.held = 0
}
