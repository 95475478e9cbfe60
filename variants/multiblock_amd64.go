//go:build !purego

package variants

import "unsafe"

// multiTest reports whether the key of digest half h2 tests present in
// the block at p (the table's address plus the block's first bit / 8) of
// a filter of k hashes whose layout has the vector probe vec: the AVX2
// test of multiblock_amd64.s for multiVec32 (k = 1 to 16) and multiVec64
// (k = 1 to 8), which jumps to multiTestGo for the block layouts
// (multiVecBlocked256 and 512). Only for useAVX2.
//
//go:noescape
func multiTest(p unsafe.Pointer, h2 uint64, k int, vec uint8) bool

// multiSet sets the bits of the key of digest half h2 in the block at p,
// for multiVec32 and multiVec64 (k as for multiTest). Only for useAVX2.
//
//go:noescape
func multiSet(p unsafe.Pointer, h2 uint64, k int, vec uint8)

// vectorTest reports whether test takes the vector probe: the assembly
// is on and the layout has one (multiblockVecOf).
func (f *Multiblock) vectorTest() bool { return useAVX2 && f.vec != multiVecNone }

// vectorSet reports whether set takes the vector probe: the assembly is
// on and the layout is a multiblock one of w = 32 or 64 bits.
func (f *Multiblock) vectorSet() bool { return useAVX2 && f.vec-multiVec32 <= multiVec64-multiVec32 }

// blockAt returns the address of the block that starts at bit b, a whole
// byte: b is at most (P - 1) S, so the block's L bits lie in the table.
func (f *Multiblock) blockAt(b uint64) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.words)), b>>3)
}

// testVec is test with the vector probe (vectorTest is true).
func (f *Multiblock) testVec(b, h2 uint64) bool { return multiTest(f.blockAt(b), h2, f.k, f.vec) }

// setVec is set with the vector probe (vectorSet is true).
func (f *Multiblock) setVec(b, h2 uint64) { multiSet(f.blockAt(b), h2, f.k, f.vec) }

// multiTestGo is multiTest for the block layouts of w = 256 and 512 bits,
// to which the assembly jumps: the blocked filter's test of the window at
// p (with AVX2, or its archsimd form in the GOEXPERIMENT=simd build).
//
//lint:ignore U1000 reached from multiblock_amd64.s (JMP), which the checker does not read
func multiTestGo(p unsafe.Pointer, h2 uint64, k int, vec uint8) bool {
	shift := uint(8)
	if vec == multiVecBlocked512 {
		shift = 9
	}
	return blockedTestOne(p, h2, k, 64/int(shift), shift)
}
