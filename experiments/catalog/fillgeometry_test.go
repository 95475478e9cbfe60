package catalog

import (
	"context"
	"errors"
	"testing"

	"github.com/bloomlab/bloomlab/experiments"
)

// TestGeometryParams checks that the geometry and hashing parameters are
// refused, naming the parameter, where the run would not use them.
func TestGeometryParams(t *testing.T) {
	for _, c := range []struct {
		exp, variant string
		p            experiments.Params
		param        string
	}{
		{"bits", "standard", experiments.Params{M: 1000}, "m"},
		{"fill", "scalable", experiments.Params{K: 3}, "k"},
		{"fill", "split-block", experiments.Params{K: 3}, "k"},
		{"fill", "blocked", experiments.Params{Derivation: "triple"}, "derivation"},
		{"fill", "standard", experiments.Params{Hash: "xxh64"}, "hash"},
		{"fill", "standard", experiments.Params{Hash: "xxh3-64"}, "hash"},
		{"fill", "blocked", experiments.Params{Hash: "xxh3-64"}, "hash"},
		{"fill", "standard", experiments.Params{Hash: "fnv"}, "hash"},
		{"fill", "partitioned", experiments.Params{M: 16, K: 20}, "k"},
		{"fill", "standard", experiments.Params{M: 1 << 40}, "m"},
	} {
		err := Check(context.Background(), c.exp, c.variant, c.p, experiments.Options{Seed: 1})
		var pe *experiments.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s %s %+v: %v, want an error about %s", c.exp, c.variant, c.p, err, c.param)
		}
	}
	if err := Check(context.Background(), "fill", "counting", experiments.Params{M: 4096, K: 3, Hash: "siphash", Derivation: "independent"}, experiments.Options{Seed: 1}); err != nil {
		t.Errorf("counting with m, k, siphash, independent: %v", err)
	}
	for _, h := range []string{"xxh64", "xxh3-64"} {
		if err := Check(context.Background(), "fill", "split-block", experiments.Params{Hash: h}, experiments.Options{Seed: 1}); err != nil {
			t.Errorf("split-block with %s: %v", h, err)
		}
	}
}
