package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
)

// small are flags that make a fill run take a fraction of a second.
var small = []string{"-n", "300", "-filters", "3", "-queries", "1k"}

func runArgs(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = run(context.Background(), args, &o, &e)
	return o.String(), e.String(), err
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestBadFlags checks that every invalid flag or combination is a usage
// error (exit status 2) whose message names the flag or value at fault,
// once prefixed, in two lines at most, followed by a one-line hint and no
// usage text, and that no file is written.
func TestBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"-filters", "0"}, "-filters: 0"},
		{[]string{"-filters", "-3"}, "-filters: -3"},
		{[]string{"-filters", "many"}, "-filters: \"many\""},
		{[]string{"-n", "0"}, "-n"},
		{[]string{"-n", "ten"}, "-n: count \"ten\""},
		{[]string{"-n", "2.5"}, "-n"},
		{[]string{"-p", "2"}, "-p: probability \"2\""},
		{[]string{"-exp", "hashing", "-n", "5"}, "-n"},
		{[]string{"-exp", "bits", "-p", "0.5"}, "-p"},
		{[]string{"-exp", "fill", "-variant", "standard", "-r", "0.5"}, "-r"},
		{[]string{"-exp", "counting", "-queries", "10"}, "-queries"},
		{[]string{"-exp", "memory", "-conf", "0.9"}, "-conf: experiment memory"},
		{[]string{"-exp", "speed", "-conf", "0.9"}, "-conf: experiment speed"},
		{[]string{"-exp", "fill", "-quick"}, "-quick: experiment fill"},
		{[]string{"-exp", "fill", "-candidates", "10"}, "-candidates: experiment fill"},
		{[]string{"-exp", "adversary", "-candidates", "0"}, "-candidates"},
		{[]string{"-exp", "adversary", "-candidates", "ten"}, "-candidates"},
		{[]string{"-exp", "adversary", "-candidates", "10,10"}, "-candidates: 10 given twice"},
		{[]string{"-exp", "adversary", "-candidates", "10M"}, "-candidates: 10000000"},
		{[]string{"-p", "0"}, "-p"},
		{[]string{"-queries", "0"}, "-queries"},
		{[]string{"-conf", "1.5"}, "-conf: \"1.5\""},
		{[]string{"-variant", "bogus"}, "-variant: unknown variant \"bogus\""},
		{[]string{"-exp", "bogus"}, "-exp: unknown experiment \"bogus\""},
		{[]string{"-exp", "bits", "-variant", "scalable"}, "-variant"},
		{[]string{"-format", "gif"}, "-format: unknown format \"gif\""},
		{[]string{"-shard", "2/2"}, "-shard: \"2/2\""},
		{[]string{"-shard", "x"}, "-shard"},
		{[]string{"-exp", "speed", "-shard", "0/2"}, "-shard"},
		{[]string{"-workers", "-1"}, "-workers: -1"},
		{[]string{"-variant", "scalable", "-r", "1.5"}, "-r: 1.5"},
		{[]string{"-variant", "scalable", "-s", "0.5"}, "-s"},
		{[]string{"-variant", "scalable", "-s", "1"}, "-s: 1"},
		{[]string{"-exp", "scalable", "-s", "1"}, "-s: 1"},
		{[]string{"-variant", "scalable", "-p", "0"}, "-p"},
		{[]string{"-variant", "scalable", "-r", "a,b"}, "-r"},
		{[]string{"-merge", "x.json", "-n", "5"}, "-merge"},
		{[]string{"-merge", "nothing-matches-*.json"}, "-merge: no file matches"},
		{[]string{"-merge", "no-such-file.json"}, "no-such-file.json"},
		{[]string{"-list", "-n", "5"}, "-list"},
		{[]string{"-bogus"}, "-bogus: no such flag"},
		{[]string{"-seed", "x"}, "-seed: \"x\""},
		{[]string{"-seed"}, "-seed: needs a value"},
		{[]string{"stray"}, "stray"},
		{[]string{"-out", ""}, "-out"},
		{[]string{"-exp", "fill", "-variant", "standard", "-m", "ten"}, "-m: size \"ten\""},
		{[]string{"-exp", "fill", "-variant", "standard", "-m", "0"}, "-m"},
		{[]string{"-exp", "fill", "-variant", "standard", "-m", "4"}, "-m: 4 bits"},
		{[]string{"-exp", "fill", "-variant", "standard", "-m", "1e5", "-p", "0.01"}, "-p: -m sets the bits"},
		{[]string{"-exp", "fill", "-variant", "standard", "-k", "0"}, "-k: 0"},
		{[]string{"-exp", "fill", "-variant", "standard", "-k", "65"}, "-k: 65"},
		{[]string{"-exp", "fill", "-variant", "partitioned", "-m", "100", "-k", "200"}, "-k: 200"},
		{[]string{"-exp", "fill", "-variant", "blocked", "-k", "600"}, "-k"},
		{[]string{"-exp", "fill", "-variant", "standard", "-hash", "md5"}, "-hash: unknown hash \"md5\""},
		{[]string{"-exp", "fill", "-variant", "standard", "-hash", "xxh64"}, "-hash: xxh64"},
		{[]string{"-exp", "fill", "-variant", "standard", "-hash", "xxh3-64"}, "-hash: xxh3-64 gives a 64-bit digest"},
		{[]string{"-exp", "fill", "-variant", "standard", "-derivation", "quad"}, "-derivation: unknown derivation \"quad\""},
		{[]string{"-exp", "fill", "-variant", "blocked", "-derivation", "double"}, "-derivation: double"},
		{[]string{"-exp", "fill", "-variant", "split-block", "-k", "4"}, "-k: experiment fill does not use it for -variant split-block"},
		{[]string{"-exp", "fill", "-variant", "split-block", "-derivation", "double"}, "-derivation: experiment fill"},
		{[]string{"-exp", "fill", "-variant", "scalable", "-m", "1e5"}, "-m: experiment fill does not use it for -variant scalable"},
		{[]string{"-exp", "fill", "-m", "1e5"}, "-m: experiment fill uses it only with -variant standard, partitioned, counting, blocked, split-block"},
		{[]string{"-exp", "bits", "-hash", "metro"}, "-hash: experiment bits"},
		{[]string{"-exp", "hashes", "-variant", "standard", "-hash", "xxh64"}, "-hash: xxh64"},
		{[]string{"-exp", "hashes", "-m", "1e4"}, "-m: experiment hashes"},
		{[]string{"-merge", "x.json", "-k", "3"}, "-merge"},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		args := []string{"-out", dir}
		if c.args[0] != "-merge" && !slices.Contains(c.args, "memory") {
			args = append(args, small...) // fast, should a mistake go unnoticed
		}
		_, stderr, err := runArgs(t, append(args, c.args...)...)
		var u *usageError
		if !errors.As(err, &u) {
			t.Errorf("%v: err = %v, want a usage error", c.args, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.flag) {
			t.Errorf("%v: message %q does not name %s", c.args, msg, c.flag)
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if len(lines) != 2 || lines[0] != "experiment: "+msg || lines[1] != hint {
			t.Errorf("%v: stderr is not the message and the hint:\n%s", c.args, stderr)
		}
		if len(lines[0]) > 160 {
			t.Errorf("%v: message of %d characters, more than two lines: %q", c.args, len(lines[0]), lines[0])
		}
		for _, w := range []string{"analysis:", "variants:", "experiments:", "invalid parameters", "span", "flag provided", "usage:", "%!"} {
			if strings.Contains(lines[0], w) {
				t.Errorf("%v: message %q says %q", c.args, lines[0], w)
			}
		}
		if names := entries(t, dir); len(names) > 0 {
			t.Errorf("%v: left files %v", c.args, names)
		}
	}
}

