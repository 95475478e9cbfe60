package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/bloomlab/bloomlab/variants"
)

const setOpUsage = `usage: bloom %[1]s A B -out C

Writes to C (atomically; mode 0600 if the filters are keyed) the %[1]s of
the saved filters A and B, which must be of the same variant, geometry and
hashing (kind, derivation, seed and key). C may be A or B.

Union is the bitwise OR (for counting filters the saturating sum of the
counters): exactly the filter that adding the keys of both would build.
Intersect is the bitwise AND: every key added to both tests present, but the
rate is at least that of a filter of the common keys alone. The standard,
partitioned, blocked and split-block filters have both, counting filters
only union; the growing and age-partitioned filters have neither.

Flags:
`

// runSetOp is "bloom union" and "bloom intersect" (op): it loads both
// filters, combines the second into the first and saves the result.
func runSetOp(ctx context.Context, op string, args []string, stdout, _ io.Writer) error {
	fs := newFlagSet(op)
	out := fs.String("out", "", "the filter file to write (required)")
	rest, err := parseArgs(fs, args, fmt.Sprintf(setOpUsage, op), stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return usagef("want two filter arguments A and B, got %d", len(rest))
	}
	if *out == "" {
		return usagef("-out: required: the filter file to write")
	}
	a, err := loadFilter(rest[0])
	if err != nil {
		return err
	}
	b, err := loadFilter(rest[1])
	if err != nil {
		return err
	}
	if err := combine(op, a, b); err != nil {
		return fmt.Errorf("%s of %s and %s: %w", op, rest[0], rest[1], err)
	}
	if err := writeFilter(ctx, *out, a); err != nil {
		return err
	}
	st := a.Stats()
	_, err = fmt.Fprintf(stdout, "%s: %s of %s and %s, %s filter, fill %.4g, estimated items %.6g, estimated rate %.4g\n",
		*out, op, rest[0], rest[1], st.Variant, st.FillRatio, st.EstimatedItems, st.EstimatedFPR)
	return err
}

// combine makes a the union or intersection (op) of a and b, where the
// library has it.
func combine(op string, a, b variants.Filter) error {
	va, vb := a.Stats().Variant, b.Stats().Variant
	if va != vb {
		return fmt.Errorf("a %s filter and a %s filter cannot be combined", va, vb)
	}
	switch a := a.(type) {
	case *variants.Standard:
		return apply(op, a, same(a, b))
	case *variants.Partitioned:
		return apply(op, a, same(a, b))
	case *variants.Blocked:
		return apply(op, a, same(a, b))
	case *variants.SplitBlock:
		return apply(op, a, same(a, b))
	case *variants.Counting:
		if op == "intersect" {
			return errors.New("counting filters have no intersection: the counter-wise minimum over-counts shared counters, and removing keys from it could give false negatives; union is supported")
		}
		return a.Union(same(a, b))
	}
	return fmt.Errorf("%s filters have no %s in the library: only standard, partitioned, blocked and split-block filters (and counting ones for union)", va, op)
}

// apply calls a's Union or Intersect with b.
func apply[F any](op string, a interface {
	Union(F) error
	Intersect(F) error
}, b F) error {
	if op == "union" {
		return a.Union(b)
	}
	return a.Intersect(b)
}

// same returns b as a's type; combine has checked that their variants,
// and so their types, agree.
func same[F variants.Filter](_ F, b variants.Filter) F { return b.(F) }
