package variants

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"
)

// fillRedis adds n keys to f.
func fillRedis(f *RedisBloom, n int) {
	for i := range n {
		f.Add(fmt.Appendf(nil, "tightening-%d", i))
	}
}

// TestRedisBloomTighteningDefault: Tightening 0.5 builds RedisBloom's own
// filter, which reports Tightening 0, encodes as before and dumps.
func TestRedisBloomTighteningDefault(t *testing.T) {
	t.Parallel()
	for _, pow2 := range []bool{false, true} {
		a, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, PowerOfTwo: pow2})
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, PowerOfTwo: pow2, Tightening: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		fillRedis(a, 1000)
		fillRedis(b, 1000)
		if !a.Equal(b) || b.Params().Tightening != 0 || b.Model() != a.Model() {
			t.Fatalf("power of two %v: tightening 0.5 differs from 0: Params %+v, Model %+v", pow2, b.Params(), b.Model())
		}
		da, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		db, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(da, db) || da[37] > 1 {
			t.Errorf("power of two %v: tightening 0.5 encodes otherwise than 0 (options %d)", pow2, db[37])
		}
		if _, err := b.ScanDumpAll(0); err != nil {
			t.Errorf("power of two %v: ScanDumpAll with tightening 0.5: %v", pow2, err)
		}
	}
}

func TestRedisBloomTighteningInvalid(t *testing.T) {
	t.Parallel()
	for _, r := range []float64{-0.1, 1, 1.5, math.NaN(), math.Inf(-1)} {
		if _, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, Tightening: r}); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("tightening %v: %v, want ErrInvalidParams", r, err)
		}
	}
	// Link 0's error 0.9 (1 - 0.1) = 0.81 is not below 1/2.
	if _, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.9, Capacity: 100, Tightening: 0.1}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("error rate 0.9, tightening 0.1: %v, want ErrInvalidParams", err)
	}
}

// TestRedisBloomTighteningLinks: the links have the errors and geometry of
// analysis.RedisBloom with the tightening, ErrorRate (1-r) r^i.
func TestRedisBloomTighteningLinks(t *testing.T) {
	t.Parallel()
	f, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, Tightening: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	fillRedis(f, 3000)
	st := f.Stats()
	if len(st.Stages) != 5 {
		t.Fatalf("%d links at 3000 keys, want 5", len(st.Stages))
	}
	m := f.Model()
	if m.Tightening != 0.8 || f.Params().Tightening != 0.8 {
		t.Fatalf("Model %+v, Params %+v: want tightening 0.8", m, f.Params())
	}
	for i, s := range st.Stages {
		l, err := m.Link(i)
		if err != nil {
			t.Fatal(err)
		}
		want := 0.01 * 0.2 * math.Pow(0.8, float64(i))
		if s.Error != l.Error || math.Abs(s.Error-want) > 1e-15 || s.Bits != l.Bits || s.Hashes != l.Hashes || s.Capacity != l.Capacity {
			t.Errorf("link %d: %+v, want %+v (error %v)", i, s, l, want)
		}
	}
}

