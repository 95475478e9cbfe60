//go:build linux

package variants

import (
	"os"
	"syscall"
	"unsafe"
)

// cgroupLimit returns the memory limit of the process's cgroup (v2 or v1),
// or 0 if none is set or it cannot be read (see cgroupMemoryLimit).
func cgroupLimit() int64 {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	return cgroupMemoryLimit(string(self), func(file string) (string, bool) {
		b, err := os.ReadFile(file)
		return string(b), err == nil
	})
}

// physicalMemory returns the machine's total memory in bytes, or 0 if
// unknown.
func physicalMemory() uint64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
}

// hugePageBytes is the size of a transparent huge page on the usual
// configurations (x86-64 and arm64 with 4 KiB base pages).
const hugePageBytes = 2 << 20

// hugePages turns adviseHugePages on; benchmarks turn it off to measure
// what the advice is worth.
var hugePages = true

// adviseHugePages asks the kernel to back the 2 MiB-aligned interior of
// w with transparent huge pages (madvise MADV_HUGEPAGE), for tables of at
// least two huge pages. A query of a table far beyond the last-level cache
// misses the TLB as well as the cache with 4 KiB pages, and pays a page
// walk on top of the memory latency; with huge pages the walk mostly hits.
// Where the kernel runs transparent huge pages in "always" mode the advice
// changes nothing, in "never" mode it is ignored, and in "madvise" mode
// (the usual default) it is what makes the difference. It is advice: an
// error is ignored, and the filter's contents and answers are the same
// either way.
func adviseHugePages(w []uint64) {
	n := uintptr(len(w)) * 8
	if !hugePages || n < 2*hugePageBytes {
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(w)))
	start := (base + hugePageBytes - 1) &^ (hugePageBytes - 1)
	end := (base + n) &^ (hugePageBytes - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(w)), start-base)), end-start)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
