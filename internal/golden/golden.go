// Package golden compares the commands' outputs with golden files in testdata.
//
// # Files
//
// A case named NAME has testdata/NAME.stdout and testdata/NAME.stderr; a
// missing file stands for empty output. With update set the files are
// rewritten from the output instead (and removed when it is empty).
package golden

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Compare compares got with the file path, a missing file standing for
// empty output; with update it writes got there instead, or removes the
// file if got is empty.
func Compare(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if got == "" {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to rewrite it if the change is meant):\n%s", path, firstDiff(string(want), got))
	}
}

// CheckLeftovers reports every testdata/*.stdout or *.stderr file of dir
// whose name is not among names: a renamed or removed case leaves none
// behind.
func CheckLeftovers(t *testing.T, dir string, names []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.std*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name, ext := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), filepath.Ext(f)
		if !slices.Contains(names, name) && (ext == ".stdout" || ext == ".stderr") {
			t.Errorf("%s belongs to no case of TestGolden; remove it", f)
		}
	}
}

// firstDiff describes the first line where got differs from want, and
// gives got whole.
func firstDiff(want, got string) string {
	wl, gl := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	line := func(ls []string) string {
		if i < len(ls) {
			return fmt.Sprintf("%q", ls[i])
		}
		return "(end of output)"
	}
	return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s\n--- got ---\n%s", i+1, line(wl), line(gl), got)
}
