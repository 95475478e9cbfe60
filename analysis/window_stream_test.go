package analysis

import "testing"

// TestAgePartitionedStream checks the loads and the rate from the first
// add against a literal simulation of the slices' item counts, and the
// rate against the steady-state FPR(c) once it holds.
func TestAgePartitionedStream(t *testing.T) {
	t.Parallel()
	a := AgePartitioned{K: 4, L: 3, G: 50, SliceBits: 300}
	if r := AgePartitionedStreamFPR(a, 0); r != 0 {
		t.Errorf("rate of an empty filter %g", r)
	}
	n := a.K + a.L
	loads := make([]uint64, n) // by age
	cur := uint64(0)
	for tt := uint64(1); tt <= uint64(n+3)*a.G; tt++ {
		if cur == a.G {
			copy(loads[1:], loads[:n-1])
			loads[0], cur = 0, 0
		}
		cur++
		for j := range a.K {
			loads[j]++
		}
		for j := range n {
			if got := AgePartitionedStreamLoad(a, j, tt); got != loads[j] {
				t.Fatalf("after %d adds slice %d holds %d, simulation %d", tt, j, got, loads[j])
			}
		}
	}
	steady := uint64(a.K+a.L-1)*a.G + 1
	for tt := steady; tt < steady+3*a.G; tt++ {
		if got, want := AgePartitionedStreamFPR(a, tt), a.FPR((tt-1)%a.G+1); got != want {
			t.Fatalf("after %d adds: %g, steady-state FPR %g", tt, got, want)
		}
	}
	for tt := uint64(1); tt < steady-a.G; tt++ {
		if got, st := AgePartitionedStreamFPR(a, tt), a.FPR((tt-1)%a.G+1); got > st {
			t.Fatalf("after %d adds: %g above the steady-state %g", tt, got, st)
		}
	}
}
