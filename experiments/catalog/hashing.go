package catalog

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// refFilter is a plain bit array indexed by a reference scheme that
// bloomlab does not use, to compare with its own hashing: MD5 as the
// classic Java tutorial filter uses it, and 64-bit FNV-1a with double
// hashing. It is not a variant: it exists only for the hashing
// experiment.
type refFilter struct {
	words   []uint64
	m       uint64
	k       int
	items   uint64
	indexes func(dst []uint64, key []byte, k int, m uint64) []uint64
	scratch []uint64
}

func newRefFilter(m uint64, k int, indexes func([]uint64, []byte, int, uint64) []uint64) *refFilter {
	return &refFilter{words: make([]uint64, (m+63)/64), m: m, k: k, indexes: indexes, scratch: make([]uint64, 0, k)}
}

// Add sets the bits of key.
func (f *refFilter) Add(key []byte) {
	for _, i := range f.indexes(f.scratch[:0], key, f.k, f.m) {
		f.words[i>>6] |= 1 << (i & 63)
	}
	f.items++
}

// Contains reports whether every bit of key is set.
func (f *refFilter) Contains(key []byte) bool {
	for _, i := range f.indexes(f.scratch[:0], key, f.k, f.m) {
		if f.words[i>>6]&(1<<(i&63)) == 0 {
			return false
		}
	}
	return true
}

// Stats reports the geometry and fill as a standard filter would.
func (f *refFilter) Stats() variants.Stats {
	var set int
	for _, w := range f.words {
		set += bits.OnesCount64(w)
	}
	fill := float64(set) / float64(f.m)
	return variants.Stats{Variant: "standard", Cells: f.m, CellBits: 1, Bits: f.m, Hashes: f.k,
		Items: f.items, FillRatio: fill, EstimatedFPR: math.Pow(fill, float64(f.k))}
}

// md5Indexes derives k indexes as the classic Java tutorial filter does
// (Magnus Skjegstad's BloomFilter.java, after which many tutorials are
// written): MD5 of a salt byte followed by the key, for salt = 0, 1, ...,
// each 4-byte big-endian chunk of a digest read as a signed 32-bit h, and
// the index |h mod m| with Java's signed remainder.
func md5Indexes(dst []uint64, key []byte, k int, m uint64) []uint64 {
	var buf [64]byte
	msg := append(buf[:1], key...)
	for salt := 0; len(dst) < k; salt++ {
		msg[0] = byte(salt)
		d := md5.Sum(msg)
		for c := 0; c < 4 && len(dst) < k; c++ {
			h := int64(int32(binary.BigEndian.Uint32(d[4*c:])))
			r := h % int64(m)
			if r < 0 {
				r = -r
			}
			dst = append(dst, uint64(r))
		}
	}
	return dst
}

