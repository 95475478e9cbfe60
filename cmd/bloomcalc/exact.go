package main

import (
	"fmt"
	"io"

	"github.com/bloomlab/bloomlab/analysis"
)

// exactResult is the exact sizing printed beside the classic one when n
// and p are given: the fewest bits whose exact rate at the best integer k
// is at most p (analysis.ExactStandardSize), and how far the classic geometry's
// exact rate lands from p.
type exactResult struct {
	M uint64 `json:"m"`
	// Bytes is the memory of M bits in whole 64-bit words, and Memory the
	// same for people.
	Bytes  uint64  `json:"bytes"`
	Memory string  `json:"memory"`
	K      int     `json:"k"`
	FPR    float64 `json:"fpr_exact"`
	// ExtraBits is M less the classic m (negative if fewer).
	ExtraBits int64 `json:"extra_bits"`
	// ClassicMiss is the classic geometry's exact rate divided by p, less
	// one: positive when the classic sizing misses its target.
	ClassicMiss float64 `json:"classic_miss"`
}

// exactSizing returns the exact sizing for the solved geometry s when the
// user gave n and p only (with m or k given there is no sizing to
// compare), or nil. Its error is analysis.ExactStandardSize's, such as its
// work limit at small p and few items; run prints the classic sizing then,
// with the error as a note (exact_note) in place of the exact sizing.
func exactSizing(known, s analysis.Sizing) (*exactResult, error) {
	if known.N == 0 || known.P == 0 || known.M != 0 || known.K != 0 {
		return nil, nil
	}
	sd, err := analysis.ExactStandardSize(s.N, s.P)
	if err != nil {
		return nil, err
	}
	m, k := sd.Bits, sd.Hashes
	return &exactResult{
		M:           m,
		Bytes:       wordBytes(m),
		Memory:      memory(wordBytes(m)),
		K:           k,
		FPR:         analysis.ExactFPR(m, s.N, k),
		ExtraBits:   int64(m) - int64(s.M),
		ClassicMiss: analysis.ExactFPR(s.M, s.N, s.K)/s.P - 1,
	}, nil
}

// signed writes x with its sign and thousands separators: "+28,384".
func signed(x int64) string {
	if x < 0 {
		return "-" + groupUint(uint64(-x))
	}
	return "+" + groupUint(uint64(x))
}

// printExact prints the exact sizing after the classic one, or the note
// saying why there is none.
func printExact(w io.Writer, e *exactResult, note string, classicM uint64) error {
	for _, l := range exactLines(e, note, classicM) {
		if _, err := fmt.Fprintf(w, "%-21s %s\n", l[0], l[1]); err != nil {
			return err
		}
	}
	return nil
}

// exactLines are the lines printExact prints.
func exactLines(e *exactResult, note string, classicM uint64) [][2]string {
	if e == nil {
		if note != "" {
			return [][2]string{{"exact sizing", "not computed: " + note}}
		}
		return nil
	}
	verdict := fmt.Sprintf("the classic geometry's exact rate is %.3g%% above p", 100*e.ClassicMiss)
	if e.ClassicMiss <= 0 {
		verdict = fmt.Sprintf("the classic geometry keeps p (its exact rate is %.3g%% below it)", -100*e.ClassicMiss)
	}
	return [][2]string{
		{"classic sizing", verdict},
		{"exact sizing", fmt.Sprintf("m = %s (%s), k = %d: exact rate %.7g <= p", groupUint(e.M), e.Memory, e.K, e.FPR)},
		{"", fmt.Sprintf("the fewest bits that keep p: %s bits (%+.3f%%) against the classic m", signed(e.ExtraBits), 100*float64(e.ExtraBits)/float64(classicM))},
	}
}

// exactPartitionedSizing is exactSizing for a partitioned filter
// (analysis.ExactPartitionedSize, which has no work limit): m is k slices
// of m/k bits, held in k slices of whole 64-bit words; classic is the
// classic geometry's exact rate.
func exactPartitionedSizing(known analysis.Sizing, n, classicM uint64, p, classic float64) (*exactResult, error) {
	if known.N == 0 || known.P == 0 || known.M != 0 || known.K != 0 {
		return nil, nil
	}
	sd, err := analysis.ExactPartitionedSize(n, p)
	if err != nil {
		return nil, err
	}
	m, k := sd.Bits, sd.Hashes
	b := uint64(k) * wordBytes(m/uint64(k))
	return &exactResult{
		M:           m,
		Bytes:       b,
		Memory:      memory(b),
		K:           k,
		FPR:         analysis.PartitionedFPR(m, n, k),
		ExtraBits:   int64(m) - int64(classicM),
		ClassicMiss: classic/p - 1,
	}, nil
}
