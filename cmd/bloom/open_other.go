//go:build !unix

package main

// openNonblock is 0 where there are no named pipes to block on, or no
// O_NONBLOCK.
const openNonblock = 0
