//go:build amd64

#include "textflag.h"

// func nopAsm(p unsafe.Pointer, z, h uint64) bool
TEXT ·nopAsm(SB), NOSPLIT, $0-25
	MOVB $0, ret+24(FP)
	RET
