package variants

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// asStandard returns a Standard sharing the bits of a concurrent filter.
func asStandard(f *ConcurrentStandard) *Standard {
	return &Standard{bitCore: bitCore{words: f.words, k: f.k, capacity: f.capacity, items: f.itemCount(), hashing: f.hashing}, m: f.m}
}

// TestConcurrentMatchesStandard: for the same geometry and hashing the
// concurrent filter sets the same bits as Standard and answers every query
// alike, for every hashing option.
func TestConcurrentMatchesStandard(t *testing.T) {
	for _, h := range allHashings {
		for _, g := range []Geometry{{Bits: 10007, Hashes: 5}, {Bits: 4096, Hashes: 11}} {
			s, err := NewStandard(g, h)
			if err != nil {
				t.Fatal(err)
			}
			c, err := NewConcurrentStandard(g, h)
			if err != nil {
				t.Fatal(err)
			}
			keys := testKeys(21, 1, 1500)
			for i, k := range keys {
				if i%2 == 0 {
					s.Add(k)
					c.Add(k)
					continue
				}
				if a, b := s.TestAndAdd(k), c.TestAndAdd(k); a != b {
					t.Fatalf("%v/%v: TestAndAdd %v, Standard said %v", h.Kind, h.Derivation, b, a)
				}
			}
			if !asStandard(c).Equal(s) {
				t.Fatalf("%v/%v %+v: bits differ from Standard's", h.Kind, h.Derivation, g)
			}
			for _, k := range testKeys(21, 2, 3000) {
				if s.Contains(k) != c.Contains(k) {
					t.Fatalf("%v/%v: Contains(%x) differs", h.Kind, h.Derivation, k)
				}
			}
			if fmt.Sprint(s.Stats()) != fmt.Sprint(c.Stats()) {
				t.Fatalf("Stats %+v, Standard's %+v", c.Stats(), s.Stats())
			}
			sd, _ := s.MarshalBinary()
			cd, _ := c.MarshalBinary()
			if !bytes.Equal(sd, cd) {
				t.Fatal("encodings differ")
			}
		}
	}
}

