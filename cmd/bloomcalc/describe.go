package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// labels names every number bloomcalc -json prints, in the order the page
// shows them; a key of a nested object is "object.key". describe refuses a
// key missing here, so the page cannot drop a number silently.
var labels = []struct{ key, label string }{
	{"layout", "layout"},
	{"n", "items n"},
	{"window", "window: the most recent items that always test present (l g + 1)"},
	{"g", "items per generation g"},
	{"l", "slices beyond k, l"},
	{"slices", "slices k + l"},
	{"remembered_before_shift", "items that test present just before a shift, (l + 1) g"},
	{"p", "rate p"},
	{"check.verdict", "check: does the geometry meet p?"},
	{"check.meets", "check: meets p"},
	{"check.ratio", "check: exact rate over p (at most 1 when met)"},
	{"check.fpr_exact", "check: exact rate at (m, n, k)"},
	{"check.target", "check: target p"},
	{"budget.verdict", "budget: does n fit in it?"},
	{"budget.fits", "budget: n fits"},
	{"budget.memory", "budget"},
	{"budget.bytes", "budget, bytes"},
	{"budget.items_within", "budget: the most items it holds"},
	{"budget.stages_within", "budget: stages then"},
	{"budget.next_bytes", "budget: memory with one more stage (0: none can open)"},
	{"bound", "bound P0 / (1 − r) on the compound rate"},
	{"r", "tightening ratio r"},
	{"s", "growth factor s"},
	{"n0", "first stage's capacity n0"},
	{"m", "bits m"},
	{"width", "counter width (bits)"},
	{"memory_bits", "memory (bits)"},
	{"memory", "memory"},
	{"bytes", "memory, bytes (whole 64-bit words)"},
	{"k", "hashes k"},
	{"slice_bits", "bits per slice"},
	{"block_bits", "block size B (bits)"},
	{"word_bits", "word bits w"},
	{"multi", "one bit in each of k words (multiblock)"},
	{"stride_bytes", "stride (bytes) between the starts of blocks"},
	{"starts", "starts (blocks)"},
	{"note", "note"},
	{"blocks", "blocks"},
	{"bits_per_key", "bits per key"},
	{"information_minimum_bits_per_key", "information-theoretic minimum (bits per key at p)"},
	{"overhead", "overhead (× the minimum)"},
	{"fpr_classic", "rate at (m, n, k), classic formula"},
	{"fpr_exact", "rate at (m, n, k), exact"},
	{"exact.classic_miss", "exact rate of the geometry above over p, less one (above 0: the classic sizing misses p)"},
	{"exact.m", "exact sizing: the fewest bits m whose exact rate is at most p"},
	{"exact.memory", "exact sizing: memory"},
	{"exact.bytes", "exact sizing: memory, bytes"},
	{"exact.k", "exact sizing: hashes k"},
	{"exact.fpr_exact", "exact sizing: exact rate at n"},
	{"exact.extra_bits", "exact sizing: bits more than the classic m"},
	{"exact_note", "exact sizing"},
	{"double_hashing.fpr", "rate with plain double hashing (a + i b) mod m, as RedisBloom's power-of-two tables probe"},
	{"double_hashing.excess_percent", "plain double hashing mod m: % above the exact rate"},
	{"derivations.double_fpr", "rate with bloomlab's double hashing (h1 + i h2, multiply-shift)"},
	{"derivations.double_excess_percent", "bloomlab's double hashing: % above the exact rate"},
	{"derivations.enhanced_double_fpr", "rate with bloomlab's enhanced double hashing (the default)"},
	{"derivations.enhanced_double_excess_percent", "bloomlab's enhanced double hashing: % above the exact rate"},
	{"derivations.triple_fpr", "rate with bloomlab's triple hashing"},
	{"derivations.triple_excess_percent", "bloomlab's triple hashing: % above the exact rate"},
	{"fpr_putze", "rate, approximation of Putze et al."},
	{"fpr_boost", "rate, Boost.Bloom's estimate"},
	{"fpr_after_shift", "rate just after a shift (the lowest of the cycle)"},
	{"fpr_worst", "rate just before a shift (the worst of the cycle, at most p)"},
	{"fpr_mean", "rate, mean over the generation cycle"},
	{"fpr_one_number", "rate by the implementations' one-number formula"},
	{"fpr_standard_exact", "rate of a standard filter of the same m, n, k (exact)"},
	{"standard.m", "standard filter for the same n and p: bits"},
	{"standard.memory", "standard filter: memory"},
	{"standard.bytes", "standard filter: memory, bytes"},
	{"standard.bits_per_key", "standard filter: bits per key"},
	{"standard.penalty_percent", "block penalty (% more bits than the standard filter)"},
	{"saturation_probability", "probability that some counter saturates at n"},
	{"fan_overflow_bound", "bound of Fan et al. on a counter overflowing"},
	{"fan_overflow_note", "bound of Fan et al. on a counter overflowing"},
	{"limit.verdict", "memory limit: does it fit?"},
	{"limit.fits", "memory limit: fits"},
	{"limit.need_bytes", "memory limit: bytes the constructor checks"},
	{"limit.memory", "memory limit for one filter on this machine"},
	{"limit.bytes", "memory limit, bytes"},
	{"limit.items_within", "memory limit: the most items the filter holds under it"},
	{"limit.largest", "the largest filter the library allows"},
}

