//go:build !purego

package variants

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2 selects the AVX2 block probes of probe_amd64.s, on processors
// that have AVX2; each probe jumps to its pure-Go form (the ...Go
// functions) when it is false. Tests turn it off to compare the two paths.
var useAVX2 = cpu.X86.HasAVX2

// The probe entry points of the split-block filter. words is the table's
// address and z its number of 256-bit blocks, checked by the caller; a
// 64-bit hash h sets or tests, in the block ((h >> 32) z) >> 32, the mask
// of its low 32 bits, which has bit (x salt_i) >> 27 in 32-bit word i (see
// masks). The AVX2 forms compute the eight words of the mask at once.

// splitAddHash sets the bits of hash h.
//
//go:noescape
func splitAddHash(words unsafe.Pointer, z, h uint64)

// splitContainsHash reports whether the bits of hash h are all set.
//
//go:noescape
func splitContainsHash(words unsafe.Pointer, z, h uint64) bool

// splitAdd sets the bits of each of the n 64-bit hashes at h, h+stride,
// ... (bytes).
//
//go:noescape
func splitAdd(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int)

// splitContains sets out[i] to whether the bits of the i-th of the n
// hashes at h (stride bytes apart) are all set.
//
//go:noescape
func splitContains(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int, out *bool)

// blockedTest reports whether the k bits that h2 gives, s = shift bits per
// position and per = 64/s positions per 64-bit value (see Blocked), are
// all set in the block at b. The AVX2 form serves B = 256 and 512 (s = 8
// and 9); it jumps to blockedTestGo for the other block sizes.
//
//go:noescape
func blockedTest(b unsafe.Pointer, h2 uint64, k, per int, shift uint) bool

// streamBlockedTest is containsStreamBlocked's query with every stage's
// block found and tested in one call: it reports whether the stream seed s
// tests present in one of the n stream stages (blocked, with 8 or 9 bits
// per position) at hot, testing the newest first; with prefetch, it first
// prefetches every stage's block. Only for useAVX2.
//
//go:noescape
func streamBlockedTest(hot unsafe.Pointer, n int, s uint64, prefetch bool) bool