// TestConcurrentAddContains fills a filter from several goroutines while
// others query it, stats it and saves it; run it with -race. Keys whose Add
// has returned must test present at once and forever after.
func TestConcurrentAddContains(t *testing.T) {
	const writers, readers, perWriter = 4, 3, 5000
	f, err := NewConcurrentStandardFor(writers*perWriter, 0.01, Hashing{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	keys := make([][][]byte, writers)
	var done [writers]atomic.Int64 // keys[w][:done[w]] have been added
	for w := range keys {
		keys[w] = testKeys(31, byte(w), perWriter)
	}
	var wg sync.WaitGroup
	var stop atomic.Bool
	errs := make(chan error, readers+2)
	for w := range writers {
		wg.Go(func() {
			for i, k := range keys[w] {
				if i%3 == 0 {
					f.TestAndAdd(k)
				} else {
					f.Add(k)
				}
				done[w].Store(int64(i + 1))
			}
		})
	}
	var rwg sync.WaitGroup
	for r := range readers {
		rwg.Go(func() {
			for j := 0; !stop.Load(); j++ {
				w := (r + j) % writers
				n := done[w].Load()
				if n == 0 {
					runtime.Gosched()
					continue
				}
				// In uint64: on 386, int is 32 bits and j * 7919 overflows
				// after about 271,000 rounds, which a long run reaches.
				i := int(uint64(j) * 7919 % uint64(n))
				if !f.Contains(keys[w][i]) {
					errs <- fmt.Errorf("false negative for writer %d key %d while filling", w, i)
					return
				}
			}
		})
	}
	rwg.Go(func() {
		for !stop.Load() {
			if st := f.Stats(); st.FillRatio > 1 {
				errs <- fmt.Errorf("fill ratio %v", st.FillRatio)
				return
			}
			snapshot := [writers]int64{}
			for w := range done {
				snapshot[w] = done[w].Load()
			}
			data, err := f.MarshalBinary()
			if err != nil {
				errs <- err
				return
			}
			g, err := Unmarshal(data)
			if err != nil {
				errs <- err
				return
			}
			for w := range snapshot {
				for _, k := range keys[w][:snapshot[w]] {
					if !g.Contains(k) {
						errs <- errors.New("a filter saved while filling misses a key added before the save")
						return
					}
				}
			}
		}
	})
	wg.Wait()
	stop.Store(true)
	rwg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for w := range keys {
		for _, k := range keys[w] {
			if !f.Contains(k) {
				t.Fatalf("false negative for %x", k)
			}
		}
	}
	if st := f.Stats(); st.Items != writers*perWriter {
		t.Fatalf("Items = %d, want %d", st.Items, writers*perWriter)
	}
}

// TestConcurrentTestAndAdd: goroutines TestAndAdd the same keys at once.
// Each bit is set by exactly one of them, which saw it clear, so a key that
// was not a false positive beforehand is reported absent by at least one
// goroutine (and possibly by several).
func TestConcurrentTestAndAdd(t *testing.T) {
	const goroutines, n = 4, 5000
	f, err := NewConcurrentStandard(Geometry{Bits: 1 << 20, Hashes: 4}, Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	keys := testKeys(41, 1, n)
	var absent [n]atomic.Int32
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range keys {
				j := (i + g*n/goroutines) % n
				if !f.TestAndAdd(keys[j]) {
					absent[j].Add(1)
				}
			}
		})
	}
	wg.Wait()
	never := 0
	for i := range absent {
		if absent[i].Load() == 0 {
			never++
		}
	}
	// At 4 bits per key out of 2^20 the false-positive rate is below 1e-9.
	if never > 0 {
		t.Errorf("%d of %d new keys were reported present by every TestAndAdd", never, n)
	}
	if st := f.Stats(); st.Items != goroutines*n {
		t.Errorf("Items = %d, want %d", st.Items, goroutines*n)
	}
}