// TestUnwritableOut checks that an output directory that cannot be created
// is an error before any work, and that nothing is left behind.
func TestUnwritableOut(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runArgs(t, append([]string{"-variant", "standard", "-out", filepath.Join(file, "out")}, small...)...)
	var u *usageError
	if err == nil || errors.As(err, &u) {
		t.Fatalf("err = %v, want a non-usage error", err)
	}
	if names := entries(t, base); len(names) != 1 {
		t.Errorf("left %v", names)
	}
}

// TestInterrupted checks that a cancelled run writes nothing.
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	err := run(ctx, append([]string{"-variant", "standard", "-out", dir}, small...), &o, &e)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v", err)
	}
	if names := entries(t, dir); len(names) > 0 {
		t.Errorf("left %v", names)
	}
}

func TestRunWritesFiles(t *testing.T) {
	dir := t.TempDir()
	stdout, _, err := runArgs(t, append([]string{"-variant", "standard", "-out", dir, "-format", "csv,json,png,svg"}, small...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"items", "measured rate", "theory", "target", "note:", "wrote"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, ext := range []string{"csv", "json", "png", "svg"} {
		b, err := os.ReadFile(filepath.Join(dir, "fill-standard."+ext))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Errorf("%s is empty", ext)
		}
		if ext == "png" && !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Error("not a PNG")
		}
	}
	if names := entries(t, dir); len(names) != 4 {
		t.Errorf("files %v, want exactly the four outputs", names)
	}
}

