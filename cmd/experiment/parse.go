package main

// TEMPORARY until package analysis has ParseCount and ParseProbability.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

func parseCount(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k', 'K':
			mult, t = 1e3, t[:n-1]
		case 'M':
			mult, t = 1e6, t[:n-1]
		case 'G':
			mult, t = 1e9, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	v *= mult
	if err != nil || v < 0 || v != math.Trunc(v) || v > 1<<63 {
		return 0, fmt.Errorf("count %q: want a whole number with an optional suffix k, M or G", s)
	}
	return uint64(v), nil
}

func parseProbability(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v > 0 && v < 1) {
		return 0, fmt.Errorf("probability %q: want a number between 0 and 1", s)
	}
	return v, nil
}
