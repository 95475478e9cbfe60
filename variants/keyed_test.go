package variants

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestKeyedReferenceVectors checks the keyed digest against SipHash-2-4's
// 128-bit reference vectors (vectors.h of the reference implementation by
// Aumasson and Bernstein: key 00 01 .. 0f, message 00 01 .. of length i;
// H1 is the first 8 output bytes read little-endian, H2 the next 8).
func TestKeyedReferenceVectors(t *testing.T) {
	vectors := map[int][16]byte{
		0:  {0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55, 0x02, 0x93},
		1:  {0xda, 0x87, 0xc1, 0xd8, 0x6b, 0x99, 0xaf, 0x44, 0x34, 0x76, 0x59, 0x11, 0x9b, 0x22, 0xfc, 0x45},
		7:  {0xa1, 0xf1, 0xeb, 0xbe, 0xd8, 0xdb, 0xc1, 0x53, 0xc0, 0xb8, 0x4a, 0xa6, 0x1f, 0xf0, 0x82, 0x39},
		8:  {0x3b, 0x62, 0xa9, 0xba, 0x62, 0x58, 0xf5, 0x61, 0x0f, 0x83, 0xe2, 0x64, 0xf3, 0x14, 0x97, 0xb4},
		15: {0x54, 0x93, 0xe9, 0x99, 0x33, 0xb0, 0xa8, 0x11, 0x7e, 0x08, 0xec, 0x0f, 0x97, 0xcf, 0xc3, 0xd9},
		16: {0x6e, 0xe2, 0xa4, 0xca, 0x67, 0xb0, 0x54, 0xbb, 0xfd, 0x33, 0x15, 0xbf, 0x85, 0x23, 0x05, 0x77},
	}
	h := Hashing{Kind: SipHash, Key: refKey}
	for n, want := range vectors {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(i)
		}
		d := h.Digest(msg)
		got := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, d.H1), d.H2)
		if !bytes.Equal(got, want[:]) {
			t.Errorf("length %d: digest %x, want %x", n, got, want)
		}
	}
}

// TestKeyedKeyMatters: the same key under two keys gives unrelated
// digests, and filters with different keys set different bits.
func TestKeyedKeyMatters(t *testing.T) {
	a := Hashing{Kind: SipHash, Key: refKey}
	b := a
	b.Key[0] ^= 1
	same := 0
	for _, k := range testKeys(5, 1, 1000) {
		if a.Digest(k) == b.Digest(k) {
			same++
		}
	}
	if same != 0 {
		t.Errorf("%d of 1000 keys have the same digest under keys one bit apart", same)
	}
	fa, _ := NewStandard(Geometry{Bits: 4096, Hashes: 4}, a)
	fb, _ := NewStandard(Geometry{Bits: 4096, Hashes: 4}, b)
	fa.Add([]byte("x"))
	fb.Add([]byte("x"))
	if fa.Equal(fb) {
		t.Error("filters with different keys set the same bits for a key")
	}
	if err := fa.Union(fb); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "hash keys differ") {
		t.Errorf("Union of filters with different keys: %v, want ErrIncompatible naming the keys", err)
	}
	if strings.Contains(fmt.Sprint(fa.Union(fb)), fmt.Sprint(a.Key[:])) {
		t.Error("the incompatibility error prints a key")
	}
}

