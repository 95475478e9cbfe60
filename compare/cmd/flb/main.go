// Command flb measures bloomlab's blocked (B = 512) and split-block
// filters beside RocksDB's FastLocalBloom (FLB) on the same machine, by one
// method on both sides, and prints the ratios (issue 34's table).
//
// FLB is timed by compare/flb/flb.cc, a C++ program of ours built against
// a RocksDB source tree by compare/flb/build.sh (RocksDB's code is never
// part of this repository). This command starts that program with
// -serve and, in each round, measures every operation on FLB (a request
// to the program) and on the Go filters back to back, in the opposite
// order in odd rounds, so that the two sides of a ratio are measured
// within a fraction of a second of each other; it reports the median of
// each operation over the rounds, by the thread's CPU time and by wall
// time. Without -flb it times the Go side only.
//
// The method (the same in flb.cc): 16-byte keys, little-endian i times
// 0x9e3779b97f4a7c15 then little-endian i with its last byte replaced by
// the set (1 inserted, 2 absent); 10 bits per key rounded up to whole
// blocks, k = 6 for FLB and the blocked filter (the split-block filter
// always sets 8); every operation runs -count times over the keys or
// hashes in order, cycling, after the n keys were inserted, timed by
// readings of the thread's CPU time and of the wall clock before and
// after; batches are groups of 32 (RocksDB's
// MultiGetContext::MAX_BATCH_SIZE). FLB hashes a key as RocksDB's filter
// builder and reader do (GetSliceHash64: the XXH3 preview, 64 bits);
// bloomlab with its default hashing, XXH3-128 (the split-block filter
// uses the low half). Given hashes are those hashes, computed beforehand.
// parquet-go's split-block filter is timed on the split-block filter's
// hashes and table size. A second split-block filter hashes with the
// 64-bit XXH3 (Hashing{Kind: variants.XXH3_64}) and is timed on the
// key-hashed queries beside the default one (its own table).
//
//	go run ./cmd/flb -flb /tmp/flb/flb -rounds 7
//
// Each operation is also a function of its own (opBlockedAbsentHash, ...),
// so that callgrind can count its instructions (compare/flb/callgrind.sh
// does it for every operation of both programs):
//
//	go build -o /tmp/flb/flb-go ./cmd/flb
//	GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//	  --toggle-collect='main.opBlockedAbsentHash' /tmp/flb/flb-go -only blocked/absent-hash -n 1e6 -count 1000000
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
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/bloomlab/bloomlab/compare/internal/sidebyside"
	"github.com/bloomlab/bloomlab/variants"
	"github.com/parquet-go/parquet-go/bloom"
	"github.com/zeebo/xxh3"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "flb:", err)
		os.Exit(1)
	}
}

const (
	bitsPerKey = 10
	probes     = 6  // FLB's ChooseNumProbes(10000), and the blocked filter's k
	batch      = 32 // RocksDB's MultiGetContext::MAX_BATCH_SIZE
)

// config holds the flags.
type config struct {
	flb    string // the C++ program, or "" for the Go side only
	ns     []int
	count  int
	rounds int
	only   string // lib/op of one Go operation, for callgrind
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("flb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var ns string
	fs.StringVar(&c.flb, "flb", "", "path of the program compare/flb/build.sh builds (empty: time the Go side only)")
	fs.StringVar(&ns, "n", "1e4,1e6", "key counts, comma-separated")
	fs.IntVar(&c.count, "count", 1<<22, "operations per measurement")
	fs.IntVar(&c.rounds, "rounds", 5, "rounds; FLB and Go alternate, and each time is the median over the rounds")
	fs.StringVar(&c.only, "only", "", "run only this Go operation (lib/op, e.g. blocked/absent-hash) once and print its time (for callgrind)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for _, s := range strings.Split(ns, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || f < batch || f > 1e9 || f != float64(int(f)) {
			return fmt.Errorf("-n: %q is not a whole number from %d to 1e9", s, batch)
		}
		c.ns = append(c.ns, int(f))
	}
	if c.count < batch || c.rounds < 1 {
		return fmt.Errorf("-count must be at least %d and -rounds at least 1", batch)
	}
	c.count = (c.count + batch - 1) / batch * batch
	if c.only != "" {
		return runOnly(c, stdout)
	}
	return measure(c, stdout)
}

