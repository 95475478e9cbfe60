package units

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
)

// TestMaxBits checks that ParseBits refuses exactly what analysis refuses.
func TestMaxBits(t *testing.T) {
	if maxBits != analysis.MaxBits {
		t.Errorf("maxBits = %d, analysis.MaxBits = %d", uint64(maxBits), uint64(analysis.MaxBits))
	}
}

func TestParseProbability(t *testing.T) {
	good := map[string]float64{
		"0.01": 0.01, "1e-4": 1e-4, "1E-4": 1e-4, " 0.5 ": 0.5, "1/100": 0.01, "1 / 100": 0.01,
		"1 in 100": 0.01, "1 in 10,000": 0, "3/4": 0.75, "1%": 0.01, "0.1 %": 0.001, ".25": 0.25,
		"1 in 1e7": 1e-7,
	}
	delete(good, "1 in 10,000") // commas are not accepted; see bad
	for s, want := range good {
		got, err := ParseProbability(s)
		if err != nil || got != want {
			t.Errorf("ParseProbability(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "0", "1", "1.5", "-0.1", "abc", "1/0", "0/5", "1 in 0", "1 in 1",
		"100%", "1e-400", "1 in 10,000", "0x10", "1/2/3", "NaN", "inf"} {
		if v, err := ParseProbability(s); err == nil || !errors.Is(err, ErrInvalidParams) {
			t.Errorf("ParseProbability(%q) = %v, %v; want an error", s, v, err)
		} else if !strings.Contains(err.Error(), "probability") {
			t.Errorf("ParseProbability(%q) error %q does not say what it parsed", s, err)
		}
	}
}

func TestParseCount(t *testing.T) {
	good := map[string]uint64{
		"0": 0, "1": 1, "10M": 10_000_000, "2.5k": 2500, "2.5K": 2500, "1e6": 1_000_000,
		"1_000_000": 1_000_000, "3G": 3e9, "1.5T": 1.5e12, " 7 k ": 7000, "10 M": 10_000_000,
		"18446744073709551615": math.MaxUint64,
	}
	for s, want := range good {
		got, err := ParseCount(s)
		if err != nil || got != want {
			t.Errorf("ParseCount(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for s, mention := range map[string]string{
		"": "want a number", "2.5": "not a whole number", "1.0001k": "not a whole number",
		"10m": "want a number", "-5": "want a number", "abc": "want a number", "10MB": "want a number",
		"18446744073709551616": "too large", "1e30": "too large", "1e-3": "not a whole number",
		"0\n0": "want a number",
	} {
		if v, err := ParseCount(s); err == nil || !errors.Is(err, ErrInvalidParams) {
			t.Errorf("ParseCount(%q) = %v, %v; want an error", s, v, err)
		} else if !strings.Contains(err.Error(), mention) {
			t.Errorf("ParseCount(%q) error %q does not mention %q", s, err, mention)
		}
	}
}

func TestParseBits(t *testing.T) {
	// Reference: the unit table in the ParseBits doc comment.
	good := map[string]uint64{
		"1000": 1000, "1000b": 1000, "1000 bits": 1000, "1 bit": 1,
		"1B": 8, "3 B": 24,
		"1Kb": 1000, "1kb": 1000, "1Mb": 1e6, "2.5 Mb": 2.5e6, "1Gb": 1e9, "1Tb": 1e12, "1Mbit": 1e6,
		"1Kib": 1024, "1Mib": 1 << 20, "1Gib": 1 << 30,
		"1KB": 8000, "1kB": 8000, "1MB": 8e6, "1GB": 8e9, "1TB": 8e12,
		"1KiB": 8192, "1MiB": 8 << 20, "2GiB": 16 << 30, "1.5 KiB": 12288, "32TiB": 1 << 48,
		"1e3": 1000, "1e3B": 8000,
	}
	for s, want := range good {
		got, err := ParseBits(s)
		if err != nil || got != want {
			t.Errorf("ParseBits(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for s, mention := range map[string]string{
		"": "want a number", "abc": "want a number", "1.5b": "not a whole number",
		"22.85 MiB": "not a whole number", "5 XB": "unknown unit", "1EB": "unknown unit",
		"-8": "want a number", "33TiB": "more than the maximum", "1 MiBs": "unknown unit",
		"1\n0": "want a number",
	} {
		if v, err := ParseBits(s); err == nil || !errors.Is(err, ErrInvalidParams) {
			t.Errorf("ParseBits(%q) = %v, %v; want an error", s, v, err)
		} else if !strings.Contains(err.Error(), mention) {
			t.Errorf("ParseBits(%q) error %q does not mention %q", s, err, mention)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	// Hand-evaluated.
	for bits, want := range map[uint64]string{
		0: "0 B", 1: "0.125 B", 8: "1 B", 8 * 1023: "1023 B", 8 * 1024: "1.00 KiB",
		8 * 1536: "1.50 KiB", 191_701_168: "22.85 MiB", 8 << 30: "1.00 GiB",
		8 * 1023 << 20: "1023.00 MiB", 8*(1<<30) - 8: "1.00 GiB", 1 << 48: "32.00 TiB",
	} {
		if got := FormatBytes(bits); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", bits, got, want)
		}
	}
}

func TestFormatMean(t *testing.T) {
	// Hand-evaluated.
	for x, want := range map[float64]string{0: "0", 1: "1", 1000: "1000", 4.5: "4.5", 10.25: "10.2", 2.96: "3.0"} {
		if got := FormatMean(x); got != want {
			t.Errorf("FormatMean(%g) = %q, want %q", x, got, want)
		}
	}
}
