package compare

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
)

func TestDecredGeometry(t *testing.T) {
	for _, c := range []struct {
		window uint32
		p      float64
	}{{1000, 0.1}, {1000, 0.01}, {10000, 0.001}, {5000, 1e-4}, {7, 0.5}} {
		d, err := DecredFor(c.window, c.p)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("window %d p %g: k %d l %d g %d slice bits %d, capacity %d, guaranteed %d, %.2f bits per guaranteed item",
			c.window, c.p, d.K, d.L, d.Generation, d.SliceBits, d.Capacity(), d.Guaranteed(), float64(d.Bits())/float64(d.Guaranteed()))
		if d.Capacity() < uint64(c.window) {
			t.Errorf("capacity %d below the window %d", d.Capacity(), c.window)
		}
	}
	for _, bad := range []func() error{
		func() error { _, err := DecredFor(0, 0.01); return err },
		func() error { _, err := DecredFor(10, 1); return err },
		func() error { _, err := DecredKL(10, 0, 3); return err },
		func() error { _, err := StableFor(1, 0.01); return err },
	} {
		if err := bad(); !errors.Is(err, experiments.ErrInvalidParams) {
			t.Errorf("got %v, want ErrInvalidParams", err)
		}
	}
}

// TestDecredPromise checks decred's window at every phase of a
// generation: the newest L g + 1 items always test present, and some of
// the Capacity() = (L+1) g it promises do not.
func TestDecredPromise(t *testing.T) {
	d, err := DecredKL(400, 4, 3) // g = 100
	if err != nil {
		t.Fatal(err)
	}
	key := func(f int, i uint64) []byte {
		return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, uint64(f)), i)
	}
	warm := 10 * d.Generation
	pc, err := CheckPhases(NewDecred(400, d), 4, warm, int(d.Generation), d.Capacity(), key)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v, guaranteed %d", pc, d.Guaranteed())
	if pc.Safe < d.Guaranteed() {
		t.Errorf("an item of age %d tested absent, below the guaranteed %d", pc.Safe, d.Guaranteed())
	}
	if pc.Missed == 0 || pc.Safe >= d.Capacity() {
		t.Errorf("no item of the promised %d tested absent: %+v", d.Capacity(), pc)
	}
	pc, err = CheckPhases(NewDecred(400, d), 4, warm, int(d.Generation), d.Guaranteed(), key)
	if err != nil || pc.Missed != 0 {
		t.Errorf("guaranteed window: %+v, %v", pc, err)
	}
}