// closedPipe is a standard output that the reader has closed (experiment
// ... | head): every write fails. It records which files existed when the
// first write came.
type closedPipe struct {
	dir   string
	first []string
	seen  bool
}

func (c *closedPipe) Write([]byte) (int, error) {
	if !c.seen {
		c.seen = true
		es, _ := os.ReadDir(c.dir)
		for _, e := range es {
			c.first = append(c.first, e.Name())
		}
	}
	return 0, errors.New("write |1: broken pipe")
}

// TestFilesBeforeTable checks that a run whose standard output is closed
// still writes its files, and writes them before the first line of the
// table, so that piping the table into head loses no measurement.
func TestFilesBeforeTable(t *testing.T) {
	dir := t.TempDir()
	out := &closedPipe{dir: dir}
	var stderr bytes.Buffer
	if err := run(context.Background(), append([]string{"-variant", "standard", "-out", dir, "-format", "csv,json"}, small...), out, &stderr); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out.first)
	if want := []string{"fill-standard.csv", "fill-standard.json"}; !slices.Equal(out.first, want) {
		t.Errorf("files when the table began: %v, want %v", out.first, want)
	}
}

// TestWorkersIdenticalCSV runs the same seed on 1 and 4 workers.
func TestWorkersIdenticalCSV(t *testing.T) {
	var csvs [][]byte
	for _, w := range []string{"1", "4"} {
		dir := t.TempDir()
		if _, _, err := runArgs(t, append([]string{"-variant", "partitioned", "-workers", w, "-seed", "5", "-out", dir, "-format", "csv"}, small...)...); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "fill-partitioned.csv"))
		if err != nil {
			t.Fatal(err)
		}
		csvs = append(csvs, b)
	}
	if !bytes.Equal(csvs[0], csvs[1]) {
		t.Error("CSV differs between -workers 1 and -workers 4")
	}
}

// TestShardAndMerge runs a fill in three shards and merges them with a
// glob; the merged JSON and CSV equal the unsharded run's.
func TestShardAndMerge(t *testing.T) {
	whole, shards, merged := t.TempDir(), t.TempDir(), t.TempDir()
	args := append([]string{"-variant", "standard", "-seed", "9"}, small...)
	if _, _, err := runArgs(t, append(args, "-out", whole, "-format", "csv,json")...); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		stdout, _, err := runArgs(t, append(args, "-out", shards, "-shard", s)...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stdout, "shard") {
			t.Errorf("shard run says %q", stdout)
		}
	}
	if names := entries(t, shards); len(names) != 3 {
		t.Fatalf("shard files %v", names)
	}
	if _, _, err := runArgs(t, "-merge", filepath.Join(shards, "*.json"), "-out", merged, "-format", "csv,json"); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"csv", "json"} {
		a, err1 := os.ReadFile(filepath.Join(whole, "fill-standard."+ext))
		b, err2 := os.ReadFile(filepath.Join(merged, "fill-standard."+ext))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("merged %s differs from the unsharded run's", ext)
		}
	}
	// Two of three shards do not make a run.
	_, _, err := runArgs(t, "-merge", filepath.Join(shards, "fill-standard.shard-0-of-3.json")+","+filepath.Join(shards, "fill-standard.shard-1-of-3.json"), "-out", merged)
	if err == nil || !strings.Contains(err.Error(), "fill-standard.shard-2-of-3.json is missing") {
		t.Errorf("merge of an incomplete set: %v, want the missing shard named", err)
	}
	// A shard given twice is named as repeated, not the one it displaces
	// as missing.
	zero := filepath.Join(shards, "fill-standard.shard-0-of-3.json")
	_, _, err = runArgs(t, "-merge", zero+","+zero+","+filepath.Join(shards, "fill-standard.shard-1-of-3.json"), "-out", merged)
	if err == nil || !strings.Contains(err.Error(), "shard 0 of 3 appears twice") || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("merge with a repeated shard: %v, want the repeated shard named", err)
	}
	var u *usageError
	if !errors.As(err, &u) {
		t.Errorf("merge with a repeated shard: %T, want a usage error (exit status 2)", err)
	}
}

