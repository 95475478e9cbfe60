package variants_test

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// TestExactGeometry checks the sizing functions of standard and
// partitioned filters: NewStandardFor and NewPartitionedFor build the
// classic geometry of StandardGeometry; ExactStandardGeometry and
// ExactPartitionedGeometry give analysis's exact geometry, whose exact
// rate at capacity is at most p where the classic one's is above it
// (n = 1e6, p = 1%, and n = 1e7, p = 1e-4); every sizing function records
// the capacity, which the filter built from it reports, as its For
// constructor's filter does; and bad arguments are errors.
func TestExactGeometry(t *testing.T) {
	for _, c := range []struct {
		n uint64
		p float64
	}{{1e6, 0.01}, {1e7, 1e-4}, {1000, 0.05}} {
		classic, err := variants.StandardGeometry(c.n, c.p)
		if err != nil {
			t.Fatal(err)
		}
		if classic.Capacity != c.n {
			t.Errorf("n=%d p=%g: StandardGeometry capacity %d", c.n, c.p, classic.Capacity)
		}
		def, err := variants.NewStandardFor(c.n, c.p, variants.Hashing{})
		if err != nil || def.Stats().Bits != classic.Bits || def.Stats().Hashes != classic.Hashes || def.Stats().Capacity != c.n {
			t.Errorf("n=%d p=%g: NewStandardFor %+v, %v; want the classic %+v", c.n, c.p, def.Stats(), err, classic)
		}
		if got := def.Geometry(); got != classic {
			t.Errorf("n=%d p=%g: NewStandardFor geometry %+v, want %+v", c.n, c.p, got, classic)
		}
		if pf, err := variants.NewPartitionedFor(c.n, c.p, variants.Hashing{}); err != nil || pf.Stats().Capacity != c.n || pf.Stats().Hashes != classic.Hashes {
			t.Errorf("n=%d p=%g: NewPartitionedFor %+v, %v", c.n, c.p, pf.Stats(), err)
		}
		eg, err := variants.ExactStandardGeometry(c.n, c.p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := variants.NewStandard(eg, variants.Hashing{})
		if err != nil {
			t.Fatal(err)
		}
		es, _ := analysis.ExactStandardSize(c.n, c.p)
		m, k := es.Bits, es.Hashes
		st := s.Stats()
		if st.Bits != m || st.Hashes != k || st.Capacity != c.n || analysis.ExactFPR(st.Bits, c.n, st.Hashes) > c.p {
			t.Errorf("n=%d p=%g: exact standard m=%d k=%d capacity %d, want %d %d %d", c.n, c.p, st.Bits, st.Hashes, st.Capacity, m, k, c.n)
		}
		if c.n >= 1e6 && analysis.ExactFPR(classic.Bits, c.n, classic.Hashes) <= c.p {
			t.Errorf("n=%d p=%g: the classic geometry already reaches p; the case shows nothing", c.n, c.p)
		}
		pg, err := variants.ExactPartitionedGeometry(c.n, c.p)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := variants.NewPartitioned(pg, variants.Hashing{})
		if err != nil {
			t.Fatal(err)
		}
		pt, _ := analysis.ExactPartitionedSize(c.n, c.p)
		pm, pk := pt.Bits, pt.Hashes
		if ps := pf.Stats(); ps.Bits != pm || ps.Hashes != pk || ps.Capacity != c.n || analysis.PartitionedFPR(ps.Bits, c.n, ps.Hashes) > c.p {
			t.Errorf("n=%d p=%g: exact partitioned m=%d k=%d capacity %d, want %d %d %d", c.n, c.p, ps.Bits, ps.Hashes, ps.Capacity, pm, pk, c.n)
		}
		bg, err := variants.BlockedGeometry(c.n, c.p, 0)
		if err != nil || bg.Capacity != c.n {
			t.Errorf("n=%d p=%g: BlockedGeometry %+v, %v", c.n, c.p, bg, err)
		}
		sg, err := variants.SplitBlockGeometry(c.n, c.p)
		if err != nil || sg.Capacity != c.n || sg.Hashes != 8 || sg.Bits%analysis.SplitBlockBits != 0 {
			t.Errorf("n=%d p=%g: SplitBlockGeometry %+v, %v", c.n, c.p, sg, err)
		}
	}
	for _, size := range []func(uint64, float64) (variants.Geometry, error){
		variants.StandardGeometry, variants.ExactStandardGeometry, variants.ExactPartitionedGeometry, variants.SplitBlockGeometry,
		func(n uint64, p float64) (variants.Geometry, error) { return variants.BlockedGeometry(n, p, 0) },
	} {
		for _, c := range []struct {
			n uint64
			p float64
		}{{0, 0.01}, {1000, 0}, {1000, 1}, {1000, math.NaN()}} {
			// analysis.ErrInvalidParams is variants.ErrInvalidParams.
			if _, err := size(c.n, c.p); !errors.Is(err, analysis.ErrInvalidParams) || !errors.Is(err, variants.ErrInvalidParams) {
				t.Errorf("n=%d p=%v: err = %v, want ErrInvalidParams", c.n, c.p, err)
			}
		}
	}
}

// A filter sized so that its exact rate when full is at most the target,
// beside the classic sizing, whose exact rate lands just above it.
func ExampleExactStandardGeometry() {
	for _, size := range []struct {
		rule string
		geom func(uint64, float64) (variants.Geometry, error)
	}{{"classic", variants.StandardGeometry}, {"exact", variants.ExactStandardGeometry}} {
		g, err := size.geom(1_000_000, 0.01)
		if err != nil {
			fmt.Println(err)
			return
		}
		f, err := variants.NewStandard(g, variants.Hashing{})
		if err != nil {
			fmt.Println(err)
			return
		}
		st := f.Stats()
		fmt.Printf("%s: m = %d bits, k = %d, exact rate when full %.4f%%\n",
			size.rule, st.Bits, st.Hashes, 100*analysis.ExactFPR(st.Bits, 1_000_000, st.Hashes))
	}
	// Output:
	// classic: m = 9585059 bits, k = 7, exact rate when full 1.0039%
	// exact: m = 9592957 bits, k = 7, exact rate when full 1.0000%
}

// TestGeometryCapacity checks that a filter built from a sizing function's
// geometry reports the same Stats, capacity included, and the same bytes
// as the filter of the For constructor, and that a hand-written geometry
// leaves the capacity unknown.
func TestGeometryCapacity(t *testing.T) {
	const n, p = 5000, 0.01
	h := variants.Hashing{Seed: 3}
	sg, _ := variants.StandardGeometry(n, p)
	bg, _ := variants.BlockedGeometry(n, p, 0)
	xg, _ := variants.SplitBlockGeometry(n, p)
	for _, c := range []struct {
		name        string
		built, forC func() (variants.Filter, error)
	}{
		{"standard",
			func() (variants.Filter, error) { return variants.NewStandard(sg, h) },
			func() (variants.Filter, error) { return variants.NewStandardFor(n, p, h) }},
		{"partitioned",
			func() (variants.Filter, error) { return variants.NewPartitioned(sg, h) },
			func() (variants.Filter, error) { return variants.NewPartitionedFor(n, p, h) }},
		{"concurrent",
			func() (variants.Filter, error) { return variants.NewConcurrentStandard(sg, h) },
			func() (variants.Filter, error) { return variants.NewConcurrentStandardFor(n, p, h) }},
		{"counting",
			func() (variants.Filter, error) {
				return variants.NewCounting(variants.CountingParams{Geometry: sg, Hashing: h})
			},
			func() (variants.Filter, error) { return variants.NewCountingFor(n, p, h) }},
		{"blocked",
			func() (variants.Filter, error) {
				return variants.NewBlocked(variants.BlockedParams{Geometry: bg, Hashing: h})
			},
			func() (variants.Filter, error) { return variants.NewBlockedFor(n, p, h) }},
		{"split-block",
			func() (variants.Filter, error) { return variants.NewSplitBlock(xg, h) },
			func() (variants.Filter, error) { return variants.NewSplitBlockFor(n, p, h) }},
	} {
		a, err := c.built()
		if err != nil {
			t.Fatal(c.name, err)
		}
		b, err := c.forC()
		if err != nil {
			t.Fatal(c.name, err)
		}
		for i := range 1000 {
			k := []byte(fmt.Sprint(i))
			a.Add(k)
			b.Add(k)
		}
		if sa, sb := a.Stats(), b.Stats(); !reflect.DeepEqual(sa, sb) || sa.Capacity != n {
			t.Errorf("%s: Stats %+v, For constructor %+v, want capacity %d", c.name, sa, sb, n)
		}
		ba, _ := a.(encoding.BinaryMarshaler).MarshalBinary()
		bb, _ := b.(encoding.BinaryMarshaler).MarshalBinary()
		if !bytes.Equal(ba, bb) {
			t.Errorf("%s: the two filters encode differently", c.name)
		}
		if g := a.(interface{ Geometry() variants.Geometry }).Geometry(); g.Capacity != n {
			t.Errorf("%s: Geometry %+v, want capacity %d", c.name, g, n)
		}
	}
	f, err := variants.NewStandard(variants.Geometry{Bits: 1000, Hashes: 3}, h)
	if err != nil || f.Stats().Capacity != 0 || f.Geometry().Capacity != 0 {
		t.Errorf("hand-written geometry: %+v, %v; want capacity 0", f.Stats(), err)
	}
}
