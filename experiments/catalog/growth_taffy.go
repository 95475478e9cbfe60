package catalog

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// taffyChain is the growth experiment's own implementation of the taffy
// block filter (Apple, "Stretching Your Data With Taffy Filters", arXiv
// 2109.01947, section "Taffy block filters"; the schedule of Pagh, Segev
// and Wieder's first construction): a chain of split-block stages
// (variants.SplitBlock) in which stage i (from 0) holds n0 2^i keys and is
// sized with variants.SplitBlockGeometry for the error
// p 6/(π² (i+1)²), so that the stage errors sum to p. Every key goes into
// the newest stage (a key that already tests present is inserted too, as
// in the paper's implementation, libfilter's TaffyBlockFilter); a new stage
// opens when the newest holds its capacity; a query tests the stages
// newest first up to the first that holds the key.
//
// The key is hashed once (its 128-bit digest under the chain's hashing)
// and stage i takes its own 64-bit hash of the digest,
// taffyStageHash(d, i), so that the stages' false positives are
// independent, as the compound theory 1 − ∏(1 − f_i) assumes (libfilter
// gives every stage the same 64-bit hash). It is an experiment's filter,
// not a library type.
type taffyChain struct {
	p       float64
	n0      uint64
	hashing variants.Hashing
	stages  []*variants.SplitBlock
	newest  uint64 // keys in the newest stage
	items   uint64
}

// newTaffyChain returns an empty taffy chain of target p whose first stage
// holds n0 keys.
func newTaffyChain(n0 uint64, p float64, h variants.Hashing) (*taffyChain, error) {
	if n0 == 0 {
		return nil, fmt.Errorf("taffy chain: n0 = 0, want n0 >= 1")
	}
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("taffy chain: p = %v, want 0 < p < 1", p)
	}
	c := &taffyChain{p: p, n0: n0, hashing: h}
	if err := c.grow(); err != nil {
		return nil, err
	}
	return c, nil
}

// taffyStageError returns the design error of stage i of a taffy chain of
// target p: p 6/(π² (i+1)²).
func taffyStageError(p float64, i int) float64 {
	return p * 6 / (math.Pi * math.Pi * float64(i+1) * float64(i+1))
}

// taffyStageGeometry returns the geometry of stage i of a taffy chain.
func taffyStageGeometry(n0 uint64, p float64, i int) (variants.Geometry, error) {
	if i >= 48 || n0 > math.MaxUint64>>uint(i) {
		return variants.Geometry{}, fmt.Errorf("taffy chain: stage %d of %d << %d keys is too large", i, n0, i)
	}
	return variants.SplitBlockGeometry(n0<<uint(i), taffyStageError(p, i))
}

// grow opens the next stage.
func (c *taffyChain) grow() error {
	g, err := taffyStageGeometry(c.n0, c.p, len(c.stages))
	if err != nil {
		return err
	}
	s, err := variants.NewSplitBlock(g, variants.Hashing{})
	if err != nil {
		return err
	}
	c.stages = append(c.stages, s)
	c.newest = 0
	return nil
}

