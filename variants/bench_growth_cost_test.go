package variants

import (
	"fmt"
	"testing"
	"time"
)

// growFilters are the growing filters of BenchmarkGrow, each made empty
// by its constructor at rate 0.01 and a first stage of 1000 items: the
// scalable filter with partitioned and with blocked stages (r and s the
// defaults), RedisBloom's chain (expansion 2) in both configurations,
// and the dynamic filter (stages of 1000 items at 0.01).
var growFilters = []struct {
	name string
	new  func() (Filter, error)
}{
	{"scalable", func() (Filter, error) { return NewScalable(ScalableParams{P: 0.01}) }},
	{"scalable-blocked", func() (Filter, error) { return NewScalable(ScalableParams{P: 0.01, BlockBits: DefaultBlockBits}) }},
	{"redisbloom", func() (Filter, error) { return NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 1000}) }},
	{"redisbloom-power-of-two", func() (Filter, error) {
		return NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 1000, PowerOfTwo: true})
	}},
	{"dynamic", func() (Filter, error) { return NewDynamic(DynamicParams{N: 1000, P: 0.01}) }},
}

// BenchmarkGrow measures what growing costs: each iteration builds a
// filter from empty (its constructor included) and adds n keys, so every
// stage is created and sized on the way, and ns/key is the time per add
// over the whole build. In the same run, interleaved with the builds and
// outside the timer, it measures the same filter's add once built: a
// filter holding the first n/2 keys (its stages already made) takes the
// second half (built-ns/key), and the same build into a filter that has
// been Reset, whose stages are reused rather than created
// (rebuild-ns/key). It reports grow/built, the ratio of the two times per
// add that the growth target bounds (at most 1.5), and grow/rebuild, the
// share of stage creation alone.
func BenchmarkGrow(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		keys := benchKeys(1, n, 16)
		for _, v := range growFilters {
			b.Run(fmt.Sprintf("variant=%s/%s", v.name, sizeName(n)), func(b *testing.B) {
				benchGrow(b, v.new, keys, false)
			})
			if v.name == "scalable-blocked" {
				b.Run(fmt.Sprintf("variant=%s/%s/cache=cold", v.name, sizeName(n)), func(b *testing.B) {
					benchGrow(b, v.new, keys, true)
				})
			}
		}
	}
}

func benchGrow(b *testing.B, newFilter func() (Filter, error), keys [][]byte, cold bool) {
	b.ReportAllocs()
	built, err := newFilter()
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range keys {
		built.Add(k)
	}
	half := len(keys) / 2
	var builtTime, rebuildTime time.Duration
	iters := 0
	for b.Loop() {
		if cold {
			b.StopTimer()
			clearStageCache()
			b.StartTimer()
		}
		f, err := newFilter()
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range keys {
			f.Add(k)
		}
		b.StopTimer()
		// The built filter's add: refill the first half, time the second.
		built.Reset()
		for _, k := range keys[:half] {
			built.Add(k)
		}
		t := time.Now()
		for _, k := range keys[half:] {
			built.Add(k)
		}
		builtTime += time.Since(t)
		// The rebuild: every stage reused.
		built.Reset()
		t = time.Now()
		for _, k := range keys {
			built.Add(k)
		}
		rebuildTime += time.Since(t)
		iters++
		b.StartTimer()
	}
	grow := float64(b.Elapsed().Nanoseconds()) / float64(iters*len(keys))
	builtNs := float64(builtTime.Nanoseconds()) / float64(iters*(len(keys)-half))
	rebuildNs := float64(rebuildTime.Nanoseconds()) / float64(iters*len(keys))
	b.ReportMetric(grow, "ns/key")
	b.ReportMetric(builtNs, "built-ns/key")
	b.ReportMetric(rebuildNs, "rebuild-ns/key")
	b.ReportMetric(grow/builtNs, "grow/built")
	b.ReportMetric(grow/rebuildNs, "grow/rebuild")
}
