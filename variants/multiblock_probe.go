package variants

// The vector probes of a [Multiblock] filter's layouts: which layouts have
// one, chosen once when the filter is built (multiblockVecOf), and taken
// by test and set when the assembly is on (vectorTest and vectorSet, in
// multiblock_amd64.go; never in builds without assembly,
// multiblock_generic.go). They set the same bits as the pure-Go probes of
// multiblock.go, which stay the reference, and give the same answers.
const (
	multiVecNone       uint8 = iota // pure Go only
	multiVec32                      // multiblock, w = 32, K <= 16: multiTest, multiSet (AVX2)
	multiVec64                      // multiblock, w = 64, K <= 8: multiTest, multiSet (AVX2)
	multiVecBlocked256              // block, w = 256: the blocked filter's test, B = 256
	multiVecBlocked512              // block, w = 512: the blocked filter's test, B = 512
)

// multiblockVecOf returns the vector probe of a layout: multi, w bits per
// window and k hashes, at any stride. A block layout of w = 256 or 512
// bits tests its window as a blocked filter of B = w bits tests its block
// (the same derivation; the window is read from its byte address, and the
// blocked filter's AVX2 test reads the block with unaligned loads), and
// sets its bits in Go.
func multiblockVecOf(multi bool, w uint64, k int) uint8 {
	switch {
	case k < 1:
		return multiVecNone
	case multi && w == 32 && k <= 16:
		return multiVec32
	case multi && w == 64 && k <= 8:
		return multiVec64
	case !multi && w == 256:
		return multiVecBlocked256
	case !multi && w == 512:
		return multiVecBlocked512
	}
	return multiVecNone
}
