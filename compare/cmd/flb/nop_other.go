//go:build !amd64

package main

import "unsafe"

// nopAsm is nopGo where there is no assembly.
func nopAsm(p unsafe.Pointer, z, h uint64) bool { return nopGo(p, z, h) }
