package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
)

// TestGeometryFlags runs the fill experiment with the geometry and hashing
// flags: the filters have the m, k and hashing asked for, the theory is
// the exact rate of that geometry, the run has no target, the files are
// named after the flags, and the note says which derivation the theory
// does not model.
func TestGeometryFlags(t *testing.T) {
	dir := t.TempDir()
	stdout, _, err := runArgs(t, "-exp", "fill", "-variant", "standard", "-m", "1e4", "-k", "3", "-derivation", "double",
		"-keys", "url", "-n", "1000", "-filters", "3", "-queries", "2k", "-out", dir, "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "target") {
		t.Errorf("a geometry given has no target, but the table has one:\n%s", stdout)
	}
	if !strings.Contains(stdout, "xxh3/double") || !strings.Contains(stdout, "independent positions") {
		t.Errorf("the note does not name the hashing and what the theory assumes:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(dir, "fill-standard-keys-url-m-10000-k-3-derivation-double.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := experiments.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if res.Params.M != 10000 || res.Params.K != 3 || res.Params.Derivation != "double" {
		t.Errorf("params %+v, want m = 10000, k = 3, derivation double", res.Params)
	}
	for _, r := range res.Rows {
		if r.Bits != 10000 || r.Hashes != 3 || r.Hashing != "xxh3/double" || r.Target != 0 {
			t.Fatalf("row %+v, want m = 10000, k = 3, xxh3/double, no target", r)
		}
		// Reference: analysis.ExactFPR, the theory of independent positions.
		if want := analysis.ExactFPR(10000, r.Items, 3); r.Theory != want {
			t.Errorf("items %d: theory %g, want ExactFPR %g", r.Items, r.Theory, want)
		}
	}
}

// TestGeometryFlagsSharded checks that a run with a geometry given merges
// from its shards into the unsharded run: the shard files keep M, K and
// the hashing, with which the merge plans the run again.
func TestGeometryFlagsSharded(t *testing.T) {
	whole, shards, merged := t.TempDir(), t.TempDir(), t.TempDir()
	args := []string{"-exp", "fill", "-variant", "counting", "-m", "5000", "-k", "4", "-hash", "metro", "-n", "500", "-filters", "4", "-queries", "1k", "-format", "json"}
	if _, _, err := runArgs(t, append(args, "-out", whole)...); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"0/2", "1/2"} {
		if _, _, err := runArgs(t, append(args, "-out", shards, "-shard", s)...); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := runArgs(t, "-merge", filepath.Join(shards, "*.json"), "-out", merged, "-format", "json"); err != nil {
		t.Fatal(err)
	}
	name := "fill-counting-m-5000-k-4-hash-metro.json"
	a, err1 := os.ReadFile(filepath.Join(whole, name))
	b, err2 := os.ReadFile(filepath.Join(merged, name))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !bytes.Equal(a, b) {
		t.Error("merged JSON differs from the unsharded run's")
	}
}

// TestHashingFlagsOfSweeps runs the hashes experiment with -hash and
// -derivation: the rows record the hashing, the note says what the theory
// assumes, and the files are named after the flags.
func TestHashingFlagsOfSweeps(t *testing.T) {
	dir := t.TempDir()
	stdout, _, err := runArgs(t, "-exp", "hashes", "-variant", "standard", "-hash", "metro", "-derivation", "triple",
		"-n", "500", "-filters", "2", "-queries", "1k", "-out", dir, "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "note: hashing metro/triple: the derivation is triple hashing") {
		t.Errorf("no note on the hashing:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(dir, "hashes-standard-hash-metro-derivation-triple.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := experiments.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		if r.Hashing != "metro/triple" {
			t.Fatalf("row at k = %d: hashing %q, want metro/triple", r.Hashes, r.Hashing)
		}
	}
}
