// Command peers measures how the Go Bloom-filter libraries in common use
// deliver on what they are asked for, beside bloomlab: the false-positive
// rate of scalable filters as they grow against their target, and the
// false negatives that counting filters produce when a counter saturates
// and is then decremented.
//
// Usage (from the compare directory):
//
//	go run ./cmd/peers [-seed 1] [-queries 200000]
//
// Every number it prints is measured in the run; nothing is quoted.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/bloomlab/bloomlab/variants"
	boom "github.com/tylertreat/BoomFilters"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(2)
	}
}

func key(buf *[16]byte, seed uint64, set byte, i uint64) []byte {
	binary.LittleEndian.PutUint64(buf[:8], i^seed*0x9e3779b97f4a7c15)
	binary.LittleEndian.PutUint64(buf[8:], seed)
	buf[15] ^= set
	return buf[:]
}

type growable interface {
	add([]byte)
	contains([]byte) bool
	bytes() int64
}

type boomScalable struct{ f *boom.ScalableBloomFilter }

func (b boomScalable) add(k []byte)           { b.f.Add(k) }
func (b boomScalable) contains(k []byte) bool { return b.f.Test(k) }
func (b boomScalable) bytes() int64 {
	n, _ := b.f.WriteTo(io.Discard)
	return n
}

type labScalable struct{ f *variants.Scalable }

func (b labScalable) add(k []byte)           { b.f.Add(k) }
func (b labScalable) contains(k []byte) bool { return b.f.Contains(k) }
func (b labScalable) bytes() int64           { return int64(b.f.Stats().Bits / 8) }

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("peers", flag.ContinueOnError)
	seed := fs.Uint64("seed", 1, "seed of the key streams")
	queries := fs.Uint64("queries", 200_000, "absent keys queried at each checkpoint (at least 1000)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *queries < 1000 {
		return fmt.Errorf("-queries %d: want at least 1000", *queries)
	}
	const P = 0.001
	fmt.Fprintf(out, "Scalable filters asked for a false-positive rate of %g, grown to 10^6 keys\n", P)
	fmt.Fprintf(out, "(BoomFilters: NewDefaultScalableBloomFilter(%g), hint 10000, r = 0.8;\n", P)
	fmt.Fprintf(out, " bloomlab: NewScalable(P = %g, defaults r = 0.9, s = 2, n0 = 1000)).\n\n", P)
	lab, err := variants.NewScalable(variants.ScalableParams{P: P})
	if err != nil {
		return err
	}
	filters := []struct {
		name string
		f    growable
	}{
		{"boomfilters", boomScalable{boom.NewDefaultScalableBloomFilter(P)}},
		{"bloomlab", labScalable{lab}},
	}
	tw := tabwriter.NewWriter(out, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "keys\tlibrary\tmeasured rate\trate / target\tbytes per key*\t")
	var buf [16]byte
	added := uint64(0)
	for _, checkpoint := range []uint64{10_000, 100_000, 1_000_000} {
		for ; added < checkpoint; added++ {
			k := key(&buf, *seed, 1, added)
			for _, f := range filters {
				f.f.add(k)
			}
		}
		for _, f := range filters {
			fp := 0
			for i := range *queries {
				if f.f.contains(key(&buf, *seed, 2, i)) {
					fp++
				}
			}
			rate := float64(fp) / float64(*queries)
			fmt.Fprintf(tw, "%d\t%s\t%.2e\t%.2f\t%.2f\t\n", checkpoint, f.name, rate, rate/P, float64(f.f.bytes())/float64(checkpoint))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "* boomfilters: size of its WriteTo encoding; bloomlab: bits of its stages / 8.\n")
	fmt.Fprintf(out, "bloomlab stages at 10^6 keys: %d\n\n", lab.Stages())

	// Counting filters: members, one hot key added 20 times and removed 20
	// times, then how many members test absent.
	const members, hot = 100_000, 20
	fmt.Fprintf(out, "Counting filters with 4-bit counters, %d members at p = 0.01, one further key added %d times and removed %d times:\n", members, hot, hot)
	bc := boom.NewCountingBloomFilter(members, 4, 0.01)
	lc, err := variants.NewCountingFor(members, 0.01, 4, variants.Hashing{Seed: *seed})
	if err != nil {
		return err
	}
	for i := range uint64(members) {
		k := key(&buf, *seed, 3, i)
		bc.Add(k)
		lc.Add(k)
	}
	h := []byte("a key added many times")
	for range hot {
		bc.Add(h)
		lc.Add(h)
	}
	for range hot {
		bc.TestAndRemove(h)
		lc.Remove(h)
	}
	bfn, lfn := 0, 0
	for i := range uint64(members) {
		k := key(&buf, *seed, 3, i)
		if !bc.Test(k) {
			bfn++
		}
		if !lc.Contains(k) {
			lfn++
		}
	}
	fmt.Fprintf(out, "  boomfilters: %d members now test absent (false negatives)\n", bfn)
	fmt.Fprintf(out, "  bloomlab:    %d members now test absent (saturated counters stick)\n", lfn)
	return nil
}
