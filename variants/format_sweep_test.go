package variants

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// rebuild returns the filter the constructor builds from the parameters
// of the loaded filter f, grown to as many stages as f has: what f must
// be, but for its bits and counts, if the decoder accepted it.
func rebuild(f Filter) (Filter, error) {
	h := f.Hashing()
	switch f := f.(type) {
	case *Standard:
		return NewStandard(f.Geometry(), h)
	case *Partitioned:
		return NewPartitioned(f.Geometry(), h)
	case *Counting:
		return NewCounting(CountingParams{Geometry: f.Geometry(), Width: f.Width(), Hashing: h})
	case *Blocked:
		return NewBlocked(BlockedParams{Geometry: f.Geometry(), BlockBits: f.BlockBits(), Hashing: h})
	case *SplitBlock:
		return NewSplitBlock(f.Geometry(), h)
	case *Scalable:
		g, err := newScalable(f.Params(), f.stream)
		for err == nil && g.live < f.live {
			err = g.grow(false)
		}
		return g, err
	case *Dynamic:
		g, err := NewDynamic(f.Params())
		for err == nil && g.live < f.live {
			err = g.grow(false)
		}
		return g, err
	case *RedisBloom:
		g, err := NewRedisBloom(f.Params())
		for err == nil && g.live < f.live {
			err = g.grow(false)
		}
		return g, err
	case *AgePartitioned:
		return NewAgePartitioned(f.Params())
	case *Multiblock:
		return NewMultiblock(f.Params())
	}
	return nil, fmt.Errorf("no constructor for %T", f)
}

// geometry returns the figures of st that the parameters fix: the
// variant, cells, bits, hashes and capacity, and those of each stage.
func geometry(st Stats) string {
	s := fmt.Sprintf("%s cells %d×%d bits %d k %d capacity %d slices %d", st.Variant, st.Cells, st.CellBits, st.Bits, st.Hashes, st.Capacity, len(st.Slices))
	for i, x := range st.Stages {
		s += fmt.Sprintf(" | stage %d: capacity %d bits %d k %d error %v", i, x.Capacity, x.Bits, x.Hashes, x.Error)
	}
	return s
}

// TestGoldenBitFlipsFixedChecksum flips every bit of every golden file but
// its checksum, one at a time, and fixes the checksum. Each load must
// fail with ErrCorrupt or give a filter whose geometry, stage by stage, is
// the one the constructor builds from the decoded parameters; a loaded
// filter then takes 200 more keys and must stay under 64 MiB of bits, the
// process limit the test sets.
func TestGoldenBitFlipsFixedChecksum(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	keys := testKeys(11, 7, 200)
	withLimit(t, 64<<20)
	start := time.Now()
	var loads, refused int
	for _, path := range paths {
		data := readHex(t, path)
		for i := range 8 * (len(data) - trailerSize) {
			b := bytes.Clone(data)
			b[i/8] ^= 1 << (i % 8)
			fixChecksum(b)
			f, err := Unmarshal(b)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s, bit %d: %v, want ErrCorrupt", path, i, err)
				}
				refused++
				continue
			}
			loads++
			g, err := rebuild(f)
			if err != nil {
				t.Fatalf("%s, bit %d: loads, but its parameters build no filter: %v", path, i, err)
			}
			if got, want := geometry(f.Stats()), geometry(g.Stats()); got != want {
				t.Fatalf("%s, bit %d: loads as\n%s\nbut its parameters build\n%s", path, i, got, want)
			}
			// Under a process limit of 64 MiB every loaded filter,
			// blocked scalable ones included (before the memory limit
			// and MaxBlockedStageCost their golden files reached 32 GB
			// after 200 adds), stays under it: growth beyond is refused
			// and recorded in Err.
			for _, k := range keys {
				f.Add(k)
			}
			if st := f.Stats(); st.Bits/8 > 64<<20 {
				t.Fatalf("%s, bit %d: %d bytes of bits after 200 adds", path, i, st.Bits/8)
			}
		}
	}
	t.Logf("%d loads, %d refused, %v", loads, refused, time.Since(start))
}
