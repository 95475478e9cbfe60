//go:build !purego

#include "textflag.h"

// The eight salts of the Parquet split-block filter, one per 32-bit lane.
DATA splitSalts<>+0(SB)/4, $0x47b6137b
DATA splitSalts<>+4(SB)/4, $0x44974d91
DATA splitSalts<>+8(SB)/4, $0x8824ad5b
DATA splitSalts<>+12(SB)/4, $0xa2b7289d
DATA splitSalts<>+16(SB)/4, $0x705495c7
DATA splitSalts<>+20(SB)/4, $0x2df1424b
DATA splitSalts<>+24(SB)/4, $0x9efc4947
DATA splitSalts<>+28(SB)/4, $0x5c6bfb31
GLOBL splitSalts<>(SB), RODATA|NOPTR, $32

// ONES sets every 32-bit lane of y to 1.
#define ONES(y) \
	VPCMPEQD y, y, y \
	VPSRLD   $31, y, y

// SPLITMASK turns y, the key's low 32 bits broadcast to every lane, into
// its block mask, lane i holding 1 << ((x salt_i) >> 27); salts holds the
// salts and ones the lanes of 1.
#define SPLITMASK(salts, ones, y) \
	VPMULLD salts, y, y \
	VPSRLD  $27, y, y \
	VPSLLVD y, ones, y

// SPLITBLOCK turns r, a 64-bit hash, into the byte offset of its block,
// (((r >> 32) z) >> 32) << 5; the product fits in 64 bits since z <= 2^32.
#define SPLITBLOCK(z, r) \
	SHRQ  $32, r \
	IMULQ z, r \
	SHRQ  $32, r \
	SHLQ  $5, r

// func splitAddHash(words unsafe.Pointer, z, h uint64)
TEXT ·splitAddHash(SB), NOSPLIT, $0-24
	CMPB         ·useAVX2(SB), $0
	JEQ          addhashgo
	MOVQ         words+0(FP), AX
	MOVQ         z+8(FP), CX
	MOVQ         h+16(FP), R8
	VPBROADCASTD h+16(FP), Y0
	SPLITBLOCK(CX, R8)
	ONES(Y1)
	SPLITMASK(splitSalts<>(SB), Y1, Y0)
	VPOR         (AX)(R8*1), Y0, Y0
	VMOVDQU      Y0, (AX)(R8*1)
	VZEROUPPER
	RET

addhashgo:
	JMP ·splitAddHashGo(SB)

// func splitContainsHash(words unsafe.Pointer, z, h uint64) bool
TEXT ·splitContainsHash(SB), NOSPLIT, $0-25
	CMPB         ·useAVX2(SB), $0
	JEQ          containshashgo
	MOVQ         words+0(FP), AX
	MOVQ         z+8(FP), CX
	MOVQ         h+16(FP), R8
	VPBROADCASTD h+16(FP), Y0
	SPLITBLOCK(CX, R8)
	ONES(Y1)
	SPLITMASK(splitSalts<>(SB), Y1, Y0)
	VMOVDQU      (AX)(R8*1), Y1
	VPTEST       Y0, Y1 // CF = (mask &^ block) == 0
	SETCS        ret+24(FP)
	VZEROUPPER
	RET

containshashgo:
	JMP ·splitContainsHashGo(SB)

// func splitAdd(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int)
TEXT ·splitAdd(SB), NOSPLIT, $0-40
	CMPB    ·useAVX2(SB), $0
	JEQ     addgo
	MOVQ    words+0(FP), AX
	MOVQ    z+8(FP), CX
	MOVQ    h+16(FP), BX
	MOVQ    stride+24(FP), SI
	MOVQ    n+32(FP), DX
	TESTQ   DX, DX
	JLE     addnone
	VMOVDQU splitSalts<>(SB), Y3
	ONES(Y4)

addloop:
	MOVQ         (BX), R8
	VPBROADCASTD (BX), Y0
	SPLITBLOCK(CX, R8)
	SPLITMASK(Y3, Y4, Y0)
	VPOR         (AX)(R8*1), Y0, Y0
	VMOVDQU      Y0, (AX)(R8*1)
	ADDQ         SI, BX
	DECQ         DX
	JNZ          addloop
	VZEROUPPER

addnone:
	RET

addgo:
	JMP ·splitAddGo(SB)

// func splitContains(words unsafe.Pointer, z uint64, h unsafe.Pointer, stride uintptr, n int, out *bool)
TEXT ·splitContains(SB), NOSPLIT, $0-48
	CMPB    ·useAVX2(SB), $0
	JEQ     containsgo
	MOVQ    words+0(FP), AX
	MOVQ    z+8(FP), CX
	MOVQ    h+16(FP), BX
	MOVQ    stride+24(FP), SI
	MOVQ    n+32(FP), DX
	MOVQ    out+40(FP), DI
	TESTQ   DX, DX
	JLE     containsnone
	VMOVDQU splitSalts<>(SB), Y3
	ONES(Y4)

containsloop:
	MOVQ         (BX), R8
	VPBROADCASTD (BX), Y0
	SPLITBLOCK(CX, R8)
	SPLITMASK(Y3, Y4, Y0)
	VMOVDQU      (AX)(R8*1), Y1
	VPTEST       Y0, Y1 // CF = (mask &^ block) == 0
	SETCS        (DI)
	INCQ         DI
	ADDQ         SI, BX
	DECQ         DX
	JNZ          containsloop
	VZEROUPPER

containsnone:
	RET

containsgo:
	JMP ·splitContainsGo(SB)
