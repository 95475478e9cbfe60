package analysis

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestImports enforces the import rule of DESIGN.md for this package: the
// standard library and gonum only (tests included).
func TestImports(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			std := !strings.Contains(first, ".")
			own := path == "github.com/bloomlab/bloomlab/analysis" // example tests
			if !std && !own && !strings.HasPrefix(path, "gonum.org/v1/gonum/") {
				t.Errorf("%s imports %q: analysis may use only the standard library and gonum", e.Name(), path)
			}
		}
	}
}
