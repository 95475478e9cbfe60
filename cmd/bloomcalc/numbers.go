package main

import (
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/internal/units"
)

// group writes the whole number in digits (a run of decimal digits, with
// an optional leading minus) with a comma between each group of three:
// "9585059" is "9,585,059".
func group(digits string) string {
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= 3 {
		return sign + digits
	}
	var b strings.Builder
	head := len(digits) % 3
	if head > 0 {
		b.WriteString(digits[:head])
	}
	for i := head; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return sign + b.String()
}

// groupUint is group of x.
func groupUint(x uint64) string { return group(strconv.FormatUint(x, 10)) }

// wordBytes is the memory of n bits held in 64-bit words, as the filters
// of variants hold them: whole words, 8 bytes each.
func wordBytes(bits uint64) uint64 { return (bits + 63) / 64 * 8 }

// memory writes a number of bytes for people: whole bytes below 1 KiB
// ("8 B", "1016 B"), else in binary units with two decimals ("1.14 MiB").
func memory(bytes uint64) string {
	if bytes < 1024 {
		return strconv.FormatUint(bytes, 10) + " B"
	}
	return units.FormatBytes(bytes * 8)
}

// oneInText writes 1/p for the page's "1 in N": whole and grouped from
// 100 up to 1e15 ("1 in 9,585"), with three significant digits below
// ("1 in 99.6") and in scientific notation above.
func oneInText(p float64) string {
	if !(p > 0) || p > 1 {
		return ""
	}
	n := 1 / p
	switch {
	case n >= 1e15:
		return strconv.FormatFloat(n, 'g', 4, 64)
	case n >= 100:
		return groupUint(uint64(math.Round(n)))
	}
	return strconv.FormatFloat(n, 'g', 3, 64)
}
