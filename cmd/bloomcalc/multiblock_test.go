package main

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// TestMultiblockSizeEqualsVariants checks that bloomcalc's sizing of a
// multiblock filter, k chosen or given, is exactly
// variants.MultiblockGeometry's (m and k), and that its rate is
// analysis.Multiblock.FPR of that geometry.
func TestMultiblockSizeEqualsVariants(t *testing.T) {
	for _, c := range []struct {
		n      uint64
		p      float64
		word   uint64
		multi  bool
		stride uint64 // bytes
		k      int
	}{
		{1e6, 0.01, 64, false, 0, 0},
		{1e6, 0.01, 64, true, 0, 0},
		{1e5, 1e-3, 512, false, 8, 0},
		{1e5, 1e-3, 512, false, 0, 0},
		{1e5, 1e-4, 32, true, 4, 0},
		{1e6, 0.01, 64, true, 1, 5},
		{12345, 0.02, 8, false, 1, 0},
		{1e6, 1e-6, 4096, false, 0, 0},
	} {
		args := []string{"-json", "-variant", "multiblock", "-n", itoa(c.n), "-p", strings.TrimSpace(jsonFloat(c.p)),
			"-word", itoa(c.word), "-stride", itoa(c.stride)}
		if c.multi {
			args = append(args, "-multi")
		}
		if c.k != 0 {
			args = append(args, "-k", itoa(uint64(c.k)))
		}
		out, errOut, err := runArgs(args...)
		if err != nil {
			t.Errorf("bloomcalc %v: %v %s", args, err, errOut)
			continue
		}
		var r multiblockResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		g, err := variants.MultiblockGeometry(c.n, c.p, variants.MultiblockParams{Geometry: variants.Geometry{Hashes: c.k},
			WordBits: c.word, Multi: c.multi, StrideBits: 8 * c.stride})
		if err != nil {
			t.Errorf("%v: variants.MultiblockGeometry: %v", args, err)
			continue
		}
		if r.M != g.Bits || r.K != g.Hashes {
			t.Errorf("%v: m = %d, k = %d; variants.MultiblockGeometry gives m = %d, k = %d", args, r.M, r.K, g.Bits, g.Hashes)
		}
		b := analysis.Multiblock{Bits: r.M, Hashes: r.K, WordBits: c.word, Multi: c.multi}
		if 8*c.stride != b.BlockBits() {
			b.StrideBits = 8 * c.stride
		}
		if f, err := b.FPR(c.n); err != nil || f != r.ExactFPR || f > c.p {
			t.Errorf("%v: rate %v, analysis gives %v (%v), target %v", args, r.ExactFPR, f, err, c.p)
		}
		if r.Bytes != (r.M+63)/64*8 || r.Limit == nil || r.Limit.NeedBytes != r.Bytes+alignBytes {
			t.Errorf("%v: bytes %d, limit %+v", args, r.Bytes, r.Limit)
		}
		f, err := variants.NewMultiblock(variants.MultiblockParams{Geometry: g, WordBits: c.word, Multi: c.multi, StrideBits: 8 * c.stride})
		if err != nil || f.Model() != b {
			t.Errorf("%v: the filter built is %+v (%v), bloomcalc's %+v", args, f.Model(), err, b)
		}
	}
}

func jsonFloat(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// TestMultiblockRate checks -n and -m: the largest valid table within m
// bits (m rounded down to one block and whole strides, with a note), the
// k of the lowest rate, and one line with status 2 for the layouts whose
// rate is refused.
func TestMultiblockRate(t *testing.T) {
	out, _, err := runArgs("-json", "-variant", "multiblock", "-n", "1e5", "-m", "1000001", "-word", "64", "-multi", "-stride", "2")
	if err != nil {
		t.Fatal(err)
	}
	var r multiblockResult
	json.Unmarshal([]byte(out), &r)
	if r.M > 1000001 || r.M+16 <= 1000001 || (r.M-r.BlockBits)%16 != 0 || r.Note == "" {
		t.Errorf("m = %d (block %d, note %q), want the largest of one block and 16-bit strides within 1,000,001", r.M, r.BlockBits, r.Note)
	}
	best := r.ExactFPR
	for k := 1; k <= 6; k++ {
		b := analysis.Multiblock{Hashes: k, WordBits: 64, Multi: true, StrideBits: 16}
		b.Bits = b.BlockBits() + (1000001-b.BlockBits())/16*16
		if f, err := b.FPR(1e5); err == nil && f < best {
			t.Errorf("k = %d: rate %v below bloomcalc's %v at k = %d", k, f, best, r.K)
		}
	}
	for _, args := range [][]string{
		{"-variant", "multiblock", "-multi", "-stride", "1", "-n", "1M", "-p", "1%", "-k", "15"},
		{"-variant", "multiblock", "-word", "4096", "-k", "4096", "-stride", "1", "-n", "1M", "-m", "1GB"},
		{"-variant", "multiblock", "-word", "64", "-multi", "-k", "1025", "-n", "1M", "-p", "1%"},
		{"-variant", "multiblock", "-word", "48", "-n", "1M", "-p", "1%"},
		{"-variant", "multiblock", "-stride", "9", "-n", "1M", "-p", "1%"},
	} {
		_, errOut, err := runArgs(args...)
		if exitCode(err) != 2 || strings.Count(errOut, "\n") != 2 || !strings.HasPrefix(errOut, "bloomcalc: -") {
			t.Errorf("bloomcalc %v: status %d, stderr %q; want one line naming flags and the hint", args, exitCode(err), errOut)
		}
	}
}

// TestMultiblockCancelled checks that the sizing stops between rates once
// its context is done.
func TestMultiblockCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := run(ctx, []string{"-variant", "multiblock", "-multi", "-stride", "1", "-n", "1M", "-p", "1%"}, &strings.Builder{}, &strings.Builder{})
	if err != context.Canceled {
		t.Errorf("cancelled sizing: %v", err)
	}
}

// TestMultiblockFigureSizer checks that the figure's shared sizer for a
// block layout side by side gives analysis.Multiblock.FPR's rates.
func TestMultiblockFigureSizer(t *testing.T) {
	for _, c := range []struct {
		w, m uint64
		k    int
	}{{64, 64 * 20000, 5}, {512, 512 * 4000, 8}, {4096, 4096 * 300, 20}} {
		b := analysis.Multiblock{Bits: c.m, Hashes: c.k, WordBits: c.w}
		in := figInput{variant: multiblock, N: 100000, M: c.m, K: c.k, WordBits: c.w, StrideBytes: c.w / 8}
		cs := curves(context.Background(), in)
		for _, x := range []uint64{1000, 50000, 300000} {
			want, err := b.FPR(x)
			if got := cs[0].rate(x); err != nil || math.Abs(got-want) > 1e-12*want {
				t.Errorf("w = %d, k = %d, %d items: figure %v, analysis %v (%v)", c.w, c.k, x, got, want, err)
			}
		}
	}
}
