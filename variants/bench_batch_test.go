package variants

import (
	"fmt"
	"testing"
)

// BenchmarkBatch measures batches of batchOf keys (32, RocksDB's MultiGet
// batch) at n = 1e4 (in cache), 1e6 and 3e7 keys (far beyond the
// last-level cache; skipped with -short, since its filters take about
// 40 MB each and a minute to fill), for the filters with batches whose
// speed this package claims: blocked (B = 512 and 256, p = 0.01),
// standard (p = 0.01) and scalable with blocked stages (P = 0.01, the
// default n0, r and s). Each filter holds n keys; the ops are:
//
//   - contains-digest: absent queries with the digests given;
//   - contains-key: absent queries of 16-byte keys, hashed by the filter;
//   - add-digest: adds of new digests (the filter is restored to its n
//     keys after every n/2 adds, outside the timer, and after the op, so
//     that no op or form sees a fuller or larger filter than another).
//
// and the forms:
//
//   - single: one call per key (ContainsDigest, Contains, AddDigest);
//   - loop (blocked only): the batch as it was before blockedContains, a
//     Go loop over groups of 16 that reads each block (touch) and then
//     calls the one-key probe (AVX2 on amd64) per key;
//   - go-batch: the Batcher method with the assembly switched off
//     (useAVX2 = false), the pure-Go batch of other architectures;
//   - batch: the Batcher method as it runs here (one assembly call per
//     batch for the blocked filter on amd64 with AVX2).
//
// It reports ns/key. variant=memory/op=random-lines is the memory
// baseline at the blocked filter's size (B = 512): one independent load of
// a random 64-byte line per op, ns/key being ns/op.
//
//	go test -run '^$' -bench 'BenchmarkBatch/n=1e6' -benchtime 200ms ./variants
func BenchmarkBatch(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000, 30_000_000} {
		name := map[int]string{10_000: "n=1e4", 1_000_000: "n=1e6", 30_000_000: "n=3e7"}[n]
		b.Run(name, func(b *testing.B) {
			if n > 1_000_000 && testing.Short() {
				b.Skip("n=3e7 takes about 40 MB per filter and a minute to fill; run without -short")
			}
			benchBatchAt(b, n)
		})
	}
}

// batchOf is the number of keys per batch in BenchmarkBatch.
const batchOf = 32

// benchDigest returns the i-th digest of a stream of random-looking
// digests numbered by i and tagged by set.
func benchDigest(set, i uint64) Digest {
	x := i*weyl + set<<56
	return Digest{H1: mix64(x), H2: mix64(x ^ 0x5851f42d4c957f2d)}
}

