package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/compare"
	"github.com/bloomlab/bloomlab/experiments"
)

// parseSizes parses comma-separated numbers of keys, as 1e4,1e6.
func parseSizes(s string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || x < 100 || x > 1e9 || x != float64(uint64(x)) {
			return nil, fmt.Errorf("%q, want whole numbers of keys from 100 to 1e9", f)
		}
		if len(out) > 0 && uint64(x) <= out[len(out)-1] {
			return nil, fmt.Errorf("%q after %d, want increasing sizes", f, out[len(out)-1])
		}
		out = append(out, uint64(x))
	}
	return out, nil
}

// timeFilters times the fixed-size filters of compare.FixedSpecs, each
// sized for n keys at 1% for every n in sizes, on the keys of src, and
// prints a Markdown table of the times.
func timeFilters(ctx context.Context, out io.Writer, src *experiments.KeySource, sizes []uint64, queries uint64, passes int, seed uint64) error {
	byN := map[uint64][]experiments.Spec{}
	specsFor := func(n uint64) ([]experiments.Spec, error) {
		if s, ok := byN[n]; ok {
			return s, nil
		}
		s, err := compare.FixedSpecs(n, rate, []uint64{n})
		byN[n] = s
		return s, err
	}
	first, err := specsFor(sizes[0])
	if err != nil {
		return err
	}
	var specs []experiments.TimeSpec
	for i, s := range first {
		specs = append(specs, experiments.TimeSpec{
			Name: s.Name,
			Keys: src,
			New: func(n, seed uint64) (experiments.Filter, error) {
				all, err := specsFor(n)
				if err != nil {
					return nil, err
				}
				return all[i].New(seed)
			},
		})
	}
	r, err := experiments.Time(ctx, specs, experiments.Params{Keys: sizes, Queries: queries, Passes: passes, P: rate}, experiments.Options{Seed: seed})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Measured by `go run ./cmd/keysources -time %s -keys %s -queries %d -passes %d -seed %d` (%s, one goroutine):\n",
		joinSizes(sizes), src.Name(), queries, passes, seed, runtime.Version())
	fmt.Fprintf(&b, "ns per add / present query / absent query of each filter sized for n keys at p = %g and holding them; the median of %d passes.\n\n", rate, passes)
	fmt.Fprint(&b, "| filter |")
	for _, n := range sizes {
		fmt.Fprintf(&b, " n = %d |", n)
	}
	fmt.Fprint(&b, "\n|---|")
	for range sizes {
		fmt.Fprint(&b, "---:|")
	}
	fmt.Fprintln(&b)
	row := 0
	for range specs {
		fmt.Fprintf(&b, "| %s |", r.Rows[row].Series)
		for range sizes {
			x := r.Rows[row]
			fmt.Fprintf(&b, " %.1f / %.1f / %.1f |", x.NsPerAdd, x.NsPerPresent, x.NsPerQuery)
			row++
		}
		fmt.Fprintln(&b)
	}
	fmt.Fprintf(&b, "| %s (one load) |", experiments.RandomLines)
	for range sizes {
		fmt.Fprintf(&b, " %.1f |", r.Rows[row].NsPerQuery)
		row++
	}
	fmt.Fprintln(&b)
	_, err = out.Write(b.Bytes())
	return err
}

func joinSizes(sizes []uint64) string {
	var s []string
	for _, n := range sizes {
		s = append(s, strconv.FormatUint(n, 10))
	}
	return strings.Join(s, ",")
}
