package analysis

import (
	"errors"
	"testing"
)

// model is what the models of this package have in common.
type model interface {
	Validate() error
	FPR(items uint64) (float64, error)
	BitsPerKey(items uint64) (float64, error)
}

// TestModelsWiring checks that each model's FPR is the free function the
// experiments use, with the model's fields in their places, and that its
// BitsPerKey is its memory over the items.
func TestModelsWiring(t *testing.T) {
	t.Parallel()
	const n = 10000
	cases := []struct {
		name string
		m    model
		want float64 // the free function's rate at n items
		bpe  float64 // memory in bits over n
	}{
		{"standard", Standard{Bits: 95851, Hashes: 7}, ExactFPR(95851, n, 7), 9.5851},
		{"partitioned", Partitioned{Bits: 95851, Hashes: 7}, PartitionedFPR(95851, n, 7), 9.5851},
		{"counting", Counting{Bits: 95851, Hashes: 7, Width: 4}, ExactFPR(95851, n, 7), 4 * 9.5851},
		{"blocked", Blocked{Bits: 512 * 200, Hashes: 7, BlockBits: 512}, BlockedFPR(512*200, n, 7, 512), 10.24},
		{"split-block", SplitBlock{Bits: 256 * 400}, SplitBlockFPR(256*400, n), 10.24},
	}
	for _, c := range cases {
		if err := c.m.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v", c.name, err)
		}
		got, err := c.m.FPR(n)
		if err != nil || got != c.want {
			t.Errorf("%s: FPR(%d) = %v, %v; want %v", c.name, n, got, err, c.want)
		}
		if got, err := c.m.FPR(0); err != nil || got != 0 {
			t.Errorf("%s: FPR(0) = %v, %v; want 0", c.name, got, err)
		}
		if got, err := c.m.BitsPerKey(n); err != nil || got != c.bpe {
			t.Errorf("%s: BitsPerKey(%d) = %v, %v; want %v", c.name, n, got, err, c.bpe)
		}
		if _, err := c.m.BitsPerKey(0); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%s: BitsPerKey(0): error %v, want ErrInvalidParams", c.name, err)
		}
	}
}

// TestModelsInvalid checks that parameters outside their domains give
// errors wrapping ErrInvalidParams from Validate, FPR and BitsPerKey.
func TestModelsInvalid(t *testing.T) {
	t.Parallel()
	for _, m := range []model{
		Standard{Bits: 0, Hashes: 7},
		Standard{Bits: 1000, Hashes: 0},
		Standard{Bits: 1000, Hashes: MaxHashes + 1},
		Standard{Bits: MaxBits + 1, Hashes: 7},
		Partitioned{Bits: 6, Hashes: 7},
		Partitioned{Bits: 1000, Hashes: 0},
		Partitioned{Bits: MaxBits + 1, Hashes: 7},
		Counting{Bits: 1000, Hashes: 7, Width: 0},
		Counting{Bits: 1000, Hashes: 7, Width: 65},
		Counting{Bits: 0, Hashes: 7, Width: 4},
		Counting{Bits: 1000, Hashes: 0, Width: 4},
		Blocked{Bits: 1000, Hashes: 7, BlockBits: 512},
		Blocked{Bits: 1024, Hashes: 7, BlockBits: 0},
		Blocked{Bits: 1 << 17, Hashes: 7, BlockBits: MaxBlockBits * 2},
		Blocked{Bits: 1024, Hashes: 0, BlockBits: 512},
		Blocked{Bits: MaxBits + 512, Hashes: 7, BlockBits: 512},
		SplitBlock{Bits: 0},
		SplitBlock{Bits: 1000},
		SplitBlock{Bits: MaxBits + 256},
	} {
		if err := m.Validate(); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.Validate() = %v, want ErrInvalidParams", m, err)
		}
		if _, err := m.FPR(100); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.FPR(100): error %v, want ErrInvalidParams", m, err)
		}
		if _, err := m.BitsPerKey(100); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%+v.BitsPerKey(100): error %v, want ErrInvalidParams", m, err)
		}
	}
}