// fnvIndexes derives k indexes by double hashing from the two 32-bit
// halves of the 64-bit FNV-1a hash of the key, reduced modulo m:
// g_i = (h1 + i h2) mod m, a scheme common in small Bloom filter
// implementations.
func fnvIndexes(dst []uint64, key []byte, k int, m uint64) []uint64 {
	h := uint64(14695981039346656037)
	for _, c := range key {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h1, h2 := h&0xffffffff, h>>32
	for i := range uint64(k) {
		dst = append(dst, (h1+i*h2)%m)
	}
	return dst
}

// hashingOption is one series of the hashing experiment.
type hashingOption struct {
	name    string
	hashing variants.Hashing
	ref     func([]uint64, []byte, int, uint64) []uint64
}

var hashingOptions = []hashingOption{
	{name: "xxh3/enhanced-double", hashing: variants.Hashing{Kind: variants.XXH3, Derivation: variants.EnhancedDouble}},
	{name: "xxh3/double", hashing: variants.Hashing{Kind: variants.XXH3, Derivation: variants.Double}},
	{name: "xxh3/triple", hashing: variants.Hashing{Kind: variants.XXH3, Derivation: variants.Triple}},
	{name: "xxh3/independent", hashing: variants.Hashing{Kind: variants.XXH3, Derivation: variants.Independent}},
	{name: "metro/enhanced-double", hashing: variants.Hashing{Kind: variants.Metro, Derivation: variants.EnhancedDouble}},
	{name: "md5 (Java tutorial)", ref: md5Indexes},
	{name: "fnv-1a/double mod m", ref: fnvIndexes},
}

var hashingExperiment = Experiment{
	Name: "hashing",
	Summary: "index derivations (enhanced double, double, triple, independent) and hash functions (xxh3, go-metro; " +
		"MD5 as in the classic Java tutorial and FNV-1a for reference): rate excess over exact theory at small m, and time per key",
	Variants:  []string{"standard"},
	Timed:     true,
	Shardable: true,
	flags:     fixedFlags("filters", "queries", "keys"),
	defaults: func(string, bool) experiments.Params {
		return experiments.Params{N: 8, P: 0.01, Filters: 250, Queries: 10_000, Conf: 0.95, Span: 1, Checkpoints: 1,
			BitsPerKey: []float64{8}, Bits: []uint64{1024, 4096, 16384, 65536}}
	},
	plan:      planHashing,
	summarize: summarizeHashing,
	figure:    hashingFigure,
}

// planHashing plans, for every hashing option and every m in Bits, standard
// filters of m bits holding m/BitsPerKey items with the best integer k,
// timed.
func planHashing(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	bpe := p.BitsPerKey[0]
	for _, o := range hashingOptions {
		for _, m := range p.Bits {
			n := uint64(math.Round(float64(m) / bpe))
			if n < 1 {
				return nil, paramError("bits", "m = %d at %g bits per key holds no item", m, bpe)
			}
			k := analysis.OptimalHashes(m, n)
			var b builder
			if o.ref != nil {
				ref := o.ref
				b = func(variants.Hashing) (filter, error) { return newRefFilter(m, k, ref), nil }
			} else {
				g := variants.Geometry{Bits: m, Hashes: k}
				b = func(h variants.Hashing) (filter, error) { return wrap(variants.NewStandard(g, h)) }
			}
			q := p
			q.N = n
			err := pl.AddSpec(fmt.Sprintf("hashing/%s/m=%d/k=%d/n=%d", o.name, m, k, n), experiments.Spec{
				Name:    o.name,
				New:     b.seeded(o.hashing),
				Items:   []uint64{n},
				Filters: p.Filters,
				Queries: queriesFor(exactFPR(m, n, k), q),
				Theory:  func(n uint64) float64 { return exactFPR(m, n, k) },
				Model:   "exact",
				Timed:   true,
			}, func(r *experiments.Row) {
				r.Variant = "standard"
				r.Hashing = o.name
				r.Bits = m
				r.Hashes = k
				r.Classic = classicFPR(m, n, k)
			})
			if err != nil {
				return nil, err
			}
		}
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("standard filters of m bits holding m/%g keys with the best integer k; the times are per key, for adds and for queries of absent keys, measured on all workers at once", bpe))
	return pl, nil
}

// summarizeHashing notes how much faster xxh3 is than MD5, per add and per
// query, at the largest m.
func summarizeHashing(r *experiments.Results) []string {
	var fast, slow *experiments.Row
	for i := range r.Rows {
		row := &r.Rows[i]
		if fast != nil && row.Bits < fast.Bits {
			continue
		}
		switch row.Series {
		case hashingOptions[0].name:
			fast = row
		case "md5 (Java tutorial)":
			slow = row
		}
	}
	if fast == nil || slow == nil || fast.NsPerAdd == 0 || fast.NsPerQuery == 0 {
		return nil
	}
	return []string{fmt.Sprintf("at m = %d, xxh3 with enhanced double hashing takes %.1f ns per add and %.1f ns per absent-key query, MD5 (Java tutorial) %.1f and %.1f: %.1fx and %.1fx faster",
		fast.Bits, fast.NsPerAdd, fast.NsPerQuery, slow.NsPerAdd, slow.NsPerQuery, slow.NsPerAdd/fast.NsPerAdd, slow.NsPerQuery/fast.NsPerQuery)}
}
