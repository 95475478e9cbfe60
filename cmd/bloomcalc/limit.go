package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// alignBytes is what the filters whose table starts on a 64-byte line
// (blocked, split-block, multiblock, age-partitioned) allocate beyond their
// cells, and check against the memory limit with them: up to seven words.
const alignBytes = 7 * 8

// limitResult says whether a sized filter fits under the library's memory
// limit for one filter on this machine (variants.MemoryLimit: half of the
// cgroup's or the machine's memory unless a program sets it), and what the
// largest filter of the variant is.
type limitResult struct {
	// Bytes is the process limit, and Memory the same for people.
	Bytes  uint64 `json:"bytes"`
	Memory string `json:"memory"`
	// NeedBytes is what the variant's constructor checks against the
	// limit: the cells, and for the line-aligned tables up to seven words
	// more.
	NeedBytes uint64 `json:"need_bytes"`
	Fits      bool   `json:"fits"` // NeedBytes <= Bytes
	// Largest says what bounds the variant's filters: the limit, the
	// 2^48 bits of any filter (analysis.MaxBits), and the variant's own
	// bounds.
	Largest string `json:"largest"`
	// ItemsWithin is, for a scalable filter, the most items it holds
	// before a stage would exceed the limit.
	ItemsWithin uint64 `json:"items_within,omitempty"`
	Verdict     string `json:"verdict"` // the answer in words
}

// variantBounds are each variant's own bounds beside the memory limit and
// analysis.MaxBits.
var variantBounds = map[string]string{
	standard:       fmt.Sprintf("k up to %d", analysis.MaxHashes),
	partitioned:    fmt.Sprintf("k up to %d slices", analysis.MaxHashes),
	counting:       "counters of 2, 4, 8 or 16 bits",
	blocked:        fmt.Sprintf("blocks of %d to %d bits", variants.MinBlockBits, variants.MaxBlockBits),
	splitBlock:     "256-bit blocks",
	multiblock:     fmt.Sprintf("words of %d to %d bits, a block of at most %d bits", variants.MinMultiblockWordBits, variants.MaxMultiblockWordBits, variants.MaxMultiblockBlockBits),
	scalable:       fmt.Sprintf("at most %d stages", analysis.MaxStages),
	agePartitioned: fmt.Sprintf("at most %d slices", analysis.MaxAgeSlices),
}

// memoryLimit returns the limit verdict for a filter of variant v that
// needs need bytes (see limitResult.NeedBytes).
func memoryLimit(v string, need uint64) *limitResult {
	lim := variants.MemoryLimit()
	l := &limitResult{Bytes: uint64(lim), NeedBytes: need, Fits: lim > 0 && need <= uint64(lim)}
	l.Memory = memory(l.Bytes)
	maxBytes := uint64(analysis.MaxBits / 8)
	if lim == math.MaxInt64 {
		l.Memory = "none known"
	}
	largest := min(l.Bytes, maxBytes)
	what := "the memory limit"
	if largest == maxBytes {
		what = "2^48 bits, the most of any filter"
	}
	l.Largest = fmt.Sprintf("%s (%s); %s", memory(largest), what, variantBounds[v])
	if l.Fits {
		share := "under 0.001%"
		if pct := 100 * float64(need) / float64(lim); pct >= 0.001 {
			share = strconv.FormatFloat(pct, 'g', 2, 64) + "%"
		}
		l.Verdict = fmt.Sprintf("fits: it needs %s, %s of the limit of %s for one filter on this machine",
			memory(need), share, l.Memory)
	} else {
		l.Verdict = fmt.Sprintf("does not fit: it needs %s, more than the limit of %s for one filter on this machine; the library refuses to build it (ErrMemoryLimit) unless a program raises the limit (SetMemoryLimit, or MaxBytes)",
			memory(need), l.Memory)
	}
	return l
}

// limitLines are the text output's lines of the limit.
func limitLines(l *limitResult) [][2]string {
	if l == nil {
		return nil
	}
	return [][2]string{{"memory limit", l.Verdict}, {"largest filter", l.Largest}}
}
