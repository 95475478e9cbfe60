package experiments_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// TestKeySourcesDeterministic checks every named key source: the same
// stream and index give the same bytes, the first 20000 members of a
// stream are distinct, its first 20000 queries are distinct and none is
// a member, and two streams share no member.
func TestKeySourcesDeterministic(t *testing.T) {
	for _, name := range experiments.KeySourceNames {
		src, err := experiments.NewKeySource(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if src.Name() != name || src.Distinct() != 0 {
			t.Errorf("%s: name %q, distinct %d", name, src.Name(), src.Distinct())
		}
		const n = 20000
		members := map[string]bool{}
		for i := range uint64(n) {
			k := string(src.Member(nil, 42, i))
			if members[k] {
				t.Fatalf("%s: member %d repeats an earlier one: %q", name, i, k)
			}
			members[k] = true
			if again := src.Member([]byte("xy"), 42, i); string(again[2:]) != k {
				t.Fatalf("%s: member %d differs on a second call", name, i)
			}
		}
		queries := map[string]bool{}
		for i := range uint64(n) {
			k := string(src.Query(nil, 42, i))
			if members[k] || queries[k] {
				t.Fatalf("%s: query %d %q is a member or an earlier query", name, i, k)
			}
			queries[k] = true
		}
		for i := range uint64(n) {
			if members[string(src.Member(nil, 43, i))] {
				t.Fatalf("%s: stream 43's member %d is one of stream 42's", name, i)
			}
		}
	}
	if _, err := experiments.NewKeySource(context.Background(), "gaussian"); !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), "uniform, url") {
		t.Errorf("unknown source: %v", err)
	}
}

// TestKeySourcesRate measures the default standard filter on every named
// key source, 20 filters of 2000 keys in 20000 bits: xxh3 makes every
// source look random, so the exact theory lies within four standard
// errors, and the same seed gives the same results twice. The repeats source
// inserts repeats, which a standard filter absorbs, so its rate is that
// of its distinct keys.
func TestKeySourcesRate(t *testing.T) {
	const m, n = 20000, 2000
	for _, name := range experiments.KeySourceNames {
		src, _ := experiments.NewKeySource(context.Background(), name)
		spec := experiments.Spec{
			Name: name,
			New: func(seed uint64) (experiments.Filter, error) {
				return variants.NewStandard(variants.Geometry{Bits: m, Hashes: 7}, variants.Hashing{Seed: seed})
			},
			Items:  []uint64{n},
			Theory: func(n uint64) float64 { return analysis.ExactFPR(m, n, 7) },
			Model:  "exact",
			Keys:   src,
		}
		p := experiments.Params{Filters: 20, Queries: 20000}
		r := measure(t, []experiments.Spec{spec}, p, experiments.Options{Seed: 9})
		row := r.Rows[0]
		if want := map[bool]string{true: "", false: name}[name == "uniform"]; row.Keys != want {
			t.Errorf("%s: the row records keys %q, want %q", name, row.Keys, want)
		}
		if se := standardErrors(row); se > 4 {
			t.Errorf("%s: measured %g [%g, %g], exact %g: %.1f standard errors", name, row.Rate, row.Lo, row.Hi, row.Theory, se)
		}
		// Determinism, on smaller runs: the same seed gives the same
		// trials on any number of workers, another seed others.
		small := experiments.Params{Filters: 4, Queries: 2000}
		one := measure(t, []experiments.Spec{spec}, small, experiments.Options{Seed: 9})
		again := measure(t, []experiments.Spec{spec}, small, experiments.Options{Seed: 9, Workers: 1})
		if fmt.Sprint(again.Rows[0].Trials) != fmt.Sprint(one.Rows[0].Trials) {
			t.Errorf("%s: the same seed gives different trials", name)
		}
		other := measure(t, []experiments.Spec{spec}, small, experiments.Options{Seed: 10})
		if fmt.Sprint(other.Rows[0].Trials) == fmt.Sprint(one.Rows[0].Trials) {
			t.Errorf("%s: seeds 9 and 10 give the same trials", name)
		}
	}
}

// countingAdds counts the keys offered to Add and the distinct ones.
type countingAdds struct {
	adds int
	seen map[string]bool
}

func (c *countingAdds) Add(k []byte)           { c.adds++; c.seen[string(k)] = true }
func (c *countingAdds) Contains(k []byte) bool { return c.seen[string(k)] }

