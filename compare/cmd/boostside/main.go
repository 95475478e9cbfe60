// Command boostside measures bloomlab's multiblock filter
// (variants.Multiblock with WordBits 32, Multi true, K windows) and
// split-block filter (variants.SplitBlock) beside Boost.Bloom's
// fast_multiblock32<K> on the same machine, by one method on both sides,
// and prints the times and their ratios.
//
// Boost's filter is timed by compare/boost/fmb32.cc, a C++ program of ours
// built against Boost.Bloom's source by compare/boost/build.sh (Boost's
// code is never part of this repository). This command starts that
// program with -serve and, in each round, measures every operation on
// Boost's filter (a request to the program) and on the Go filters back to
// back, in the opposite order in odd rounds, so that the two sides of a
// ratio are measured within a fraction of a second of each other; it
// reports the median of each operation over the rounds, by the thread's
// CPU time and by wall time. Without -boost it times the Go side only.
//
// The method (the same in fmb32.cc), for each table size and each pair
// (K, c) of -k and -c:
//
//   - Boost's filter<uint64_t, 1, fast_multiblock32<K>> is asked for
//     8 * size bits and rounds them up to whole blocks of K 32-bit words
//     (4K bytes, the natural stride); bloomlab's multiblock filter gets
//     the same bits, so the same number of blocks, and when K = 8 the
//     split-block filter (256-bit blocks, 8 bits per key, always) gets
//     them too;
//
//   - n = bits / c keys are inserted, the 16-byte keys of compare/cmd/flb
//     (little-endian i times 0x9e3779b97f4a7c15, then little-endian i with
//     its last byte 1 for inserted and 2 for absent keys), i = 0 .. n-1;
//
//   - every key is hashed by XXH3-128, seed 0, bloomlab's default: Boost's
//     filter and the split-block filter take its low 64 bits (H1), the
//     multiblock filter the digest (H1 picks the block, H2 the bits);
//
//   - the measured keys are i = 0 .. q-1 of each set (q = min(-q, n),
//     rounded down to whole batches); "-hash" operations take hashes or
//     digests computed beforehand, "-key" operations hash the key in the
//     loop; adds insert present keys again, which changes no bit;
//
//   - the batch operations hand the filter groups of 64 (Boost's bulk
//     insert and bulk may_contain; bloomlab's AddDigestBatch and
//     ContainsDigestBatch);
//
//   - every operation runs -count times over the q keys, cycling.
//
//     go run ./cmd/boostside -boost /tmp/boostside/fmb32 -rounds 5
//
// The multiblock filter is timed through its methods, whatever their
// implementation at the time of the run.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/compare/internal/sidebyside"
	"github.com/bloomlab/bloomlab/variants"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "boostside:", err)
		os.Exit(1)
	}
}

// batch is the group size of the batch operations.
const batch = 64