// TestRaceContains queries every variant of the conformance suite (and
// reads its Stats and encoding, and compares it with Equal where it has
// one) from several goroutines at once: the read-only methods must be free
// of data races; run it with -race.
func TestRaceContains(t *testing.T) {
	t.Parallel()
	present := testKeys(51, 1, 5000)
	absent := testKeys(51, 2, 1000)
	for _, v := range conformanceVariants {
		name, newFilter := v.name, v.new
		t.Run(name, func(t *testing.T) {
			f := newFilter(t, 5000, 0.01, Hashing{Kind: Metro, Seed: 2})
			for _, k := range present {
				f.Add(k)
			}
			h := f.Hashing()
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for g := range 4 {
				wg.Go(func() {
					for i, k := range present {
						if i%4 == g && (!f.Contains(k) || !f.ContainsDigest(h.Digest(k))) {
							errs <- fmt.Errorf("false negative for %x", k)
							return
						}
					}
					for _, k := range absent {
						f.Contains(k)
					}
					_ = f.Stats()
					if _, err := f.(persistent).MarshalBinary(); err != nil {
						errs <- err
					}
					switch f := f.(type) {
					case *Standard:
						_ = f.Equal(f)
					case *Partitioned:
						_ = f.Equal(f)
					case *Counting:
						_ = f.Equal(f)
					case *Scalable:
						_ = f.Equal(f)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
		})
	}
}

// TestConcurrentInvalidParams: the constructors check their parameters as
// NewStandard does.
func TestConcurrentInvalidParams(t *testing.T) {
	if _, err := NewConcurrentStandard(Geometry{Bits: 0, Hashes: 1}, Hashing{}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("m = 0: %v", err)
	}
	if _, err := NewConcurrentStandardFor(100, 1.5, Hashing{}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("p = 1.5: %v", err)
	}
	if _, err := NewConcurrentStandard(Geometry{Bits: 64, Hashes: 1}, Hashing{Derivation: 9}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("derivation 9: %v", err)
	}
}

// BenchmarkConcurrentFill measures what a researcher filling a filter
// from many goroutines sees: each op resets a filter sized for n = 1e6 at
// p = 0.01 and adds its 1e6 distinct 16-byte keys, split between the
// goroutines. The plain Standard fills from one goroutine, or from
// GOMAXPROCS goroutines behind a mutex (the way it must be shared); the
// concurrent filter from one and from GOMAXPROCS goroutines. Reported per
// key as ns/key.
func BenchmarkConcurrentFill(b *testing.B) {
	const n = 1_000_000
	keys := benchKeys(1, n, 16)
	plain, err := NewStandardFor(n, 0.01, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	conc, err := NewConcurrentStandardFor(n, 0.01, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	procs := runtime.GOMAXPROCS(0)
	fill := func(reset func(), add func([]byte), goroutines int) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reset()
				var wg sync.WaitGroup
				for g := range goroutines {
					wg.Go(func() {
						for _, k := range keys[g*n/goroutines : (g+1)*n/goroutines] {
							add(k)
						}
					})
				}
				wg.Wait()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/key")
		}
	}
	var mu sync.Mutex
	locked := func(k []byte) {
		mu.Lock()
		plain.Add(k)
		mu.Unlock()
	}
	b.Run("variant=standard/n=1e6/op=fill/goroutines=1", fill(plain.Reset, plain.Add, 1))
	b.Run(fmt.Sprintf("variant=standard-mutex/n=1e6/op=fill/goroutines=%d", procs), fill(plain.Reset, locked, procs))
	b.Run("variant=concurrent/n=1e6/op=fill/goroutines=1", fill(conc.Reset, conc.Add, 1))
	b.Run(fmt.Sprintf("variant=concurrent/n=1e6/op=fill/goroutines=%d", procs), fill(conc.Reset, conc.Add, procs))
}

// BenchmarkConcurrentAdd compares the Add throughput of the plain and the
// concurrent standard filter in steady state, cycling through 1e6 keys on
// a filter sized for them (so after the first pass every bit an Add
// touches is set already and only the loads and the item count remain):
// from one goroutine, and from GOMAXPROCS goroutines with b.RunParallel
// (the plain filter behind a mutex). Also the cost of Contains on each.
func BenchmarkConcurrentAdd(b *testing.B) {
	const n = 1_000_000
	keys := benchKeys(1, n, 16)
	plain, err := NewStandardFor(n, 0.01, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	conc, err := NewConcurrentStandardFor(n, 0.01, Hashing{})
	if err != nil {
		b.Fatal(err)
	}
	serial := func(add func([]byte)) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				add(keys[i])
				if i++; i == n {
					i = 0
				}
			}
		}
	}
	parallel := func(add func([]byte)) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			var start atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				i := int(start.Add(n/64)) % n
				for pb.Next() {
					add(keys[i])
					if i++; i == n {
						i = 0
					}
				}
			})
		}
	}
	var mu sync.Mutex
	b.Run("variant=standard/n=1e6/op=add/goroutines=1", serial(plain.Add))
	b.Run("variant=standard-mutex/n=1e6/op=add/goroutines=max", parallel(func(k []byte) {
		mu.Lock()
		plain.Add(k)
		mu.Unlock()
	}))
	b.Run("variant=concurrent/n=1e6/op=add/goroutines=1", serial(conc.Add))
	b.Run("variant=concurrent/n=1e6/op=add/goroutines=max", parallel(conc.Add))
	b.Run("variant=standard/n=1e6/op=contains/goroutines=1", serial(func(k []byte) { plain.Contains(k) }))
	b.Run("variant=concurrent/n=1e6/op=contains/goroutines=1", serial(func(k []byte) { conc.Contains(k) }))
	b.Run("variant=concurrent/n=1e6/op=contains/goroutines=max", parallel(func(k []byte) { conc.Contains(k) }))
}