// A sample is one measurement: ns per key of the thread's CPU time and
// of the wall clock.
type sample = sidebyside.Sample

// times holds the samples of every round, by side ("flb" or a Go
// library), n and operation.
type times map[key][]sample

type key struct {
	lib string
	n   int
	op  string
}

// flbProc is the C++ program running with -serve.
type flbProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	errb bytes.Buffer
}

func startFLB(path string) (*flbProc, error) {
	p := &flbProc{cmd: exec.Command(path, "-serve")}
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

// measure asks the program for one measurement and adds it to t.
func (p *flbProc) measure(n int, op string, count int, t times, results map[key]float64) error {
	if _, err := fmt.Fprintf(p.in, "%d %s %d\n", n, op, count); err != nil {
		return fmt.Errorf("FLB program: %v: %s", err, p.errb.String())
	}
	if !p.out.Scan() {
		return fmt.Errorf("FLB program ended: %v %s", p.out.Err(), p.errb.String())
	}
	return parseFLB(strings.NewReader(p.out.Text()), t, results)
}

func (p *flbProc) close() error {
	p.in.Close()
	return p.cmd.Wait()
}

// parseFLB reads the lines "flb n op cpu-ns wall-ns result" of the C++
// program.
func parseFLB(r io.Reader, t times, results map[key]float64) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 || f[0] != "flb" {
			return fmt.Errorf("unexpected line from the FLB program: %q", sc.Text())
		}
		n, err1 := strconv.Atoi(f[1])
		cpu, err2 := strconv.ParseFloat(f[3], 64)
		wall, err3 := strconv.ParseFloat(f[4], 64)
		res, err4 := strconv.ParseFloat(f[5], 64)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return fmt.Errorf("unexpected line from the FLB program: %q: %v", sc.Text(), err)
		}
		k := key{"flb", n, f[2]}
		t[k] = append(t[k], sample{CPU: cpu, Wall: wall})
		results[k] = res
	}
	return sc.Err()
}

// flbOps are the operations of flb.cc.
var flbOps = []string{
	"add-hash", "add-batch32-hash", "present-hash", "absent-hash", "absent-key",
	"absent-batch32-hash", "absent-batch32-key", "hash-xxph3", "hash-xxh3-64", "random-lines",
}

