package variants

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// growingGolden returns the golden filters of the growing variants: a
// dynamic filter of stages of 2 items and RedisBloom chains (capacity 2,
// expansion 1, and capacity 1 with power-of-two tables of 4 bits in one
// word), filled with the golden keys.
func growingGolden(t testing.TB) map[string]persistent {
	d, err := NewDynamic(DynamicParams{N: 2, P: 0.1, Hashing: Hashing{Seed: 17}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.1, Capacity: 2, Expansion: 1})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.5, Capacity: 1, PowerOfTwo: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{d, r, r2} {
		for _, k := range goldenKeys {
			f.Add([]byte(k))
		}
	}
	return map[string]persistent{"dynamic-v1": d, "redisbloom-v1": r, "redisbloom-power-of-two-v1": r2}
}

// TestGrowingGoldenLayout reads fields of the growing variants' golden
// files at the offsets FormatVersion documents.
func TestGrowingGoldenLayout(t *testing.T) {
	le := binary.LittleEndian
	d := readHex(t, "testdata/dynamic-v1.golden")
	r := readHex(t, "testdata/redisbloom-v1.golden")
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"dynamic variant", uint64(d[6]), 12},
		{"dynamic N", le.Uint64(d[17:]), 2},
		{"dynamic P", le.Uint64(d[25:]), math.Float64bits(0.1)},
		{"dynamic items", le.Uint64(d[33:]), uint64(len(goldenKeys))},
		{"dynamic stages", uint64(le.Uint32(d[41:])), 3},
		{"redisbloom variant", uint64(r[6]), 13},
		{"redisbloom hash kind", uint64(r[7]), 4},
		{"redisbloom error rate", le.Uint64(r[17:]), math.Float64bits(0.1)},
		{"redisbloom capacity", le.Uint64(r[25:]), 2},
		{"redisbloom expansion", uint64(le.Uint32(r[33:])), 1},
		{"redisbloom options", uint64(r[37]), 0},
		{"redisbloom first link bits", le.Uint64(r[50:]), 64},
		{"redisbloom first link hashes", uint64(le.Uint32(r[58:])), 5},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestGrowingDecodeErrors: crafted encodings of the growing variants,
// checksums fixed, give errors wrapping ErrCorrupt and never panic. The
// same inputs are in the fuzz corpus (testdata/fuzz/FuzzUnmarshal).
func TestGrowingDecodeErrors(t *testing.T) {
	for _, c := range growingCrafted(t) {
		t.Run(c.name, func(t *testing.T) { checkDecodeError(t, c.data, c.want, ErrCorrupt) })
	}
}

type crafted struct {
	name, want string
	data       []byte
}

