package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/internal/units"
)

// ageResult is what bloomcalc prints for an age-partitioned filter (Shtul,
// Baquero and Almeida 2020), sized by analysis.AgePartitionedSize for a
// window and a worst rate.
type ageResult struct {
	Variant string `json:"variant"` // "age-partitioned"
	// N is the window asked for: the most recent items that must test
	// present; Window is the filter's, L G + 1, at least N.
	N      uint64 `json:"n"`
	Window uint64 `json:"window"`
	K      int    `json:"k"`      // slices an item sets
	L      int    `json:"l"`      // slices beyond K
	Slices int    `json:"slices"` // K + L
	// G is the items per generation: the slices age by one after G.
	G         uint64  `json:"g"`
	SliceBits uint64  `json:"slice_bits"` // bits per slice
	M         uint64  `json:"m"`          // (K + L) SliceBits
	Bytes     uint64  `json:"bytes"`      // K + L slices of whole 64-bit words
	Memory    string  `json:"memory"`     // Bytes for people
	P         float64 `json:"p"`          // the target for the worst rate
	// BitsPerKey is m over the window.
	BitsPerKey float64 `json:"bits_per_key"`
	// InformationMinimum is log2(1/p) bits per key, and Overhead the
	// bits per key over it.
	InformationMinimum float64 `json:"information_minimum_bits_per_key"`
	Overhead           float64 `json:"overhead"`
	// The rate through the generation cycle (a sawtooth): just after a
	// shift (one item in the newest slice), just before one (the worst,
	// at most p), and its mean over the cycle; OneNumberFPR is the
	// formula of the implementations (analysis.AgePartitioned.OneNumberFPR).
	LowFPR       float64 `json:"fpr_after_shift"`
	WorstFPR     float64 `json:"fpr_worst"`
	MeanFPR      float64 `json:"fpr_mean"`
	OneNumberFPR float64 `json:"fpr_one_number"`
	// Remembered is (L + 1) G: the most recent items that test present
	// just before a shift; older ones are forgotten.
	Remembered uint64 `json:"remembered_before_shift"`
	// Budget answers -mem, and Limit is the verdict of the memory limit
	// for one filter.
	Budget *windowBudget `json:"budget,omitempty"`
	Limit  *limitResult  `json:"limit"`
}

// windowBudget says whether an age-partitioned filter fits in a memory
// budget (-mem).
type windowBudget struct {
	Bytes   uint64 `json:"bytes"`   // the budget
	Memory  string `json:"memory"`  // the same for people
	Fits    bool   `json:"fits"`    // the filter's bytes are at most the budget
	Verdict string `json:"verdict"` // the answer in words
}

// ageSize is analysis.AgePartitionedSize, returning early with ctx's error
// once ctx is done (see detached): the sizing takes no context and up to
// about 2.5 s (a window of 10^12 at p = 1e-15, 256 slices).
func ageSize(ctx context.Context, window uint64, p float64) (analysis.AgePartitioned, error) {
	return detached(ctx, func() (analysis.AgePartitioned, error) { return analysis.AgePartitionedSize(window, p) })
}

