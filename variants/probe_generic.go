//go:build !amd64 || purego

package variants

import "unsafe"

// useAVX2 is false where there is no assembly (other architectures, and
// the purego build tag): the pure-Go probes serve every call.
const useAVX2 = false

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
