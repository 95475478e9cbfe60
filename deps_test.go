package bloomlab_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/bloomlab/bloomlab"

// allowed lists, for each package directory, the import paths (or path
// prefixes ending in "/") its non-test files may import besides the
// standard library. It is the import rule of DESIGN.md, written down so that
// a change that breaks it fails here, as Go's own go/build/deps_test.go does.
var allowed = map[string][]string{
	"analysis":       {},
	"internal/units": {},
	// The commands' golden-file comparison, for tests only: the standard library.
	"internal/golden": {},
	"stats":           {"gonum.org/v1/gonum/stat", "gonum.org/v1/gonum/stat/distuv"},
	"variants":        {"github.com/zeebo/xxh3", "github.com/dgryski/go-metro", "github.com/cespare/xxhash/v2", "golang.org/x/sys/cpu", "github.com/dchest/siphash", module + "/analysis"},
	"experiments":     {module + "/variants", module + "/analysis", module + "/stats"},
	// The catalogue's figures are built with plots' toolkit out of
	// gonum/plot's own types (plots, plotters, lengths).
	"experiments/catalog": {module + "/experiments", module + "/variants", module + "/analysis", module + "/stats", module + "/plots", module + "/internal/units", "gonum.org/v1/plot/", "gonum.org/v1/plot"},
	"plots":               {module + "/experiments", module + "/analysis", module + "/stats", "gonum.org/v1/plot/", "gonum.org/v1/plot"},
	"cmd/experiment":      {module + "/", "gonum.org/v1/"},
	"cmd/bloom":           {module + "/"},
	"cmd/bloomcalc":       {module + "/", "gonum.org/v1/"},
}

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func permitted(path string, rules []string) bool {
	if isStd(path) {
		return true
	}
	if strings.HasPrefix(path, module+"/cmd") {
		return false // nothing imports a command
	}
	for _, r := range rules {
		if path == r || strings.HasSuffix(r, "/") && strings.HasPrefix(path, r) || path+"/" == r {
			return true
		}
	}
	return false
}

// TestImportRules checks every non-test file's direct imports against the
// rules above, and that every package directory is covered by a rule.
func TestImportRules(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata" || d.Name() == "results" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != "." {
				return filepath.SkipDir // a module of its own, such as compare
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		rules, ok := allowed[dir]
		if !ok {
			best := ""
			for prefix, r := range allowed {
				if strings.HasPrefix(dir, prefix+"/") && len(prefix) > len(best) {
					rules, ok, best = r, true, prefix
				}
			}
		}
		if !ok {
			t.Errorf("%s: package directory %s has no import rule in deps_test.go", path, dir)
			return nil
		}
		seen[dir] = true
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !permitted(p, rules) {
				t.Errorf("%s imports %s, which DESIGN.md does not allow for %s", path, p, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"analysis", "internal/units", "stats", "variants"} {
		if !seen[dir] {
			t.Errorf("no Go files found in %s", dir)
		}
	}
}

// deps returns the import paths of pkg and of every package it depends on,
// as go list -deps prints them. It skips the test under -short or when the
// go command is not on the PATH; any other failure of go list fails it.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go list")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestVariantsDependencies checks the transitive closure: a researcher who
// imports only variants must not pull in plotting, the experiment runner
// or the statistics.
func TestVariantsDependencies(t *testing.T) {
	for _, p := range deps(t, "./variants") {
		if strings.HasPrefix(p, "gonum.org/v1/plot") || strings.HasPrefix(p, module+"/experiments") || strings.HasPrefix(p, module+"/plots") || p == module+"/stats" {
			t.Errorf("variants depends on %s", p)
		}
	}
}

// TestVariantsCompilesNoGonum checks that importing variants compiles no
// gonum package: analysis, which variants uses for sizing, is standard
// library only, and the statistics live in stats.
func TestVariantsCompilesNoGonum(t *testing.T) {
	for _, p := range deps(t, "./variants") {
		if strings.HasPrefix(p, "gonum.org/") {
			t.Errorf("variants depends on %s", p)
		}
	}
}

// TestStatsDependencies checks the transitive closure of stats: the
// standard library and the gonum packages that stat and stat/distuv
// build on, nothing of bloomlab's.
func TestStatsDependencies(t *testing.T) {
	for _, p := range deps(t, "./stats") {
		if !isStd(p) && !strings.HasPrefix(p, "gonum.org/v1/gonum/") && p != module+"/stats" {
			t.Errorf("stats depends on %s", p)
		}
	}
}