// measure runs the rounds: in each, for each n and operation, FLB's
// measurement and then the Go libraries' of the same operation (in the
// opposite order in odd rounds), so that the two sides of a ratio are
// measured within a fraction of a second of each other.
func measure(c config, stdout io.Writer) error {
	load0 := sidebyside.Loadavg()
	start := time.Now()
	var p *flbProc
	if c.flb != "" {
		var err error
		if p, err = startFLB(c.flb); err != nil {
			return err
		}
	}
	// The operations in order, each with the Go operations of its name.
	var names []string
	goOps := map[string][]op{}
	for _, o := range ops {
		if _, ok := goOps[o.name]; !ok {
			names = append(names, o.name)
		}
		goOps[o.name] = append(goOps[o.name], o)
	}
	for _, name := range flbOps {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	runtime.LockOSThread() // for the thread's CPU time
	defer runtime.UnlockOSThread()
	t := times{}
	results := map[key]float64{}
	setups := map[int]*setup{}
	for _, n := range c.ns {
		setups[n] = newSetup(n)
	}
	for r := range c.rounds {
		for _, n := range c.ns {
			for _, name := range names {
				steps := []func() error{}
				if p != nil && slices.Contains(flbOps, name) {
					steps = append(steps, func() error { return p.measure(n, name, c.count, t, results) })
				}
				for _, o := range goOps[name] {
					steps = append(steps, func() error {
						smp, res := timeOp(setups[n], o, c.count)
						k := key{o.lib, n, o.name}
						t[k] = append(t[k], smp)
						if o.query {
							results[k] = float64(res) / float64(c.count)
						} else {
							results[k] = float64(res)
						}
						return nil
					})
				}
				if r%2 == 1 {
					slices.Reverse(steps)
				}
				for _, step := range steps {
					if err := step(); err != nil {
						return err
					}
				}
			}
		}
	}
	if p != nil {
		if err := p.close(); err != nil {
			return fmt.Errorf("FLB program: %v: %s", err, p.errb.String())
		}
	}
	load1 := sidebyside.Loadavg()
	report(stdout, c, t, results, load0, load1, time.Since(start))
	return nil
}

// setup is what the operations of one n work on.
type setup struct {
	n               int
	present, absent []byte   // n 16-byte keys each, back to back
	absentKeys      [][]byte // the absent keys as slices, for ContainsBatch
	dp, da          []variants.Digest
	hp, ha          []uint64 // the split-block filter's hashes, H1 of the digests
	blocked         *variants.Blocked
	split           *variants.SplitBlock
	split64         *variants.SplitBlock // Hashing{Kind: XXH3_64}, the keys added
	parquet         bloom.SplitBlockFilter
	lines           []uint64 // for random-lines, as large as the blocked filter
	out             []bool
	nopPtr          unsafe.Pointer
}

// makeKeys returns the n 16-byte keys of set, back to back, as flb.cc
// makes them.
func makeKeys(set byte, n int) []byte {
	buf := make([]byte, 16*n)
	for i := range n {
		k := buf[16*i : 16*i+16]
		binary.LittleEndian.PutUint64(k, uint64(i)*0x9e3779b97f4a7c15)
		binary.LittleEndian.PutUint64(k[8:], uint64(i))
		k[15] = set
	}
	return buf
}

func newSetup(n int) *setup {
	s := &setup{n: n, present: makeKeys(1, n), absent: makeKeys(2, n), out: make([]bool, batch)}
	s.absentKeys = make([][]byte, n)
	s.dp, s.da = make([]variants.Digest, n), make([]variants.Digest, n)
	s.hp, s.ha = make([]uint64, n), make([]uint64, n)
	var h variants.Hashing // bloomlab's default: XXH3-128, seed 0
	for i := range n {
		s.absentKeys[i] = s.absent[16*i : 16*i+16 : 16*i+16]
		s.dp[i], s.da[i] = h.Digest(s.present[16*i:16*i+16]), h.Digest(s.absentKeys[i])
		s.hp[i], s.ha[i] = s.dp[i].H1, s.da[i].H1
	}
	m := uint64(bitsPerKey * n)
	var err error
	s.blocked, err = variants.NewBlocked(variants.BlockedParams{Geometry: variants.Geometry{Bits: m, Hashes: probes, Capacity: uint64(n)}, BlockBits: 512})
	if err != nil {
		panic(err)
	}
	s.split, err = variants.NewSplitBlock(variants.Geometry{Bits: m, Hashes: 8, Capacity: uint64(n)}, h)
	if err != nil {
		panic(err)
	}
	s.split64, err = variants.NewSplitBlock(variants.Geometry{Bits: m, Hashes: 8, Capacity: uint64(n)}, variants.Hashing{Kind: variants.XXH3_64})
	if err != nil {
		panic(err)
	}
	s.parquet = bloom.MakeSplitBlockFilter(make([]byte, s.split.Geometry().Bits/8))
	for i := range n {
		s.split64.Add(s.present[16*i : 16*i+16])
		s.blocked.AddDigest(s.dp[i])
		s.split.AddHash64(s.hp[i])
		s.parquet.Insert(s.hp[i])
	}
	s.lines = make([]uint64, s.blocked.Geometry().Bits/64)
	for i := range s.lines {
		s.lines[i] = uint64(i)
	}
	return s
}

// An op is one timed operation: it runs count operations and returns a
// result (matches for queries, a checksum otherwise).
type op struct {
	lib, name string
	query     bool
	fn        func(s *setup, count int) uint64
}

// ops are the Go operations, in the order they run.
var ops = []op{
	{"blocked", "add-hash", false, opBlockedAddHash},
	{"blocked", "add-batch32-hash", false, opBlockedAddBatchHash},
	{"blocked", "present-hash", true, opBlockedPresentHash},
	{"blocked", "absent-hash", true, opBlockedAbsentHash},
	{"blocked", "absent-key", true, opBlockedAbsentKey},
	{"blocked", "absent-batch32-hash", true, opBlockedAbsentBatchHash},
	{"blocked", "absent-batch32-key", true, opBlockedAbsentBatchKey},
	{"split-block", "add-hash", false, opSplitAddHash},
	{"split-block", "add-batch32-hash", false, opSplitAddBatchHash},
	{"split-block", "present-hash", true, opSplitPresentHash},
	{"split-block", "absent-hash", true, opSplitAbsentHash},
	{"split-block", "absent-key", true, opSplitAbsentKey},
	{"split-block", "absent-batch32-hash", true, opSplitAbsentBatchHash},
	{"split-block", "absent-batch32-key", true, opSplitAbsentBatchKey},
	{"split-block-xxh3-64", "absent-key", true, opSplit64AbsentKey},
	{"split-block-xxh3-64", "absent-batch32-key", true, opSplit64AbsentBatchKey},
	{"parquet-go", "add-hash", false, opParquetAddHash},
	{"parquet-go", "add-batch32-hash", false, opParquetAddBatchHash},
	{"parquet-go", "present-hash", true, opParquetPresentHash},
	{"parquet-go", "absent-hash", true, opParquetAbsentHash},
	{"go", "hash-xxh3-64", false, opHashXXH3},
	{"go", "hash-xxh3-128", false, opHashXXH3128},
	{"go", "random-lines", false, opRandomLines},
	{"go", "loop", false, opLoop},
	{"go", "call-go", false, opCallGo},
	{"go", "call-asm", false, opCallAsm},
}

// timeOp runs o count times on s and returns its sample and result; the
// caller holds its OS thread.
func timeOp(s *setup, o op, count int) (sample, uint64) {
	return sidebyside.Time(count, func(count int) uint64 { return o.fn(s, count) })
}

// runOnly runs one Go operation once, for callgrind.
func runOnly(c config, stdout io.Writer) error {
	i := slices.IndexFunc(ops, func(o op) bool { return o.lib+"/"+o.name == c.only })
	if i < 0 {
		return fmt.Errorf("-only %q: no such operation", c.only)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, n := range c.ns {
		smp, r := timeOp(newSetup(n), ops[i], c.count)
		fmt.Fprintf(stdout, "%s n=%d: %.3f ns/op of CPU time, %.3f of wall time, result %d\n", c.only, n, smp.CPU, smp.Wall, r)
	}
	return nil
}

// The operations. Each is a function of its own, never inlined, so that
// callgrind's --toggle-collect can count the instructions of one.

//go:noinline
func opBlockedAddHash(s *setup, count int) uint64 {
	f, j := s.blocked, 0
	for range count {
		f.AddDigest(s.dp[j])
		j = sidebyside.Next(j, s.n)
	}
	return 0
}

//go:noinline
func opBlockedAddBatchHash(s *setup, count int) uint64 {
	f, j := s.blocked, 0
	for i := 0; i < count; i += batch {
		f.AddDigestBatch(s.dp[j : j+batch])
		j = sidebyside.NextGroup(j, s.n, batch)
	}
	return 0
}

func blockedQueries(s *setup, ds []variants.Digest, count int) uint64 {
	f, j, hits := s.blocked, 0, uint64(0)
	for range count {
		hits += sidebyside.B2U(f.ContainsDigest(ds[j]))
		j = sidebyside.Next(j, s.n)
	}
	return hits
}

//go:noinline
func opBlockedPresentHash(s *setup, count int) uint64 { return blockedQueries(s, s.dp, count) }

//go:noinline
func opBlockedAbsentHash(s *setup, count int) uint64 { return blockedQueries(s, s.da, count) }

//go:noinline
func opBlockedAbsentKey(s *setup, count int) uint64 {
	f, j, hits := s.blocked, 0, uint64(0)
	for range count {
		hits += sidebyside.B2U(f.Contains(s.absent[16*j : 16*j+16]))
		j = sidebyside.Next(j, s.n)
	}
	return hits
}

//go:noinline
func opBlockedAbsentBatchHash(s *setup, count int) uint64 {
	f, j, hits, out := s.blocked, 0, uint64(0), s.out
	for i := 0; i < count; i += batch {
		f.ContainsDigestBatch(s.da[j:j+batch], out)
		for _, x := range out {
			hits += sidebyside.B2U(x)
		}
		j = sidebyside.NextGroup(j, s.n, batch)
	}
	return hits
}

//go:noinline
func opBlockedAbsentBatchKey(s *setup, count int) uint64 {
	f, j, hits, out := s.blocked, 0, uint64(0), s.out
	for i := 0; i < count; i += batch {
		f.ContainsBatch(s.absentKeys[j:j+batch], out)
		for _, x := range out {
			hits += sidebyside.B2U(x)
		}
		j = sidebyside.NextGroup(j, s.n, batch)
	}
	return hits
}

//go:noinline
func opSplitAddHash(s *setup, count int) uint64 {
	return sidebyside.SplitAddHash(s.split, s.hp, s.n, count)
}

//go:noinline
func opSplitAddBatchHash(s *setup, count int) uint64 {
	return sidebyside.AddBatch(s.split, s.dp, s.n, batch, count)
}

//go:noinline
func opSplitPresentHash(s *setup, count int) uint64 {
	return sidebyside.SplitQueries(s.split, s.hp, s.n, count)
}

//go:noinline
func opSplitAbsentHash(s *setup, count int) uint64 {
	return sidebyside.SplitQueries(s.split, s.ha, s.n, count)
}

//go:noinline
func opSplitAbsentKey(s *setup, count int) uint64 {
	return sidebyside.SplitKeys(s.split, s.absent, s.n, count)
}

//go:noinline
func opSplitAbsentBatchHash(s *setup, count int) uint64 {
	return sidebyside.QueriesBatch(s.split, s.da, s.out, s.n, count)
}

//go:noinline
func opSplitAbsentBatchKey(s *setup, count int) uint64 {
	f, j, hits, out := s.split, 0, uint64(0), s.out
	for i := 0; i < count; i += batch {
		f.ContainsBatch(s.absentKeys[j:j+batch], out)
		for _, x := range out {
			hits += sidebyside.B2U(x)
		}
		j = sidebyside.NextGroup(j, s.n, batch)
	}
	return hits
}

//go:noinline
func opSplit64AbsentKey(s *setup, count int) uint64 {
	f, j, hits := s.split64, 0, uint64(0)
	for range count {
		hits += sidebyside.B2U(f.Contains(s.absent[16*j : 16*j+16]))
		j = sidebyside.Next(j, s.n)
	}
	return hits
}

//go:noinline
func opSplit64AbsentBatchKey(s *setup, count int) uint64 {
	f, j, hits, out := s.split64, 0, uint64(0), s.out
	for i := 0; i < count; i += batch {
		f.ContainsBatch(s.absentKeys[j:j+batch], out)
		for _, x := range out {
			hits += sidebyside.B2U(x)
		}
		j = sidebyside.NextGroup(j, s.n, batch)
	}
	return hits
}

//go:noinline
func opParquetAddHash(s *setup, count int) uint64 {
	f, j := s.parquet, 0
	for range count {
		f.Insert(s.hp[j])
		j = sidebyside.Next(j, s.n)
	}
	return 0
}

//go:noinline
func opParquetAddBatchHash(s *setup, count int) uint64 {
	f, j := s.parquet, 0
	for i := 0; i < count; i += batch {
		f.InsertBulk(s.hp[j : j+batch])
		j = sidebyside.NextGroup(j, s.n, batch)
	}
	return 0
}

func parquetQueries(s *setup, hs []uint64, count int) uint64 {
	f, j, hits := s.parquet, 0, uint64(0)
	for range count {
		hits += sidebyside.B2U(f.Check(hs[j]))
		j = sidebyside.Next(j, s.n)
	}
	return hits
}

//go:noinline
func opParquetPresentHash(s *setup, count int) uint64 { return parquetQueries(s, s.hp, count) }

//go:noinline
func opParquetAbsentHash(s *setup, count int) uint64 { return parquetQueries(s, s.ha, count) }

// opHashXXH3 is the released XXH3's 64-bit hash alone; its checksum equals
// flb.cc's hash-xxh3-64 for the same -n and -count if both compute the
// same hash.
//
//go:noinline
func opHashXXH3(s *setup, count int) uint64 {
	sum, j := uint64(0), 0
	for range count {
		sum += xxh3.Hash(s.absent[16*j : 16*j+16])
		j = sidebyside.Next(j, s.n)
	}
	return sum
}

// opHashXXH3128 is bloomlab's default hash alone, the 128-bit XXH3.
//
//go:noinline
func opHashXXH3128(s *setup, count int) uint64 { return sidebyside.HashXXH3128(s.absent, s.n, count) }

// opRandomLines loads 8 bytes of a random 64-byte line of a table as large
// as the blocked filter per operation, the lines from an LCG by
// multiply-shift so that no load depends on another: flb.cc's
// random-lines, and variants' BenchmarkBlocked/op=random-lines.
//
//go:noinline
func opRandomLines(s *setup, count int) uint64 { return sidebyside.RandomLines(s.lines, count) }

// nopGo is a Go function of the shape of a probe that does nothing.
//
//go:noinline
func nopGo(p unsafe.Pointer, z, h uint64) bool { return p == nil && z == h+1 }

// opLoop is opCallGo's loop with nopGo's work inline and no call: what
// the call costs is opCallGo's time (or instructions) less this one's.
//
//go:noinline
func opLoop(s *setup, count int) uint64 {
	hits, j := uint64(0), 0
	for range count {
		hits += sidebyside.B2U(s.nopPtr == nil && uint64(j) == s.ha[j]+1)
		j = sidebyside.Next(j, s.n)
	}
	return hits
}

// opCallGo calls nopGo on the hashes: the cost of a Go call with the
// register ABI.
//
//go:noinline
func opCallGo(s *setup, count int) uint64 {
	hits, j := uint64(0), 0
	for range count {
		hits += sidebyside.B2U(nopGo(s.nopPtr, uint64(j), s.ha[j]))
		j = sidebyside.Next(j, s.n)
	}
	return hits
}

// opCallAsm calls nopAsm, an assembly function of the same shape that
// does nothing (on amd64; nopGo elsewhere): the cost of a call into
// assembly, whose arguments and result go through the stack (ABI0).
//
//go:noinline
func opCallAsm(s *setup, count int) uint64 {
	hits, j := uint64(0), 0
	for range count {
		hits += sidebyside.B2U(nopAsm(s.nopPtr, uint64(j), s.ha[j]))
		j = sidebyside.Next(j, s.n)
	}
	return hits
}

// row is a line of the main table: an operation of FLB, the same
// operation of bloomlab's filters, and bloomlab's batch form of it.
type row struct {
	label, op, batchOp string
}

var rows = []row{
	{"absent, hash given", "absent-hash", "absent-batch32-hash"},
	{"absent, key hashed", "absent-key", "absent-batch32-key"},
	{"absent, batch of 32 hashes", "absent-batch32-hash", ""},
	{"absent, batch of 32 keys", "absent-batch32-key", ""},
	{"present, hash given", "present-hash", ""},
	{"add, hash given", "add-hash", "add-batch32-hash"},
	{"add, batch of 32 hashes", "add-batch32-hash", ""},
}

func report(w io.Writer, c config, t times, results map[key]float64, load0, load1 string, took time.Duration) {
	nl := make([]string, len(c.ns))
	for i, n := range c.ns {
		nl[i] = sciN(n)
	}
	fmt.Fprintf(w, "bloomlab beside RocksDB's FastLocalBloom (FLB): n = %s keys of 16 bytes, %d bits per key, k = %d (split-block: 8), batches of %d.\n", strings.Join(nl, ", "), bitsPerKey, probes, batch)
	fmt.Fprintf(w, "Medians of %d rounds, FLB's and the Go measurements of each operation back to back, in alternating order; %d operations per measurement; %s, %d CPUs; load average %s at the start, %s at the end; %.0f s.\n",
		c.rounds, c.count, runtime.Version(), runtime.NumCPU(), load0, load1, took.Seconds())
	cpu := func(s sample) float64 { return s.CPU }
	wall := func(s sample) float64 { return s.Wall }
	fmt.Fprintln(w, "\nThread CPU time, ns per key (the time the measuring thread ran, which other work on shared cores does not inflate):")
	mainTable(w, c, t, cpu)
	fmt.Fprintln(w, "\nBlocked batch and SplitBlock batch are bloomlab's batch entry points over groups of 32 (ContainsDigestBatch, ContainsBatch, AddDigestBatch) against FLB's one-at-a-time operation of the row; in the batch rows the bloomlab columns are those entry points against FLB's batch loop.")
	fmt.Fprintln(w, "\nThe same by wall time:")
	mainTable(w, c, t, wall)
	med := func(lib string, n int, op string) (float64, bool) {
		xs, ok := t[key{lib, n, op}]
		return sidebyside.Median(pick(xs, cpu)), ok
	}
	ns := func(lib string, n int, op string) string {
		if x, ok := med(lib, n, op); ok {
			return fmt.Sprintf("%.2f", x)
		}
		return "-"
	}
	fmt.Fprintln(w, "\nThe split-block filter beside parquet-go's, hashes given (the same hashes and table), thread CPU time:")
	fmt.Fprintln(w, "\n| n | op | SplitBlock ns | parquet-go ns | SplitBlock / parquet-go | FLB ns |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|")
	for _, n := range c.ns {
		for _, op := range []string{"absent-hash", "present-hash", "add-hash", "add-batch32-hash"} {
			sp, ok1 := med("split-block", n, op)
			pq, ok2 := med("parquet-go", n, op)
			rel := "-"
			if ok1 && ok2 {
				rel = fmt.Sprintf("%.2f", sp/pq)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", sciN(n), op, ns("split-block", n, op), ns("parquet-go", n, op), rel, ns("flb", n, op))
		}
	}
	fmt.Fprintln(w, "\nThe split-block filter's key-hashed queries with the 64-bit XXH3 (Hashing{Kind: XXH3_64}) beside its default, the 128-bit XXH3, thread CPU time (FPR: absent keys matched, last round):")
	fmt.Fprintln(w, "\n| n | op | FLB ns | SplitBlock xxh3 ns | SplitBlock xxh3-64 ns | xxh3-64 / xxh3 | xxh3 / FLB | xxh3-64 / FLB | FPR xxh3, xxh3-64 |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---|")
	for _, n := range c.ns {
		for _, op := range []string{"absent-key", "absent-batch32-key"} {
			fl, okF := med("flb", n, op)
			x128, ok1 := med("split-block", n, op)
			x64, ok2 := med("split-block-xxh3-64", n, op)
			rel := func(a, b float64, ok bool) string {
				if !ok || b == 0 {
					return "-"
				}
				return fmt.Sprintf("%.2f", a/b)
			}
			fpr := func(lib string) string {
				if r, ok := results[key{lib, n, op}]; ok {
					return fmt.Sprintf("%.4f", r)
				}
				return "-"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s, %s |\n", sciN(n), op, ns("flb", n, op), ns("split-block", n, op), ns("split-block-xxh3-64", n, op),
				rel(x64, x128, ok1 && ok2), rel(x128, fl, ok1 && okF), rel(x64, fl, ok2 && okF), fpr("split-block"), fpr("split-block-xxh3-64"))
		}
	}
	fmt.Fprintln(w, "\nBaselines, ns per key of thread CPU time: the hash alone (C: RocksDB's Hash64, the XXH3 preview, and the released XXH3-64; Go: zeebo/xxh3's 64-bit hash and bloomlab's 128-bit one), one random-line load over a table of the blocked filter's size, and a loop over the hashes calling a no-op of a probe's shape, compiled Go or assembly, beside the same loop with no call:")
	fmt.Fprintln(w, "\n| n | C XXPH3-64 | C XXH3-64 | Go xxh3-64 | Go xxh3-128 | C random line | Go random line | Go loop, no call | Go call | Go asm call |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, n := range c.ns {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", sciN(n),
			ns("flb", n, "hash-xxph3"), ns("flb", n, "hash-xxh3-64"), ns("go", n, "hash-xxh3-64"), ns("go", n, "hash-xxh3-128"),
			ns("flb", n, "random-lines"), ns("go", n, "random-lines"), ns("go", n, "loop"), ns("go", n, "call-go"), ns("go", n, "call-asm"))
	}
	fmt.Fprintln(w, "\nChecks (last round):")
	for _, n := range c.ns {
		var b strings.Builder
		for _, lib := range []string{"flb", "blocked", "split-block", "parquet-go"} {
			if r, ok := results[key{lib, n, "absent-hash"}]; ok {
				fmt.Fprintf(&b, " %s %.4f", lib, r)
			}
		}
		fmt.Fprintf(w, "- n = %s: absent keys matched (false-positive rate):%s", sciN(n), b.String())
		bad := []string{}
		for _, lib := range []string{"flb", "blocked", "split-block", "parquet-go"} {
			if r, ok := results[key{lib, n, "present-hash"}]; ok && r != 1 {
				bad = append(bad, lib)
			}
		}
		if len(bad) > 0 {
			fmt.Fprintf(w, "; present keys missed by %s!", strings.Join(bad, ", "))
		} else {
			fmt.Fprint(w, "; every present key matched")
		}
		c1, ok1 := results[key{"flb", n, "hash-xxh3-64"}]
		c2, ok2 := results[key{"go", n, "hash-xxh3-64"}]
		if ok1 && ok2 {
			same := "equal"
			if c1 != c2 {
				same = "DIFFERENT"
			}
			fmt.Fprintf(w, "; C XXH3-64 and Go xxh3-64 checksums %s", same)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\nEvery round, ns per key of CPU time / wall time:")
	keys := make([]key, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.n != b.n {
			return a.n - b.n
		}
		if a.op != b.op {
			return strings.Compare(a.op, b.op)
		}
		return strings.Compare(a.lib, b.lib)
	})
	for _, k := range keys {
		parts := make([]string, len(t[k]))
		for i, x := range t[k] {
			parts[i] = fmt.Sprintf("%.2f/%.2f", x.CPU, x.Wall)
		}
		fmt.Fprintf(w, "- %s %s %s: %s\n", sciN(k.n), k.op, k.lib, strings.Join(parts, " "))
	}
}

// pick returns f of every sample.
func pick(xs []sample, f func(sample) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// mainTable prints issue 34's table, FLB's time and bloomlab's ratios to
// it, each the ratio of the medians of f of the samples.
func mainTable(w io.Writer, c config, t times, f func(sample) float64) {
	med := func(lib string, n int, op string) (float64, bool) {
		xs, ok := t[key{lib, n, op}]
		return sidebyside.Median(pick(xs, f)), ok
	}
	ratio := func(lib string, n int, op, flbOp string) string {
		x, ok1 := med(lib, n, op)
		y, ok2 := med("flb", n, flbOp)
		if !ok1 || !ok2 || y == 0 {
			if ok1 && !ok2 {
				return fmt.Sprintf("(%.2f ns)", x)
			}
			return "-"
		}
		return fmt.Sprintf("%.2f", x/y)
	}
	fmt.Fprintln(w, "\n| n | op | FLB ns | Blocked / FLB | SplitBlock / FLB | Blocked batch / FLB | SplitBlock batch / FLB |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|")
	for _, n := range c.ns {
		for _, r := range rows {
			bb, sb := "-", "-"
			if r.batchOp != "" {
				bb, sb = ratio("blocked", n, r.batchOp, r.op), ratio("split-block", n, r.batchOp, r.op)
			}
			fl := "-"
			if x, ok := med("flb", n, r.op); ok {
				fl = fmt.Sprintf("%.2f", x)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", sciN(n), r.label, fl,
				ratio("blocked", n, r.op, r.op), ratio("split-block", n, r.op, r.op), bb, sb)
		}
	}
}

// sciN prints 10000 as 1e4.
func sciN(n int) string {
	e := 0
	for m := n; m >= 10 && m%10 == 0; m /= 10 {
		e++
	}
	if m := n; e >= 3 {
		for range e {
			m /= 10
		}
		return fmt.Sprintf("%de%d", m, e)
	}
	return strconv.Itoa(n)
}