// TestRedisBloomTighteningRoundTrip: a tightening other than RedisBloom's
// survives MarshalBinary, WriteTo, UnmarshalBinary, ReadFrom and
// Unmarshal, in 8 bytes of parameters more than the default (an
// overhead of 62 + 28 L bytes), and ScanDump refuses it.
func TestRedisBloomTighteningRoundTrip(t *testing.T) {
	t.Parallel()
	for _, pow2 := range []bool{false, true} {
		p := RedisBloomParams{ErrorRate: 0.001, Capacity: 100, Expansion: 3, PowerOfTwo: pow2, Tightening: 0.7, Seed: 9}
		f, err := NewRedisBloom(p)
		if err != nil {
			t.Fatal(err)
		}
		fillRedis(f, 2000)
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if n, err := f.WriteTo(&buf); err != nil || n != int64(len(data)) || !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("WriteTo: %d bytes, %v; differs from MarshalBinary", n, err)
		}
		wantOpt := byte(redisOptTightening)
		if pow2 {
			wantOpt |= redisOptPowerOfTwo
		}
		if data[37] != wantOpt || math.Float64frombits(binary.LittleEndian.Uint64(data[38:])) != 0.7 {
			t.Errorf("power of two %v: options %d, tightening field %v; want %d and 0.7", pow2, data[37], math.Float64frombits(binary.LittleEndian.Uint64(data[38:])), wantOpt)
		}
		var words uint64
		for _, l := range f.links[:f.live] {
			words += uint64(len(l.words))
		}
		if want := uint64(62+28*f.Links()) + 8*words; uint64(len(data)) != want {
			t.Errorf("power of two %v: %d bytes, want %d (overhead 62 + 28 L)", pow2, len(data), want)
		}

		var h RedisBloom
		if err := h.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		if !h.Equal(f) || h.Params() != f.Params() || h.Stats().Items != f.Stats().Items {
			t.Fatalf("power of two %v: loaded %+v, saved %+v", pow2, h.Params(), f.Params())
		}
		again, _ := h.MarshalBinary()
		if !bytes.Equal(again, data) {
			t.Errorf("power of two %v: the loaded filter encodes otherwise", pow2)
		}
		var r RedisBloom
		if _, err := r.ReadFrom(bytes.NewReader(data)); err != nil || !r.Equal(f) {
			t.Errorf("power of two %v: ReadFrom: %v", pow2, err)
		}
		if u, err := Unmarshal(data); err != nil || !u.(*RedisBloom).Equal(f) {
			t.Errorf("power of two %v: Unmarshal: %v", pow2, err)
		}
		// The loaded filter grows as the saved one would.
		fillRedis(f, 20000)
		fillRedis(&h, 20000)
		if !h.Equal(f) {
			t.Errorf("power of two %v: the loaded filter grew otherwise", pow2)
		}

		// ScanDump refuses it, whatever the seed.
		p.Seed = 0
		z, _ := NewRedisBloom(p)
		if _, _, err := z.ScanDump(0, 0); !errors.Is(err, ErrIncompatible) {
			t.Errorf("power of two %v: ScanDump with tightening 0.7: %v, want ErrIncompatible", pow2, err)
		}
		if _, err := z.ScanDumpAll(0); !errors.Is(err, ErrIncompatible) {
			t.Errorf("power of two %v: ScanDumpAll with tightening 0.7: %v, want ErrIncompatible", pow2, err)
		}
	}
}

// TestRedisBloomTighteningCorrupt: decoders check the options byte and the
// stored tightening as the constructor would, behind a valid checksum.
func TestRedisBloomTighteningCorrupt(t *testing.T) {
	t.Parallel()
	f, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100, Tightening: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	fillRedis(f, 500)
	data, _ := f.MarshalBinary()
	plain, _ := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 100})
	fillRedis(plain, 500)
	pdata, _ := plain.MarshalBinary()
	setR := func(r float64) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[38:], math.Float64bits(r)); return b }
	}
	for _, c := range []struct {
		name string
		data []byte
		edit func([]byte) []byte
	}{
		{"options 4", data, func(b []byte) []byte { b[37] = 4; return b }},
		{"options 6", data, func(b []byte) []byte { b[37] = 6; return b }},
		{"stored 0.5", data, setR(0.5)},
		{"stored 0", data, setR(0)},
		{"stored 1", data, setR(1)},
		{"stored -0.9", data, setR(-0.9)},
		{"stored NaN", data, setR(math.NaN())},
		// Another valid tightening: the links no longer match it.
		{"stored 0.8", data, setR(0.8)},
		// Without the option bit the tightening is read as items.
		{"option bit cleared", data, func(b []byte) []byte { b[37] = 0; return b }},
		// A default encoding that claims a tightening.
		{"option bit set on the default", pdata, func(b []byte) []byte { b[37] = 2; return b }},
	} {
		b := fixChecksum(c.edit(bytes.Clone(c.data)))
		var g RedisBloom
		if err := g.UnmarshalBinary(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", c.name, err)
		}
		if _, err := Unmarshal(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Unmarshal: %v, want ErrCorrupt", c.name, err)
		}
		if _, err := ReadFilter(bytes.NewReader(b)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: ReadFilter: %v, want ErrCorrupt", c.name, err)
		}
	}
	// Truncated inside the tightening field.
	if _, err := Unmarshal(data[:42]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated in the tightening: %v, want ErrCorrupt", err)
	}
}
