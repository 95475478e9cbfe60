package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/variants"
)

// TestRunGoOnly runs the Go side at a small size, with no Boost program
// (no C toolchain needed), and checks the report's tables and checks.
func TestRunGoOnly(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"-sizes", "64KiB", "-k", "8,5", "-c", "12,8", "-q", "1024", "-count", "2048", "-rounds", "2"}, &out, &errb); err != nil {
		t.Fatalf("run: %v (%s)", err, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"| 64KiB | 8 | 12 | absent, hash given | - | ",
		"| 64KiB | 5 | 8 | add, key hashed | - | ",
		"| 64KiB | 8 | 12 | 524288 | 2048 | 43690 | 1024 |",
		"| 64KiB | 5 | 8 | 524320 | 3277 | 65540 | 1024 |",
		"every present key matched on every side",
		"- 64KiB K=8 c=12 absent-hash split-block: ",
		"Go side only",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "missed") {
		t.Errorf("a filter missed present keys:\n%s", s)
	}
}

// TestBoostBits checks the bits of Boost's filter as fmb32.cc reported
// them (filter<uint64_t, 1, fast_multiblock32<K>>::capacity() after a
// request of 8 * bytes bits).
func TestBoostBits(t *testing.T) {
	for _, c := range []struct {
		bytes uint64
		k     int
		want  uint64
	}{
		{65536, 5, 524320}, {65536, 8, 524288}, {65536, 11, 524480},
		{1 << 20, 5, 8388640}, {1 << 20, 8, 8388608},
	} {
		if got := boostBits(c.bytes, c.k); got != c.want {
			t.Errorf("boostBits(%d, %d) = %d, want %d", c.bytes, c.k, got, c.want)
		}
	}
}

// TestFill checks that fill's order sets the bits of adding the keys one
// by one in key order.
func TestFill(t *testing.T) {
	const n = 3 << 19 // more than one chunk
	p := variants.MultiblockParams{Geometry: variants.Geometry{Bits: boostBits(1<<20, 5), Hashes: 5, Capacity: n}, WordBits: 32, Multi: true}
	a, err := variants.NewMultiblock(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := variants.NewMultiblock(p)
	fill(n, func(d variants.Digest) { a.AddDigest(d) })
	var k [16]byte
	for i := range uint64(n) {
		putKey(k[:], 1, i)
		b.Add(k[:])
	}
	ea, _ := a.MarshalBinary()
	eb, _ := b.MarshalBinary()
	if !bytes.Equal(ea, eb) {
		t.Error("fill and adds in key order built different filters")
	}
}

// TestParse checks the reading of the C++ program's lines.
func TestParse(t *testing.T) {
	r := &results{t: map[key][]sample{}, res: map[key]float64{}}
	pt := point{1 << 20, 8, 12}
	for _, line := range []string{"boost 8 12 1048576 absent-hash 2.000 2.5 0.005", "boost 8 12 1048576 absent-hash 4.000 4.5 0.005", "boost 8 12 1048576 absent-hash 3.000 3.5 0.005"} {
		if err := parseLine(strings.Fields(line), pt, r); err != nil {
			t.Fatal(err)
		}
	}
	k := key{pt, "boost", "absent-hash"}
	if got, _ := r.median(k, func(s sample) float64 { return s.CPU }); got != 3 {
		t.Errorf("median = %v, want 3", got)
	}
	if r.res[k] != 0.005 {
		t.Errorf("result = %v, want 0.005", r.res[k])
	}
	if err := parseLine(strings.Fields("boost 8 12 1048576 absent-hash x 2 1"), pt, r); err == nil {
		t.Error("parseLine accepted a bad time")
	}
	var g geometry
	if err := parseInfo(strings.Fields("boost 8 12 1048576 info 8388608 699050 699008 0.049"), &g); err != nil || g.boostBits != 8388608 || g.boostN != 699050 || g.boostQ != 699008 || g.boostFill != 0.049 {
		t.Errorf("parseInfo: %+v, %v", g, err)
	}
}

func TestRunErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-sizes", "1KiB"},
		{"-sizes", "x"},
		{"-k", "14"},
		{"-k", "5,8", "-c", "8"},
		{"-count", "1"},
		{"extra"},
	} {
		var out, errb bytes.Buffer
		if err := run(args, &out, &errb); err == nil {
			t.Errorf("run(%q) = nil, want an error", args)
		}
	}
}
