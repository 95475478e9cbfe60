package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/experiments/catalog"
)

// TestKeySources runs a named experiment on a file of 1000 keys, one that
// needs more keys than the file holds, and one that draws its own keys.
func TestKeySources(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "user-%d@example.org\n", i)
	}
	path := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.Run(context.Background(), "fill", "standard", experiments.Params{N: 200, Filters: 2, Queries: 600, Checkpoints: 2, KeySource: "file:" + path}, experiments.Options{}); err != nil {
		t.Errorf("fill on the file: %v", err)
	}
	if _, err := catalog.Run(context.Background(), "fill", "standard", experiments.Params{N: 600, Filters: 2, Queries: 600, Checkpoints: 2, KeySource: "file:" + path}, experiments.Options{}); !errors.Is(err, experiments.ErrInvalidParams) {
		t.Errorf("fill needing too many keys: %v", err)
	}
	if _, err := catalog.Run(context.Background(), "counting", "counting", experiments.Params{N: 300, Filters: 2, KeySource: "url"}, experiments.Options{}); !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), "draws keys of its own") {
		t.Errorf("counting with url keys: %v", err)
	}
}
