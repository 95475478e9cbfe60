package variants

import (
	"bytes"
	"encoding"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSetAssembly: the public switch reports and restores its state,
// cannot turn on assembly that the build or the processor lacks, and
// changes nothing but speed: the same filters built and queried with the
// assembly on and off write the same bytes and give the same answers, for
// every filter whose probes have an assembly form (blocked filters at
// every block size and k with a code path of its own, the split-block
// filter one key and a batch at a time, multiblock filters of 32- and
// 64-bit windows and of 512-bit blocks, scalable filters of blocked
// stages). In builds without assembly (purego, other architectures) it
// checks that Assembly stays false.
func TestSetAssembly(t *testing.T) {
	saved := Assembly()
	defer SetAssembly(saved)
	hw, _ := vectorPath()

	if got := SetAssembly(false); got != saved {
		t.Errorf("SetAssembly(false) = %v, want the previous state %v", got, saved)
	}
	if Assembly() {
		t.Fatal("Assembly() = true after SetAssembly(false)")
	}
	if got := SetAssembly(true); got {
		t.Errorf("SetAssembly(true) = %v after SetAssembly(false), want false", got)
	}
	if Assembly() != hw {
		t.Fatalf("Assembly() = %v after SetAssembly(true), want %v (whether this build and processor have the assembly)", Assembly(), hw)
	}
	if got := SetAssembly(true); got != hw {
		t.Errorf("SetAssembly(true) twice = %v, want %v", got, hw)
	}

	type filter interface {
		Filter
		encoding.BinaryMarshaler
	}
	type maker struct {
		name string
		mk   func() (filter, error)
	}
	var makers []maker
	for _, bb := range []int{256, 512, 1024} {
		for _, k := range []int{3, 7, 8, 9, 16} {
			makers = append(makers, maker{fmt.Sprintf("blocked/B=%d/k=%d", bb, k), func() (filter, error) {
				return NewBlocked(BlockedParams{Geometry: Geometry{Bits: 20011, Hashes: k}, BlockBits: bb})
			}})
		}
	}
	for _, p := range []MultiblockParams{
		{Geometry: Geometry{Bits: 20011, Hashes: 8}, WordBits: 32, Multi: true},
		{Geometry: Geometry{Bits: 20011, Hashes: 13}, WordBits: 32, Multi: true, StrideBits: 8},
		{Geometry: Geometry{Bits: 20011, Hashes: 3}, WordBits: 64, Multi: true, StrideBits: 16},
		{Geometry: Geometry{Bits: 20011, Hashes: 9}, WordBits: 512},
	} {
		makers = append(makers, maker{fmt.Sprintf("multiblock/w=%d/multi=%v/k=%d/stride=%d", p.WordBits, p.Multi, p.Hashes, p.StrideBits), func() (filter, error) {
			return NewMultiblock(p)
		}})
	}
	makers = append(makers, maker{"split-block", func() (filter, error) {
		return NewSplitBlock(Geometry{Bits: 20011, Hashes: 8}, Hashing{})
	}})
	for _, bb := range []int{256, 512} {
		for _, p := range []float64{0.01, 0.001} {
			makers = append(makers, maker{fmt.Sprintf("scalable/B=%d/P=%g", bb, p), func() (filter, error) {
				return NewScalable(ScalableParams{P: p, N0: 100, BlockBits: bb})
			}})
		}
	}

	const n = 2000
	rng := rand.New(rand.NewPCG(34, 2))
	key := func() []byte {
		var b [16]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b[:]
	}
	keys, queries := make([][]byte, n), make([][]byte, 4*n)
	for i := range keys {
		keys[i] = key()
	}
	for i := range queries {
		if i%4 == 0 {
			queries[i] = keys[i/4]
		} else {
			queries[i] = key()
		}
	}
	// run fills a filter from m with the assembly on or off (half the keys
	// one at a time, half in batches where the filter has them) and
	// returns its bytes and its answers to the queries, one at a time and
	// in a batch (by digest where there are no batches).
	run := func(m maker, on bool) ([]byte, []bool) {
		SetAssembly(on)
		defer SetAssembly(saved)
		f, err := m.mk()
		if err != nil {
			t.Fatal(err)
		}
		bf, batches := f.(Batcher)
		for i, k := range keys {
			if batches && i >= n/2 {
				bf.AddBatch(keys[i:])
				break
			}
			f.Add(k)
		}
		answers := make([]bool, 2*len(queries))
		for i, q := range queries {
			answers[i] = f.Contains(q)
		}
		if batches {
			bf.ContainsBatch(queries, answers[len(queries):])
		} else {
			for i, q := range queries {
				answers[len(queries)+i] = f.ContainsDigest(f.Hashing().Digest(q))
			}
		}
		b, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b, answers
	}
	for _, m := range makers {
		asmBytes, asmAnswers := run(m, true)
		goBytes, goAnswers := run(m, false)
		if !bytes.Equal(asmBytes, goBytes) {
			t.Errorf("%s: %d bytes with the assembly on, %d off, not the same", m.name, len(asmBytes), len(goBytes))
		}
		trues := 0
		for i := range asmAnswers {
			if asmAnswers[i] != goAnswers[i] {
				t.Fatalf("%s: query %d answers %v with the assembly on, %v off", m.name, i%len(queries), asmAnswers[i], goAnswers[i])
			}
			if asmAnswers[i] {
				trues++
			}
		}
		if want := 2 * n; trues < want || trues == len(asmAnswers) {
			t.Errorf("%s: %d of %d answers true, want at least the %d of added keys and some false", m.name, trues, len(asmAnswers), want)
		}
	}
}
