//go:build goexperiment.simd && amd64 && !purego

package variants

import (
	"simd/archsimd"
	"unsafe"
)

// The GOEXPERIMENT=simd build of the single-key block probes: the
// split-block filter's add and test of one hash written with the vector
// intrinsics of simd/archsimd, which the compiler inlines into the
// caller (Add, Contains, AddDigest, ContainsDigest, AddHash64,
// ContainsHash64), where Go cannot inline the assembly of probe_amd64.s.
// They compute the eight 32-bit words of a key's mask as the assembly
// does (broadcast the low 32 bits, multiply by the eight salts, shift
// right by 27, shift 1 left by each lane) and set the same bits. The
// blocked filter's one-pass test is here too, as a Go function (see
// blockedTestOne), which Blocked.test, and so its batches and the
// scalable filter's blocked stages, call. The split-block batch entry
// points and the scalable filter's one-call stage query
// (streamBlockedTest) keep the assembly.
//
// A single-key probe takes the archsimd form when useArchSIMD (the
// processor has AVX2, by archsimd's own check) and useAVX2 (the switch of
// every vector probe, which tests turn off for the pure-Go forms) are
// both set, and otherwise calls the probe entry point of probe_amd64.s,
// which jumps to the pure-Go form without AVX2.
//
// Inlining: the compiler inlines a function whose cost is at most 80
// nodes, a call to another function costing 57 of them, and a call to a
// function parameter 17. The archsimd body costs about 40 and a direct
// fallback call to the assembly would exceed the budget, so each probe is
// written as a ...With function that takes its fallback as a parameter;
// splitAddOne and splitContainsOne pass the assembly entry point, which
// the fallback path then calls through the function value. The hooks
// cost 78 and 80: one node more and they stop inlining, which CI checks
// (.ci/run greps go build -gcflags=-m). Each vector probe ends with
// VZEROUPPER (archsimd.ClearAVXUpperBits), as the assembly does, since the
// compiler's own code uses legacy-SSE instructions, which must not run
// with the upper halves of the Y registers dirty (see DESIGN.md, Speed).

// useArchSIMD reports whether the processor has AVX2, which the archsimd
// probes need. Tests turn it off to compare the archsimd probes with the
// assembly.
var useArchSIMD = archsimd.X86.AVX2()

// archSIMDProbes reports that this build has the archsimd single-key
// probes (see probe_inline.go).
const archSIMDProbes = true

// splitSaltsArr holds the eight salts of the split-block filter (see
// masks), one per 32-bit lane.
var splitSaltsArr = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// The vector constants of the probes, loaded once (only on processors
// with AVX2, so that the package initialises everywhere): the salts,
// lanes of 1, and lanes of 27. The shift right by 27 is a variable shift
// (VPSRLVD) by splitShift27 rather than ShiftAllRight(27), which Go 1.26
// compiles to a legacy-SSE MOVQ of the count into an X register followed
// by VPSRLD, an encoding mix inside Y-register code.
var splitSalts, splitOnes, splitShift27 archsimd.Uint32x8

func init() {
	if useArchSIMD {
		splitSalts = archsimd.LoadUint32x8(&splitSaltsArr)
		splitOnes = archsimd.BroadcastUint32x8(1)
		splitShift27 = archsimd.BroadcastUint32x8(27)
	}
}

// splitAddOne sets the bits of hash h in the table at words of z blocks,
// with archsimd where it can.
func splitAddOne(words unsafe.Pointer, z, h uint64) { splitAddWith(words, z, h, splitAddHash) }

// splitContainsOne reports whether the bits of hash h are all set in the
// table at words of z blocks, with archsimd where it can.
func splitContainsOne(words unsafe.Pointer, z, h uint64) bool {
	return splitContainsWith(words, z, h, splitContainsHash)
}

// splitMaskSIMD returns the block mask of x, lane i holding
// 1 << ((x salt_i) >> 27).
func splitMaskSIMD(x uint32) archsimd.Uint32x8 {
	return splitOnes.ShiftLeft(archsimd.Uint32x4{}.SetElem(0, x).Broadcast1To8().Mul(splitSalts).ShiftRight(splitShift27))
}

// splitAddWith sets the bits of hash h with archsimd, or calls other
// (the assembly entry point) when the archsimd probes are off.
func splitAddWith(words unsafe.Pointer, z, h uint64, other func(unsafe.Pointer, uint64, uint64)) {
	if useArchSIMD && useAVX2 {
		b := (*[8]uint32)(splitBlockAt(words, z, h))
		archsimd.LoadUint32x8(b).Or(splitMaskSIMD(uint32(h))).Store(b)
		archsimd.ClearAVXUpperBits()
		return
	}
	other(words, z, h)
}