// TestRepeats checks that the repeats source inserts repeats (about one
// per new key) of keys already inserted, most often the first ones, and
// that the item count counts distinct keys.
func TestRepeats(t *testing.T) {
	src, _ := experiments.NewKeySource(context.Background(), "repeats")
	var filters []*countingAdds
	spec := experiments.Spec{
		Name: "repeats",
		New: func(uint64) (experiments.Filter, error) {
			c := &countingAdds{seen: map[string]bool{}}
			filters = append(filters, c)
			return c, nil
		},
		Items: []uint64{10000},
		Keys:  src,
	}
	measure(t, []experiments.Spec{spec}, experiments.Params{Filters: 1, Queries: 100}, experiments.Options{Seed: 1, Workers: 1})
	c := filters[len(filters)-1]
	if len(c.seen) != 10000 || c.adds < 18000 || c.adds > 22000 {
		t.Errorf("%d adds of %d distinct keys, want 10000 distinct and about 20000 adds", c.adds, len(c.seen))
	}
}

func writeLines(t testing.TB, lines []string) string {
	path := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestKeysFromFile checks the file source: duplicates, empty lines and
// carriage returns are dropped; the members and queries of a filter are
// a seeded permutation of the distinct keys, taken from its two ends, so
// 500 members and 500 queries of a 1000-key file are all of its keys
// once; another stream permutes differently; a file with too few
// distinct keys, or too few for a measurement, is refused.
func TestKeysFromFile(t *testing.T) {
	var lines []string
	for i := range 1000 {
		lines = append(lines, fmt.Sprintf("user-%d@example.org\r", i), fmt.Sprintf("user-%d@example.org", i), "")
	}
	path := writeLines(t, lines)
	src, err := experiments.NewKeySource(context.Background(), "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if src.Distinct() != 1000 || src.Name() != "file:"+path {
		t.Fatalf("distinct %d, name %q", src.Distinct(), src.Name())
	}
	seen := map[string]bool{}
	var first []byte
	for i := range uint64(500) {
		for _, k := range [][]byte{src.Member(nil, 7, i), src.Query(nil, 7, i)} {
			if seen[string(k)] || !strings.HasPrefix(string(k), "user-") || bytes.HasSuffix(k, []byte("\r")) {
				t.Fatalf("key %q repeated or malformed", k)
			}
			seen[string(k)] = true
		}
		if i == 0 {
			first = src.Member(nil, 7, 0)
		}
	}
	if len(seen) != 1000 {
		t.Errorf("%d distinct keys from 500 members and 500 queries", len(seen))
	}
	if bytes.Equal(src.Member(nil, 8, 0), first) && bytes.Equal(src.Member(nil, 8, 1), src.Member(nil, 7, 1)) {
		t.Error("streams 7 and 8 take the same members")
	}

	spec := moduloSpec("from file", 1)
	spec.Keys, spec.Items, spec.Queries, spec.Filters = src, []uint64{200, 600}, 400, 4
	r := measure(t, []experiments.Spec{spec}, experiments.Params{}, experiments.Options{Seed: 3})
	if len(r.Rows) != 2 || r.Rows[1].FalseNegatives != 0 {
		t.Errorf("measured on the file: %+v", r.Rows)
	}
	spec.Queries = 401
	if _, err := experiments.Measure(context.Background(), []experiments.Spec{spec}, experiments.Params{}, experiments.Options{}); !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), "1000 distinct keys, too few for 600 members and 401 queries") {
		t.Errorf("too few keys for the measurement: %v", err)
	}
	for _, bad := range [][]string{{"a", "a", "", "a\r"}, {}} {
		if _, err := experiments.KeysFromFile(context.Background(), writeLines(t, bad)); !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), "distinct keys") {
			t.Errorf("file %q: %v", bad, err)
		}
	}
	if _, err := experiments.KeysFromFile(context.Background(), filepath.Join(t.TempDir(), "missing")); !errors.Is(err, experiments.ErrInvalidParams) {
		t.Errorf("missing file: %v", err)
	}
}

// BenchmarkKeysFromFile reads a file of ten million lines of about 33
// bytes (about 330 MB), a thousand of them duplicates; the target is under
// 10 s per read.
func BenchmarkKeysFromFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "keys.txt")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range 10_000_000 {
		fmt.Fprintf(w, "https://example.org/item/%d\n", (i*7919)%9_999_000)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.ResetTimer()
	for b.Loop() {
		src, err := experiments.KeysFromFile(context.Background(), path)
		if err != nil || src.Distinct() != 9_999_000 {
			b.Fatal(src.Distinct(), err)
		}
	}
}

