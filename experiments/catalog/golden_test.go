package catalog_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenRuns are small runs of every experiment that measures rates. Their
// golden files were written at commit 81d0c6c (with this file and
// -update), so that a change to the runner shows it measures exactly what
// it did: the same filters, keys, counts, intervals and theory. The
// scalable ones were rewritten when the scalable filter's stages took the
// stream derivation (format codes 10 and 11), which changes the bits a key
// sets and so the counts. The adversary ones were rewritten when
// FreshCells counted distinct cells and the attacker's T became a
// parameter (one chosen row per T), which changes the keys it chooses.
var goldenRuns = []struct {
	exp, variant string
	p            experiments.Params
}{
	{"fill", "standard", experiments.Params{N: 500, Filters: 4, Queries: 3000, Checkpoints: 4}},
	{"fill", "partitioned", experiments.Params{N: 500, Filters: 4, Queries: 3000, Checkpoints: 4}},
	{"fill", "counting", experiments.Params{N: 500, Filters: 4, Queries: 3000, Checkpoints: 4}},
	{"fill", "blocked", experiments.Params{N: 500, Filters: 4, Queries: 3000, Checkpoints: 4}},
	{"fill", "split-block", experiments.Params{N: 500, Filters: 4, Queries: 3000, Checkpoints: 4}},
	{"fill", "scalable", experiments.Params{N: 100, Filters: 3, Queries: 3000, Span: 30, Checkpoints: 3}},
	{"bits", "all", experiments.Params{N: 300, Filters: 3, Queries: 1000, BitsPerKey: []float64{3, 9}}},
	{"hashes", "all", experiments.Params{N: 300, Filters: 3, Queries: 1000, Hashes: []int{2, 6}}},
	{"small-m", "standard", experiments.Params{Filters: 30, Queries: 1000, Bits: []uint64{64, 512}}},
	{"hashing", "standard", experiments.Params{Filters: 4, Queries: 500, Bits: []uint64{256, 2048}}},
	{"counting", "counting", experiments.Params{N: 300, Filters: 3, Span: 3}},
	{"scalable", "scalable", experiments.Params{N: 100, Filters: 2, Queries: 1000, Span: 30, Checkpoints: 2, R: []float64{0.5, 0.9}, S: []float64{2}}},
	{"blocking", "all", experiments.Params{N: 300, Filters: 3, Queries: 1000, BitsPerKey: []float64{3, 9}, Keys: []uint64{1000, 4000}}},
	{"adversary", "all", experiments.Params{N: 300, Filters: 3, Queries: 1000}},
}

// goldenFiles runs a golden run and returns its CSV and its JSON, without
// the times (which differ from run to run) and without the notes (which
// the rebuilt experiments extend).
func goldenFiles(t *testing.T, exp, variant string, p experiments.Params) (csv, json []byte) {
	t.Helper()
	r, err := catalog.Run(context.Background(), exp, variant, p, experiments.Options{Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	r.Notes = nil
	for i := range r.Rows {
		row := &r.Rows[i]
		row.NsPerAdd, row.NsPerQuery = 0, 0
		for j := range row.Trials {
			row.Trials[j].NsPerAdd, row.Trials[j].NsPerQuery = 0, 0
		}
	}
	return encode(t, r)
}

// TestGolden checks that every golden run writes the bytes of its golden
// files: the same filters, keys, counts, intervals and theory, row by row.
// The Go and module versions in the JSON are those of the run, so they are
// replaced by the golden file's before comparing.
func TestGolden(t *testing.T) {
	for _, g := range goldenRuns {
		base := filepath.Join("testdata", "golden", g.exp+"-"+g.variant)
		t.Run(g.exp+"/"+g.variant, func(t *testing.T) {
			csv, json := goldenFiles(t, g.exp, g.variant, g.p)
			if *update {
				if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(base+".csv", csv, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(base+".json", json, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantCSV, err := os.ReadFile(base + ".csv")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(csv, wantCSV) {
				t.Errorf("CSV differs from %s.csv:\n%s\nwant\n%s", base, csv, wantCSV)
			}
			wantJSON, err := os.ReadFile(base + ".json")
			if err != nil {
				t.Fatal(err)
			}
			want, err := experiments.ReadJSON(bytes.NewReader(wantJSON))
			if err != nil {
				t.Fatal(err)
			}
			got, err := experiments.ReadJSON(bytes.NewReader(json))
			if err != nil {
				t.Fatal(err)
			}
			got.GoVersion, got.ModuleVersion = want.GoVersion, want.ModuleVersion
			var b bytes.Buffer
			if err := experiments.WriteJSON(&b, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), wantJSON) {
				t.Errorf("JSON differs from %s.json", base)
			}
		})
	}
}
func encode(t *testing.T, r *experiments.Results) (csv, json []byte) {
	t.Helper()
	var c, j bytes.Buffer
	if err := experiments.WriteCSV(&c, r); err != nil {
		t.Fatal(err)
	}
	if err := experiments.WriteJSON(&j, r); err != nil {
		t.Fatal(err)
	}
	return c.Bytes(), j.Bytes()
}