// growingCrafted returns crafted inputs for the growing variants, each
// with its checksum fixed, and the error each must give.
func growingCrafted(t testing.TB) []crafted {
	le := binary.LittleEndian
	g := growingGolden(t)
	d, _ := g["dynamic-v1"].MarshalBinary()
	r, _ := g["redisbloom-v1"].MarshalBinary()
	r2, _ := g["redisbloom-power-of-two-v1"].MarshalBinary()
	edit := func(src []byte, f func(b []byte)) []byte {
		b := bytes.Clone(src)
		f(b)
		return fixChecksum(b)
	}
	// Offsets: a dynamic filter's stage 0 starts at 45 (slice bits, k,
	// capacity at 57, items at 65); a RedisBloom filter's link 0 at 50
	// (bits, k at 58, capacity at 62, items at 70, words at 78).
	return []crafted{
		{"dynamic N 0", "stage capacity 0", edit(d, func(b []byte) { le.PutUint64(b[17:], 0) })},
		{"dynamic P 1", "P = 1", edit(d, func(b []byte) { le.PutUint64(b[25:], math.Float64bits(1)) })},
		{"dynamic P NaN", "P = NaN", edit(d, func(b []byte) { le.PutUint64(b[25:], math.Float64bits(math.NaN())) })},
		{"dynamic no stages", "0 stages", edit(d, func(b []byte) { le.PutUint32(b[41:], 0) })},
		{"dynamic too many stages", "65537 stages", edit(d, func(b []byte) { le.PutUint32(b[41:], 65537) })},
		{"dynamic many stages and no data", "holds its capacity", edit(d, func(b []byte) { le.PutUint32(b[41:], 65536) })},
		{"dynamic items", "the filter says 6", edit(d, func(b []byte) { le.PutUint64(b[33:], 6) })},
		{"dynamic stage capacity", "capacity 3, want 2", edit(d, func(b []byte) { le.PutUint64(b[57:], 3) })},
		{"dynamic old stage not full", "holds its capacity", edit(d, func(b []byte) { le.PutUint64(b[65:], 1) })},
		{"dynamic hash kind", "only a RedisBloom filter", edit(d, func(b []byte) { b[7] = 4 })},
		{"dynamic derivation", "derivation", edit(d, func(b []byte) { b[8] = 1 })},
		{"redisbloom xxh3", "murmur64a", edit(r, func(b []byte) { b[7] = 0 })},
		{"redisbloom derivation", "murmur64a", edit(r, func(b []byte) { b[8] = 2 })},
		{"redisbloom error rate 0", "error rate = 0", edit(r, func(b []byte) { le.PutUint64(b[17:], 0) })},
		{"redisbloom capacity 0", "capacity = 0", edit(r, func(b []byte) { le.PutUint64(b[25:], 0) })},
		{"redisbloom expansion 0", "expansion = 0", edit(r, func(b []byte) { le.PutUint32(b[33:], 0) })},
		{"redisbloom options", "options 4", edit(r, func(b []byte) { b[37] = 4 })},
		{"redisbloom no links", "0 links", edit(r, func(b []byte) { le.PutUint32(b[46:], 0) })},
		{"redisbloom 257 links", "257 links", edit(r, func(b []byte) { le.PutUint32(b[46:], 257) })},
		{"redisbloom 256 links and no data", "holds its capacity", edit(r, func(b []byte) { le.PutUint32(b[46:], 256) })},
		{"redisbloom link bits", "RedisBloom's rules", edit(r, func(b []byte) { le.PutUint64(b[50:], 128) })},
		{"redisbloom link hashes", "RedisBloom's rules", edit(r, func(b []byte) { le.PutUint32(b[58:], 6) })},
		{"redisbloom link capacity", "capacity 3, want 2", edit(r, func(b []byte) { le.PutUint64(b[62:], 3) })},
		{"redisbloom items", "the filter says 9", edit(r, func(b []byte) { le.PutUint64(b[38:], 9) })},
		{"redisbloom huge capacity", "more than", edit(r, func(b []byte) { le.PutUint64(b[25:], 1<<47) })},
		{"redisbloom bit beyond the modulus", "beyond the 4 bits", edit(r2, func(b []byte) { b[78] |= 0x80 })},
	}
}

// TestGrowingCorpus checks that the crafted inputs are in the fuzz corpus.
func TestGrowingCorpus(t *testing.T) {
	for _, c := range growingCrafted(t) {
		path := "testdata/fuzz/FuzzUnmarshal/growing-" + strings.ReplaceAll(c.name, " ", "-")
		want := "go test fuzz v1\n[]byte(" + quoteBytes(c.data) + ")\n"
		if *update {
			writeFile(t, path, want)
			continue
		}
		got, err := readFile(path)
		if err != nil || got != want {
			t.Errorf("%s missing or stale (run go test -run TestGrowingCorpus -update): %v", path, err)
		}
	}
}

// quoteBytes returns data as a Go string literal, as the fuzz corpus
// files hold it.
func quoteBytes(data []byte) string { return strconv.Quote(string(data)) }

func writeFile(t testing.TB, path, text string) {
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}
