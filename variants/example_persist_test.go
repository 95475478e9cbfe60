package variants_test

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/bloomlab/bloomlab/variants"
)

func ExampleStandard_MarshalBinary() {
	f, err := variants.NewStandardFor(1000, 0.01, variants.Hashing{Seed: 42})
	if err != nil {
		panic(err)
	}
	f.Add([]byte("alice"))
	data, err := f.MarshalBinary()
	if err != nil {
		panic(err)
	}

	var g variants.Standard
	if err := g.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println(len(data), "bytes")
	fmt.Println(g.Contains([]byte("alice")), g.Hashing().Seed, g.Equal(f))
	// Output:
	// 1249 bytes
	// true 42 true
}

func ExampleStandard_WriteTo() {
	a, _ := variants.NewStandardFor(1000, 0.01, variants.Hashing{})
	b, _ := variants.NewPartitionedFor(1000, 0.01, variants.Hashing{})
	a.Add([]byte("alice"))
	b.Add([]byte("bob"))

	// Filters written one after another read back one by one.
	var stream bytes.Buffer
	a.WriteTo(&stream)
	b.WriteTo(&stream)
	for {
		f, err := variants.ReadFilter(&stream)
		if err != nil {
			break // wraps io.EOF at the end of the stream
		}
		fmt.Println(f.Stats().Variant, f.Contains([]byte("alice")), f.Contains([]byte("bob")))
	}
	// Output:
	// standard true false
	// partitioned false true
}

func ExampleStandard_Union() {
	h := variants.Hashing{Seed: 7}
	monday, _ := variants.NewStandardFor(1000, 0.01, h)
	tuesday, _ := variants.NewStandardFor(1000, 0.01, h)
	monday.Add([]byte("alice"))
	tuesday.Add([]byte("bob"))

	if err := monday.Union(tuesday); err != nil {
		panic(err)
	}
	fmt.Println(monday.Contains([]byte("alice")), monday.Contains([]byte("bob")), monday.Stats().Items)

	other, _ := variants.NewStandardFor(1000, 0.01, variants.Hashing{Seed: 8})
	fmt.Println(monday.Union(other))
	// Output:
	// true true 2
	// variants: incompatible filters: seed 7 != 8
}

func ExampleConcurrentStandard() {
	f, err := variants.NewConcurrentStandardFor(100_000, 0.01, variants.Hashing{})
	if err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25_000 {
				f.Add(fmt.Appendf(nil, "key-%d-%d", w, i))
			}
		})
	}
	wg.Wait()
	fmt.Println(f.Stats().Items, f.Contains([]byte("key-3-24999")))
	// Output:
	// 100000 true
}

func ExampleUnmarshal() {
	f, _ := variants.NewScalable(variants.ScalableParams{P: 0.001, N0: 100})
	for i := range 1000 {
		f.Add(fmt.Appendf(nil, "key-%d", i))
	}
	data, _ := f.MarshalBinary()

	// Unmarshal reads whichever variant the data holds.
	g, err := variants.Unmarshal(data)
	if err != nil {
		panic(err)
	}
	s := g.(*variants.Scalable)
	fmt.Println(s.Stages(), s.Equal(f), s.Contains([]byte("key-999")))

	_, err = variants.Unmarshal(data[:len(data)-1])
	fmt.Println(err)
	// Output:
	// 4 true true
	// variants: corrupt filter data: truncated input: it ends after 4320 bytes
}

func ExampleCounting_Union() {
	a, _ := variants.NewCountingFor(1000, 0.01, variants.Hashing{})
	b, _ := variants.NewCountingFor(1000, 0.01, variants.Hashing{})
	a.Add([]byte("alice"))
	b.Add([]byte("alice"))
	b.Add([]byte("bob"))
	if err := a.Union(b); err != nil {
		panic(err)
	}
	// alice was added twice in all, so one Remove leaves her present.
	a.Remove([]byte("alice"))
	fmt.Println(a.Contains([]byte("alice")), a.Contains([]byte("bob")))
	// Output:
	// true true
}