// writeKeyFile writes n lines made by line(i) to a file in a temporary
// directory and returns its path and size.
func writeKeyFile(t testing.TB, n int, line func(w *bufio.Writer, i int)) (string, int64) {
	path := filepath.Join(t.TempDir(), "keys.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range n {
		line(w, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, fi.Size()
}

// TestKeyFileBounds checks the refusals of KeysFromFile: what is not a
// regular file (a directory, a device), a file over 4 GiB (sparse, so
// nothing is written), a line over 64 KiB; each promptly, with an error
// that says why, and the same limits for KeysFromLines.
func TestKeyFileBounds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1<<32 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	long := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(long, []byte("a\nb\n"+strings.Repeat("x", 1<<16+1)+"\r\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		dir:  "is a directory; want a regular file of at most 4294967296 bytes",
		big:  "is 4294967297 bytes long, want at most 4294967296, the key-file limit",
		long: "line 3 is 65537 bytes long, want at most 65536",
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases["/dev/zero"] = "is a device; want a regular file"
	}
	for path, want := range cases {
		start := time.Now()
		_, err := experiments.KeysFromFile(ctx, path)
		if !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: refused after %v", path, d)
		}
	}
	// A line of exactly 65536 bytes, and one with a "\r" after, pass.
	ok := "a\n" + strings.Repeat("y", 1<<16) + "\n" + strings.Repeat("z", 1<<16) + "\r\n"
	if src, err := experiments.KeysFromLines(ctx, "ok", strings.NewReader(ok)); err != nil || src.Distinct() != 3 {
		t.Errorf("lines of 65536 bytes: %v", err)
	}
	// An endless stream without newlines (as /dev/zero) is refused at
	// its first 128 KiB.
	if _, err := experiments.KeysFromLines(ctx, "zeros", zeros{}); !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), "zeros: line 1 is longer than") {
		t.Errorf("endless line: %v", err)
	}
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// newlines is an endless stream of empty lines.
type newlines struct{}

func (newlines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\n'
	}
	return len(p), nil
}

// countdown is a context that turns cancelled after its Err has been
// called n times.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestKeysFromFileCancel checks that a cancelled context stops a read: at
// once when it is cancelled before, in the middle of a 32 MB file when it
// turns cancelled there, and within 100 ms on an endless stream.
func TestKeysFromFileCancel(t *testing.T) {
	path, size := writeKeyFile(t, 1_000_000, func(w *bufio.Writer, i int) { fmt.Fprintf(w, "https://example.org/item/%d\n", i) })
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := experiments.KeysFromFile(cancelled, path); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v", err)
	}
	// The reader checks the context about once a megabyte; cancelled
	// after the tenth check, it has read about a third of the file.
	ctx := &countdown{Context: context.Background()}
	ctx.n.Store(10)
	if _, err := experiments.KeysFromFile(ctx, path); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while reading %d bytes: %v", size, err)
	}
	stream, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := experiments.KeysFromLines(stream, "newlines", newlines{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("endless stream: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("endless stream: stopped %v after the start, cancelled at 50 ms", d)
	}
}

// TestKeysFromFileMemory checks the memory KeysFromFile documents: the
// file's size plus 8 bytes a line, at its peak and kept, for a file of a
// million lines (32 MB; and 3 million, 100 MB, when not -short). The
// peak is bounded by what the call allocates with the collector off.
func TestKeysFromFileMemory(t *testing.T) {
	lines := []int{1_000_000}
	if !testing.Short() {
		lines = append(lines, 3_000_000)
	}
	for _, n := range lines {
		path, size := writeKeyFile(t, n, func(w *bufio.Writer, i int) { fmt.Fprintf(w, "https://example.org/item/%d\n", i) })
		formula := uint64(size) + 8*uint64(n) + 1<<17
		var before, after, kept runtime.MemStats
		runtime.GC()
		old := debug.SetGCPercent(-1)
		runtime.ReadMemStats(&before)
		src, err := experiments.KeysFromFile(context.Background(), path)
		runtime.ReadMemStats(&after)
		debug.SetGCPercent(old)
		if err != nil || src.Distinct() != uint64(n) {
			t.Fatalf("%d lines: %v", n, err)
		}
		runtime.GC()
		runtime.ReadMemStats(&kept)
		runtime.KeepAlive(src)
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d lines, %d bytes: %d allocated (the file + %.1f bytes a line), %d kept; formula %d",
			n, size, allocated, float64(int64(allocated)-size)/float64(n), kept.HeapAlloc-before.HeapAlloc, formula)
		if allocated > formula+formula/4 {
			t.Errorf("%d lines: %d bytes allocated, more than 1.25 times the documented %d", n, allocated, formula)
		}
	}
}
