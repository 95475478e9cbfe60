//go:build !goexperiment.simd || !amd64 || purego

package variants

import "unsafe"

// The single-key probes of the split-block filter, which its Add,
// Contains and the Hash64 and Digest forms call, and of the blocked
// filter, which its test calls. In this build (no GOEXPERIMENT=simd,
// another architecture or the purego tag) they are the probe entry
// points themselves, inlined to a call of the assembly or of the pure-Go
// form; the GOEXPERIMENT=simd build on amd64 replaces them with archsimd
// forms (probe_simd_amd64.go).

// archSIMDProbes reports whether this build has the archsimd single-key
// probes; the methods whose inlining cost is near the budget test it, so
// that this build compiles them exactly as before.
const archSIMDProbes = false

// splitAddOne sets the bits of hash h (see splitAddHash).
func splitAddOne(words unsafe.Pointer, z, h uint64) { splitAddHash(words, z, h) }

// splitContainsOne reports whether the bits of hash h are all set (see
// splitContainsHash).
func splitContainsOne(words unsafe.Pointer, z, h uint64) bool {
	return splitContainsHash(words, z, h)
}

// blockedTestOne is the blocked filter's test of one key (see
// blockedTest); the GOEXPERIMENT=simd build on amd64 replaces it with an
// archsimd form for B = 256 and 512.
func blockedTestOne(b unsafe.Pointer, h2 uint64, k, per int, shift uint) bool {
	return blockedTest(b, h2, k, per, shift)
}
