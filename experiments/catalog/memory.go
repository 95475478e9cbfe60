package catalog

import (
	"context"
	"fmt"
	"runtime"
	"strconv"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

var memoryExperiment = Experiment{
	Name: "memory",
	Summary: "bytes used by each variant and by a Go map[string]struct{} holding the same URL-like keys, " +
		"at 1e5, 1e6 and 1e7 keys",
	Variants:   Variants,
	Timed:      true,
	sequential: true,
	flags:      fixedFlags("p"),
	defaults: func(_ string, quick bool) experiments.Params {
		keys := []uint64{1e5, 1e6, 1e7}
		if quick {
			keys = keys[:2]
		}
		return experiments.Params{N: 1000, P: 0.01, Filters: 1, Queries: 1, Conf: 0.95, Span: 1, Checkpoints: 1, Keys: keys}
	},
	plan:   planMemory,
	figure: memoryFigure,
}

// urlKey appends the i-th URL-like key of stream to dst:
// "https://example.com/path/<i>/item?id=<16 hex digits>".
func urlKey(dst []byte, stream, i uint64) []byte {
	dst = append(dst, "https://example.com/path/"...)
	dst = strconv.AppendUint(dst, i, 10)
	dst = append(dst, "/item?id="...)
	h := splitmix64(stream ^ i)
	for s := 60; s >= 0; s -= 4 {
		dst = append(dst, "0123456789abcdef"[h>>s&15])
	}
	return dst
}

// goMap is the series name of the Go map in the memory experiment.
const goMap = "go map"

// planMemory plans, for each n in Keys, each variant sized for n keys at
// P (a scalable filter growing from n0 = N) and a Go map, each holding n
// URL-like keys.
func planMemory(variant string, p experiments.Params) (*experiments.Plan, error) {
	pl := &experiments.Plan{}
	for _, n := range p.Keys {
		for _, v := range selected(variant, Variants) {
			b, err := anyBuilder(v, n, p)
			if err != nil {
				return nil, err
			}
			if _, err := probe(b); err != nil {
				return nil, paramError("keys", "%v", err)
			}
			row := experiments.Row{Series: v, Variant: v, Items: n, Capacity: n, Filters: 1, Target: p.P}
			if v == "standard" {
				if sd, err := analysis.StandardSize(n, p.P); err == nil {
					row.Theory, row.Model = float64(sd.Bits)/8, "optimal bits"
				}
			}
			pl.Groups = append(pl.Groups, experiments.Group{Key: fmt.Sprintf("memory/%s/n=%d", v, n), Filters: 1, Run: filterBytes(b), Rows: []int{pl.AddRow(row)}})
		}
		pl.Groups = append(pl.Groups, experiments.Group{Key: fmt.Sprintf("memory/map/n=%d", n), Filters: 1, Run: mapBytes, Rows: []int{pl.AddRow(experiments.Row{Series: goMap, Items: n, Filters: 1})}})
	}
	pl.Notes = append(pl.Notes,
		"filter bytes are the cells' memory, Stats().Bits/8; the map's are the growth of the live heap (runtime.MemStats.HeapAlloc after a collection) while it holds the keys, key strings included",
		"every structure holds the same keys, which look like https://example.com/path/<n>/item?id=<16 hex digits>, 51 to 58 bytes")
	return pl, nil
}

func filterBytes(build builder) experiments.RunFunc {
	return func(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
		f, err := build(variants.Hashing{})
		if err != nil {
			return err
		}
		var buf []byte
		for i := range rows[0].Items {
			if i%interruptEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			buf = urlKey(buf[:0], rows[0].Items, i)
			f.Add(buf)
		}
		st := f.Stats()
		out[0].Bits = st.Bits
		out[0].Stages = len(st.Stages)
		out[0].Estimated = st.EstimatedFPR
		out[0].Bytes = (st.Bits + 7) / 8
		return nil
	}
}

func heapAlloc() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func mapBytes(ctx context.Context, t *experiments.Job, rows []*experiments.Row, out []experiments.Trial) error {
	n := rows[0].Items
	before := heapAlloc()
	m := make(map[string]struct{})
	var buf []byte
	for i := range n {
		if i%interruptEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		buf = urlKey(buf[:0], rows[0].Items, i)
		m[string(buf)] = struct{}{}
	}
	after := heapAlloc()
	runtime.KeepAlive(m)
	if after > before {
		out[0].Bytes = after - before
	}
	return nil
}