// TestNewKey: keys from NewKey are valid (non-zero) and differ.
func TestNewKey(t *testing.T) {
	seen := map[HashKey]bool{}
	for range 100 {
		k := NewKey()
		if k == (HashKey{}) || seen[k] {
			t.Fatalf("NewKey returned %x, zero or repeated", k[:])
		}
		seen[k] = true
		if _, err := NewStandardFor(100, 0.01, Hashing{Kind: SipHash, Key: k}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHashKeyNotPrinted: formatting a Hashing or a key with the usual
// verbs never shows the key's bytes.
func TestHashKeyNotPrinted(t *testing.T) {
	h := Hashing{Kind: SipHash, Key: HashKey{0xde, 0xad, 0xbe, 0xef, 15: 0x77}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%q"} {
		for _, v := range []any{h, h.Key, &h} {
			s := fmt.Sprintf(verb, v)
			if strings.Contains(strings.ToLower(s), "deadbeef") || strings.Contains(s, "222 173 190 239") || strings.Contains(s, "0xde") {
				t.Errorf("Sprintf(%q) = %q shows the key", verb, s)
			}
		}
	}
	if got := fmt.Sprint(HashKey{}); got != "[zero]" {
		t.Errorf("zero key prints %q", got)
	}
}

// TestKeyedInvalid: the key and seed rules of the keyed kind.
func TestKeyedInvalid(t *testing.T) {
	tests := []struct {
		name string
		h    Hashing
		want string
	}{
		{"zero key", Hashing{Kind: SipHash}, "zero key"},
		{"seed", Hashing{Kind: SipHash, Key: refKey, Seed: 1}, "seed must be 0"},
		{"key on xxh3", Hashing{Key: refKey}, "takes no key"},
		{"key on metro", Hashing{Kind: Metro, Key: refKey}, "takes no key"},
	}
	for _, tt := range tests {
		for _, v := range []struct {
			name string
			make func(Hashing) error
		}{
			{"standard", func(h Hashing) error { _, err := NewStandard(Geometry{Bits: 100, Hashes: 3}, h); return err }},
			{"partitioned", func(h Hashing) error { _, err := NewPartitionedFor(100, 0.01, h); return err }},
			{"counting", func(h Hashing) error { _, err := NewCountingFor(100, 0.01, h); return err }},
			{"blocked", func(h Hashing) error {
				_, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: 512, Hashes: 3}, Hashing: h})
				return err
			}},
			{"split-block", func(h Hashing) error { _, err := NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, h); return err }},
			{"scalable", func(h Hashing) error { _, err := NewScalable(ScalableParams{P: 0.01, N0: 100, Hashing: h}); return err }},
			{"concurrent", func(h Hashing) error { _, err := NewConcurrentStandard(Geometry{Bits: 100, Hashes: 3}, h); return err }},
		} {
			err := v.make(tt.h)
			if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s, %s: error %v, want ErrInvalidParams mentioning %q", tt.name, v.name, err, tt.want)
			}
		}
	}
	if _, err := NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, Hashing{Kind: XXH64, Key: refKey}); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "xxh64 takes no key") {
		t.Errorf("split-block, key on xxh64: %v", err)
	}
}

// TestKeyedDecodeErrors: crafted keyed encodings give errors wrapping
// ErrCorrupt (never a panic), and leave the receivers unchanged.
func TestKeyedDecodeErrors(t *testing.T) {
	f, err := NewStandard(Geometry{Bits: 200, Hashes: 3}, Hashing{Kind: SipHash, Key: refKey})
	if err != nil {
		t.Fatal(err)
	}
	f.Add([]byte("x"))
	good, _ := f.MarshalBinary()
	le := binary.LittleEndian
	edit := func(fn func(b []byte)) []byte {
		b := bytes.Clone(good)
		fn(b)
		return fixChecksum(b)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated in the key", good[:25], "truncated"},
		{"header without key", good[:17], "truncated"},
		{"zero key", edit(func(b []byte) { clear(b[17:33]) }), "zero key"},
		{"seed", edit(func(b []byte) { le.PutUint64(b[9:], 3) }), "seed must be 0"},
		{"kind metro with a key's bytes", edit(func(b []byte) { b[7] = byte(Metro) }), "hashes k ="},
		{"bits 0", edit(func(b []byte) { le.PutUint64(b[33:], 0) }), "bits m = 0"},
		{"bits more than data", edit(func(b []byte) { le.PutUint64(b[33:], 1<<40) }), "bytes of cells"},
		{"checksum", func() []byte { b := bytes.Clone(good); b[20] ^= 1; return b }(), "checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecodeError(t, tt.data, tt.want, ErrCorrupt)
		})
	}
	// Every prefix and every single-bit change of a keyed encoding of
	// every variant is rejected.
	for _, name := range sortedTypes() {
		newf := persistentTypes[name]
		g, err := newf(Geometry{Bits: 100, Hashes: 2}, Hashing{Kind: SipHash, Key: refKey})
		if err != nil {
			t.Fatal(name, err)
		}
		g.Add([]byte("present"))
		data, _ := g.MarshalBinary()
		for n := range len(data) {
			if u, err := Unmarshal(data[:n]); u != nil || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s truncated to %d bytes: %v, %v", name, n, u, err)
			}
		}
		for i := range 8 * len(data) {
			b := bytes.Clone(data)
			b[i/8] ^= 1 << (i % 8)
			if u, err := Unmarshal(b); u != nil || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s with bit %d flipped: %v, %v", name, i, u, err)
			}
		}
	}
}

