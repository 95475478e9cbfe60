package analysis_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/analysis"
)

// Sizing a filter for ten million items at a false-positive rate of 1e-4.
func ExampleStandardSize() {
	n := uint64(10_000_000)
	s, err := analysis.StandardSize(n, 1e-4)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, k := s.Bits, s.Hashes
	fmt.Printf("bits: %d = %.2f MiB\n", m, float64(m)/8/(1<<20))
	fmt.Println("hashes:", k)
	fmt.Printf("bits per key: %.2f (minimum %.2f)\n", analysis.BitsPerKey(m, n), analysis.InformationMinimum(1e-4))
	fmt.Printf("rate at k = %d: %.4g\n", k, analysis.ClassicFPR(m, n, k))
	// Output:
	// bits: 191701168 = 22.85 MiB
	// hashes: 13
	// bits per key: 19.17 (minimum 13.29)
	// rate at k = 13: 0.0001001
}

// For small filters the classic formula underestimates the rate; the
// exact rate E[(X/m)^k] is higher.
func ExampleExactFPR() {
	for _, m := range []uint64{64, 1024, 1 << 20} {
		n, k := m/8, 6
		fmt.Printf("m=%-8d classic %.5f  Bloom %.5f  exact %.5f\n", m,
			analysis.ClassicFPR(m, n, k), analysis.BloomFPR(m, n, k), analysis.ExactFPR(m, n, k))
	}
	// Output:
	// m=64       classic 0.02158  Bloom 0.02227  exact 0.02381
	// m=1024     classic 0.02158  Bloom 0.02162  exact 0.02171
	// m=1048576  classic 0.02158  Bloom 0.02158  exact 0.02158
}

// Solve fills in whatever is missing, like the common online calculator.
func ExampleSolve() {
	s, err := analysis.Solve(analysis.Sizing{N: 1000, P: 0.01})
	fmt.Printf("%+v %v\n", s, err)

	s, err = analysis.Solve(analysis.Sizing{M: 8 << 20, P: 1e-6}) // 1 MiB at 1e-6
	fmt.Printf("%+v %v\n", s, err)

	_, err = analysis.Solve(analysis.Sizing{N: 1000})
	fmt.Println(err)
	// Output:
	// {N:1000 M:9586 K:7 P:0.01} <nil>
	// {N:291724 M:8388608 K:20 P:1e-06} <nil>
	// analysis: invalid parameters: insufficient: only n known; need m or p as well
}

// The compound rate of a scalable filter stays below its target however
// many stages it opens.
func ExampleScalable_FPR() {
	s := analysis.Scalable{P: 0.01, R: 0.8, S: 2, N0: 1000}
	for _, items := range []uint64{1000, 10_000, 1_000_000} {
		st, _ := s.Stages(items)
		f, _ := s.FPR(items)
		bpe, _ := s.BitsPerKey(items)
		fmt.Printf("%8d items: %2d stages, rate %.5f, %.1f bits per key\n", items, len(st), f, bpe)
	}
	fmt.Println("bound:", s.Bound())
	// Output:
	//     1000 items:  1 stages, rate 0.00195, 13.0 bits per key
	//    10000 items:  4 stages, rate 0.00390, 21.5 bits per key
	//  1000000 items: 10 stages, rate 0.00698, 17.5 bits per key
	// bound: 0.01
}

// The memory a blocked filter needs beyond a standard one at the same
// rate: the block penalty, from the exact blocked rate.
func ExampleBlockedSize() {
	std, _ := analysis.StandardSize(1_000_000, 0.001)
	for _, b := range []uint64{64, 512} {
		bl, _ := analysis.BlockedSize(1_000_000, 0.001, b)
		rate, _ := bl.FPR(1_000_000)
		fmt.Printf("B = %d: m = %d, k = %d, %.3f x standard, rate %.4g\n", b, bl.Bits, bl.Hashes, float64(bl.Bits)/float64(std.Bits), rate)
	}
	sb, _ := analysis.SplitBlockSize(1_000_000, 0.001)
	fmt.Printf("split-block: m = %d, %.3f x standard\n", sb.Bits, float64(sb.Bits)/float64(std.Bits))
	// Output:
	// B = 64: m = 23997760, k = 7, 1.669 x standard, rate 0.001
	// B = 512: m = 15545856, k = 9, 1.081 x standard, rate 0.0009999
	// split-block: m = 16889856, 1.175 x standard
}

// The probes a query reads when it tests them in pairs and stops at the
// first pair with a clear bit, at fill 1/2: 2 + 2/4 + 2/16 + 2/64 for 8
// probes.
func ExampleGroupedProbes() {
	fmt.Printf("%.4f\n", analysis.GroupedProbes(8, 2, 0.5))
	// Output: 2.6562
}
