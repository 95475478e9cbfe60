//go:build !purego

package variants

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveAVX2 reports whether the processor has AVX2, which every assembly
// probe of probe_amd64.s needs.
var haveAVX2 = cpu.X86.HasAVX2

// useAVX2 selects the AVX2 block probes of probe_amd64.s, on processors
// that have AVX2; each probe jumps to its pure-Go form (the ...Go
// functions) when it is false. SetAssembly sets it; tests turn it off to
// compare the two paths.
var useAVX2 = haveAVX2

// Assembly reports whether the filters' block probes run in assembly: the
// AVX2 probes of the blocked, split-block and multiblock filters and of a
// scalable filter's blocked stages (see SetAssembly). It is true by default on
// amd64 processors with AVX2; always false on other architectures, on
// amd64 without AVX2 and in builds with the purego tag.
func Assembly() bool { return useAVX2 }

// SetAssembly turns the assembly block probes on or off for the whole
// program and returns whether they were on before. Turning them on does
// nothing where there are none (other architectures, amd64 without AVX2,
// the purego build tag): Assembly then stays false, and so does the
// value SetAssembly returns. The switch changes only speed: every filter
// sets the same bits and gives the same answers either way, and files
// written either way are the same. It is there to measure, on the
// machine at hand, what the assembly gains (experiment -exp self,
// BenchmarkProbeAsmVsGo), and to fall back to pure Go where it does not
// pay.
//
// SetAssembly writes a package variable that every probe reads without
// synchronisation: call it before the filters are in use, never while
// another goroutine adds to or queries a filter.
func SetAssembly(on bool) (previous bool) {
	previous = useAVX2
	useAVX2 = on && haveAVX2
	return previous
}

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

// blockedContains sets out[i] to whether the k bits of the i-th of the n
// digests at d (stride bytes apart, h1 at the digest's address and h2
// eight bytes on) are all set in the block of h1 in the table at words of
// z blocks of 1 << shift bits, per = 64/shift positions per 64-bit value
// (see Blocked). With prefetch it prefetches each key's block 16 keys
// ahead of its test. The AVX2 loop serves B = 256 and 512 (shift 8 and
// 9); it jumps to blockedContainsGo for the other block sizes.
//
//go:noescape
func blockedContains(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, out *bool, prefetch bool)

// blockedAdd sets the k bits of each of the n digests at d (as
// blockedContains reads them) in their blocks. The assembly loop serves
// B = 256 and 512 with useAVX2; it jumps to blockedAddGo otherwise.
//
//go:noescape
func blockedAdd(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, prefetch bool)

// streamBlockedPrefetch prefetches, for each of the m stream seeds at
// seeds, the block of every one of the n blocked stream stages at hot (the
// scalable filter's batches); with useAVX2 off it is
// streamBlockedPrefetchGo, which reads a word of each block instead.
//
//go:noescape
func streamBlockedPrefetch(hot unsafe.Pointer, n int, seeds *uint64, m int)