// TestKeyedGoldenLayout checks the keyed golden encoding field by field:
// hash kind 3, seed 0, the key in bytes 17 to 32, and the standard
// parameters 16 bytes later than in an unkeyed encoding.
func TestKeyedGoldenLayout(t *testing.T) {
	data := readHex(t, "testdata/standard-siphash-v1.golden")
	le := binary.LittleEndian
	if data[7] != 3 || le.Uint64(data[9:]) != 0 || !bytes.Equal(data[17:33], refKey[:]) {
		t.Fatalf("header %x: want kind 3, seed 0 and the key 00..0f", data[:33])
	}
	if m, k, items := le.Uint64(data[33:]), le.Uint32(data[41:]), le.Uint64(data[53:]); m != 200 || k != 3 || items != uint64(len(goldenKeys)) {
		t.Errorf("m = %d, k = %d, items = %d; want 200, 3, %d", m, k, items, len(goldenKeys))
	}
	if len(data) != 16+49+8*4 {
		t.Errorf("%d bytes, want %d", len(data), 16+49+8*4)
	}
	h := Hashing{Kind: SipHash, Key: refKey}
	for _, k := range goldenKeys {
		for _, i := range h.Indexes(nil, h.Digest([]byte(k)), 3, 200) {
			if le.Uint64(data[61+8*(i/64):])>>(i%64)&1 != 1 {
				t.Errorf("bit %d of %q not set in the payload", i, k)
			}
		}
	}
}

// TestKeyedRateMatchesTheory: 60 standard filters, each with its own key
// from a seeded generator, sized for 20000 keys at 1% and holding them;
// the mean rate over 20000 absent keys per filter must lie within 4
// standard errors (of the spread between filters) of the classic rate
// (1-e^(-kn/m))^k for the geometry built. TestEveryHashingMatchesTheory
// checks one keyed filter over more queries.
func TestKeyedRateMatchesTheory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("4 s under the race detector; TestEveryHashingMatchesTheory checks one keyed filter")
	}
	const filters, n, q = 60, 20_000, 20_000
	r := rand.New(rand.NewPCG(24, 24))
	var key HashKey
	rates := make([]float64, filters)
	var want float64
	for i := range rates {
		binary.LittleEndian.PutUint64(key[:8], r.Uint64())
		binary.LittleEndian.PutUint64(key[8:], r.Uint64()|1)
		f, err := NewStandardFor(n, 0.01, Hashing{Kind: SipHash, Key: key})
		if err != nil {
			t.Fatal(err)
		}
		g := f.Geometry()
		want = classicFPR(g.Bits, n, g.Hashes)
		rates[i] = measureFPR(t, f, uint64(2400+i), n, q)
	}
	var mean, ss float64
	for _, x := range rates {
		mean += x / filters
	}
	for _, x := range rates {
		ss += (x - mean) * (x - mean)
	}
	se := math.Sqrt(ss / (filters - 1) / filters)
	t.Logf("keyed standard: mean rate %.5f over %d filters, theory %.5f (%.1f standard errors)", mean, filters, want, (mean-want)/se)
	if math.Abs(mean-want) > 4*se {
		t.Errorf("keyed standard: mean rate %.5f over %d filters, theory %.5f (%.1f standard errors)", mean, filters, want, (mean-want)/se)
	}
}

