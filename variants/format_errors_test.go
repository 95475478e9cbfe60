package variants

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// fixChecksum rewrites the trailing checksum of an encoding in place so
// that a deliberately altered field reaches the checks behind the
// checksum.
func fixChecksum(data []byte) []byte {
	if len(data) >= 4 {
		binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
	}
	return data
}

// TestDecodeErrors checks each kind of bad input: an error wrapping the
// right sentinel, a message that names the problem, and a receiver left
// unchanged.
func TestDecodeErrors(t *testing.T) {
	s, _ := NewStandard(Geometry{Bits: 200, Hashes: 3}, Hashing{Seed: 5})
	s.Add([]byte("x"))
	good, _ := s.MarshalBinary()
	p, _ := NewPartitioned(Geometry{Bits: 100, Hashes: 4}, Hashing{})
	pgood, _ := p.MarshalBinary()
	le := binary.LittleEndian
	c, _ := NewCounting(CountingParams{Geometry: Geometry{Bits: 100, Hashes: 3}, Width: 4})
	c.Add([]byte("x"))
	cgood, _ := c.MarshalBinary()
	sc, _ := NewScalable(ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 1})
	for _, k := range goldenKeys {
		sc.Add([]byte(k))
	}
	if sc.Stages() != 3 {
		t.Fatalf("scalable sample has %d stages, want 3", sc.Stages())
	}
	sgood, _ := sc.MarshalBinary()
	f64 := func(off int, v float64) func(b []byte) []byte {
		return func(b []byte) []byte { le.PutUint64(b[off:], math.Float64bits(v)); return b }
	}
	edit := func(src []byte, fix bool, f func(b []byte) []byte) []byte {
		b := f(bytes.Clone(src))
		if fix {
			fixChecksum(b)
		}
		return b
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty input"},
		{"short magic", good[:3], "truncated"},
		{"bad magic", edit(good, true, func(b []byte) []byte { copy(b, "JUNK"); return b }), "bad magic"},
		{"text", []byte("hello, world, this is not a filter at all"), "bad magic"},
		{"header only", good[:17], "truncated"},
		{"no payload", good[:45], "declare 32 bytes of cells, 0 bytes remain"},
		{"no checksum", good[:len(good)-4], "truncated"},
		{"half checksum", good[:len(good)-2], "truncated"},
		{"trailing byte", append(bytes.Clone(good), 0), "1 bytes follow"},
		{"checksum", edit(good, false, func(b []byte) []byte { b[50] ^= 1; return b }), "checksum"},
		{"version 0", edit(good, true, func(b []byte) []byte { le.PutUint16(b[4:], 0); return b }), "unknown format version 0"},
		{"version 2", edit(good, true, func(b []byte) []byte { le.PutUint16(b[4:], 2); return b }), "unknown format version 2"},
		{"variant 0", edit(good, true, func(b []byte) []byte { b[6] = 0; return b }), "unknown variant 0"},
		{"variant 200", edit(good, true, func(b []byte) []byte { b[6] = 200; return b }), "unknown variant 200"},
		{"hash kind", edit(good, true, func(b []byte) []byte { b[7] = 6; return b }), "hash kind 6"},
		{"hash kind xxh3-64", edit(good, true, func(b []byte) []byte { b[7] = 5; return b }), "hash kind xxh3-64 gives 64 bits"},
		{"hash kind murmur64a", edit(good, true, func(b []byte) []byte { b[7] = 4; return b }), "only a RedisBloom filter"},
		{"hash kind 3 after a seed", edit(good, true, func(b []byte) []byte { b[7] = 3; return b }), "seed must be 0"},
		{"hash kind 3 in place of a key", edit(good, true, func(b []byte) []byte { b[7] = 3; le.PutUint64(b[9:], 0); return b }), "want 1 <= k"},
		{"hash kind xxh64", edit(good, true, func(b []byte) []byte { b[7] = 2; return b }), "hash kind xxh64 gives 64 bits"},
		{"derivation", edit(good, true, func(b []byte) []byte { b[8] = 4; return b }), "derivation 4"},
		{"bits 0", edit(good, true, func(b []byte) []byte { le.PutUint64(b[17:], 0); return b }), "bits m = 0"},
		{"bits huge", edit(good, true, func(b []byte) []byte { le.PutUint64(b[17:], 1<<63); return b }), "bits m = 9223372036854775808"},
		{"bits more than data", edit(good, true, func(b []byte) []byte { le.PutUint64(b[17:], 1<<40); return b }), "bytes of cells"},
		{"bits fewer than data", edit(good, true, func(b []byte) []byte { le.PutUint64(b[17:], 64); return b }), "checksum"},
		{"hashes 0", edit(good, true, func(b []byte) []byte { le.PutUint32(b[25:], 0); return b }), "hashes k = 0"},
		{"hashes huge", edit(good, true, func(b []byte) []byte { le.PutUint32(b[25:], math.MaxUint32); return b }), "hashes k = 4294967295"},
		{"padding bit", edit(good, true, func(b []byte) []byte { b[len(b)-5] |= 0x80; return b }), "bits set beyond the 200 bits"},
		{"slice bits 0", edit(pgood, true, func(b []byte) []byte { le.PutUint64(b[17:], 0); return b }), "slice bits b = 0"},
		{"slices too large", edit(pgood, true, func(b []byte) []byte { le.PutUint64(b[17:], 1<<47); return b }), "more than the maximum"},
		{"slice padding", edit(pgood, true, func(b []byte) []byte { b[45+7] |= 0x80; return b }), "bits set beyond the 25 bits"},
		{"counter width 3", edit(cgood, true, func(b []byte) []byte { b[29] = 3; return b }), "counter width w = 3"},
		{"counter width 0", edit(cgood, true, func(b []byte) []byte { b[29] = 0; return b }), "counter width w = 0"},
		{"counter width 32", edit(cgood, true, func(b []byte) []byte { b[29] = 32; return b }), "counter width w = 32"},
		{"counters 0", edit(cgood, true, func(b []byte) []byte { le.PutUint64(b[17:], 0); return b }), "bits m = 0"},
		{"counter padding", edit(cgood, true, func(b []byte) []byte { b[len(b)-5] |= 0x80; return b }), "bits set beyond the 400 bits"},
		{"counting truncated", cgood[:60], "declare 56 bytes of cells, 14 bytes remain"},
		{"stream stages, derivation 1", edit(sgood, true, func(b []byte) []byte { b[8] = 1; return b }), "derivation double: a scalable stream filter"},
		{"scalable P NaN", edit(sgood, true, f64(17, math.NaN())), "P = NaN"},
		{"scalable P 0", edit(sgood, true, f64(17, 0)), "P = 0"},
		{"scalable P 1", edit(sgood, true, f64(17, 1)), "P = 1"},
		{"scalable r 0", edit(sgood, true, f64(25, 0)), "tightening ratio r = 0"},
		{"scalable r 1", edit(sgood, true, f64(25, 1)), "tightening ratio r = 1"},
		{"scalable s 0.5", edit(sgood, true, f64(33, 0.5)), "growth factor s = 0.5"},
		{"scalable s Inf", edit(sgood, true, f64(33, math.Inf(1))), "growth factor s = +Inf"},
		{"scalable n0 0", edit(sgood, true, func(b []byte) []byte { le.PutUint64(b[41:], 0); return b }), "initial capacity n0 = 0"},
		{"scalable 0 stages", edit(sgood, true, func(b []byte) []byte { le.PutUint32(b[57:], 0); return b }), "0 stages, want 1 to 256"},
		{"scalable 257 stages", edit(sgood, true, func(b []byte) []byte { le.PutUint32(b[57:], 257); return b }), "257 stages"},
		{"scalable more stages than data", edit(sgood, true, func(b []byte) []byte { le.PutUint32(b[57:], 4); return b }), "but a stage before the newest holds its capacity"},
		{"scalable fewer stages than data", edit(sgood, true, func(b []byte) []byte { le.PutUint32(b[57:], 2); return b }), "the stages hold 3 items, the filter says 5"},
		{"stage slice bits 0", edit(sgood, true, func(b []byte) []byte { le.PutUint64(b[61:], 0); return b }), "slice bits b = 0"},
		{"stage hashes 0", edit(sgood, true, func(b []byte) []byte { le.PutUint32(b[69:], 0); return b }), "hashes k = 0"},
		{"stage slices too large", edit(sgood, true, func(b []byte) []byte { le.PutUint64(b[61:], 1<<40); return b }), "give slices of 2 bits"},
		{"scalable truncated in a stage", sgood[:100], "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecodeError(t, tt.data, tt.want, ErrCorrupt)
		})
	}
	t.Run("empty is EOF", func(t *testing.T) {
		_, err := ReadFilter(bytes.NewReader(nil))
		if !errors.Is(err, io.EOF) || !errors.Is(err, ErrCorrupt) {
			t.Errorf("error %v, want one wrapping io.EOF and ErrCorrupt", err)
		}
		_, err = ReadFilter(bytes.NewReader(good[:10]))
		if errors.Is(err, io.EOF) || !errors.Is(err, ErrCorrupt) {
			t.Errorf("error %v for a truncated header, want ErrCorrupt and not io.EOF", err)
		}
	})
	t.Run("wrong variant", func(t *testing.T) {
		var q Partitioned
		err := q.UnmarshalBinary(good)
		if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "holds a standard filter, not a partitioned one") {
			t.Errorf("error %v, want ErrIncompatible naming the variants", err)
		}
		var cf Counting
		if err := cf.UnmarshalBinary(sgood); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "holds a scalable (stream stages) filter, not a counting one") {
			t.Errorf("error %v, want ErrIncompatible naming the variants", err)
		}
		var sf Scalable
		if err := sf.UnmarshalBinary(cgood); !errors.Is(err, ErrIncompatible) {
			t.Errorf("error %v, want ErrIncompatible", err)
		}
		var r Standard
		if err := r.UnmarshalBinary(pgood); !errors.Is(err, ErrIncompatible) {
			t.Errorf("error %v, want ErrIncompatible", err)
		}
	})
}

