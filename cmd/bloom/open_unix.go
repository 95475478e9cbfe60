//go:build unix

package main

import "syscall"

// openNonblock opens a file without blocking on a named pipe, which
// openRegular then refuses.
const openNonblock = syscall.O_NONBLOCK
