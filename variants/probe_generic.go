//go:build !amd64 || purego

package variants

import "unsafe"

// useAVX2 is false where there is no assembly (other architectures, and
// the purego build tag): the pure-Go probes serve every call.
const useAVX2 = false

// Assembly reports whether the filters' block probes run in assembly: the
// AVX2 probes of the blocked, split-block and multiblock filters and of a
// scalable filter's blocked stages (see SetAssembly). It is true by default on
// amd64 processors with AVX2; always false on other architectures, on
// amd64 without AVX2 and in builds with the purego tag, such as this one.
func Assembly() bool { return false }

// SetAssembly turns the assembly block probes on or off for the whole
// program and returns whether they were on before. Turning them on does
// nothing where there are none (other architectures, amd64 without AVX2,
// the purego build tag, as in this build): Assembly then stays false,
// and so does the value SetAssembly returns. The switch changes only
// speed: every filter sets the same bits and gives the same answers
// either way, and files written either way are the same. It is there to
// measure, on the machine at hand, what the assembly gains (experiment
// -exp self, BenchmarkProbeAsmVsGo), and to fall back to pure Go where it
// does not pay.
//
// SetAssembly writes a package variable that every probe reads without
// synchronisation: call it before the filters are in use, never while
// another goroutine adds to or queries a filter.
func SetAssembly(on bool) (previous bool) { return false }

// The probe entry points of this build are the pure-Go probes.

func splitAddHash(words unsafe.Pointer, z, h uint64) { splitAddHashGo(words, z, h) }

func splitContainsHash(words unsafe.Pointer, z, h uint64) bool {
	return splitContainsHashGo(words, z, h)
}

func splitAdd(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int) {
	splitAddGo(words, z, h, stride, n)
}

func splitContains(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int, out *bool) {
	splitContainsGo(words, z, h, stride, n, out)
}

func blockedTest(b unsafe.Pointer, h2 uint64, k, per int, shift uint) bool {
	return blockedTestGo(b, h2, k, per, shift)
}

func streamBlockedTest(hot unsafe.Pointer, n int, s uint64, prefetch bool) bool {
	return streamBlockedTestGo(unsafe.Slice((*streamStage)(hot), n), s)
}

func blockedContains(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, out *bool, prefetch bool) {
	blockedContainsGo(words, z, k, per, shift, d, stride, n, out, prefetch)
}

func blockedAdd(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, prefetch bool) {
	blockedAddGo(words, z, k, per, shift, d, stride, n, prefetch)
}

func streamBlockedPrefetch(hot unsafe.Pointer, n int, seeds *uint64, m int) {
	streamBlockedPrefetchGo(hot, n, seeds, m)
}