// checkDecodeError decodes data with every decoder and checks the error
// and that the receivers are unchanged.
func checkDecodeError(t *testing.T, data []byte, want string, sentinel error) {
	t.Helper()
	if f, err := Unmarshal(data); err == nil || f != nil {
		t.Fatalf("Unmarshal = %v, %v; want nil and an error", f, err)
	} else if !errors.Is(err, sentinel) || !strings.HasPrefix(err.Error(), "variants: ") || !strings.Contains(err.Error(), want) {
		t.Errorf("Unmarshal error %q, want %v mentioning %q", err, sentinel, want)
	}
	for _, f := range sampleFiltersSmall(t) {
		before, _ := f.MarshalBinary()
		err := f.UnmarshalBinary(data)
		if err == nil {
			t.Fatalf("%T.UnmarshalBinary succeeded", f)
		}
		if !errors.Is(err, sentinel) && !errors.Is(err, ErrIncompatible) {
			t.Errorf("%T.UnmarshalBinary error %q wraps neither %v nor ErrIncompatible", f, err, sentinel)
		}
		// ReadFrom reads one filter and stops, so trailing bytes are no
		// error for it.
		if !strings.Contains(want, "follow") {
			if _, err := f.ReadFrom(struct{ io.Reader }{bytes.NewReader(data)}); err == nil {
				t.Fatalf("%T.ReadFrom succeeded", f)
			}
		}
		after, _ := f.MarshalBinary()
		if !bytes.Equal(before, after) {
			t.Fatalf("%T changed by a failed decode", f)
		}
	}
}