// detached returns f's result, or ctx's error as soon as ctx is done
// before f returns: f then runs on in its own goroutine and its result is
// dropped. It is for the analysis calls that take no context but are
// bounded (each to a few seconds of computing at most: an age-partitioned
// sizing, or one rate of an overlapping multiblock layout within
// analysis's budget of 1e8 operations), so that a cancelled request
// answers within a fraction of a second instead of holding its slot until
// the call ends.
func detached[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type res struct {
		v   T
		err error
	}
	done := make(chan res, 1)
	go func() {
		v, err := f()
		done <- res{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// runAgePartitioned sizes an age-partitioned filter for the window known.N
// (the most recent items that must test present at every phase) and the
// worst rate known.P, and with -mem says whether it fits in that memory.
func runAgePartitioned(ctx context.Context, stdout io.Writer, mf moreFlags, known analysis.Sizing, jsonOut bool,
	usage func(error) error) error {
	if known.N == 0 || known.P == 0 {
		return usage(errors.New("not enough to size an age-partitioned filter: give -n (the window: items that must test present) and -p (the target for the worst rate), and optionally -mem"))
	}
	a, err := ageSize(ctx, known.N, known.P)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return usage(fmt.Errorf("-n, -p: %w", err))
	}
	r := ageResult{Variant: agePartitioned, N: known.N, Window: a.Window(), K: a.K, L: a.L, Slices: a.Slices(), G: a.G,
		SliceBits: a.SliceBits, M: a.Bits(), P: known.P, Remembered: uint64(a.L+1) * a.G}
	r.Bytes = uint64(a.Slices()) * wordBytes(a.SliceBits)
	r.Memory = memory(r.Bytes)
	r.LowFPR, r.WorstFPR, r.OneNumberFPR = a.FPR(1), a.WorstFPR(), a.OneNumberFPR()
	if err := ctx.Err(); err != nil {
		return err
	}
	r.MeanFPR = a.MeanFPR()
	r.BitsPerKey = analysis.BitsPerKey(r.M, r.N)
	r.InformationMinimum = analysis.InformationMinimum(r.P)
	r.Overhead = r.BitsPerKey / r.InformationMinimum
	if *mf.mem != "" {
		bits, err := units.ParseBits(*mf.mem)
		if err != nil {
			return usage(fmt.Errorf("-mem: %w", err))
		}
		if bits < 8 {
			return usage(fmt.Errorf("-mem: %d bits, want a budget of at least one byte", bits))
		}
		b := &windowBudget{Bytes: bits / 8, Memory: memory(bits / 8)}
		b.Fits = r.Bytes <= b.Bytes
		if b.Fits {
			b.Verdict = fmt.Sprintf("fits: a window of %s items at a worst rate of %g takes %s, %s%% of %s",
				groupUint(r.N), r.P, r.Memory, strconv.FormatFloat(100*float64(r.Bytes)/float64(b.Bytes), 'g', 2, 64), b.Memory)
		} else {
			b.Verdict = fmt.Sprintf("does not fit: a window of %s items at a worst rate of %g takes %s, more than %s",
				groupUint(r.N), r.P, r.Memory, b.Memory)
		}
		r.Budget = b
	}
	r.Limit = memoryLimit(agePartitioned, r.Bytes+alignBytes)
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	lines := [][2]string{
		{"variant", fmt.Sprintf("age-partitioned, %d slices: k = %d set per item, l = %d more", r.Slices, r.K, r.L)},
		{"window (n)", fmt.Sprintf("%s items asked; %s (l g + 1) always test present", groupUint(r.N), groupUint(r.Window))},
		{"generation (g)", fmt.Sprintf("%s items; the slices age by one after each", groupUint(r.G))},
		{"target rate (p)", fmt.Sprintf("%.4g (1 in %s), for the worst point of the cycle", r.P, oneIn(r.P))},
		{"bits (m)", fmt.Sprintf("%s (%s), %d slices of %s bits", groupUint(r.M), r.Memory, r.Slices, groupUint(r.SliceBits))},
		{"bits per key", fmt.Sprintf("%.3f per item of the window (%.3f x the minimum %.3f at p)", r.BitsPerKey, r.Overhead, r.InformationMinimum)},
		{"FPR over the cycle", fmt.Sprintf("%.6g after a shift, %.6g at worst (before one), mean %.6g", r.LowFPR, r.WorstFPR, r.MeanFPR)},
		{"one-number formula", fmt.Sprintf("%.6g (the implementations' rate, from k and l only)", r.OneNumberFPR)},
		{"remembered", fmt.Sprintf("up to %s items ((l + 1) g) just before a shift; older ones fade", groupUint(r.Remembered))},
	}
	if r.Budget != nil {
		lines = append(lines, [2]string{"within memory", r.Budget.Verdict})
	}
	lines = append(lines, limitLines(r.Limit)...)
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%-21s %s\n", l[0], l[1])
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}
