package variants_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// TestExactSizing checks the sizing rules of NewStandardFor and
// NewPartitionedFor: the default is the classic geometry of StandardGeometry, the
// exact rule builds analysis's exact geometry, whose exact rate at
// capacity is at most p where the classic one's is above it (n = 1e6,
// p = 1%, and n = 1e7, p = 1e-4), and a bad rule is an error.
func TestExactSizing(t *testing.T) {
	for _, c := range []struct {
		n uint64
		p float64
	}{{1e6, 0.01}, {1e7, 1e-4}, {1000, 0.05}} {
		classic, err := variants.StandardGeometry(c.n, c.p)
		if err != nil {
			t.Fatal(err)
		}
		def, err := variants.NewStandardFor(c.n, c.p, variants.Hashing{})
		if err != nil || def.Stats().Bits != classic.Bits || def.Stats().Hashes != classic.Hashes {
			t.Errorf("n=%d p=%g: default %+v, %v; want the classic %+v", c.n, c.p, def.Stats(), err, classic)
		}
		s, err := variants.NewStandardFor(c.n, c.p, variants.Hashing{}, variants.ExactSizing)
		if err != nil {
			t.Fatal(err)
		}
		sd, _ := analysis.ExactStandardSize(c.n, c.p)
		m, k := sd.Bits, sd.Hashes
		st := s.Stats()
		if st.Bits != m || st.Hashes != k || analysis.ExactFPR(st.Bits, c.n, st.Hashes) > c.p {
			t.Errorf("n=%d p=%g: exact standard m=%d k=%d, want %d %d", c.n, c.p, st.Bits, st.Hashes, m, k)
		}
		if c.n >= 1e6 && analysis.ExactFPR(classic.Bits, c.n, classic.Hashes) <= c.p {
			t.Errorf("n=%d p=%g: the classic geometry already reaches p; the case shows nothing", c.n, c.p)
		}
		pf, err := variants.NewPartitionedFor(c.n, c.p, variants.Hashing{}, variants.ExactSizing)
		if err != nil {
			t.Fatal(err)
		}
		pt, _ := analysis.ExactPartitionedSize(c.n, c.p)
		pm, pk := pt.Bits, pt.Hashes
		if ps := pf.Stats(); ps.Bits != pm || ps.Hashes != pk || analysis.PartitionedFPR(ps.Bits, c.n, ps.Hashes) > c.p {
			t.Errorf("n=%d p=%g: exact partitioned m=%d k=%d, want %d %d", c.n, c.p, ps.Bits, ps.Hashes, pm, pk)
		}
	}
	for _, rules := range [][]variants.SizingRule{{variants.ExactSizing, variants.ClassicSizing}, {variants.SizingRule(7)}} {
		if _, err := variants.NewStandardFor(1000, 0.01, variants.Hashing{}, rules...); !errors.Is(err, variants.ErrInvalidParams) {
			t.Errorf("rules %v: standard err = %v", rules, err)
		}
		if _, err := variants.NewPartitionedFor(1000, 0.01, variants.Hashing{}, rules...); !errors.Is(err, variants.ErrInvalidParams) {
			t.Errorf("rules %v: partitioned err = %v", rules, err)
		}
	}
	if _, err := variants.NewStandardFor(0, 0.01, variants.Hashing{}, variants.ExactSizing); !errors.Is(err, variants.ErrInvalidParams) {
		t.Errorf("capacity 0: %v", err)
	}
	if got := variants.ExactSizing.String() + " " + variants.ClassicSizing.String(); got != "exact classic" {
		t.Errorf("String: %q", got)
	}
}

// A filter sized so that its exact rate when full is at most the target,
// beside the classic sizing, whose exact rate lands just above it.
func ExampleSizingRule() {
	for _, rule := range []variants.SizingRule{variants.ClassicSizing, variants.ExactSizing} {
		f, err := variants.NewStandardFor(1_000_000, 0.01, variants.Hashing{}, rule)
		if err != nil {
			fmt.Println(err)
			return
		}
		st := f.Stats()
		fmt.Printf("%s: m = %d bits, k = %d, exact rate when full %.4f%%\n",
			rule, st.Bits, st.Hashes, 100*analysis.ExactFPR(st.Bits, 1_000_000, st.Hashes))
	}
	// Output:
	// classic: m = 9585059 bits, k = 7, exact rate when full 1.0039%
	// exact: m = 9592957 bits, k = 7, exact rate when full 1.0000%
}