// taffyStageHash returns stage i's 64-bit hash of the digest d: the
// SplitMix64 finaliser of H1 xor (H2 + (i+1) times the golden gamma).
func taffyStageHash(d variants.Digest, i int) uint64 {
	x := d.H1 ^ (d.H2 + uint64(i+1)*0x9e3779b97f4a7c15)
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Add inserts key into the newest stage, opening a stage first if the
// newest is full. A stage that cannot be built (beyond 48 stages) panics:
// the experiment's counts never reach it.
func (c *taffyChain) Add(key []byte) {
	last := len(c.stages) - 1
	if c.newest >= c.n0<<uint(last) {
		if err := c.grow(); err != nil {
			panic(err)
		}
		last++
	}
	c.stages[last].AddHash64(taffyStageHash(c.hashing.Digest(key), last))
	c.newest++
	c.items++
}

// Contains reports whether key is possibly in the set: whether any stage,
// newest first, holds it.
func (c *taffyChain) Contains(key []byte) bool {
	d := c.hashing.Digest(key)
	for i := len(c.stages) - 1; i >= 0; i-- {
		if c.stages[i].ContainsHash64(taffyStageHash(d, i)) {
			return true
		}
	}
	return false
}

// Hashing returns the chain's hashing.
func (c *taffyChain) Hashing() variants.Hashing { return c.hashing }

// QueryLines reports the distinct 64-byte lines that Contains of the key
// whose digest is d reads: the sum of its stages' (variants.LineCounter),
// newest first, up to the first stage that holds the key.
func (c *taffyChain) QueryLines(d variants.Digest) int {
	n := 0
	for i := len(c.stages) - 1; i >= 0; i-- {
		s := variants.Digest{H1: taffyStageHash(d, i)}
		n += c.stages[i].QueryLines(s)
		if c.stages[i].ContainsDigest(s) {
			break
		}
	}
	return n
}

// Stats returns the chain's geometry and load: the bits of all its
// stages, the newest stage's hashes, the keys added, and per-stage
// figures; its EstimatedFPR is the compound 1 − ∏(1 − f_i) of the
// stages' estimates.
func (c *taffyChain) Stats() variants.Stats {
	st := variants.Stats{Variant: "taffy", CellBits: 1, Hashes: analysis.SplitBlockHashes, Items: c.items}
	pass := 1.0
	var set float64
	for i, s := range c.stages {
		x := s.Stats()
		st.Cells += x.Bits
		st.Bits += x.Bits
		st.Capacity += c.n0 << uint(i)
		set += x.FillRatio * float64(x.Bits)
		pass *= 1 - x.EstimatedFPR
		st.Stages = append(st.Stages, variants.StageStats{Capacity: c.n0 << uint(i), Items: x.Items, Hashes: x.Hashes, Bits: x.Bits,
			FillRatio: x.FillRatio, Error: taffyStageError(c.p, i), EstimatedFPR: x.EstimatedFPR})
	}
	if st.Bits > 0 {
		st.FillRatio = set / float64(st.Bits)
	}
	st.EstimatedFPR = 1 - pass
	return st
}

// taffyTheory returns the compound rate 1 − ∏(1 − f_i) and the bits per
// key of a taffy chain of target p and first capacity n0 holding each
// count of items, the stages filled in order, f_i the split-block rate
// (analysis.SplitBlockFPR) of stage i at its fill.
func taffyTheory(n0 uint64, p float64, items []uint64) (fpr, bitsPerKey []float64, err error) {
	var bits []uint64 // of each stage, as built
	fpr, bitsPerKey = make([]float64, len(items)), make([]float64, len(items))
	full := map[int]float64{}
	for j, n := range items {
		if n == 0 {
			return nil, nil, fmt.Errorf("taffy chain: 0 items, want at least 1")
		}
		left := n
		logPass, total := 0.0, 0.0
		for i := 0; left > 0 || i == 0; i++ {
			if i == len(bits) {
				g, err := taffyStageGeometry(n0, p, i)
				if err != nil {
					return nil, nil, err
				}
				bits = append(bits, (g.Bits+analysis.SplitBlockBits-1)/analysis.SplitBlockBits*analysis.SplitBlockBits)
			}
			c := n0 << uint(i)
			ni := min(left, c)
			left -= ni
			total += float64(bits[i])
			if ni == c {
				if _, ok := full[i]; !ok {
					full[i] = math.Log1p(-analysis.SplitBlockFPR(bits[i], c))
				}
				logPass += full[i]
			} else {
				logPass += math.Log1p(-analysis.SplitBlockFPR(bits[i], ni))
			}
		}
		fpr[j] = -math.Expm1(logPass)
		bitsPerKey[j] = total / float64(n)
	}
	return fpr, bitsPerKey, nil
}
