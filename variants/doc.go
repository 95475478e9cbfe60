// Package variants implements Bloom filters of eleven designs behind one [Filter] interface.
//
// # Glossary
//
// These words mean one thing in the code, its messages, and the labels of
// every figure the repository draws:
//
//   - capacity: the number of items a filter is sized for (n);
//   - bits: the memory of the filter's cells (m); for a counting filter,
//     counters times their width;
//   - hashes: the number of cells a key sets (k);
//   - items: the keys added so far;
//   - bits per key: bits divided by items (m/n);
//   - digest: the 128-bit value a key hashes to ([Digest]), from which the
//     k cells are derived;
//   - stage: one of the filters a growing filter chains ([Scalable],
//     [Dynamic], [RedisBloom]);
//   - slice: one of the k (or k + l) equal parts of a partitioned or
//     age-partitioned filter;
//   - window: the most recent items a filter for streams promises to hold.
//
// # The filters
//
//   - [Standard]: m bits and k hashes (Bloom 1970); [ConcurrentStandard]
//     takes adds from many goroutines.
//   - [Partitioned]: one slice per hash.
//   - [Counting]: packed saturating counters, with [Remover] (Fan et al. 2000).
//   - [Blocked]: a key's bits in one block, one cache line by default
//     (Putze, Sanders and Singler 2007).
//   - [SplitBlock]: the split-block filter of Apache Impala, Kudu and
//     Parquet, bit for bit; [NewSplitBlockFromBitset] and [ParquetHash]
//     query a Parquet column chunk's filter.
//   - [Multiblock]: every cache-local layout of Boost.Bloom: K bits in
//     one word or line, or one bit in each of K consecutive words, with
//     blocks at their natural stride or overlapping at a byte stride.
//   - [Scalable]: grows without a known capacity while holding its target
//     rate (Almeida, Baquero, Preguiça and Hutchison 2007); given an
//     estimate of the final count ([ScalableParams].Estimate), its stages
//     are sized for it ([analysis.Horizon]) and it still grows past it.
//   - [Dynamic]: equal stages appended as each fills (Guo et al. 2010).
//   - [RedisBloom]: a bit-exact model of the scalable filter RedisBloom's
//     BF.RESERVE builds.
//   - [AgePartitioned]: the filter for streams (Shtul, Baquero and Almeida
//     2020): "among the last W keys?" in fixed memory, with no false
//     negative within the window.
//
// Every filter has a Model method that returns its theory from package
// analysis with the filter's own parameters, so that
// f.Model().FPR(f.Stats().Items) is the rate theory predicts for it now.
//
// # Constructors and sizing
//
// A filter whose parameters are its geometry and its hashing has
// New<Type>(g [Geometry], h [Hashing]) ([Standard], [Partitioned],
// [ConcurrentStandard], [SplitBlock]); a family with more parameters takes a
// params struct, New<Type>(<Type>Params) ([Blocked], [Multiblock], [Counting], [Scalable],
// [Dynamic], [RedisBloom], [AgePartitioned]). Sizing is one pattern,
// <Family>[Geometry](capacity, fpr) (Geometry, error): [StandardGeometry] (the
// classic rule, also a partitioned filter's), [ExactStandardGeometry],
// [ExactPartitionedGeometry], [BlockedGeometry] (with a block size),
// [MultiblockGeometry] (with a layout) and
// [SplitBlockGeometry]. The Geometry they return records the capacity, which
// the filter built from it reports in [Stats]. New<Type>For(capacity, fpr,
// h) is the one-line form with the classic or the default sizing;
// [NewAgePartitionedFor] takes the options other than the geometry
// ([AgePartitionedOptions]).
//
// # [Hashing]
//
// Each key is hashed once into a [Digest] by a seeded 128-bit hash chosen
// in [Hashing]: [XXH3] (the default), MetroHash, or [SipHash] under a secret
// key. The k cell indexes come from the digest by enhanced double hashing
// in wrapping 64-bit arithmetic, reduced to the table by multiply-shift;
// plain double hashing, triple hashing and k independent hashes are
// research options ([Derivation]). [Blocked], [SplitBlock] and [RedisBloom] index
// by their own rules, and growing and age-partitioned filters draw their
// positions from a per-key random stream (see each type). A [SplitBlock]
// filter uses one 64-bit hash per key, the digest's H1, and also takes the
// 64-bit kinds [XXH64] (Parquet's hash) and [XXH3_64] (cheaper than the
// 128-bit XXH3 by about 25 instructions per 16-byte key); its theory is
// the same for every kind. Sizes and indexes are 64-bit: filters of more
// than 2^32 bits work.
//
// # Keys chosen by an adversary
//
// The theory's rates hold for keys that do not depend on the hash. A seed
// is for reproducibility, not secrecy: whoever knows it can choose keys
// that fill a filter fast or test present. When others choose the keys,
// use Hashing{Kind: [SipHash], Key: [NewKey]()}. The key never prints:
// fmt, log/slog, JSON and gob render it as "[redacted]", in a [Hashing],
// a parameters struct or a filter (see [HashKey]). A saved keyed filter
// holds its key and is as secret as the key: write it readable by its
// owner only, os.WriteFile(path, data, 0o600). paper-notes.md §12
// measures both.
//
// # Speed
//
// Add and Contains do not allocate. [Blocked] and [SplitBlock] test and set
// a block's bits with AVX2 on amd64 processors that have it
// (probe_amd64.s, chosen at run time); every other architecture and the
// purego build tag use pure-Go probes that set the same bits and give the
// same answers. [Batcher] filters take groups of keys so that their cache
// misses overlap. On amd64 with AVX2 a [Blocked] batch of digests (B = 256
// or 512) is one assembly call, which locates every key's block,
// prefetches it 16 keys ahead and tests or sets the key's bits; its key
// forms hash 32 keys in Go (xxh3 is Go code) and make one call per 32.
// A [SplitBlock] batch sets or tests a group's blocks in one assembly
// call. A [Scalable] batch with blocked stages, once the newest stage
// outgrows the cache, prefetches the block of every stage for a group of
// keys in one assembly call, then runs the one-call stage query per key.
// The batches of [AgePartitioned] are Go loops that read a group's lines
// ahead; those of [Standard] are plain loops, since reading ahead did not
// pay there. BenchmarkProbeAsmVsGo times each assembly path against its
// pure-Go form, and BenchmarkBatch the batches against one key at a time;
// paper-notes.md §4a, §4b and §8 hold the measurements.
//
// [Multiblock] tests and sets a key's bits with AVX2 as well
// (multiblock_amd64.s) in its multiblock layouts of 32-bit windows
// (K <= 16) and 64-bit windows (K <= 8), at any stride; its block layouts
// of 256 and 512 bits test with the blocked filter's AVX2 test and set in
// Go; its other layouts are pure Go, and it has no batches.
// BenchmarkMultiblockVector times each layout with the assembly on and
// off beside the split-block filter, in alternating rounds (medians of
// per-round medians over 3 runs). On an AMD EPYC (Zen 4, KVM, 2 cores;
// three sets of runs at load averages of 1.4 to 23), the assembly over
// pure Go was 0.29 to 0.61 for queries and adds of digests in a 256 KiB
// table and 0.51 to 0.71 in a 256 MiB one; multiblock<uint32_t, 8>, the
// split-block filter's layout, over the split-block filter was 0.96 to
// 1.11 in cache and 0.86 to 0.94 in RAM (76 and 60 instructions per
// query of a digest in a loop, callgrind). Block layouts of 512 bits with
// K = 8 gained least (0.64 to 0.75 for queries, and adds are Go).
// docs/speed.md has the table.
//
// Built with GOEXPERIMENT=simd (Go 1.26 or later) on amd64, the
// single-key probes use the compiler intrinsics of simd/archsimd
// (probe_simd_amd64.go) instead of the assembly: the split-block
// filter's add and test of one hash inline into Add, Contains and their
// Digest and Hash64 forms, with no call, and the blocked filter's
// one-pass test (B = 256 or 512, k <= 64/log2 B) is a Go function. They
// set the same bits and give the same answers (the tests compare
// archsimd, assembly and pure Go). The blocked filter's batches and the
// blocked stages of a scalable filter test each block with the same
// function; the split-block batches and the scalable filter's one-call
// stage query keep the assembly, and a processor without AVX2 takes the
// pure-Go probes.
// Build and test with GOEXPERIMENT=simd go test ./variants;
// BenchmarkSplitBlockArchSIMD and BenchmarkBlockedArchSIMD time the three
// in one binary. On an AMD EPYC (Zen 4, KVM, 2 cores, a load average
// of 5 to 19 from other work; two sets of 5 runs, medians of per-round
// medians), archsimd over assembly was 0.78 to 0.84 for the split-block
// filter with the hash given (query and add, 1e4 and 1e6 keys, 10 bits
// per key), 0.88 to 0.91 with the key hashed, and 0.89 to 0.99 for the
// blocked query.
// The default build, which users get, keeps the assembly unchanged.
//
// # Concurrency
//
// Filters hold no hash state and no scratch space, so Contains is safe for
// concurrent use while nothing mutates the filter; Add, Reset and the other
// mutating methods need exclusive access, except on [ConcurrentStandard].
// The package keeps one piece of shared state: a bounded, mutex-guarded
// memo of blocked-stage geometries, which only saves recomputation.
//
// # Persistence and set operations
//
// Every filter implements encoding.BinaryMarshaler, BinaryUnmarshaler,
// io.WriterTo and io.ReaderFrom in the format described at
// [FormatVersion]; [Unmarshal] and [ReadFilter] load a filter of any
// variant. The bit-array filters have Union and Intersect, and every
// filter has Equal. Stats estimates the distinct keys a filter holds from
// its fill, and [EstimateSets] the union and intersection of two filters'
// sets; package analysis predicts the errors of both.
//
// # Memory limits
//
// Every filter's cells are checked against a limit before they are
// allocated: by the constructors, by every new stage of a growing filter
// (its total over all stages, the stages kept by Reset included), by the
// decoders (a growing filter's declared stages all together, before the
// first is allocated) and by MarshalBinary's buffer. The limit is the
// MaxBytes of [ScalableParams], [DynamicParams] or [RedisBloomParams]
// when set, and otherwise the process limit of [MemoryLimit]: half of the
// cgroup memory limit where one is set, else half of physical memory (the
// other half is room for MarshalBinary's copy, a decode's buffers and the
// garbage collector), settable with [SetMemoryLimit]. It bounds each
// filter, not the sum of all filters. A filter over it is an error
// wrapping [ErrMemoryLimit], never a fatal out-of-memory of the runtime.
//
// A growing filter that cannot have its next stage (the limit, or its
// stage rules: [ErrStageLimit]) refuses the key from TryAdd and stays as it
// was ([Grower]); Add keeps the key in its newest stage beyond capacity,
// so that nothing is lost, records the error in Err, and its rate then
// exceeds its target. Parameters that cannot scale are refused: a
// scalable filter whose 256 stages hold fewer than [MinScalableReach]
// items (s = 1), or whose blocks cannot serve its first stage's error;
// its growth stops at the first stage its blocks cannot serve within
// [MaxBlockedStageCost]. WriteTo streams every encoding through a 64 KiB
// buffer, and decoding allocates each table once (see [FormatVersion]).
//
// # Errors
//
// A constructor given a parameter outside its domain returns an error
// wrapping [ErrInvalidParams] that names the parameter; data that does not
// decode gives one wrapping [ErrCorrupt]; filters that cannot be combined
// give one wrapping [ErrIncompatible]; a filter over its memory limit
// gives one wrapping [ErrMemoryLimit] (with ErrInvalidParams from a
// constructor or a decoder); a growing filter that has all the stages its
// rules allow gives one wrapping [ErrStageLimit]. Never a panic, and never
// a silently different filter.
//
// The package depends on the standard library, four hash packages,
// golang.org/x/sys/cpu and package analysis; importing it compiles no
// statistics, plotting or experiment code.
package variants
