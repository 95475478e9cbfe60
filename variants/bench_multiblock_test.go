package variants

import "testing"

// BenchmarkMultiblock times Contains of Multiblock layouts beside
// SplitBlock and Blocked at n = 1e6 keys, p = 0.01, 16-byte keys, each
// with its AVX2 probe on amd64 where it has one (unless purego): the
// multiblock layouts of 32- and 64-bit windows, the block layout of 512
// bits (a test only), the split-block and blocked filters; the block
// layout of 64 bits is pure Go. The split-block filter is the layout
// multiblock<uint32_t, 8>; BenchmarkMultiblockVector compares the two
// probes, and each with its pure-Go form, in one run. Overlapping layouts
// are built with the natural stride's bits and K (see multiblockFor).
func BenchmarkMultiblock(b *testing.B) {
	const n, p = 1_000_000, 0.01
	present := benchKeys(1, n, 16)
	absent := benchKeys(2, n, 16)
	filters := []struct {
		name string
		make func() Filter
	}{
		{"split-block", func() Filter { return built(b)(NewSplitBlockFor(n, p, Hashing{})) }},
		{"blocked", func() Filter { return built(b)(NewBlockedFor(n, p, Hashing{})) }},
		{"multiblock-multi32", func() Filter { return multiblockFor(MultiblockParams{WordBits: 32, Multi: true})(b, n, p, Hashing{}) }},
		{"multiblock-multi64", func() Filter { return multiblockFor(MultiblockParams{WordBits: 64, Multi: true})(b, n, p, Hashing{}) }},
		{"multiblock-block64", func() Filter { return multiblockFor(MultiblockParams{WordBits: 64})(b, n, p, Hashing{}) }},
		{"multiblock-block512", func() Filter { return multiblockFor(MultiblockParams{WordBits: 512})(b, n, p, Hashing{}) }},
		{"multiblock-block64-stride8", func() Filter {
			return multiblockFor(MultiblockParams{WordBits: 64, StrideBits: 8})(b, n, p, Hashing{})
		}},
		{"multiblock-multi64-stride8", func() Filter {
			return multiblockFor(MultiblockParams{WordBits: 64, Multi: true, StrideBits: 8})(b, n, p, Hashing{})
		}},
	}
	for _, v := range filters {
		f := v.make()
		for _, k := range present {
			f.Add(k)
		}
		bpk := float64(f.Stats().Bits) / n
		b.Run("variant="+v.name+"/n=1e6/op=contains-present", func(b *testing.B) { benchQueries(b, f, present, true, bpk) })
		b.Run("variant="+v.name+"/n=1e6/op=contains-absent", func(b *testing.B) { benchQueries(b, f, absent, false, bpk) })
	}
}
