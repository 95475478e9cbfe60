package units_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/internal/units"
)

// Flags and configuration files can give sizes with units.
func ExampleParseBits() {
	for _, s := range []string{"1000", "64Kb", "1 MiB", "2MB"} {
		bits, err := units.ParseBits(s)
		fmt.Println(s, "=", bits, "bits", err)
	}
	// Output:
	// 1000 = 1000 bits <nil>
	// 64Kb = 64000 bits <nil>
	// 1 MiB = 8388608 bits <nil>
	// 2MB = 16000000 bits <nil>
}

// Sizes print in the largest binary byte unit that keeps the number at
// least 1.
func ExampleFormatBytes() {
	for _, bits := range []uint64{4096, 191_701_168, 1 << 48} {
		fmt.Println(bits, "bits =", units.FormatBytes(bits))
	}
	// Output:
	// 4096 bits = 512 B
	// 191701168 bits = 22.85 MiB
	// 281474976710656 bits = 32.00 TiB
}
