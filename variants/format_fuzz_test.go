package variants

import (
	"bytes"
	"encoding"
	"errors"
	"io"
	"testing"
)

// FuzzUnmarshal decodes arbitrary bytes with every decoder. Properties: no
// panic; a nil filter exactly when an error, and every error wraps
// ErrCorrupt (or ErrIncompatible for a valid filter of another variant);
// a successful decode re-encodes to the same bytes and agrees with the
// other decoders; a failed decode leaves its receiver unchanged. Each
// input is tried as given and with its checksum fixed, so that mutated
// parameters reach the checks behind the checksum.
func FuzzUnmarshal(f *testing.F) {
	for _, g := range sampleFiltersSmall(f) {
		data, _ := g.MarshalBinary()
		f.Add(data)
		f.Add(data[:len(data)/2])
		b := bytes.Clone(data)
		b[20] ^= 4
		f.Add(b)
	}
	for _, g := range goldenFilters(f) {
		data, _ := g.MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte{})
	f.Add([]byte("BLMF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
		if len(data) >= 4 {
			checkDecode(t, fixChecksum(bytes.Clone(data)))
		}
	})
}

func checkDecode(t *testing.T, data []byte) {
	f, err := Unmarshal(data)
	if (f == nil) != (err != nil) {
		t.Fatalf("Unmarshal = %v, %v", f, err)
	}
	if err != nil && !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Unmarshal error %v does not wrap ErrCorrupt", err)
	}
	// The stream decoder, with and without a known length, agrees.
	g, gerr := ReadFilter(struct{ io.Reader }{bytes.NewReader(data)})
	if (gerr == nil) != (g != nil) {
		t.Fatalf("ReadFilter = %v, %v", g, gerr)
	}
	if err == nil {
		if gerr != nil {
			t.Fatalf("Unmarshal succeeded, ReadFilter failed: %v", gerr)
		}
		again, err := f.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
		_ = f.Contains(data)
		st := f.Stats()
		if st.Cells == 0 || st.FillRatio < 0 || st.FillRatio > 1 {
			t.Fatalf("Stats %+v", st)
		}
	}
	for _, h := range sampleFiltersSmall(t) {
		before, _ := h.MarshalBinary()
		herr := h.UnmarshalBinary(data)
		if herr != nil {
			if !errors.Is(herr, ErrCorrupt) && !errors.Is(herr, ErrIncompatible) {
				t.Fatalf("%T: error %v", h, herr)
			}
			if after, _ := h.MarshalBinary(); !bytes.Equal(before, after) {
				t.Fatalf("%T changed by a failed decode", h)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%T decoded what Unmarshal rejected (%v)", h, err)
		}
		if after, _ := h.MarshalBinary(); !bytes.Equal(after, data) {
			t.Fatalf("%T re-encodes differently", h)
		}
	}
}
