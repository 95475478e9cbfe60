//go:build !linux

package sidebyside

// ThreadCPU returns -1: the thread's CPU time is read on Linux only, and
// elsewhere the wall time stands in for it.
func ThreadCPU() int64 { return -1 }
