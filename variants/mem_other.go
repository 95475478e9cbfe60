//go:build !linux

package variants

// physicalMemory returns 0: the machine's memory is unknown on this system.
func physicalMemory() uint64 { return 0 }

// cgroupLimit returns 0: there are no cgroups on this system.
func cgroupLimit() int64 { return 0 }

// adviseHugePages does nothing on this system (see the Linux form).
func adviseHugePages([]uint64) {}
