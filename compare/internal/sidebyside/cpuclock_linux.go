//go:build linux

package sidebyside

import (
	"syscall"
	"unsafe"
)

// ThreadCPU returns the CPU time of the calling OS thread in ns
// (CLOCK_THREAD_CPUTIME_ID, as flb.cc and fmb32.cc read it), or -1.
func ThreadCPU() int64 {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