// variantLabels replaces labels whose meaning differs for a variant.
var variantLabels = map[string]map[string]string{
	partitioned: {
		"bytes": "memory, bytes (k slices of whole 64-bit words)",
	},
	counting: {
		"m":            "counters m",
		"bits_per_key": "memory bits per key",
		"bytes":        "memory, bytes (the counters packed in whole 64-bit words)",
	},
	blocked: {
		"bytes": "memory, bytes (whole blocks)",
	},
	splitBlock: {
		"bytes": "memory, bytes (whole 256-bit blocks)",
	},
	multiblock: {
		"block_bits":               "bits a key's block spans (L)",
		"bytes":                    "memory, bytes (whole 64-bit words)",
		"standard.penalty_percent": "block penalty (% more bits than the standard filter)",
	},
	agePartitioned: {
		"n":            "window n asked for",
		"p":            "target p for the worst rate",
		"k":            "slices an item sets, k",
		"m":            "bits m, all slices",
		"bits_per_key": "bits per item of the window",
		"bytes":        "memory, bytes (every slice in whole 64-bit words)",
	},
	scalable: {
		"p":          "target rate P",
		"n":          "items held n",
		"m":          "bits m, all stages",
		"block_bits": "block size B of the stages (0: partitioned)",
		"fpr_exact":  "compound rate at n",
		"bytes":      "memory, bytes (every stage in whole 64-bit words)",
	},
}

// figInput is what the figures need of a result.
type figInput struct {
	variant   string
	N         uint64          `json:"n"`
	M         uint64          `json:"m"`
	K         int             `json:"k"`
	P         float64         `json:"p"`
	BlockBits uint64          `json:"block_bits"`
	Width     int             `json:"width"`
	R         float64         `json:"r"`
	S         float64         `json:"s"`
	N0        uint64          `json:"n0"`
	Stages    []scalableStage `json:"stages"`
	// The layout of a multiblock filter.
	WordBits    uint64 `json:"word_bits"`
	Multi       bool   `json:"multi"`
	StrideBytes uint64 `json:"stride_bytes"`
	// The geometry of an age-partitioned filter (K is its k).
	L         int     `json:"l"`
	G         uint64  `json:"g"`
	SliceBits uint64  `json:"slice_bits"`
	Mean      float64 `json:"fpr_mean"`
}

// describe turns what bloomcalc -json printed into the page's rows (every
// number, as printed and formatted), the stages table of a scalable
// filter, and the figures' input.
func describe(out []byte) (rows []row, stages [][]string, in figInput, err error) {
	var top map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&top); err != nil {
		return nil, nil, in, err
	}
	leaves := map[string]string{}
	for k, v := range top {
		switch k {
		case "variant":
			continue
		case "stages":
			var sts []map[string]json.Number
			d := json.NewDecoder(bytes.NewReader(v))
			d.UseNumber()
			if err := d.Decode(&sts); err != nil {
				return nil, nil, in, err
			}
			for _, st := range sts {
				stages = append(stages, []string{
					string(st["index"]), format(string(st["capacity"])), format(string(st["items"])), string(st["k"]),
					format(string(st["bits"])), format(string(st["design_error"])), format(string(st["fpr"])),
				})
			}
			continue
		}
		if len(v) > 0 && v[0] == '{' {
			var sub map[string]json.RawMessage
			if err := json.Unmarshal(v, &sub); err != nil {
				return nil, nil, in, err
			}
			for k2, v2 := range sub {
				leaves[k+"."+k2] = string(v2)
			}
			continue
		}
		leaves[k] = string(v)
	}
	variant := ""
	if v, ok := top["variant"]; ok {
		json.Unmarshal(v, &variant)
	}
	for _, l := range labels {
		raw, ok := leaves[l.key]
		if !ok {
			continue
		}
		delete(leaves, l.key)
		label := l.label
		if v := variantLabels[variant][l.key]; v != "" {
			label = v
		}
		text, oneIn := formatKey(l.key, raw)
		rows = append(rows, row{Label: label, Key: l.key, Raw: strings.Trim(raw, `"`), Text: text, OneIn: oneIn,
			IsText: strings.HasPrefix(raw, `"`) && strings.Count(raw, " ") >= 3})
	}
	for k := range leaves {
		return nil, nil, in, fmt.Errorf("bloomcalc -json printed %q, which the page has no label for", k)
	}
	if err := json.Unmarshal(out, &in); err != nil {
		return nil, nil, in, err
	}
	return rows, stages, in, nil
}

// rateKeys are the keys whose values are rates, shown also as "1 in N".
var rateKeys = map[string]bool{
	"p": true, "fpr_classic": true, "fpr_exact": true, "fpr_putze": true, "fpr_standard_exact": true,
	"fpr_boost": true, "fpr_after_shift": true, "fpr_worst": true, "fpr_mean": true, "fpr_one_number": true,
	"check.fpr_exact": true, "double_hashing.fpr": true, "check.target": true, "exact.fpr_exact": true, "bound": true,
	"derivations.double_fpr": true, "derivations.enhanced_double_fpr": true, "derivations.triple_fpr": true,
}

// formatKey shows the value raw of key: as format does, a number of
// bytes with its unit, and a rate also as "1 in N" (the N in oneIn).
func formatKey(key, raw string) (s, oneIn string) {
	s = format(raw)
	if rateKeys[key] {
		if x, err := strconv.ParseFloat(raw, 64); err == nil {
			oneIn = oneInText(x)
		}
	}
	if key == "bytes" || strings.HasSuffix(key, ".bytes") || key == "budget.next_bytes" || key == "limit.need_bytes" {
		s += " B"
	}
	return s, oneIn
}

// format shows a JSON value: a string without its quotes, an integer with
// thousands separators ("9,585,059"), any other number with six
// significant digits.
func format(raw string) string {
	if strings.HasPrefix(raw, `"`) {
		s, err := strconv.Unquote(raw)
		if err == nil {
			return s
		}
		return raw
	}
	if !strings.ContainsAny(raw, ".eE") {
		if _, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return group(raw)
		}
		return raw
	}
	x, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return raw
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}
