package experiments_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/plots"
)

// oneHash is a Bloom filter with a single hash function: m bits, and each
// key sets the one bit its hash picks. It is written here, outside
// bloomlab's variants, to be measured by the harness.
type oneHash struct {
	words []uint64
	m     uint64
	seed  uint64
}

func newOneHash(m, seed uint64) *oneHash {
	return &oneHash{words: make([]uint64, (m+63)/64), m: m, seed: seed}
}

// index hashes key with 64-bit FNV-1a, started from the seed, mixes the
// hash with the SplitMix64 finalizer and reduces it modulo m.
func (f *oneHash) index(key []byte) uint64 {
	h := 14695981039346656037 ^ f.seed
	for _, c := range key {
		h = (h ^ uint64(c)) * 1099511628211
	}
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return (h ^ h>>31) % f.m
}

func (f *oneHash) Add(key []byte) { i := f.index(key); f.words[i/64] |= 1 << (i % 64) }

func (f *oneHash) Contains(key []byte) bool {
	i := f.index(key)
	return f.words[i/64]&(1<<(i%64)) != 0
}

// Bits makes oneHash an experiments.Sizer: the results record its memory.
func (f *oneHash) Bits() uint64 { return f.m }

// Measure a filter defined outside bloomlab: twenty one-hash filters of
// 4096 bits, each grown to 500, 1000, 2000 and 4000 keys and queried with
// 10000 never-inserted keys at each, beside the theory 1 - (1 - 1/m)^n,
// then draw the figure. The same seed gives the same numbers on any
// machine and any number of workers.
func ExampleMeasure() {
	const m = 4096
	spec := experiments.Spec{
		Name:    "one-hash",
		New:     func(seed uint64) (experiments.Filter, error) { return newOneHash(m, seed), nil },
		Items:   []uint64{500, 1000, 2000, 4000},
		Filters: 20,
		Queries: 10_000,
		Theory:  func(n uint64) float64 { return -math.Expm1(float64(n) * math.Log1p(-1.0/m)) },
		Model:   "1-(1-1/m)^n",
	}
	r, err := experiments.Measure(context.Background(), []experiments.Spec{spec}, experiments.Params{}, experiments.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range r.Rows {
		fmt.Printf("%4d items, %.2f bits each: measured %.4f [%.4f, %.4f], theory %.4f, inside: %s\n",
			row.Items, row.BitsPerKey, row.Rate, row.Lo, row.Hi, row.Theory, row.Inside)
	}
	fmt.Println(r.Notes[len(r.Notes)-1])

	dir, err := os.MkdirTemp("", "measure")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	out, err := os.Create(filepath.Join(dir, "one-hash.png"))
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := plots.Measure(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := f.Render(out, "png"); err != nil {
		fmt.Println(err)
	}
	if err := out.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println("drew", filepath.Base(out.Name()))
	// Output:
	//  500 items, 8.19 bits each: measured 0.1159 [0.1142, 0.1175], theory 0.1149, inside: yes
	// 1000 items, 4.10 bits each: measured 0.2170 [0.2149, 0.2191], theory 0.2166, inside: yes
	// 2000 items, 2.05 bits each: measured 0.3852 [0.3823, 0.3881], theory 0.3864, inside: yes
	// 4000 items, 1.02 bits each: measured 0.6220 [0.6188, 0.6253], theory 0.6234, inside: yes
	// one-hash, pooled over its 4 points from 500 to 4000 items: the filters' false positives are 0.9991 times the number the 1-(1-1/m)^n theory expects (95% t interval over the 20 filters: 0.9936 to 1.005), consistent with the theory
	// drew one-hash.png
}
