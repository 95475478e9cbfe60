//go:build unix

package experiments

import "syscall"

// openNonblock opens a key file without blocking on a named pipe.
const openNonblock = syscall.O_NONBLOCK
