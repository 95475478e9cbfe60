package variants

import (
	"testing"
)

// BenchmarkGrowingChains measures the dynamic filter (stages of 1000 keys
// at 1%) and the RedisBloom model (BF.RESERVE 0.01 1000 EXPANSION 2, and
// its power-of-two tables) grown to n = 1e4 and 1e6 keys. op=build builds
// a filter from empty with n keys, every stage's creation included, and
// reports ns/add, the time per key; op=add inserts the second half of the
// keys into a filter holding the first half (refilled with the timer
// stopped when the second half is used up); the queries run on the full
// filter. The RedisBloom model tests the whole chain before every add, as
// RedisBloom does, and the dynamic filter's queries test every stage, so
// both slow down with their stages (at 1e6 keys 10 links and 1000 stages).
func BenchmarkGrowingChains(b *testing.B) {
	builders := []struct {
		name string
		new  func() Filter
	}{
		{"dynamic", func() Filter {
			f, _ := NewDynamic(DynamicParams{N: 1000, P: 0.01})
			return f
		}},
		{"redisbloom", func() Filter {
			f, _ := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 1000})
			return f
		}},
		{"redisbloom-power-of-two", func() Filter {
			f, _ := NewRedisBloom(RedisBloomParams{ErrorRate: 0.01, Capacity: 1000, PowerOfTwo: true})
			return f
		}},
	}
	for _, n := range []int{10_000, 1_000_000} {
		present := benchKeys(1, n, 16)
		absent := benchKeys(2, n, 16)
		for _, v := range builders {
			b.Run("variant="+v.name+"/"+sizeName(n)+"/op=build", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					f := v.new()
					for _, k := range present {
						f.Add(k)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/add")
			})
			b.Run("variant="+v.name+"/"+sizeName(n)+"/op=add", func(b *testing.B) {
				half := n / 2
				fill := func() Filter {
					f := v.new()
					for _, k := range present[:half] {
						f.Add(k)
					}
					return f
				}
				f, i := fill(), half
				for b.Loop() {
					if i == n {
						b.StopTimer()
						f, i = fill(), half
						b.StartTimer()
					}
					f.Add(present[i])
					i++
				}
			})
			f := v.new()
			for _, k := range present {
				f.Add(k)
			}
			for _, q := range []struct {
				op   string
				keys [][]byte
			}{{"contains-present", present}, {"contains-absent", absent}} {
				b.Run("variant="+v.name+"/"+sizeName(n)+"/op="+q.op, func(b *testing.B) {
					i := 0
					for b.Loop() {
						f.Contains(q.keys[i])
						if i++; i == n {
							i = 0
						}
					}
				})
			}
		}
	}
}