// config holds the flags.
type config struct {
	boost  string   // the C++ program, or "" for the Go side only
	sizes  []uint64 // table sizes in bytes
	ks, cs []int    // K and bits per key, paired
	q      int
	count  int
	rounds int
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("boostside", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var sizes, ks, cs string
	fs.StringVar(&c.boost, "boost", "", "path of the program compare/boost/build.sh builds (empty: time the Go side only)")
	fs.StringVar(&sizes, "sizes", "1MiB,256MiB", "table sizes, comma-separated (B, KiB, MiB, GiB)")
	fs.StringVar(&ks, "k", "5,8,11", "K, the 32-bit words of a block, comma-separated (Boost's program builds 5, 8, 11 and 13)")
	fs.StringVar(&cs, "c", "8,12,16", "bits per key for each K (Boost's table's K at c = 8, 12, 16 is 5, 8, 11)")
	fs.IntVar(&c.q, "q", 1<<22, "most keys of each set measured (the rest of the n only fill the filter)")
	fs.IntVar(&c.count, "count", 1<<22, "operations per measurement")
	fs.IntVar(&c.rounds, "rounds", 5, "rounds; Boost and Go alternate, and each time is the median over the rounds")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for _, s := range strings.Split(sizes, ",") {
		b, err := parseSize(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("-sizes: %v", err)
		}
		c.sizes = append(c.sizes, b)
	}
	var err error
	if c.ks, err = parseInts(ks, 1, 13); err != nil {
		return fmt.Errorf("-k: %v", err)
	}
	if c.cs, err = parseInts(cs, 1, 64); err != nil {
		return fmt.Errorf("-c: %v", err)
	}
	if len(c.ks) != len(c.cs) {
		return fmt.Errorf("-k has %d values and -c %d; they go in pairs", len(c.ks), len(c.cs))
	}
	if c.count < batch || c.q < batch || c.rounds < 1 {
		return fmt.Errorf("-count and -q must be at least %d and -rounds at least 1", batch)
	}
	c.count = (c.count + batch - 1) / batch * batch
	return measure(c, stdout)
}

// parseSize reads 1MiB, 256KiB, 4096 (bytes) or 1GiB; at least 4 KiB.
func parseSize(s string) (uint64, error) {
	mult := uint64(1)
	for _, u := range []struct {
		suffix string
		m      uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if t, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = t, u.m
			break
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 || v > (1<<40)/mult || v*mult < 4096 {
		return 0, fmt.Errorf("%q is not a size from 4KiB to 1TiB", s)
	}
	return v * mult, nil
}

func parseInts(s string, lo, hi int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < lo || v > hi {
			return nil, fmt.Errorf("%q is not a whole number from %d to %d", f, lo, hi)
		}
		out = append(out, v)
	}
	return out, nil
}

// A sample is one measurement: ns per operation of the thread's CPU time
// and of the wall clock.
type sample = sidebyside.Sample

// point names one configuration: table size, K and bits per key.
type point struct {
	bytes uint64
	k, c  int
}

// key names the samples of one side and operation at one point.
type key struct {
	p   point
	lib string // "boost", "multiblock", "split-block" or "go"
	op  string
}

// results holds the samples of every round and the last result (matches
// per query, or a checksum) of each measurement.
type results struct {
	t   map[key][]sample
	res map[key]float64
	geo map[point]geometry
}

// geometry is what a point builds, with what the C++ program reported.
type geometry struct {
	bits, n, q  uint64
	boostBits   uint64 // 0 without the program
	boostN      uint64
	boostQ      uint64
	boostFill   float64 // seconds to insert the n keys, C++ side
	goFill      float64 // seconds, multiblock filter
	theory      float64 // analysis.Multiblock's FPR at n keys
	splitTheory float64 // analysis.SplitBlock's, when K = 8
}

// boostBits returns the bits Boost's filter<..., fast_multiblock32<K>>
// builds when asked for 8 bytes bits: whole blocks of 32 K bits, rounded
// up (filter_core's requested_range at the natural stride).
func boostBits(bytes uint64, k int) uint64 {
	l := uint64(32 * k)
	return (8*bytes + l - 1) / l * l
}

// boostProc is the C++ program running with -serve.
type boostProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	errb bytes.Buffer
}

