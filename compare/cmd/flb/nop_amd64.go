//go:build amd64

package main

import "unsafe"

// nopAsm is an assembly function of a probe's shape that does nothing
// (nop_amd64.s): calling it costs what the call of an assembly probe
// costs beyond its work.
//
//go:noescape
func nopAsm(p unsafe.Pointer, z, h uint64) bool