// TestEveryTruncationAndBitFlip: every proper prefix of an encoding and
// every single-bit change of it gives an error wrapping ErrCorrupt.
func TestEveryTruncationAndBitFlip(t *testing.T) {
	for _, f := range sampleFiltersSmall(t) {
		data, _ := f.MarshalBinary()
		for n := range len(data) {
			if g, err := Unmarshal(data[:n]); err == nil || g != nil || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%T truncated to %d bytes: %v, %v", f, n, g, err)
			}
			if _, err := ReadFilter(iotest.HalfReader(bytes.NewReader(data[:n]))); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%T truncated to %d bytes, streamed: %v", f, n, err)
			}
		}
		for i := range 8 * len(data) {
			b := bytes.Clone(data)
			b[i/8] ^= 1 << (i % 8)
			if g, err := Unmarshal(b); err == nil || g != nil || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%T with bit %d flipped: %v, %v", f, i, g, err)
			}
		}
	}
}

// TestLyingHeader: a header that declares 2^40 bits followed by 10 bytes
// must fail at once, allocating far less than the declared size, both from
// bytes (whose length is known) and from a stream (whose length is not).
func TestLyingHeader(t *testing.T) {
	s, _ := NewStandard(Geometry{Bits: 64, Hashes: 1}, Hashing{})
	good, _ := s.MarshalBinary()
	for _, tt := range []struct {
		name   string
		bits   uint64
		stream bool
	}{{"bytes", 1 << 40, false}, {"stream", 1 << 40, true}, {"stream within memory", 1 << 33, true}} {
		t.Run(tt.name, func(t *testing.T) {
			data := append(bytes.Clone(good[:45]), make([]byte, 10)...)
			binary.LittleEndian.PutUint64(data[17:], tt.bits)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var err error
			if tt.stream {
				_, err = ReadFilter(struct{ io.Reader }{bytes.NewReader(data)})
			} else {
				_, err = Unmarshal(data)
			}
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrInvalidParams) {
				t.Errorf("error %v", err)
			}
			if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
				t.Errorf("allocated %d bytes for a lying header", d)
			}
			t.Log(err)
		})
	}
}

// TestZeroValueMarshal: a zero value is not a filter and does not encode.
func TestZeroValueMarshal(t *testing.T) {
	for _, f := range sampleFiltersSmall(t) {
		f = fresh(f)
		if _, err := f.MarshalBinary(); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("%T.MarshalBinary: %v", f, err)
		}
		if n, err := f.WriteTo(io.Discard); !errors.Is(err, ErrInvalidParams) || n != 0 {
			t.Errorf("%T.WriteTo: %d, %v", f, n, err)
		}
	}
}