func TestListAndHelp(t *testing.T) {
	stdout, _, err := runArgs(t, "-list")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fill", "bits", "hashes", "small-m", "hashing", "counting", "scalable", "memory", "speed"} {
		if !strings.Contains(stdout, name) {
			t.Errorf("-list lacks %s", name)
		}
	}
	stdout, _, err = runArgs(t, "-h")
	if err != nil || !strings.Contains(stdout, "-variant") {
		t.Errorf("-h: %v\n%s", err, stdout)
	}
}

// TestTooManyItemsNamesN: a capacity whose fill would exceed the item
// limit is reported against -n, the flag the user gave, with the memory
// such a filter needs, and never against an internal parameter.
func TestTooManyItemsNamesN(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	_, stderr, err := runArgs(t, "-exp", "fill", "-variant", "standard", "-n", "1e12", "-p", "1e-9", "-out", dir)
	var u *usageError
	if !errors.As(err, &u) {
		t.Fatalf("err = %v, want a usage error", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "-n: ") || !strings.Contains(msg, "TiB of memory") || strings.Contains(msg, "span") {
		t.Errorf("message %q, want it to start with -n, give the memory and not name span", msg)
	}
	if !strings.HasPrefix(stderr, "experiment: -n: ") {
		t.Errorf("stderr starts %.60q, want the error first", stderr)
	}
}

// TestBlockingTable: the blocking table tells its rows apart by memory
// (bits per key) and by the target they were sized for.
func TestBlockingTable(t *testing.T) {
	res := &experiments.Results{Experiment: "blocking", Variant: "all", Rows: []experiments.Row{
		{Series: "standard", Items: 10000, Bits: 100000, Hashes: 7, Queries: 10, Rate: 0.008, Theory: 0.0082, Inside: "yes"},
		{Series: "standard", Items: 10000, Bits: 110000, Hashes: 8, Queries: 10, Rate: 0.005, Theory: 0.0051, Inside: "yes"},
		{Series: "standard", Items: 2000, Bits: 19171, Hashes: 7, Target: 0.01, Queries: 10, Rate: 0.01, Theory: 0.01, Inside: "yes"},
	}}
	var b bytes.Buffer
	printTable(&b, res)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "bits per key") || !strings.Contains(lines[0], "sized for p") {
		t.Fatalf("table:\n%s", b.String())
	}
	for i, want := range []string{"10.00", "11.00", "9.59"} {
		if !strings.Contains(lines[i+1], want) {
			t.Errorf("row %d lacks its bits per key %s: %q", i, want, lines[i+1])
		}
	}
	if !strings.Contains(lines[3], "0.01") {
		t.Errorf("sized row lacks its target: %q", lines[3])
	}
}

// TestSelfWarnings: a WARNING note of the results (the self experiment's
// assembly paths slower than pure Go) goes to stderr too, and the table
// marks the path.
func TestSelfWarnings(t *testing.T) {
	res := &experiments.Results{Experiment: "self", Variant: "all",
		Notes: []string{"machine: x", "WARNING: assembly slower than pure Go on this machine: p, asm/go 1.50 (15.0 ns against 10.0)", "every note"},
		Rows: []experiments.Row{
			{Series: "p", Items: 4096, Bits: 40960, NsAssembly: 15, NsPureGo: 10, AsmRatio: 1.5},
			{Series: "q", Items: 4096, Bits: 40960, NsAssembly: 9, NsPureGo: 10, AsmRatio: 0.9},
			{Series: "r", Items: 4096, Bits: 40960, NsAssembly: 4, NsPureGo: 10, AsmRatio: 0.4},
		}}
	var e bytes.Buffer
	warn(&e, res)
	if want := "experiment: self all: WARNING: assembly slower than pure Go on this machine: p, asm/go 1.50 (15.0 ns against 10.0)\n"; e.String() != want {
		t.Errorf("stderr %q, want %q", e.String(), want)
	}
	var o bytes.Buffer
	printTable(&o, res)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(o.String()), "\n") {
		got = append(got, strings.Join(strings.Fields(l), " "))
	}
	want := []string{"series keys bytes ns asm ns go asm/go", "p 4096 5120 15.0 10.0 1.50 WARNING: assembly slower",
		"q 4096 5120 9.0 10.0 0.90 gains little", "r 4096 5120 4.0 10.0 0.40"}
	if !slices.Equal(got, want) {
		t.Errorf("table:\n%s", o.String())
	}
}