func benchBatchAt(b *testing.B, n int) {
	const p = 0.01
	// The absent queries: enough of them that the lines they touch exceed
	// the cache at n = 3e7, few enough to stay in cache at 1e4.
	pool := 1 << 20
	if n < 1_000_000 {
		pool = 1 << 14
	}
	keys := benchKeys(9, pool, 16)
	type variant struct {
		name string
		f    Filter
	}
	var vs []variant
	blocked, err := NewBlockedFor(uint64(n), p, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	blocked256, err := blockedFor(uint64(n), p, 256, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	standard, err := NewStandardFor(uint64(n), p, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	scalable, err := NewScalable(ScalableParams{P: p, BlockBits: DefaultBlockBits})
	if err != nil {
		b.Fatal(err)
	}
	vs = append(vs, variant{"blocked", blocked}, variant{"blocked-256", blocked256}, variant{"standard", standard}, variant{"scalable-blocked", scalable})
	for _, v := range vs {
		bf := v.f.(Batcher)
		var ds [batchOf]Digest
		for i := 0; i < n; i += batchOf {
			m := min(batchOf, n-i)
			for j := range m {
				ds[j] = benchDigest(1, uint64(i+j))
			}
			bf.AddDigestBatch(ds[:m])
		}
	}
	absent := make([]Digest, pool)
	for i, k := range keys {
		absent[i] = Hashing{}.Digest(k)
	}
	// Each filter is restored to its n keys during and after the adds,
	// so that every form and op sees the same filter.
	type codec interface {
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	}
	snaps := make([][]byte, len(vs))
	for i, v := range vs {
		if snaps[i], err = v.f.(codec).MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
	restore := func(b *testing.B, i int) {
		if err := vs[i].f.(codec).UnmarshalBinary(snaps[i]); err != nil {
			b.Fatal(err)
		}
	}

	for vi, v := range vs {
		f, bf := v.f, v.f.(Batcher)
		forms := []string{"single", "go-batch", "batch"}
		if _, ok := f.(*Blocked); ok {
			forms = []string{"single", "loop", "go-batch", "batch"}
		}
		for _, form := range forms {
			vector := form != "go-batch"
			name := func(op string) string { return fmt.Sprintf("variant=%s/op=%s/form=%s", v.name, op, form) }
			run := func(b *testing.B, op func(i int)) {
				withVector(vector, func() {
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						op(i)
						i += batchOf
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batchOf, "ns/key")
				})
			}
			var out [batchOf]bool
			b.Run(name("contains-digest"), func(b *testing.B) {
				run(b, func(i int) {
					ds := absent[i%pool : i%pool+batchOf]
					switch form {
					case "single":
						for j, d := range ds {
							out[j] = f.ContainsDigest(d)
						}
					case "loop":
						blockedLoopContains(f.(*Blocked), ds, out[:])
					default:
						bf.ContainsDigestBatch(ds, out[:])
					}
				})
			})
			b.Run(name("contains-key"), func(b *testing.B) {
				run(b, func(i int) {
					ks := keys[i%pool : i%pool+batchOf]
					switch form {
					case "single":
						for j, k := range ks {
							out[j] = f.Contains(k)
						}
					case "loop":
						bl := f.(*Blocked)
						var ds [batchOf]Digest
						for j, k := range ks {
							ds[j] = bl.sum(k)
						}
						blockedLoopContains(bl, ds[:], out[:])
					default:
						bf.ContainsBatch(ks, out[:])
					}
				})
			})
			b.Run(name("add-digest"), func(b *testing.B) {
				added := 0
				run(b, func(i int) {
					var ds [batchOf]Digest
					for j := range ds {
						ds[j] = benchDigest(2, uint64(i+j))
					}
					switch form {
					case "single":
						for _, d := range ds {
							f.AddDigest(d)
						}
					case "loop":
						blockedLoopAdd(f.(*Blocked), ds[:])
					default:
						bf.AddDigestBatch(ds[:])
					}
					if added += batchOf; added >= n/2 {
						b.StopTimer()
						restore(b, vi)
						added = 0
						b.StartTimer()
					}
				})
			})
			restore(b, vi)
		}
	}
	b.Run("variant=memory/op=random-lines", func(b *testing.B) {
		benchRandomLines(b, blocked.Stats().Bits/8)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/key")
	})
}

// blockedLoopContains is the blocked filter's ContainsDigestBatch as it
// was before blockedContains: groups of batchGroup keys, each block read
// first (touch), then the one-key probe per key.
func blockedLoopContains(f *Blocked, ds []Digest, out []bool) {
	var g group
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		for i, d := range ds[:n] {
			g.at[i] = f.block(d.H1)
		}
		touch(g.at[:n])
		for i, d := range ds[:n] {
			out[i] = f.test(g.at[i], d.H2)
		}
		ds, out = ds[n:], out[n:]
	}
}

// blockedLoopAdd is AddDigestBatch as it was before blockedAdd.
func blockedLoopAdd(f *Blocked, ds []Digest) {
	var g group
	for len(ds) > 0 {
		n := min(len(ds), batchGroup)
		for i, d := range ds[:n] {
			g.at[i] = f.block(d.H1)
		}
		touch(g.at[:n])
		for i, d := range ds[:n] {
			f.set(g.at[i], d.H2)
		}
		f.items += uint64(n)
		ds = ds[n:]
	}
}