func startBoost(path string) (*boostProc, error) {
	p := &boostProc{cmd: exec.Command(path, "-serve")}
	p.cmd.Stderr = &p.errb
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.out = bufio.NewScanner(out)
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// request sends one request and returns the fields of the answer.
func (p *boostProc) request(pt point, q int, op string, count int) ([]string, error) {
	if _, err := fmt.Fprintf(p.in, "%d %d %d %d %s %d\n", pt.k, pt.c, pt.bytes, q, op, count); err != nil {
		return nil, fmt.Errorf("the Boost program: %v: %s", err, p.errb.String())
	}
	if !p.out.Scan() {
		return nil, fmt.Errorf("the Boost program ended: %v %s", p.out.Err(), p.errb.String())
	}
	f := strings.Fields(p.out.Text())
	if want := 8 + b2i(op == "info"); len(f) != want || f[0] != "boost" || f[4] != op {
		return nil, fmt.Errorf("unexpected line from the Boost program: %q", p.out.Text())
	}
	return f, nil
}

// measure asks the program for one measurement and adds it to r.
func (p *boostProc) measure(pt point, q int, op string, count int, r *results) error {
	f, err := p.request(pt, q, op, count)
	if err != nil {
		return err
	}
	return parseLine(f, pt, r)
}

// parseLine reads the fields of "boost K c bytes op cpu-ns wall-ns result".
func parseLine(f []string, pt point, r *results) error {
	cpu, err1 := strconv.ParseFloat(f[5], 64)
	wall, err2 := strconv.ParseFloat(f[6], 64)
	res, err3 := strconv.ParseFloat(f[7], 64)
	if err := errors.Join(err1, err2, err3); err != nil {
		return fmt.Errorf("unexpected line from the Boost program: %q: %v", strings.Join(f, " "), err)
	}
	k := key{pt, "boost", f[4]}
	r.t[k] = append(r.t[k], sample{CPU: cpu, Wall: wall})
	r.res[k] = res
	return nil
}

// parseInfo reads the fields of "boost K c bytes info bits n q fill-s".
func parseInfo(f []string, g *geometry) error {
	var e [4]error
	g.boostBits, e[0] = strconv.ParseUint(f[5], 10, 64)
	g.boostN, e[1] = strconv.ParseUint(f[6], 10, 64)
	g.boostQ, e[2] = strconv.ParseUint(f[7], 10, 64)
	g.boostFill, e[3] = strconv.ParseFloat(f[8], 64)
	if err := errors.Join(e[:]...); err != nil {
		return fmt.Errorf("unexpected line from the Boost program: %q: %v", strings.Join(f, " "), err)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (p *boostProc) close() error {
	p.in.Close()
	return p.cmd.Wait()
}

// ops are the operations, in the order they run, each with whether it is
// a query (its result a fraction of keys matched).
var ops = []struct {
	name  string
	query bool
}{
	{"add-hash", false},
	{"add-batch-hash", false},
	{"present-hash", true},
	{"absent-hash", true},
	{"absent-batch-hash", true},
	{"add-key", false},
	{"present-key", true},
	{"absent-key", true},
	{"hash-xxh3-128", false},
	{"random-lines", false},
}

// measure runs the points one after the other (each builds its filters
// on both sides, then drops them) and, at each, the rounds.
func measure(c config, stdout io.Writer) error {
	load0 := sidebyside.Loadavg()
	start := time.Now()
	var p *boostProc
	if c.boost != "" {
		var err error
		if p, err = startBoost(c.boost); err != nil {
			return err
		}
	}
	runtime.LockOSThread() // for the thread's CPU time
	defer runtime.UnlockOSThread()
	r := &results{t: map[key][]sample{}, res: map[key]float64{}, geo: map[point]geometry{}}
	var points []point
	for _, b := range c.sizes {
		for i, k := range c.ks {
			pt := point{b, k, c.cs[i]}
			points = append(points, pt)
			s, err := newSetup(pt, c.q)
			if err != nil {
				return err
			}
			g := s.geo
			if p != nil {
				// The C++ side builds and fills its filter at this request.
				f, err := p.request(pt, c.q, "info", 1)
				if err != nil {
					return err
				}
				if err := parseInfo(f, &g); err != nil {
					return err
				}
				if g.boostBits != g.bits || g.boostN != g.n || g.boostQ != g.q {
					return fmt.Errorf("at K = %d, %d bytes: Boost's filter has %d bits, %d keys, %d measured; ours %d, %d, %d",
						pt.k, pt.bytes, g.boostBits, g.boostN, g.boostQ, g.bits, g.n, g.q)
				}
			}
			for round := range c.rounds {
				for _, o := range ops {
					steps := []func() error{}
					if p != nil {
						steps = append(steps, func() error { return p.measure(pt, c.q, o.name, c.count, r) })
					}
					for _, gop := range s.goOps(o.name) {
						steps = append(steps, func() error {
							smp, res := sidebyside.Time(c.count, func(count int) uint64 { return gop.fn(s, count) })
							k := key{pt, gop.lib, o.name}
							r.t[k] = append(r.t[k], smp)
							if o.query {
								r.res[k] = float64(res) / float64(c.count)
							} else {
								r.res[k] = float64(res)
							}
							return nil
						})
					}
					if round%2 == 1 {
						slices.Reverse(steps)
					}
					for _, step := range steps {
						if err := step(); err != nil {
							return err
						}
					}
				}
			}
			r.geo[pt] = g
			s = nil
			runtime.GC()
			debug.FreeOSMemory()
		}
	}
	if p != nil {
		if err := p.close(); err != nil {
			return fmt.Errorf("the Boost program: %v: %s", err, p.errb.String())
		}
	}
	report(stdout, c, points, r, p != nil, load0, sidebyside.Loadavg(), time.Since(start))
	return nil
}

// setup is what the Go operations of one point work on.
type setup struct {
	geo             geometry
	q               int
	present, absent []byte // q 16-byte keys each, back to back
	dp, da          []variants.Digest
	hp, ha          []uint64 // H1 of the digests
	mb              *variants.Multiblock
	split           *variants.SplitBlock
	lines           []uint64 // for random-lines, as large as the table
	out             []bool
}

// putKey writes key i of set at k[:16], as fmb32.cc and compare/cmd/flb
// make it.
func putKey(k []byte, set byte, i uint64) {
	binary.LittleEndian.PutUint64(k, i*0x9e3779b97f4a7c15)
	binary.LittleEndian.PutUint64(k[8:], i)
	k[15] = set
}

// newSetup builds and fills the Go filters of pt.
func newSetup(pt point, q int) (*setup, error) {
	m := boostBits(pt.bytes, pt.k)
	n := m / uint64(pt.c)
	qq := min(uint64(q), n) / batch * batch
	if qq == 0 {
		return nil, fmt.Errorf("at K = %d, %d bytes, c = %d: %d keys, fewer than a batch", pt.k, pt.bytes, pt.c, n)
	}
	s := &setup{q: int(qq), out: make([]bool, batch)}
	s.geo = geometry{bits: m, n: n, q: qq}
	var err error
	s.mb, err = variants.NewMultiblock(variants.MultiblockParams{
		Geometry: variants.Geometry{Bits: m, Hashes: pt.k, Capacity: n},
		WordBits: 32, Multi: true,
	})
	if err != nil {
		return nil, err
	}
	if got := s.mb.Params().Bits; got != m {
		return nil, fmt.Errorf("at K = %d, the multiblock filter built %d bits, not Boost's %d", pt.k, got, m)
	}
	if pt.k == 8 {
		if s.split, err = variants.NewSplitBlock(variants.Geometry{Bits: m, Hashes: 8, Capacity: n}, variants.Hashing{}); err != nil {
			return nil, err
		}
	}
	s.present, s.absent = make([]byte, 16*qq), make([]byte, 16*qq)
	s.dp, s.da = make([]variants.Digest, qq), make([]variants.Digest, qq)
	s.hp, s.ha = make([]uint64, qq), make([]uint64, qq)
	var h variants.Hashing // bloomlab's default: XXH3-128, seed 0
	for i := range qq {
		kp, ka := s.present[16*i:16*i+16], s.absent[16*i:16*i+16]
		putKey(kp, 1, i)
		putKey(ka, 2, i)
		s.dp[i], s.da[i] = h.Digest(kp), h.Digest(ka)
		s.hp[i], s.ha[i] = s.dp[i].H1, s.da[i].H1
	}
	t0 := time.Now()
	fill(n, func(d variants.Digest) { s.mb.AddDigest(d) })
	s.geo.goFill = time.Since(t0).Seconds()
	if s.split != nil {
		fill(n, func(d variants.Digest) { s.split.AddHash64(d.H1) })
		if s.geo.splitTheory, err = s.split.Model().FPR(n); err != nil {
			return nil, err
		}
	}
	if s.geo.theory, err = s.mb.Model().FPR(n); err != nil {
		return nil, err
	}
	s.lines = make([]uint64, pt.bytes/64*8)
	for i := range s.lines {
		s.lines[i] = uint64(i)
	}
	return s, nil
}

// fill hands add the digests of keys 0 .. n-1 of set 1, in chunks of
// 2^20 keys, each chunk in the order of the top 10 bits of H1. The blocks
// of both Go filters are in the order of H1, so a chunk's adds walk the
// table from start to end rather than jump about it: in a table much
// larger than the caches, filling takes a few times less time than in key
// order, and sets the same bits (a filter is the OR of its keys' bits).
func fill(n uint64, add func(variants.Digest)) {
	const chunk, shift = 1 << 20, 54
	var h variants.Hashing
	ds, sorted := make([]variants.Digest, chunk), make([]variants.Digest, chunk)
	var k [16]byte
	for i := uint64(0); i < n; {
		g := 0
		var counts [1<<(64-shift) + 1]int
		for ; g < chunk && i < n; g, i = g+1, i+1 {
			putKey(k[:], 1, i)
			ds[g] = h.Digest(k[:])
			counts[ds[g].H1>>shift+1]++
		}
		for b := 1; b < len(counts); b++ {
			counts[b] += counts[b-1]
		}
		for _, d := range ds[:g] {
			b := d.H1 >> shift
			sorted[counts[b]] = d
			counts[b]++
		}
		for _, d := range sorted[:g] {
			add(d)
		}
	}
}

// A goOp is one Go side of an operation.
type goOp struct {
	lib string
	fn  func(s *setup, count int) uint64
}

// goOps returns the Go operations of the named operation that s has.
func (s *setup) goOps(name string) []goOp {
	var out []goOp
	add := func(lib string, fn func(s *setup, count int) uint64) {
		if fn != nil {
			out = append(out, goOp{lib, fn})
		}
	}
	split := func(fn func(s *setup, count int) uint64) func(s *setup, count int) uint64 {
		if s.split == nil {
			return nil
		}
		return fn
	}
	switch name {
	case "add-hash":
		add("multiblock", opMultiAddHash)
		add("split-block", split(opSplitAddHash))
	case "add-batch-hash":
		add("multiblock", opMultiAddBatchHash)
		add("split-block", split(opSplitAddBatchHash))
	case "present-hash":
		add("multiblock", opMultiPresentHash)
		add("split-block", split(opSplitPresentHash))
	case "absent-hash":
		add("multiblock", opMultiAbsentHash)
		add("split-block", split(opSplitAbsentHash))
	case "absent-batch-hash":
		add("multiblock", opMultiAbsentBatchHash)
		add("split-block", split(opSplitAbsentBatchHash))
	case "add-key":
		add("multiblock", opMultiAddKey)
		add("split-block", split(opSplitAddKey))
	case "present-key":
		add("multiblock", opMultiPresentKey)
		add("split-block", split(opSplitPresentKey))
	case "absent-key":
		add("multiblock", opMultiAbsentKey)
		add("split-block", split(opSplitAbsentKey))
	case "hash-xxh3-128":
		add("go", opHashXXH3128)
	case "random-lines":
		add("go", opRandomLines)
	}
	return out
}

// The operations, each a function of its own, never inlined (so that a
// profile or callgrind can tell them apart).

//go:noinline
func opMultiAddHash(s *setup, count int) uint64 {
	f, j := s.mb, 0
	for range count {
		f.AddDigest(s.dp[j])
		j = sidebyside.Next(j, s.q)
	}
	return 0
}

//go:noinline
func opMultiAddBatchHash(s *setup, count int) uint64 {
	return sidebyside.AddBatch(s.mb, s.dp, s.q, batch, count)
}

func multiQueries(s *setup, ds []variants.Digest, count int) uint64 {
	f, j, hits := s.mb, 0, uint64(0)
	for range count {
		hits += sidebyside.B2U(f.ContainsDigest(ds[j]))
		j = sidebyside.Next(j, s.q)
	}
	return hits
}

//go:noinline
func opMultiPresentHash(s *setup, count int) uint64 { return multiQueries(s, s.dp, count) }

//go:noinline
func opMultiAbsentHash(s *setup, count int) uint64 { return multiQueries(s, s.da, count) }

//go:noinline
func opMultiAbsentBatchHash(s *setup, count int) uint64 {
	return sidebyside.QueriesBatch(s.mb, s.da, s.out, s.q, count)
}

//go:noinline
func opMultiAddKey(s *setup, count int) uint64 {
	f, j := s.mb, 0
	for range count {
		f.Add(sidebyside.Key(s.present, j))
		j = sidebyside.Next(j, s.q)
	}
	return 0
}

func multiKeys(s *setup, keys []byte, count int) uint64 {
	f, j, hits := s.mb, 0, uint64(0)
	for range count {
		hits += sidebyside.B2U(f.Contains(sidebyside.Key(keys, j)))
		j = sidebyside.Next(j, s.q)
	}
	return hits
}

//go:noinline
func opMultiPresentKey(s *setup, count int) uint64 { return multiKeys(s, s.present, count) }

//go:noinline
func opMultiAbsentKey(s *setup, count int) uint64 { return multiKeys(s, s.absent, count) }

//go:noinline
func opSplitAddHash(s *setup, count int) uint64 {
	return sidebyside.SplitAddHash(s.split, s.hp, s.q, count)
}

//go:noinline
func opSplitAddBatchHash(s *setup, count int) uint64 {
	return sidebyside.AddBatch(s.split, s.dp, s.q, batch, count)
}

//go:noinline
func opSplitPresentHash(s *setup, count int) uint64 {
	return sidebyside.SplitQueries(s.split, s.hp, s.q, count)
}

//go:noinline
func opSplitAbsentHash(s *setup, count int) uint64 {
	return sidebyside.SplitQueries(s.split, s.ha, s.q, count)
}

//go:noinline
func opSplitAbsentBatchHash(s *setup, count int) uint64 {
	return sidebyside.QueriesBatch(s.split, s.da, s.out, s.q, count)
}

//go:noinline
func opSplitAddKey(s *setup, count int) uint64 {
	return sidebyside.SplitAddKeys(s.split, s.present, s.q, count)
}

//go:noinline
func opSplitPresentKey(s *setup, count int) uint64 {
	return sidebyside.SplitKeys(s.split, s.present, s.q, count)
}

//go:noinline
func opSplitAbsentKey(s *setup, count int) uint64 {
	return sidebyside.SplitKeys(s.split, s.absent, s.q, count)
}

// opHashXXH3128 is bloomlab's default hash alone, the 128-bit XXH3 of the
// absent keys; its checksum equals fmb32.cc's hash-xxh3-128 for the same
// q and -count if both compute the same hash.
//
//go:noinline
func opHashXXH3128(s *setup, count int) uint64 { return sidebyside.HashXXH3128(s.absent, s.q, count) }

// opRandomLines is fmb32.cc's random-lines: one 8-byte load from a random
// 64-byte line of a table as large as the filter per operation.
//
//go:noinline
func opRandomLines(s *setup, count int) uint64 { return sidebyside.RandomLines(s.lines, count) }

// sizeName prints 1048576 as 1MiB.
func sizeName(b uint64) string {
	for _, u := range []struct {
		s string
		m uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b%u.m == 0 {
			return fmt.Sprintf("%d%s", b/u.m, u.s)
		}
	}
	return fmt.Sprintf("%dB", b)
}

// rows are the operations of the main table, with their labels.
var rows = []struct{ op, label string }{
	{"absent-hash", "absent, hash given"},
	{"present-hash", "present, hash given"},
	{"add-hash", "add, hash given"},
	{"absent-batch-hash", "absent, batches of 64 hashes"},
	{"add-batch-hash", "add, batches of 64 hashes"},
	{"absent-key", "absent, key hashed"},
	{"present-key", "present, key hashed"},
	{"add-key", "add, key hashed"},
}

func report(w io.Writer, c config, points []point, r *results, withBoost bool, load0, load1 string, took time.Duration) {
	fmt.Fprintf(w, "bloomlab beside Boost.Bloom's fast_multiblock32<K>: K and bits per key %s, tables of %s, 16-byte keys hashed by XXH3-128.\n",
		pairs(c), strings.Join(mapSlice(c.sizes, sizeName), " and "))
	fmt.Fprintf(w, "Medians of %d rounds, Boost's and the Go measurements of each operation back to back, in alternating order; %d operations per measurement; %s, %d CPUs; load average %s at the start, %s at the end; %.0f s.\n",
		c.rounds, c.count, runtime.Version(), runtime.NumCPU(), load0, load1, took.Seconds())
	if !withBoost {
		fmt.Fprintln(w, "Go side only (no -boost program).")
	}
	for _, f := range []struct {
		name string
		get  func(sample) float64
	}{
		{"Thread CPU time", func(s sample) float64 { return s.CPU }},
		{"Wall time", func(s sample) float64 { return s.Wall }},
	} {
		fmt.Fprintf(w, "\n%s, ns per operation (Multiblock and SplitBlock: ns, and in brackets the ratio to Boost's time):\n\n", f.name)
		fmt.Fprintln(w, "| table | K | c | op | Boost ns | Multiblock ns (/ Boost) | SplitBlock ns (/ Boost) |")
		fmt.Fprintln(w, "|---|---:|---:|---|---:|---:|---:|")
		for _, pt := range points {
			for _, row := range rows {
				b, okB := r.median(key{pt, "boost", row.op}, f.get)
				cell := func(lib string) string {
					x, ok := r.median(key{pt, lib, row.op}, f.get)
					switch {
					case !ok:
						return "-"
					case okB && b > 0:
						return fmt.Sprintf("%.2f (%.2f)", x, x/b)
					}
					return fmt.Sprintf("%.2f", x)
				}
				bs := "-"
				if okB {
					bs = fmt.Sprintf("%.2f", b)
				}
				fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s |\n", sizeName(pt.bytes), pt.k, pt.c, row.label, bs, cell("multiblock"), cell("split-block"))
			}
		}
	}
	fmt.Fprintln(w, "\nBaselines, thread CPU time, ns per operation: XXH3-128 of a 16-byte key alone (C: xxhash.h inlined; Go: zeebo/xxh3), and one 8-byte load from a random 64-byte line of a table of the filter's size:")
	fmt.Fprintln(w, "\n| table | K | c | C XXH3-128 | Go XXH3-128 | C random line | Go random line |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	cpu := func(s sample) float64 { return s.CPU }
	for _, pt := range points {
		cell := func(lib, op string) string {
			if x, ok := r.median(key{pt, lib, op}, cpu); ok {
				return fmt.Sprintf("%.2f", x)
			}
			return "-"
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s |\n", sizeName(pt.bytes), pt.k, pt.c,
			cell("boost", "hash-xxh3-128"), cell("go", "hash-xxh3-128"), cell("boost", "random-lines"), cell("go", "random-lines"))
	}
	fmt.Fprintln(w, "\nGeometry, false-positive rates (absent keys matched, hashes given, last round) and checks:")
	fmt.Fprintln(w, "\n| table | K | c | bits | blocks | keys n | measured q | Boost FPR | Multiblock FPR | analysis.Multiblock | SplitBlock FPR | analysis.SplitBlock | fill s, Boost / Multiblock |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, pt := range points {
		g := r.geo[pt]
		fpr := func(lib string) string {
			if x, ok := r.res[key{pt, lib, "absent-hash"}]; ok {
				return fmt.Sprintf("%.5f", x)
			}
			return "-"
		}
		st := "-"
		if g.splitTheory > 0 {
			st = fmt.Sprintf("%.5f", g.splitTheory)
		}
		bf := "-"
		if withBoost {
			bf = fmt.Sprintf("%.2f", g.boostFill)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %s | %s | %.5f | %s | %s | %s / %.2f |\n", sizeName(pt.bytes), pt.k, pt.c,
			g.bits, g.bits/uint64(32*pt.k), g.n, g.q, fpr("boost"), fpr("multiblock"), g.theory, fpr("split-block"), st, bf, g.goFill)
	}
	fmt.Fprintln(w)
	for _, pt := range points {
		var notes []string
		for _, lib := range []string{"boost", "multiblock", "split-block"} {
			for _, op := range []string{"present-hash", "present-key"} {
				if x, ok := r.res[key{pt, lib, op}]; ok && x != 1 {
					notes = append(notes, fmt.Sprintf("%s missed present keys in %s!", lib, op))
				}
			}
			for _, op := range []string{"absent-batch-hash", "absent-key"} {
				x, ok1 := r.res[key{pt, lib, op}]
				y, ok2 := r.res[key{pt, lib, "absent-hash"}]
				if ok1 && ok2 && x != y {
					notes = append(notes, fmt.Sprintf("%s's %s matched %.6f of the absent keys against %.6f hash by hash", lib, op, x, y))
				}
			}
		}
		if len(notes) == 0 {
			notes = append(notes, "every present key matched on every side")
		}
		c1, ok1 := r.res[key{pt, "boost", "hash-xxh3-128"}]
		c2, ok2 := r.res[key{pt, "go", "hash-xxh3-128"}]
		if ok1 && ok2 {
			if c1 == c2 {
				notes = append(notes, "C and Go XXH3-128 checksums equal")
			} else {
				notes = append(notes, "C and Go XXH3-128 checksums DIFFERENT")
			}
		}
		fmt.Fprintf(w, "- %s, K = %d, c = %d: %s.\n", sizeName(pt.bytes), pt.k, pt.c, strings.Join(notes, "; "))
	}
	fmt.Fprintln(w, "\nEvery round, ns per operation of CPU time / wall time:")
	keys := make([]key, 0, len(r.t))
	for k := range r.t {
		keys = append(keys, k)
	}
	idx := func(pt point) int { return slices.Index(points, pt) }
	slices.SortFunc(keys, func(a, b key) int {
		if d := idx(a.p) - idx(b.p); d != 0 {
			return d
		}
		if a.op != b.op {
			return strings.Compare(a.op, b.op)
		}
		return strings.Compare(a.lib, b.lib)
	})
	for _, k := range keys {
		parts := make([]string, len(r.t[k]))
		for i, x := range r.t[k] {
			parts[i] = fmt.Sprintf("%.2f/%.2f", x.CPU, x.Wall)
		}
		fmt.Fprintf(w, "- %s K=%d c=%d %s %s: %s\n", sizeName(k.p.bytes), k.p.k, k.p.c, k.op, k.lib, strings.Join(parts, " "))
	}
}

// median returns the median of f over the samples of k.
func (r *results) median(k key, f func(sample) float64) (float64, bool) {
	xs, ok := r.t[k]
	if !ok {
		return 0, false
	}
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	return sidebyside.Median(v), true
}

func pairs(c config) string {
	p := make([]string, len(c.ks))
	for i := range c.ks {
		p[i] = fmt.Sprintf("(%d, %d)", c.ks[i], c.cs[i])
	}
	return strings.Join(p, ", ")
}

func mapSlice[T any](xs []T, f func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
