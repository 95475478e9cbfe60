package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/bloomlab/bloomlab/variants"
)

// bloom runs the command with args and returns its output and the exit
// status main would give.
func bloom(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return bloomCtx(t, context.Background(), args...)
}

func bloomCtx(t *testing.T, ctx context.Context, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	err := run(ctx, args, &o, &e)
	code = exitCode(err, &e)
	return o.String(), e.String(), code
}

// withStdin makes "-keys -" read s during the test.
func withStdin(t *testing.T, s string) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(s)
	t.Cleanup(func() { stdin = old })
}

// writeKeys writes the keys "prefix0" .. "prefix(n-1)", one a line, to a
// file in dir and returns its path and the keys.
func writeKeys(t *testing.T, dir, prefix string, n int) (string, []string) {
	t.Helper()
	var b strings.Builder
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s%d", prefix, i)
		b.WriteString(keys[i] + "\n")
	}
	path := filepath.Join(dir, prefix+".txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, keys
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// buildArgs are sizing flags of every variant build takes.
var buildArgs = map[string][]string{
	"standard":    {"-n", "1k", "-p", "1%"},
	"partitioned": {"-n", "1k", "-p", "1%"},
	"blocked":     {"-n", "1k", "-p", "1%", "-block", "256"},
	"split-block": {"-n", "1k", "-p", "1%"},
	"counting":    {"-m", "10000", "-k", "7", "-width", "8"},
	"scalable":    {"-p", "1e-3", "-n0", "100"},
}

// TestRoundTrip builds every variant from a key file, queries the keys
// (no false negatives), adds more from standard input, queries again and
// prints info, all through run.
func TestRoundTrip(t *testing.T) {
	for _, v := range buildVariants {
		t.Run(v, func(t *testing.T) {
			dir := t.TempDir()
			keyFile, keys := writeKeys(t, dir, "k", 600)
			out := filepath.Join(dir, v+".bloom")
			args := append([]string{"build", "-variant", v, "-keys", keyFile, "-out", out}, buildArgs[v]...)
			stdout, stderr, code := bloom(t, args...)
			if code != 0 {
				t.Fatalf("build: status %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "600 keys read") {
				t.Errorf("build printed %q, want the keys read", stdout)
			}
			// Every key present: the answers and the counts.
			stdout, stderr, code = bloom(t, "query", out, "-keys", keyFile)
			if code != 0 {
				t.Fatalf("query: status %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(lines) != len(keys) {
				t.Fatalf("query printed %d lines, want %d", len(lines), len(keys))
			}
			for i, l := range lines {
				if l != keys[i]+"\tpresent" {
					t.Fatalf("line %d: %q, want %q", i, l, keys[i]+"\tpresent")
				}
			}
			// Add new keys from standard input, with CRLF line ends and
			// empty lines, which are skipped.
			_, more := writeKeys(t, dir, "more", 500)
			withStdin(t, strings.Join(more, "\r\n")+"\r\n\n\n")
			stdout, stderr, code = bloom(t, "add", out)
			if code != 0 {
				t.Fatalf("add: status %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "500 keys added") {
				t.Errorf("add printed %q", stdout)
			}
			for _, k := range []string{keys[0], more[0], more[499]} {
				if _, stderr, code := bloom(t, "query", out, k); code != 0 {
					t.Errorf("query %s: status %d (%s), want 0: present", k, code, stderr)
				}
			}
			withStdin(t, strings.Join(append(keys, more...), "\n"))
			stdout, _, code = bloom(t, "query", out, "-count")
			if want := "keys\t1100\npresent\t1100\nabsent\t0\n"; code != 0 || stdout != want {
				t.Errorf("query -count: status %d, %q, want %q", code, stdout, want)
			}
			// info, in text and JSON.
			stdout, stderr, code = bloom(t, "info", out)
			if code != 0 {
				t.Fatalf("info: status %d: %s", code, stderr)
			}
			for _, field := range []string{"variant                " + v, "hashes (k)", "items", "fill ratio", "estimated items", "design rate", "rate from fill"} {
				if !strings.Contains(stdout, field) {
					t.Errorf("info lacks %q:\n%s", field, stdout)
				}
			}
			stdout, _, code = bloom(t, "info", "-json", out)
			var in filterInfo
			if err := json.Unmarshal([]byte(stdout), &in); code != 0 || err != nil {
				t.Fatalf("info -json: status %d, %v:\n%s", code, err, stdout)
			}
			if in.Variant != v || in.Items < 1000 || in.Items > 1100 || in.FormatVersion != variants.FormatVersion {
				t.Errorf("info -json: variant %q, items %d, version %d", in.Variant, in.Items, in.FormatVersion)
			}
		})
	}
}

// TestQueryExitStatus checks grep's convention for one KEY argument, and
// that several keys, or -count, print without changing the status.
func TestQueryExitStatus(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "f.bloom")
	withStdin(t, "alice\nbob\n-dash\n")
	if _, stderr, code := bloom(t, "build", "-variant", "standard", "-n", "100", "-p", "1e-6", "-out", out); code != 0 {
		t.Fatal(stderr)
	}
	for _, c := range []struct {
		args   []string
		code   int
		stdout string
	}{
		{[]string{"query", out, "alice"}, 0, "alice\tpresent\n"},
		{[]string{"query", out, "carol"}, 1, "carol\tabsent\n"},
		{[]string{"query", "-count", out, "carol"}, 1, "keys\t1\npresent\t0\nabsent\t1\n"},
		{[]string{"query", out, "carol", "bob"}, 0, "carol\tabsent\nbob\tpresent\n"},
		{[]string{"query", out, "--", "-dash"}, 0, "-dash\tpresent\n"},
		{[]string{"query", out, "-count", "--", "-dash", "-x"}, 0, "keys\t2\npresent\t1\nabsent\t1\n"},
		{[]string{"query", out, "-bogus"}, 2, ""},
		// An error with one KEY is status 2, never 1 ("absent").
		{[]string{"query", filepath.Join(dir, "missing.bloom"), "alice"}, 2, ""},
		{[]string{"query", filepath.Join(dir, "missing.bloom"), "alice", "bob"}, 1, ""},
	} {
		stdout, stderr, code := bloom(t, c.args...)
		if code != c.code || stdout != c.stdout {
			t.Errorf("%q: status %d, stdout %q (stderr %q); want %d, %q", c.args, code, stdout, stderr, c.code, c.stdout)
		}
	}
}

// TestBadFlags checks that every mistake in a command line is a usage
// error (status 2) of one line naming the flag or argument at fault,
// followed by the hint, and that no file is written.
func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	keyFile, _ := writeKeys(t, dir, "k", 10)
	out := filepath.Join(dir, "out.bloom")
	saved := filepath.Join(dir, "saved.bloom")
	if _, stderr, code := bloom(t, "build", "-variant", "standard", "-n", "10", "-p", "1%", "-keys", keyFile, "-out", saved); code != 0 {
		t.Fatal(stderr)
	}
	build := func(args ...string) []string {
		return append([]string{"build", "-keys", keyFile, "-out", out}, args...)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no command given"},
		{[]string{"bogus"}, "unknown command \"bogus\""},
		{build("-n", "1k", "-p", "1%"), "-variant: required"},
		{build("-variant", "cuckoo", "-n", "1k", "-p", "1%"), "-variant: unknown variant \"cuckoo\""},
		{build("-variant", "standard"), "give -n and -p, or -m and -k"},
		{build("-variant", "standard", "-n", "1k"), "-n: give -p"},
		{build("-variant", "standard", "-p", "1%"), "-p: give -n"},
		{build("-variant", "standard", "-n", "ten", "-p", "1%"), "-n: count \"ten\""},
		{build("-variant", "standard", "-n", "0", "-p", "1%"), "-n: 0 items"},
		{build("-variant", "standard", "-n", "1k", "-p", "2"), "-p: probability \"2\""},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-m", "1Mb"), "-p: give -n and -p, or -m and -k, not both"},
		{build("-variant", "standard", "-m", "1Mb"), "-m: give -k"},
		{build("-variant", "standard", "-k", "3"), "-k: give -m"},
		{build("-variant", "standard", "-m", "1 parsec", "-k", "3"), "-m: size \"1 parsec\""},
		{build("-variant", "standard", "-m", "1Mb", "-k", "0"), "-k: 0 hashes"},
		{build("-variant", "split-block", "-m", "1Mb", "-k", "7"), "-k: 7, but a split-block filter always sets 8"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-block", "256"), "-block: only -variant blocked and scalable"},
		{build("-variant", "blocked", "-n", "1k", "-p", "1%", "-block", "100"), "-block: 100 bits"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-width", "8"), "-width: only -variant counting"},
		{build("-variant", "counting", "-n", "1k", "-p", "1%", "-width", "3"), "width"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-r", "0.5"), "-r: only -variant scalable"},
		{build("-variant", "scalable", "-p", "1%", "-r", "1.5"), "-r: \"1.5\""},
		{build("-variant", "scalable", "-p", "1%", "-s", "0.5"), "-s: \"0.5\""},
		{build("-variant", "scalable", "-p", "1%", "-n0", "0"), "-n0: 0 items"},
		{build("-variant", "scalable", "-n", "1k", "-p", "1%"), "-n: a scalable filter sizes its own stages"},
		{build("-variant", "scalable"), "-p: required for -variant scalable"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-hash", "md5"), "-hash: unknown hash \"md5\""},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-hash", "xxh64"), "-hash: xxh64 is a 64-bit hash"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-hash", "xxh3-64"), "-hash: xxh3-64 is a 64-bit hash, which only -variant split-block takes"},
		{build("-variant", "blocked", "-n", "1k", "-p", "1%", "-hash", "xxh3-64"), "-hash: xxh3-64 is a 64-bit hash"},
		{build("-variant", "scalable", "-p", "1%", "-hash", "XXH3-64"), "-hash: xxh3-64 is a 64-bit hash"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-hash", "siphash", "-seed", "3"), "-seed: siphash takes no seed"},
		{build("-variant", "blocked", "-n", "1k", "-p", "1%", "-derivation", "double"), "-derivation: -variant blocked"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-derivation", "quadratic"), "-derivation: unknown derivation"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "-seed", "x"), "-seed: \"x\" is not valid"},
		{build("-variant", "standard", "-n", "1k", "-p", "1%", "stray"), "unexpected argument \"stray\""},
		{[]string{"build", "-variant", "standard", "-n", "1k", "-p", "1%", "-keys", keyFile}, "-out: required"},
		{[]string{"build", "-variant", "standard", "-n", "1k", "-p", "1%", "-keys"}, "-keys: needs a value"},
		{[]string{"build", "-nope"}, "-nope: no such flag"},
		{[]string{"add"}, "want one FILTER argument, got 0"},
		{[]string{"add", saved, saved}, "want one FILTER argument, got 2"},
		{[]string{"query"}, "want a FILTER argument"},
		{[]string{"query", saved, "-keys", keyFile, "alice"}, "-keys: give keys as arguments or with -keys, not both"},
		{[]string{"info"}, "want one FILTER argument, got 0"},
		{[]string{"info", "-yaml", saved}, "-yaml: no such flag"},
		{[]string{"union", saved}, "want two filter arguments A and B, got 1"},
		{[]string{"union", saved, saved}, "-out: required"},
		{[]string{"intersect", saved, saved, saved, "-out", out}, "want two filter arguments A and B, got 3"},
	} {
		_, stderr, code := bloom(t, c.args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		switch {
		case code != 2:
			t.Errorf("%q: status %d, want 2 (stderr %q)", c.args, code, stderr)
		case !strings.Contains(lines[len(lines)-2], c.want):
			t.Errorf("%q: message %q, want it to contain %q", c.args, stderr, c.want)
		case !strings.HasPrefix(lines[len(lines)-2], "bloom: ") || !strings.HasPrefix(lines[len(lines)-1], "run 'bloom"):
			t.Errorf("%q: stderr %q, want one line 'bloom: ...' and a hint", c.args, stderr)
		case strings.Count(stderr, "bloom:") != 1 || strings.Contains(stderr, "variants:") || strings.Contains(stderr, "units:"):
			t.Errorf("%q: stderr %q, want one prefix", c.args, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q wrote %s", c.args, out)
		}
	}
	if got := dirNames(t, dir); len(got) != 2 {
		t.Errorf("directory holds %q, want only k.txt and saved.bloom", got)
	}
}

// TestHelp checks that every command's -h prints its usage to stdout and
// exits 0.
func TestHelp(t *testing.T) {
	for _, cmd := range []string{"build", "add", "query", "info", "union", "intersect"} {
		stdout, stderr, code := bloom(t, cmd, "-h")
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: bloom "+cmd) || !strings.Contains(stdout, "Flags:\n  -") {
			t.Errorf("%s -h: status %d, stderr %q, stdout %q", cmd, code, stderr, stdout)
		}
	}
	if stdout, _, code := bloom(t, "-h"); code != 0 || !strings.HasPrefix(stdout, "usage: bloom <command>") {
		t.Errorf("-h: status %d, %q", code, stdout)
	}
}

// TestCorruptFilter checks that a filter file that is truncated, damaged,
// empty, padded or not a file at all gives a one-line error naming the
// file, status 1, and that add leaves it as it was.
func TestCorruptFilter(t *testing.T) {
	dir := t.TempDir()
	keyFile, _ := writeKeys(t, dir, "k", 100)
	good := filepath.Join(dir, "good.bloom")
	if _, stderr, code := bloom(t, "build", "-variant", "blocked", "-n", "100", "-p", "1%", "-keys", keyFile, "-out", good); code != 0 {
		t.Fatal(stderr)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 0x10
	cases := map[string][]byte{
		"truncated.bloom": data[:len(data)-9],
		"header.bloom":    data[:5],
		"flipped.bloom":   flipped,
		"padded.bloom":    append(bytes.Clone(data), 0),
		"empty.bloom":     nil,
		"text.bloom":      []byte("apple\nbanana\n"),
	}
	want := map[string]string{
		"truncated.bloom": "truncated",
		"header.bloom":    "not a valid filter file",
		"flipped.bloom":   "checksum",
		"padded.bloom":    "bytes follow the filter",
		"empty.bloom":     "empty file",
		"text.bloom":      "bad magic",
	}
	for name, b := range cases {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"info", path}, {"query", path, "k1", "k2"}, {"query", path, "k1"}, {"add", path, "-keys", keyFile}, {"union", path, good, "-out", filepath.Join(dir, "u.bloom")}} {
			stdout, stderr, code := bloom(t, args...)
			want1 := 1
			if len(args) == 3 && args[0] == "query" {
				want1 = 2 // grep's status for an error
			}
			if code != want1 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "bloom: "+path+": ") || !strings.Contains(stderr, want[name]) {
				t.Errorf("%q: status %d, stdout %q, stderr %q; want status %d and one line naming the file and %q", args, code, stdout, stderr, want1, want[name])
			}
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
			t.Errorf("%s changed", name)
		}
	}
	// Not a regular file.
	for _, args := range [][]string{{"info", dir}, {"query", dir, "k", "l"}, {"build", "-variant", "standard", "-n", "9", "-p", "1%", "-keys", dir, "-out", filepath.Join(dir, "x.bloom")}} {
		if _, stderr, code := bloom(t, args...); code != 1 || !strings.Contains(stderr, "is a directory, not a regular file") {
			t.Errorf("%q: status %d, %q", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "u.bloom")); err == nil {
		t.Error("union of a corrupt filter wrote its output")
	}
}

// TestAtomicWrites checks that a build or add that fails part way, on a
// key line that is too long or on an interrupt, leaves no output file, no
// temporary file, and the filter it was adding to unchanged; and the
// modes of keyed and unkeyed filters.
func TestAtomicWrites(t *testing.T) {
	dir := t.TempDir()
	keyFile, _ := writeKeys(t, dir, "k", 100)
	long := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(long, []byte("a\nb\n"+strings.Repeat("x", maxLineLen+1)+"\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.bloom")
	_, stderr, code := bloom(t, "build", "-variant", "standard", "-n", "100", "-p", "1%", "-keys", long, "-out", out)
	if code != 1 || !strings.Contains(stderr, "line 3 is 65537 bytes long") {
		t.Errorf("long line: status %d, %q", code, stderr)
	}
	saved := filepath.Join(dir, "saved.bloom")
	if _, stderr, code := bloom(t, "build", "-variant", "standard", "-n", "100", "-p", "1%", "-keys", keyFile, "-out", saved); code != 0 {
		t.Fatal(stderr)
	}
	before, _ := os.ReadFile(saved)
	if _, stderr, code = bloom(t, "add", saved, "-keys", long); code != 1 || !strings.Contains(stderr, "longer than") {
		t.Errorf("add of a long line: status %d, %q", code, stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, stderr, code = bloomCtx(t, ctx, "build", "-variant", "standard", "-n", "100", "-p", "1%", "-keys", keyFile, "-out", out); code != 1 || !strings.Contains(stderr, "interrupted") {
		t.Errorf("interrupted build: status %d, %q", code, stderr)
	}
	if _, stderr, code = bloomCtx(t, ctx, "add", saved, "-keys", keyFile); code != 1 || !strings.Contains(stderr, "interrupted") {
		t.Errorf("interrupted add: status %d, %q", code, stderr)
	}
	// An interrupt while writing: writeFilter itself with a done context.
	f, err := loadFilter(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFilter(ctx, out, f); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("writeFilter with a done context: %v", err)
	}
	if after, _ := os.ReadFile(saved); !bytes.Equal(before, after) {
		t.Error("a failed add changed the filter file")
	}
	if got := strings.Join(dirNames(t, dir), " "); got != "k.txt long.txt saved.bloom" {
		t.Errorf("directory holds %s, want k.txt long.txt saved.bloom and no output or temporary file", got)
	}
	// An unwritable output directory.
	if _, stderr, code := bloom(t, "build", "-variant", "standard", "-n", "100", "-p", "1%", "-keys", keyFile, "-out", filepath.Join(dir, "no", "such", "dir.bloom")); code != 1 || !strings.Contains(stderr, "-out:") {
		t.Errorf("missing directory: status %d, %q", code, stderr)
	}

	// Modes: 0644, and 0600 for a keyed filter, kept by add and union.
	keyedPath := filepath.Join(dir, "keyed.bloom")
	if _, stderr, code := bloom(t, "build", "-variant", "standard", "-n", "100", "-p", "1%", "-hash", "siphash", "-keys", keyFile, "-out", keyedPath); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := bloom(t, "add", keyedPath, "-keys", keyFile); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := bloom(t, "union", keyedPath, keyedPath, "-out", filepath.Join(dir, "keyed2.bloom")); code != 0 {
		t.Fatal(stderr)
	}
	for path, want := range map[string]os.FileMode{saved: 0o644, keyedPath: 0o600, filepath.Join(dir, "keyed2.bloom"): 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", path, fi.Mode().Perm(), err, want)
		}
	}
}

// TestKeyRedacted checks that info of a keyed filter names the key as
// [redacted] and prints none of its bytes, in text or JSON.
func TestKeyRedacted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keyed.bloom")
	withStdin(t, "a\nb\n")
	if _, stderr, code := bloom(t, "build", "-variant", "scalable", "-p", "1%", "-hash", "siphash", "-out", path); code != 0 {
		t.Fatal(stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := data[17:33] // the key field of the format
	for _, args := range [][]string{{"info", path}, {"info", "-json", path}} {
		stdout, _, code := bloom(t, args...)
		if code != 0 || !strings.Contains(stdout, "[redacted]") {
			t.Errorf("%q: status %d, no [redacted]:\n%s", args, code, stdout)
		}
		for _, form := range []string{hex.EncodeToString(key), fmt.Sprint(key), string(key)} {
			if strings.Contains(stdout, form) {
				t.Errorf("%q prints the key", args)
			}
		}
	}
}

// TestSetOps checks union and intersect against queries, and the errors
// for filters that cannot be combined.
func TestSetOps(t *testing.T) {
	dir := t.TempDir()
	aKeys, as := writeKeys(t, dir, "a", 300)
	bKeys, bs := writeKeys(t, dir, "b", 300)
	build := func(name, keys string, args ...string) string {
		path := filepath.Join(dir, name)
		args = append([]string{"build", "-keys", keys, "-out", path}, args...)
		if _, stderr, code := bloom(t, args...); code != 0 {
			t.Fatalf("%q: %s", args, stderr)
		}
		return path
	}
	for _, v := range []string{"standard", "partitioned", "blocked", "split-block", "counting"} {
		sizing := []string{"-variant", v, "-n", "1k", "-p", "1e-4"}
		a, b := build(v+"-a.bloom", aKeys, sizing...), build(v+"-b.bloom", bKeys, sizing...)
		u := filepath.Join(dir, v+"-u.bloom")
		if stdout, stderr, code := bloom(t, "union", a, b, "-out", u); code != 0 || !strings.HasPrefix(stdout, u+": union of ") {
			t.Fatalf("%s union: status %d, %q %q", v, code, stdout, stderr)
		}
		withStdin(t, strings.Join(append(as, bs...), "\n"))
		if stdout, _, _ := bloom(t, "query", u, "-count"); stdout != "keys\t600\npresent\t600\nabsent\t0\n" {
			t.Errorf("%s union: %q", v, stdout)
		}
		i := filepath.Join(dir, v+"-i.bloom")
		stdout, stderr, code := bloom(t, "intersect", a, b, "-out", i)
		if v == "counting" {
			if code != 1 || !strings.Contains(stderr, "counting filters have no intersection") {
				t.Errorf("counting intersect: status %d, %q", code, stderr)
			}
			continue
		}
		if code != 0 {
			t.Fatalf("%s intersect: status %d, %q %q", v, code, stdout, stderr)
		}
		// Disjoint sets: the intersection holds no key but the rare
		// false positive.
		withStdin(t, strings.Join(append(as, bs...), "\n"))
		if stdout, _, _ := bloom(t, "query", i, "-count"); !strings.Contains(stdout, "present\t0\n") {
			t.Errorf("%s intersect of disjoint sets: %q", v, stdout)
		}
	}
	std := filepath.Join(dir, "standard-a.bloom")
	seeded := build("seeded.bloom", aKeys, "-variant", "standard", "-n", "1k", "-p", "1e-4", "-seed", "7")
	scal := build("scalable.bloom", aKeys, "-variant", "scalable", "-p", "1e-4")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"union", std, filepath.Join(dir, "blocked-a.bloom")}, "a standard filter and a blocked filter cannot be combined"},
		{[]string{"union", std, seeded}, "seed 0 != 7"},
		{[]string{"intersect", scal, scal}, "scalable filters have no intersect"},
		{[]string{"union", scal, scal}, "scalable filters have no union"},
	} {
		out := filepath.Join(dir, "never.bloom")
		_, stderr, code := bloom(t, append(c.args, "-out", out)...)
		if code != 1 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: status %d, %q; want 1 and %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q wrote its output", c.args)
		}
	}
}

// readGolden decodes a golden file of package variants: hexadecimal
// digits and white space.
func readGolden(t *testing.T, path string) []byte {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := hex.DecodeString(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, string(text)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data
}

// TestInfoGoldenFiles runs info, in text and JSON, on every golden file
// of package variants, one for every format code the library writes or
// has written: each must load, say its format code as the file's byte 6
// and print every field.
func TestInfoGoldenFiles(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "variants", "testdata", "*.golden"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	dir := t.TempDir()
	codes := map[uint8]bool{}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".golden")
		t.Run(name, func(t *testing.T) {
			data := readGolden(t, p)
			path := filepath.Join(dir, name+".bloom")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := bloom(t, "info", path)
			if code != 0 {
				t.Fatalf("status %d: %s", code, stderr)
			}
			for _, field := range []string{"variant ", "format ", fmt.Sprintf("code %d, ", data[6]), "bits (m) ", "hashes (k) ", "hashing ", "capacity (n) ", "items ", "fill ratio ", "estimated items ", "design rate ", "rate from fill "} {
				if !strings.Contains(stdout, field) {
					t.Errorf("no %q in:\n%s", field, stdout)
				}
			}
			stdout, stderr, code = bloom(t, "info", "-json", path)
			var in filterInfo
			if err := json.Unmarshal([]byte(stdout), &in); code != 0 || err != nil {
				t.Fatalf("-json: status %d, %v, %s", code, err, stderr)
			}
			if in.FormatCode != data[6] || in.FormatVersion != 1 || in.Items != 5 || in.Bits == 0 || in.Hashes == 0 || in.FileBytes != int64(len(data)) || in.DesignFPR == nil && in.Capacity != 0 || in.DesignBasis == "" {
				t.Errorf("-json: %+v", in)
			}
			codes[in.FormatCode] = true
		})
	}
	// Every code of variants.FormatVersion's table.
	for c := range formatNames {
		if !codes[c] {
			t.Errorf("no golden file has format code %d (%s)", c, formatNames[c])
		}
	}
}

// TestParseArgs checks flags and arguments in any order, and "--".
func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args  []string
		pos   string
		count bool
	}{
		{[]string{"f", "a", "b"}, "f a b", false},
		{[]string{"-count", "f", "a"}, "f a", true},
		{[]string{"f", "-count", "a"}, "f a", true},
		{[]string{"f", "a", "-count"}, "f a", true},
		{[]string{"f", "--", "-count"}, "f -count", false},
		{[]string{"--", "f", "-count"}, "f -count", false},
	} {
		fs := newFlagSet("test")
		count := fs.Bool("count", false, "")
		pos, err := parseArgs(fs, c.args, "", nil)
		if err != nil || strings.Join(pos, " ") != c.pos || *count != c.count {
			t.Errorf("%q: %q, -count %v, %v; want %q, %v", c.args, pos, *count, err, c.pos, c.count)
		}
	}
	if _, err := parseArgs(newFlagSet("test"), []string{"f", "-x"}, "", nil); !errors.As(err, new(*usageError)) {
		t.Errorf("unknown flag after an argument: %v, want a usage error", err)
	}
}

// TestSplitBlock64BitHashes builds split-block filters with the two
// 64-bit hash kinds, queries them (no false negatives) and reads the kind
// back from info.
func TestSplitBlock64BitHashes(t *testing.T) {
	for _, kind := range []string{"xxh64", "xxh3-64"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			keyFile, _ := writeKeys(t, dir, "k", 300)
			out := filepath.Join(dir, "f.bloom")
			if _, stderr, code := bloom(t, "build", "-variant", "split-block", "-n", "1k", "-p", "1%", "-hash", kind, "-keys", keyFile, "-out", out); code != 0 {
				t.Fatalf("build: status %d: %s", code, stderr)
			}
			withStdin(t, "")
			stdout, stderr, code := bloom(t, "query", out, "-count", "-keys", keyFile)
			if want := "keys\t300\npresent\t300\nabsent\t0\n"; code != 0 || stdout != want {
				t.Errorf("query -count: status %d, %q (%s), want %q", code, stdout, stderr, want)
			}
			stdout, stderr, code = bloom(t, "info", out)
			if code != 0 || !strings.Contains(stdout, kind+", ") {
				t.Errorf("info: status %d (%s), %q, want hashing %s", code, stderr, stdout, kind)
			}
		})
	}
}
