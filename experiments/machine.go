package experiments

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// CacheLevel is one level of the data caches of the machine that measured a
// timed experiment, as its operating system reports them.
type CacheLevel struct {
	// Level is 1 for L1d, 2 for L2, 3 for L3.
	Level int `json:"level"`
	// Bytes is the size of one such cache.
	Bytes uint64 `json:"bytes"`
}

// cacheDir is where Linux describes the first CPU's caches.
var cacheDir = "/sys/devices/system/cpu/cpu0/cache"

// MachineCaches returns the data and unified caches of the first CPU, by
// level, or nil where the system does not say (any system but Linux, or a
// guest told nothing): the [Plan.Caches] of a run whose times depend on
// them.
func MachineCaches() []CacheLevel {
	dirs, _ := filepath.Glob(filepath.Join(cacheDir, "index*"))
	var out []CacheLevel
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if read("type") == "Instruction" {
			continue
		}
		level, err := strconv.Atoi(read("level"))
		if err != nil {
			continue
		}
		size, ok := parseCacheSize(read("size"))
		if !ok {
			continue
		}
		out = append(out, CacheLevel{Level: level, Bytes: size})
	}
	slices.SortFunc(out, func(a, b CacheLevel) int { return a.Level - b.Level })
	return slices.CompactFunc(out, func(a, b CacheLevel) bool { return a.Level == b.Level })
}

// parseCacheSize reads a size as Linux writes it: "32K", "1024K", "32M".
func parseCacheSize(s string) (uint64, bool) {
	mult := uint64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		return 0, false
	}
	return v * mult, true
}
