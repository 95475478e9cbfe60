//go:build linux

package main

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time of the calling OS thread in ns
// (CLOCK_THREAD_CPUTIME_ID, as fmb32.cc reads it), or -1.
func threadCPU() int64 {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
