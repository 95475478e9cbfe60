package variants

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// contradiction is an encoding with one stored field changed to a value
// that contradicts the others, its checksum fixed: a file no constructor
// and no sequence of calls could have produced.
type contradiction struct {
	family, field string
	data          []byte
}

// stageAt returns the offsets of the parameter blocks of the stages (or
// links) of a growing filter's encoding whose first stage starts at
// first: each block is a size, hashes, extras 32-bit extra parameters,
// capacity and items, followed by its words, which words computes from
// the size and the hashes.
func stageAt(data []byte, first, extras int, words func(size uint64, k uint32) uint64) []int {
	le := binary.LittleEndian
	var out []int
	for off := first; off+28+4*extras <= len(data)-4; {
		out = append(out, off)
		off += 28 + 4*extras + 8*int(words(le.Uint64(data[off:]), le.Uint32(data[off+8:])))
	}
	return out
}

func partitionedWords(b uint64, k uint32) uint64 { return uint64(k) * ((b + 63) / 64) }
func tableWords(m uint64, _ uint32) uint64       { return m / 64 }

// contradictions returns, family by family, a valid encoding with one
// field changed to contradict the others.
func contradictions(t testing.TB) []contradiction {
	le := binary.LittleEndian
	var out []contradiction
	add := func(family, field string, src []byte, mutate func(b []byte)) {
		b := bytes.Clone(src)
		mutate(b)
		if bytes.Equal(b, src) {
			t.Fatalf("%s/%s: the mutation changes nothing", family, field)
		}
		out = append(out, contradiction{family, field, fixChecksum(b)})
	}
	u64 := func(off int, v uint64) func([]byte) { return func(b []byte) { le.PutUint64(b[off:], v) } }
	u32 := func(off int, v uint32) func([]byte) { return func(b []byte) { le.PutUint32(b[off:], v) } }
	f64 := func(off int, v float64) func([]byte) { return u64(off, math.Float64bits(v)) }
	// sliceBitsSameWords returns slice (or table) bits other than b that
	// take as many words: the stage's payload keeps its length.
	sliceBitsSameWords := func(b uint64) uint64 {
		if b%64 != 1 {
			return b - 1
		}
		return b + 1
	}

	// The red team's file: NewScalable(P = 0.01, n0 = 1000) after 1,000
	// keys, n0 set to 300,000,000.
	rt, err := NewScalable(ScalableParams{P: 0.01, N0: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range testKeys(5, 1, 1000) {
		rt.Add(k)
	}
	rtData := encoded(t, rt)
	add("scalable", "n0 300,000,000 (red team)", rtData, u64(41, 300_000_000))

	// Scalable filters of each stage kind, four stages each: capacities
	// 4, 8, 16 and 32 at P = 0.01, r = 0.5.
	type scal struct {
		name  string
		data  []byte
		extra int // 4 with blocked stages: the block bits at 49
	}
	var scals []scal
	for _, c := range []struct {
		name   string
		p      ScalableParams
		stream bool
	}{
		{"scalable", ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 4, Hashing: Hashing{Seed: 3}}, true},
		{"scalable-blocked", ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 4, BlockBits: 512, Hashing: Hashing{Seed: 3}}, true},
		{"scalable-code-4", ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 4, Hashing: Hashing{Derivation: Triple, Seed: 3}}, false},
		{"scalable-code-7", ScalableParams{P: 0.01, R: 0.5, S: 2, N0: 4, BlockBits: 64, Hashing: Hashing{Seed: 3}}, false},
	} {
		f, err := newScalable(c.p, c.stream)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range testKeys(5, 2, 5000) {
			if f.Stages() == 4 && f.stages[3].core().items == 20 {
				break
			}
			f.Add(k)
		}
		if f.Stages() != 4 {
			t.Fatalf("%s: %d stages", c.name, f.Stages())
		}
		s := scal{name: c.name, data: encoded(t, f)}
		if c.p.BlockBits != 0 {
			s.extra = 4
		}
		scals = append(scals, s)
	}
	for _, s := range scals {
		d, x := s.data, s.extra
		words := partitionedWords
		if x != 0 {
			words = tableWords
		}
		st := stageAt(d, 61+x, x/4, words)
		if len(st) != 4 {
			t.Fatalf("%s: %d stages found", s.name, len(st))
		}
		add(s.name, "n0", d, u64(41, 5))
		add(s.name, "n0 huge", d, u64(41, 1<<40))
		add(s.name, "P", d, f64(17, 0.001))
		add(s.name, "r", d, f64(25, 0.9))
		add(s.name, "s", d, f64(33, 3))
		add(s.name, "items", d, u64(49+x, le.Uint64(d[49+x:])+1))
		add(s.name, "stage 1 capacity", d, u64(st[1]+12+x, 9))
		add(s.name, "stage 1 hashes", d, u32(st[1]+8, le.Uint32(d[st[1]+8:])+1))
		if x == 0 {
			add(s.name, "stage 2 slice bits", d, u64(st[2], sliceBitsSameWords(le.Uint64(d[st[2]:]))))
		} else {
			add(s.name, "stage 2 bits", d, u64(st[2], le.Uint64(d[st[2]:])+512))
			add(s.name, "block bits", d, func(b []byte) {
				le.PutUint32(b[49:], 256)
				for _, o := range st {
					le.PutUint32(b[o+12:], 256)
				}
			})
		}
		add(s.name, "full stage 0 items", d, u64(st[0]+20+x, 3))
		add(s.name, "newest stage items", d, func(b []byte) {
			le.PutUint64(b[st[3]+20+x:], 0)
			le.PutUint64(b[49+x:], le.Uint64(b[49+x:])-20)
		})
		add(s.name, "newest stage items against the total", d, func(b []byte) {
			le.PutUint64(b[st[3]+20+x:], 21)
		})
	}

	// Dynamic: stages of 20 at P = 0.01, three stages.
	dy, err := NewDynamic(DynamicParams{N: 20, P: 0.01, Hashing: Hashing{Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range testKeys(5, 3, 50) {
		dy.Add(k)
	}
	dd := encoded(t, dy)
	dst := stageAt(dd, 45, 0, partitionedWords)
	add("dynamic", "P", dd, f64(25, 0.001))
	add("dynamic", "N", dd, u64(17, 21))
	add("dynamic", "items", dd, u64(33, 51))
	add("dynamic", "slice bits of every stage", dd, func(b []byte) {
		for _, o := range dst {
			le.PutUint64(b[o:], sliceBitsSameWords(le.Uint64(b[o:])))
		}
	})
	add("dynamic", "stage 1 items", dd, u64(dst[1]+20, 19))

	// RedisBloom: capacity 10, expansion 2, three links.
	for _, pow := range []bool{false, true} {
		rb, err := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 10, Expansion: 2, PowerOfTwo: pow, Seed: 6})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range testKeys(5, 4, 5000) {
			if len(rb.Stats().Stages) == 3 && rb.Stats().Items >= 35 {
				break
			}
			rb.Add(k)
		}
		if len(rb.Stats().Stages) != 3 {
			t.Fatalf("redisbloom: %d links", len(rb.Stats().Stages))
		}
		rd := encoded(t, rb)
		rl := stageAt(rd, 50, 0, tableWords)
		fam := "redisbloom"
		if pow {
			fam = "redisbloom-power-of-two"
		}
		add(fam, "error rate", rd, f64(17, 0.001))
		// Power-of-two tables round the capacities up to fill the
		// table, so that capacity 11 or expansion 3 would give the same
		// links: a valid filter, not a contradiction.
		add(fam, "capacity", rd, u64(25, 100))
		add(fam, "expansion", rd, u32(33, 16))
		add(fam, "power of two", rd, func(b []byte) { b[37] ^= 1 })
		add(fam, "items", rd, u64(38, le.Uint64(rd[38:])+1))
		add(fam, "link 1 hashes", rd, u32(rl[1]+8, le.Uint32(rd[rl[1]+8:])+1))
		add(fam, "link 1 capacity", rd, u64(rl[1]+12, 21))
		add(fam, "link 0 items", rd, u64(rl[0]+20, 9))
	}

	// Age-partitioned, both layouts, without a refresh interval: K = 3,
	// L = 2, G = 4 after 30 keys (every slot used, the newest slice 2 of
	// 4 full), and the same after 6 keys (slots not yet used).
	for _, blocked := range []bool{false, true} {
		for _, n := range []int{30, 6} {
			sb := uint64(70)
			if blocked {
				sb = 128
			}
			ap, err := NewAgePartitioned(AgePartitionedParams{K: 3, L: 2, G: 4, SliceBits: sb, AgePartitionedOptions: AgePartitionedOptions{Blocked: blocked, Hashing: Hashing{Seed: 8}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range testKeys(5, 5, n) {
				ap.Add(k)
			}
			ad := encoded(t, ap)
			front := int(le.Uint32(ad[57:]))
			gen := func(r int) int { return 69 + 8*(r%5) }
			fam := fmt.Sprintf("age-partitioned/blocked=%v/%d-keys", blocked, n)
			add(fam, "G", ad, u64(25, 5))
			add(fam, "items below the window's", ad, u64(61, 5))
			add(fam, "newest slice's position 0", ad, u64(gen(front), 0))
			add(fam, "generation of an older slot", ad, u64(gen(front+1), 3))
			add(fam, "refresh 0 with a start", ad, u64(49, 12345))
			if blocked {
				add(fam, "slice bits", ad, u64(33, 100))
			}
			if n == 6 {
				add(fam, "items beyond the window's with unused slots", ad, u64(61, 7))
				add(fam, "front", ad, u32(57, uint32(front+1)%5))
			}
		}
	}

	// Counting: the width and the counters are the payload's size.
	co, err := NewCounting(CountingParams{Geometry: Geometry{Bits: 100, Hashes: 3}, Width: 4, Hashing: Hashing{Seed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	co.Add([]byte("x"))
	cd := encoded(t, co)
	add("counting", "width 8", cd, func(b []byte) { b[29] = 8 })
	add("counting", "width 3", cd, func(b []byte) { b[29] = 3 })
	add("counting", "counters", cd, u64(17, 90))

	// The word-array filters: the geometry the constructors allow.
	bl, err := NewBlocked(BlockedParams{Geometry: Geometry{Bits: 1024, Hashes: 4}, BlockBits: 256, Hashing: Hashing{Seed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	bld := encoded(t, bl)
	add("blocked", "block bits not dividing m", bld, u32(29, 2048))
	add("blocked", "block bits not a power of two", bld, u32(29, 192))
	sp, err := NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, Hashing{Kind: XXH64})
	if err != nil {
		t.Fatal(err)
	}
	spd := encoded(t, sp)
	add("split-block", "hashes", spd, u32(25, 7))
	add("split-block", "bits", spd, u64(17, 500))
	pa, err := NewPartitioned(Geometry{Bits: 300, Hashes: 3}, Hashing{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	add("partitioned", "slices beyond MaxBits", encoded(t, pa), u64(17, MaxBits))

	// Horizon-aware scalable filters (code 16), each stage kind: an
	// estimate of 16 keys from n0 = 4, stages of 4, 4 and 8 keys, then
	// the tail's 16, which the keys open. Parameters: P at 17, s 25, n0
	// 33, estimate 41, spread 49, tail 57, r 65, block bits 73, items 77,
	// stages 85, the first stage at 89.
	for _, c := range []struct {
		name string
		p    ScalableParams
	}{
		{"scalable-horizon", ScalableParams{P: 0.01, N0: 4, Estimate: 16, Hashing: Hashing{Seed: 3}}},
		{"scalable-horizon-blocked", ScalableParams{P: 0.01, N0: 4, Estimate: 16, BlockBits: 512, Hashing: Hashing{Seed: 3}}},
	} {
		f, err := NewScalable(c.p)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range testKeys(5, 3, 5000) {
			if f.Stages() == 4 && f.stages[3].core().items == 5 {
				break
			}
			f.Add(k)
		}
		if f.Stages() != 4 {
			t.Fatalf("%s: %d stages", c.name, f.Stages())
		}
		d := encoded(t, f)
		x, words := 0, partitionedWords
		if c.p.BlockBits != 0 {
			x, words = 4, tableWords
		}
		st := stageAt(d, 89, x/4, words)
		if len(st) != 4 {
			t.Fatalf("%s: %d stages found", c.name, len(st))
		}
		add(c.name, "estimate", d, u64(41, 17))
		add(c.name, "estimate 0", d, u64(41, 0))
		add(c.name, "estimate huge", d, u64(41, 1<<50))
		add(c.name, "n0", d, u64(33, 5))
		add(c.name, "P", d, f64(17, 0.02))
		add(c.name, "s", d, f64(25, 3))
		add(c.name, "s 1", d, f64(25, 1))
		add(c.name, "s 1.01", d, f64(25, 1.01))
		add(c.name, "spread", d, f64(49, 2))
		add(c.name, "spread 0", d, f64(49, 0))
		add(c.name, "spread NaN", d, f64(49, math.NaN()))
		add(c.name, "tail", d, f64(57, 0.2))
		add(c.name, "tail 0", d, f64(57, 0))
		add(c.name, "r", d, f64(65, 0.5))
		add(c.name, "r 0", d, f64(65, 0))
		add(c.name, "items", d, u64(77, le.Uint64(d[77:])+1))
		add(c.name, "257 stages", d, u32(85, 257))
		add(c.name, "5 stages", d, u32(85, 5))
		add(c.name, "stage 1 capacity", d, u64(st[1]+12+x, 9))
		add(c.name, "stage 2 hashes", d, u32(st[2]+8, le.Uint32(d[st[2]+8:])+1))
		if x == 0 {
			add(c.name, "block bits", d, u32(73, 512))
			add(c.name, "stage 3 slice bits", d, u64(st[3], sliceBitsSameWords(le.Uint64(d[st[3]:]))))
		} else {
			add(c.name, "no block bits", d, u32(73, 0))
			add(c.name, "derivation", d, func(b []byte) { b[8] = byte(Triple) })
			add(c.name, "stage 3 bits", d, u64(st[3], le.Uint64(d[st[3]:])+512))
		}
	}
	return out
}

// TestContradictingFields: for every family, an encoding with one stored
// field contradicting the others (checksum fixed) is refused with an
// error wrapping ErrCorrupt, by Unmarshal, ReadFilter and the family's
// own decoder, from bytes and from a stream.
func TestContradictingFields(t *testing.T) {
	for _, c := range contradictions(t) {
		t.Run(c.family+"/"+c.field, func(t *testing.T) {
			f, err := Unmarshal(c.data)
			if err == nil || f != nil {
				t.Fatalf("Unmarshal accepted it: %v", describe(f))
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Unmarshal: %v, want ErrCorrupt", err)
			}
			if g, err := ReadFilter(struct{ io.Reader }{bytes.NewReader(c.data)}); err == nil || g != nil || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("ReadFilter = %v, %v; want ErrCorrupt", describe(g), err)
			}
			checkDecodeError(t, c.data, "", ErrCorrupt)
			t.Log(err)
		})
	}
}

// describe summarises a filter a decoder should not have returned.
func describe(f Filter) string {
	if f == nil {
		return "nil"
	}
	st := f.Stats()
	var stages []string
	for _, s := range st.Stages {
		stages = append(stages, fmt.Sprintf("{cap %d, bits %d, k %d, items %d}", s.Capacity, s.Bits, s.Hashes, s.Items))
	}
	return fmt.Sprintf("%T bits %d k %d capacity %d items %d stages %v", f, st.Bits, st.Hashes, st.Capacity, st.Items, stages)
}

// TestContradictionCorpus checks that a few of the contradictions are in
// the fuzz corpus (testdata/fuzz/FuzzUnmarshal); -update writes them.
func TestContradictionCorpus(t *testing.T) {
	keep := map[string]bool{
		"scalable/n0 300,000,000 (red team)":                             true,
		"scalable/stage 1 capacity":                                      true,
		"scalable-blocked/stage 1 hashes":                                true,
		"scalable-code-4/s":                                              true,
		"scalable-horizon/estimate":                                      true,
		"scalable-horizon/257 stages":                                    true,
		"scalable-horizon-blocked/stage 3 bits":                          true,
		"dynamic/P":                                                      true,
		"age-partitioned/blocked=false/6-keys/G":                         true,
		"age-partitioned/blocked=true/30-keys/G":                         true,
		"age-partitioned/blocked=false/30-keys/items below the window's": true,
	}
	n := 0
	for _, c := range contradictions(t) {
		name := c.family + "/" + c.field
		if !keep[name] {
			continue
		}
		n++
		r := strings.NewReplacer(" ", "-", "/", "-", ",", "", "(", "", ")", "", "'", "", "=", "-")
		path := filepath.Join("testdata", "fuzz", "FuzzUnmarshal", "contradiction-"+r.Replace(name))
		want := "go test fuzz v1\n[]byte(" + quoteBytes(c.data) + ")\n"
		if *update {
			writeFile(t, path, want)
			continue
		}
		got, err := readFile(path)
		if err != nil || got != want {
			t.Errorf("%s missing or stale (run go test -run TestContradictionCorpus -update): %v", path, err)
		}
	}
	if n != len(keep) {
		t.Errorf("%d of the %d corpus cases found", n, len(keep))
	}
}
