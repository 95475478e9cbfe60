// Package variants implements Bloom filters behind one Filter interface:
// Standard (Bloom 1970), Partitioned (one slice per hash), Counting (packed
// saturating counters, with deletion), Scalable (Almeida, Baquero, Preguiça
// and Hutchison 2007, which grows without a known capacity while holding
// its false-positive target), Dynamic (Guo, Wu, Chen, Luo and Yuan 2010:
// equal stages appended as each fills, whose rate grows with them),
// RedisBloom (a bit-exact model of the scalable filter RedisBloom's
// BF.RESERVE builds, with its MurmurHash64A and its plain double hashing,
// so that its measured rate is RedisBloom's), ConcurrentStandard (a
// standard filter that takes concurrent adds), and the two cache-blocked
// filters that touch one
// memory block per key: Blocked (Putze, Sanders and Singler 2007; blocks of
// 512 bits, one cache line, by default) and SplitBlock (the split-block
// filter of Apache Impala, Kudu and Parquet, bit for bit, with raw 64-bit
// hash entry points and the raw Parquet bitset, so that a Parquet column
// chunk's Bloom filter can be queried; ParquetHash gives its XXH64).
// AgePartitioned (Shtul, Baquero and Almeida 2020) is the filter for
// streams: it answers "among the last W keys?", forgets older keys in
// fixed memory, and promises no false negative among the most recent
// Window() keys at every phase of its generation cycle (in place of never
// a false negative); its blocked layout touches two to three cache lines
// per insert.
//
// # Hashing
//
// Each key is hashed once, with a seeded 128-bit hash (XXH3 by default, or
// MetroHash, or the SipHash kind, SipHash-2-4 under a secret key), into a
// Digest; the k cell indexes are derived from the digest
// by enhanced double hashing in wrapping 64-bit arithmetic and reduced to
// the table by multiply-shift. Blocked, SplitBlock and RedisBloom index by
// their own rules (see each); the stages of a scalable filter with the
// default derivation and of a dynamic filter, and the slices of an
// age-partitioned filter, take their positions from a per-key random
// stream (see Scalable and AgePartitioned). Plain double hashing, triple hashing and k
// independent hashes are available as research options (see Derivation).
// Partitioned filters, and so the stages of a scalable filter, pass every
// derived value through a 64-bit mixer first (see Partitioned). Sizes and
// indexes are 64-bit: filters of more than 2^32 bits work.
//
// # Keys chosen by an adversary
//
// The rates the theory promises hold for keys that do not depend on the
// hash. A seed is for reproducibility, not secrecy: it is saved with the
// filter, and whoever knows it can choose keys that fill a filter several
// times faster than random keys, forge keys that test present, or remove
// forged keys from a counting filter and make members test absent (the
// adversary experiment of package experiments measures each). When others
// choose the keys, use Hashing{Kind: SipHash, Key: NewKey()}: without the key
// nobody can compute a key's cells (see FreshCounter for what an attacker
// with them does). A saved keyed filter holds its key and is as secret as
// the key. The keyed hash costs about four times the instructions of XXH3
// for a 16-byte key.
//
// # Speed
//
// With the default hashing, Add and Contains of a Standard or Partitioned
// filter are one call to the hash and one loop over the k cells, which
// reads its words without bounds checks (every index is below the table
// size by construction, and the loop asserts the table's size once).
// Other hash options go through Sum and ContainsDigest, one or two calls
// more. A query for an absent key usually ends after the first four
// cells. BenchmarkFilter and BenchmarkFilterInCache measure both against
// the hash alone.
//
// The cache-local filters test and set the bits of a block with AVX2 on
// amd64 processors that have it (probe_amd64.s, chosen at run time with
// golang.org/x/sys/cpu): the split-block filter builds its eight-word mask
// from the eight salts in one vector and tests it with one VPTEST, as
// parquet-go, Impala and Kudu do, and the blocked filter at B = 256 and
// 512 computes eight of a key's positions at a time and fetches their
// words with VPERMD. Other architectures, and the purego build tag, use
// the pure-Go probes, which set the same bits and give the same answers
// (a test checks it on random keys); the format and the theory do not
// depend on the path.
//
// Blocked and SplitBlock also implement Batcher: AddBatch and ContainsBatch
// hash a group of keys, touch every group member's block, and only then set
// or test the bits, so that the cache misses of independent keys overlap
// instead of being paid one after another. The split-block filter's
// AddDigestBatch and ContainsDigestBatch hand the whole slice of digests to
// one vector loop, whose few instructions per key leave the processor room
// for many misses in flight without a touch pass. BenchmarkBlocked
// measures them against one-at-a-time calls and against a baseline of raw
// loads of random cache lines at the same size.
//
// A scalable filter's query visits every stage. With its default
// partitioned stages it refutes an absent key in each large stage with
// about two reads of different lines, so far beyond cache it costs several
// times a standard filter's query (BenchmarkScalable measures both, and a
// standard filter of the same memory). With ScalableParams.BlockBits its
// stages are blocked filters: a query reads every stage's block in one
// pass, so the stages' cache misses overlap, which far beyond cache makes
// an add cheaper, for about 14% more memory (BenchmarkScalable,
// variant=scalable-blocked).
//
// # Concurrency
//
// Filters hold no hash state and no scratch space, so Contains is safe for
// concurrent use while nothing mutates the filter; Add, Reset and the other
// mutating methods need exclusive access, except on ConcurrentStandard.
// Add and Contains do not allocate.
//
// # Constructors and sizing
//
// A filter whose parameters are its geometry and its hashing has
// New<Type>(g Geometry, h Hashing) (Standard, Partitioned,
// ConcurrentStandard, SplitBlock); a family with more parameters takes a
// params struct, New<Type>(<Type>Params) (Blocked, Counting, Scalable,
// Dynamic, RedisBloom, AgePartitioned). Sizing is one pattern,
// <Family>Geometry(capacity, fpr) (Geometry, error): StandardGeometry (the
// classic rule, also a partitioned filter's), ExactStandardGeometry,
// ExactPartitionedGeometry, BlockedGeometry (with a block size) and
// SplitBlockGeometry. The Geometry they return records the capacity, which
// the filter built from it reports in Stats. New<Type>For(capacity, fpr,
// h) is the one-line form with the classic or the default sizing;
// NewAgePartitionedFor takes the options other than the geometry
// (AgePartitionedOptions).
//
// # Persistence and set operations
//
// Every filter implements encoding.BinaryMarshaler and BinaryUnmarshaler,
// io.WriterTo and io.ReaderFrom, in the format described at FormatVersion;
// Unmarshal and ReadFilter load a filter of any variant. Standard,
// Partitioned, Blocked and SplitBlock filters have Union and Intersect,
// Counting has Union, and all have Equal. Every filter's Stats estimates
// the number of distinct keys it holds from its fill (EstimatedItems), and
// EstimateSets estimates the union and intersection of two filters' sets
// without building a third filter; package analysis predicts the errors
// of both. The four bit-array variants share
// one unexported core (the word table, fill, reset, set operations and the
// parameter block of the format); each adds only its indexing.
//
// # Errors
//
// Values from users are validated: a constructor given a parameter outside
// its domain returns an error wrapping ErrInvalidParams that names the
// parameter, data that does not decode gives an error wrapping ErrCorrupt,
// and filters that cannot be combined give one wrapping ErrIncompatible;
// never a panic and never a silently different filter.
//
// The package depends on the standard library, the hash packages and
// package analysis (for sizing and the models, itself standard library
// only); importing it does not pull in the experiment runner, statistics
// or plotting.
package variants
