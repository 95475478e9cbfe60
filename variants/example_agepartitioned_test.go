package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// An age-partitioned filter deduplicating a stream: the last 1000 events
// always test present, whatever the phase of the generation cycle, at a
// false-positive rate of at most 1% at its worst point; older events are
// forgotten, so the filter runs forever in fixed memory.
func ExampleAgePartitioned() {
	f, err := variants.NewAgePartitionedFor(1000, 0.01, variants.AgePartitionedOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range 100_000 {
		f.Add(fmt.Appendf(nil, "event-%d", i))
	}
	g := f.Model()
	fmt.Printf("k = %d, l = %d, g = %d, %d bits per slice: window %d\n", g.K, g.L, g.G, g.SliceBits, f.Window())
	fmt.Printf("rate %.4f just after a shift, %.4f at worst, %.4f on average\n", g.FPR(1), g.WorstFPR(), g.MeanFPR())
	fmt.Println("event-99000 present:", f.Contains([]byte("event-99000")))
	fmt.Printf("an event 1100 adds old is still present with probability %.3f\n", g.Recall(1100))
	// Output:
	// k = 10, l = 50, g = 20, 328 bits per slice: window 1001
	// rate 0.0097 just after a shift, 0.0099 at worst, 0.0098 on average
	// event-99000 present: true
	// an event 1100 adds old is still present with probability 0.028
}
