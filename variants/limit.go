package variants

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The memory limit. Every filter checks its total bytes (the cells of all
// its stages, growth included) against a limit before each allocation of
// cells: its own MaxBytes where the parameters have one and it is set,
// otherwise the process limit that MemoryLimit reports. The limit is a
// bound per filter, not on the sum of all the filters of the process.

// memoryLimitFraction is the share of the cgroup's memory limit, or of
// the machine's memory, that the default limit allows one filter: a half.
// The rest is headroom for what a filter of that size needs around it:
// MarshalBinary's buffer is a second copy of the cells, a decode from a
// stream of unknown length holds a part of the cells twice for a while
// (at most an eighth, see FormatVersion), and the Go runtime lets the heap
// grow past the live data before it collects.
const memoryLimitFraction = 2 // the default limit is total / memoryLimitFraction

// memLimit holds the process limit in bytes; 0 until first used, when it
// takes the default.
var (
	memLimit     atomic.Int64
	memLimitOnce sync.Once
)

// MemoryLimit returns the process's memory limit for one filter in bytes:
// the most a filter of this package may hold in cells, all its stages
// together, when its parameters do not set their own MaxBytes (see
// [ScalableParams], [DynamicParams], [RedisBloomParams]).
//
// Unless SetMemoryLimit has set it, the limit is half of the memory the
// process may use: half of the cgroup memory limit where one is set
// (cgroup v2 memory.max, or v1 memory.limit_in_bytes, the smallest along
// the process's cgroup path; "max" or a value beyond any machine means
// none; physical memory if that is smaller), else half of the machine's
// physical memory, or, on a system where neither is known, math.MaxInt64
// (no limit beyond what can be addressed). Half, because a filter needs room beside its cells:
// MarshalBinary builds a second copy of them, decoding from a stream holds
// up to an eighth of them twice, and the garbage collector lets the heap
// grow past the live data. A filter that would exceed the limit is refused
// with an error wrapping [ErrMemoryLimit] before any memory is allocated:
// by its constructor, its decoder, its MarshalBinary, and by TryAdd when a
// growing filter needs a new stage (see [Grower]).
//
// MemoryLimit is safe for concurrent use.
func MemoryLimit() int64 {
	memLimitOnce.Do(func() { memLimit.CompareAndSwap(0, defaultMemoryLimit()) })
	return memLimit.Load()
}

// SetMemoryLimit sets the process's memory limit for one filter to bytes
// and returns the previous limit. A value of bytes <= 0 changes nothing
// and only reports the limit, as runtime/debug.SetMemoryLimit does with a
// negative input. The limit applies from the next allocation on: filters
// that already hold more keep their memory, and their next growth is
// refused. Filters whose parameters set MaxBytes use theirs instead.
//
// SetMemoryLimit is safe for concurrent use.
func SetMemoryLimit(bytes int64) (previous int64) {
	prev := MemoryLimit()
	if bytes <= 0 {
		return prev
	}
	return memLimit.Swap(bytes)
}

// defaultMemoryLimit is the limit MemoryLimit starts with: half of the
// cgroup limit or of physical memory, whichever is smaller, or
// math.MaxInt64 if neither is known.
func defaultMemoryLimit() int64 {
	total := uint64(math.MaxInt64)
	if mem := physicalMemory(); mem > 0 {
		total = mem
	}
	if cg := cgroupLimit(); cg > 0 && uint64(cg) < total {
		total = uint64(cg)
	}
	if total == math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(total / memoryLimitFraction)
}

// maxCgroupLimit is the largest cgroup memory limit taken as a limit:
// larger values (cgroup v1 writes 2^63 - 4096 for "unlimited") mean none.
const maxCgroupLimit = 1 << 60

// parseCgroupLimit parses the text of a cgroup v2 memory.max or v1
// memory.limit_in_bytes file: a number of bytes, or "max". It returns 0
// for "max", for text that is not a positive number, and for values of
// maxCgroupLimit or more.
func parseCgroupLimit(text string) int64 {
	text = strings.TrimSpace(text)
	if text == "" || text == "max" {
		return 0
	}
	v, err := strconv.ParseUint(text, 10, 64)
	if err != nil || v == 0 || v >= maxCgroupLimit {
		return 0
	}
	return int64(v)
}

// cgroupMemoryLimit returns the memory limit of the cgroup that the text
// of /proc/self/cgroup (selfCgroup) names, reading the limit files with
// read (which reports false for a file that does not exist), or 0 if no
// limit is set. It is a pure function of the files' texts: the Linux
// code passes a reader of the file system, the tests a map.
//
// For cgroup v2 (the line "0::PATH") it reads
// /sys/fs/cgroup/PATH/memory.max and the same file of every ancestor up
// to /sys/fs/cgroup; for v1 (a line "N:...memory...:PATH") it reads
// /sys/fs/cgroup/memory/PATH/memory.limit_in_bytes and its ancestors'. In
// a container whose cgroup namespace hides the path, PATH is "/" and the
// files at the mount's root are the container's. The result is the
// smallest limit found.
func cgroupMemoryLimit(selfCgroup string, read func(file string) (string, bool)) int64 {
	var limit int64
	take := func(dir, mount, file string) {
		for dir = path.Clean("/" + dir); ; dir = path.Dir(dir) {
			if text, ok := read(path.Join("/sys/fs/cgroup", mount, dir, file)); ok {
				if v := parseCgroupLimit(text); v > 0 && (limit == 0 || v < limit) {
					limit = v
				}
			}
			if dir == "/" {
				return
			}
		}
	}
	for _, line := range strings.Split(selfCgroup, "\n") {
		id, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		controllers, dir, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		switch {
		case id == "0" && controllers == "":
			take(dir, "", "memory.max")
		case hasController(controllers, "memory"):
			take(dir, "memory", "memory.limit_in_bytes")
		}
	}
	return limit
}

// hasController reports whether the comma-separated list holds c.
func hasController(list, c string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// limitFor returns the limit a filter with the given MaxBytes (0: the
// process limit) must keep to.
func limitFor(maxBytes int64) int64 {
	if maxBytes > 0 {
		return maxBytes
	}
	return MemoryLimit()
}

// checkGrowth reports an error wrapping ErrMemoryLimit if a filter that
// holds have bytes cannot take add more under its limit maxBytes (0: the
// process limit), or nil. what names the allocation in the message, with
// stage i if i >= 0 (it is formatted only for an error, so that the check
// does not allocate). With params set (a constructor or a decoder) the
// error wraps ErrInvalidParams as well.
func checkGrowth(what string, i int, have, add uint64, maxBytes int64, params bool) error {
	limit := limitFor(maxBytes)
	if add <= math.MaxInt64 && have <= math.MaxInt64-add && int64(have+add) <= limit {
		return nil
	}
	if i >= 0 {
		what = fmt.Sprintf("%s %d", what, i)
	}
	source := "the process limit (see SetMemoryLimit)"
	if maxBytes > 0 {
		source = "its MaxBytes"
	}
	msg := fmt.Sprintf("%s needs %d bytes, more than %s of %d", what, add, source, limit)
	if have > 0 {
		msg = fmt.Sprintf("%s needs %d bytes more, and the filter holds %d: more than %s of %d", what, add, have, source, limit)
	}
	if params {
		return fmt.Errorf("variants: %w: %w: %s", ErrInvalidParams, ErrMemoryLimit, msg)
	}
	return fmt.Errorf("variants: %w: %s", ErrMemoryLimit, msg)
}
