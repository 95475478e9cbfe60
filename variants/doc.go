// Package variants implements Bloom filters behind one Filter interface:
// Standard (Bloom 1970), Partitioned (one slice per hash), Counting (packed
// saturating counters, with deletion) and Scalable (Almeida, Baquero,
// Preguiça and Hutchison 2007, which grows without a known capacity while
// holding its false-positive target).
//
// Each key is hashed once, with a seeded 128-bit hash (XXH3 by default, or
// MetroHash), into a Digest; the k cell indexes are derived from the digest
// by enhanced double hashing in wrapping 64-bit arithmetic and reduced to
// the table by multiply-shift. Plain double hashing, triple hashing and k
// independent hashes are available as research options (see Derivation).
// Sizes and indexes are 64-bit: filters of more than 2^32 bits work.
//
// Filters hold no hash state and no scratch space, so Contains is safe for
// concurrent use while nothing mutates the filter; Add, Reset and the other
// mutating methods need exclusive access. Add and Contains do not allocate.
//
// Parameters from users are validated: a constructor given a value outside
// its domain returns an error wrapping ErrInvalidParams that names the
// parameter, never a panic and never a silently different filter.
//
// The package depends only on the standard library, the two hash packages
// and package analysis (for sizing); importing it does not pull in the
// experiment runner or plotting.
package variants