// splitContainsWith reports whether the bits of hash h are all set, with
// archsimd (one VPTEST of the mask against the block), or calls other
// (the assembly entry point) when the archsimd probes are off. The two
// returns each clear the upper halves after the test, so that the
// compiler schedules the test before the VZEROUPPER.
func splitContainsWith(words unsafe.Pointer, z, h uint64, other func(unsafe.Pointer, uint64, uint64) bool) bool {
	if useArchSIMD && useAVX2 {
		if splitMaskSIMD(uint32(h)).AndNot(archsimd.LoadUint32x8((*[8]uint32)(splitBlockAt(words, z, h)))).IsZero() {
			archsimd.ClearAVXUpperBits()
			return true
		}
		archsimd.ClearAVXUpperBits()
		return false
	}
	return other(words, z, h)
}

// ---- The blocked filter ----
//
// blockedTestOne tests a key of a blocked filter with B = 256 or 512 (s =
// 8 or 9 bits per position) and k <= 64/s, the positions of h2 alone, as
// the assembly's one-pass form does: h2 broadcast to four 64-bit lanes,
// shifted right by (j s) and by ((j+4) s) (VPSRLVQ), the low halves of
// both interleaved (VSHUFPS) into eight 32-bit lanes holding positions
// 0, 1, 4, 5, 2, 3, 6, 7; each lane's 32-bit word fetched from the block
// with VPERMD (two for B = 512, chosen by bit 8 of the position), and all
// bits tested with one VPTEST. Other block sizes and larger k call the
// assembly, which has the loop.
//
// It does not fit the inlining budget (it costs about 200 of the 80
// nodes), so it is an ordinary Go function called with the register ABI,
// where a call of the assembly (ABI0) passes the arguments and the result
// through the stack and restores X15 and R14 after it.

// blockedShiftsArr holds, for s = 8 and 9, the two sets of 64-bit lane
// shifts (j s and (j+4) s for j = 0 to 3).
var blockedShiftsArr = [2][2][4]uint64{
	{{0, 8, 16, 24}, {32, 40, 48, 56}},
	{{0, 9, 18, 27}, {36, 45, 54, 63}},
}

// blockedLanesArr holds, for k = 0 to 8, the lanes of the first k
// positions, in the lane order 0, 1, 4, 5, 2, 3, 6, 7; the rows above 8
// are unused and keep the index k&15 inside the array.
var blockedLanesArr = func() (t [16][8]uint32) {
	order := [8]int{0, 1, 4, 5, 2, 3, 6, 7}
	for k := range t {
		for j, pos := range order {
			if pos < k && k <= 8 {
				t[k][j] = ^uint32(0)
			}
		}
	}
	return t
}()

var (
	blockedShA8, blockedShB8, blockedShA9, blockedShB9 archsimd.Uint64x4
	blockedLow5, blockedFive                           archsimd.Uint32x8
)

func init() {
	if useArchSIMD {
		blockedShA8 = archsimd.LoadUint64x4(&blockedShiftsArr[0][0])
		blockedShB8 = archsimd.LoadUint64x4(&blockedShiftsArr[0][1])
		blockedShA9 = archsimd.LoadUint64x4(&blockedShiftsArr[1][0])
		blockedShB9 = archsimd.LoadUint64x4(&blockedShiftsArr[1][1])
		blockedLow5 = archsimd.BroadcastUint32x8(31)
		blockedFive = archsimd.BroadcastUint32x8(5)
	}
}

// blockedTestOne reports whether the k bits of h2 are all set in the
// block at b (see blockedTest), with archsimd for B = 256 and 512 and
// k <= per, and otherwise with the assembly entry point.
func blockedTestOne(b unsafe.Pointer, h2 uint64, k, per int, shift uint) bool {
	if !useArchSIMD || !useAVX2 || k > per || shift-8 > 1 {
		return blockedTest(b, h2, k, per, shift)
	}
	v := archsimd.Uint64x2{}.SetElem(0, h2).Broadcast1To4() // VPBROADCASTQ
	shA, shB := blockedShA8, blockedShB8
	if shift == 9 {
		shA, shB = blockedShA9, blockedShB9
	}
	pos := v.ShiftRight(shA).AsUint32x8().SelectFromPairGrouped(0, 2, 4, 6, v.ShiftRight(shB).AsUint32x8())
	bit := splitOnes.ShiftLeft(pos.And(blockedLow5)).And(archsimd.LoadUint32x8(&blockedLanesArr[k&15]))
	idx := pos.ShiftRight(blockedFive)
	w := archsimd.LoadUint32x8((*[8]uint32)(b)).Permute(idx)
	if shift == 9 {
		// The word of the block's second half where bit 8 of the position
		// is set: sel is all ones there (bit 8 moved to the sign, spread).
		hi := archsimd.LoadUint32x8((*[8]uint32)(unsafe.Add(b, 32))).Permute(idx)
		sel := pos.ShiftAllLeft(23).AsInt32x8().ShiftAllRight(31).AsUint32x8()
		w = w.Xor(w.Xor(hi).And(sel))
	}
	if bit.AndNot(w).IsZero() {
		archsimd.ClearAVXUpperBits()
		return true
	}
	archsimd.ClearAVXUpperBits()
	return false
}