// TestHashKeyUnmarshal: a Hashing marshalled to JSON, gob or text reads
// back when it has no key, and fails to read back, rather than lose its
// key silently, when it has one.
func TestHashKeyUnmarshal(t *testing.T) {
	for _, h := range []Hashing{{}, {Kind: Metro, Seed: 7}} {
		j, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		var got Hashing
		if err := json.Unmarshal(j, &got); err != nil || got != h {
			t.Errorf("JSON %s: read back %v, %v; want %v", j, got, err, h)
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(h); err != nil {
			t.Fatal(err)
		}
		got = Hashing{}
		if err := gob.NewDecoder(&buf).Decode(&got); err != nil || got != h {
			t.Errorf("gob: read back %v, %v; want %v", got, err, h)
		}
	}
	keyed := Hashing{Kind: SipHash, Key: refKey}
	j, err := json.Marshal(keyed)
	if err != nil || !strings.Contains(string(j), `"Key":"[redacted]"`) {
		t.Fatalf("JSON of a keyed Hashing: %s, %v", j, err)
	}
	var got Hashing
	if err := json.Unmarshal(j, &got); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "redacted") {
		t.Errorf("JSON of a redacted key read back: %v, %v", got, err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(keyed); err != nil {
		t.Fatal(err)
	}
	if err := gob.NewDecoder(&buf).Decode(&got); err == nil || !strings.Contains(err.Error(), "redacted") {
		t.Errorf("gob of a redacted key read back: %v, %v", got, err)
	}
	var k HashKey
	for _, text := range []string{"[redacted]", "00112233445566778899aabbccddeeff", "HashKey(secret)"} {
		if err := k.UnmarshalText([]byte(text)); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("UnmarshalText(%q): %v, want ErrInvalidParams", text, err)
		}
	}
	k = refKey
	if err := k.UnmarshalText([]byte("[zero]")); err != nil || k != (HashKey{}) {
		t.Errorf("UnmarshalText([zero]): %v, %v", k, err)
	}
}

// TestKeyedFilterHashing: a keyed filter's Hashing, Params and encoding
// hold its key, and filters with equal keys built apart compare equal.
func TestKeyedFilterHashing(t *testing.T) {
	h := Hashing{Kind: SipHash, Key: refKey}
	other := h
	other.Key[15] ^= 1
	a, _ := NewScalable(ScalableParams{P: 0.01, N0: 10, Hashing: h})
	b, _ := NewScalable(ScalableParams{P: 0.01, N0: 10, Hashing: h})
	c, _ := NewScalable(ScalableParams{P: 0.01, N0: 10, Hashing: other})
	for i := range 100 {
		k := []byte(fmt.Sprint(i))
		a.Add(k)
		b.Add(k)
		c.Add(k)
	}
	if a.Hashing() != h || a.Params().Hashing != h {
		t.Errorf("Hashing() %v, Params().Hashing %v: the key is lost", a.Hashing().Key == h.Key, a.Params().Hashing.Key == h.Key)
	}
	if !a.Equal(b) || a.Equal(c) {
		t.Errorf("same key: equal %v; other key: equal %v", a.Equal(b), a.Equal(c))
	}
	sa, _ := NewStandard(Geometry{Bits: 256, Hashes: 3}, h)
	sc, _ := NewStandard(Geometry{Bits: 256, Hashes: 3}, other)
	if err := sa.Union(sc); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "hash keys differ") {
		t.Errorf("union across keys: %v", err)
	}
	data, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, refKey[:]) {
		t.Error("the encoding does not hold the key")
	}
	g, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if g.Hashing() != h || !g.(*Scalable).Equal(a) {
		t.Error("the decoded filter differs")
	}
}
