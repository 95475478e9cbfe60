//go:build !purego

#include "go_asm.h"
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

// ---- The blocked filter ----
//
// A key's k positions in its block are taken s bits at a time (s = log2 B)
// from h2, from the low bits up, at most 64/s from each 64-bit value, and
// the next values are mix64(h2 + t weyl) for t = 1, 2, ... (see Blocked).
// For B = 256 (s = 8) and B = 512 (s = 9) the AVX2 test computes the
// positions of one value in eight 32-bit lanes, fetches the block's 32-bit
// word of each lane with VPERMD (two for B = 512, blended on the position's
// top bit), and tests all their bits with one VPTEST.

// blockedLanes holds, for n = 0 to 8, a lane mask that keeps the lanes of
// the first n positions; the lanes hold the positions in the order
// 0, 4, 1, 5, 2, 6, 3, 7 (see BLOCKEDPOSITIONS).
DATA blockedLanes<>+0(SB)/4, $0x00000000
DATA blockedLanes<>+4(SB)/4, $0x00000000
DATA blockedLanes<>+8(SB)/4, $0x00000000
DATA blockedLanes<>+12(SB)/4, $0x00000000
DATA blockedLanes<>+16(SB)/4, $0x00000000
DATA blockedLanes<>+20(SB)/4, $0x00000000
DATA blockedLanes<>+24(SB)/4, $0x00000000
DATA blockedLanes<>+28(SB)/4, $0x00000000
DATA blockedLanes<>+32(SB)/4, $0xffffffff
DATA blockedLanes<>+36(SB)/4, $0x00000000
DATA blockedLanes<>+40(SB)/4, $0x00000000
DATA blockedLanes<>+44(SB)/4, $0x00000000
DATA blockedLanes<>+48(SB)/4, $0x00000000
DATA blockedLanes<>+52(SB)/4, $0x00000000
DATA blockedLanes<>+56(SB)/4, $0x00000000
DATA blockedLanes<>+60(SB)/4, $0x00000000
DATA blockedLanes<>+64(SB)/4, $0xffffffff
DATA blockedLanes<>+68(SB)/4, $0x00000000
DATA blockedLanes<>+72(SB)/4, $0xffffffff
DATA blockedLanes<>+76(SB)/4, $0x00000000
DATA blockedLanes<>+80(SB)/4, $0x00000000
DATA blockedLanes<>+84(SB)/4, $0x00000000
DATA blockedLanes<>+88(SB)/4, $0x00000000
DATA blockedLanes<>+92(SB)/4, $0x00000000
DATA blockedLanes<>+96(SB)/4, $0xffffffff
DATA blockedLanes<>+100(SB)/4, $0x00000000
DATA blockedLanes<>+104(SB)/4, $0xffffffff
DATA blockedLanes<>+108(SB)/4, $0x00000000
DATA blockedLanes<>+112(SB)/4, $0xffffffff
DATA blockedLanes<>+116(SB)/4, $0x00000000
DATA blockedLanes<>+120(SB)/4, $0x00000000
DATA blockedLanes<>+124(SB)/4, $0x00000000
DATA blockedLanes<>+128(SB)/4, $0xffffffff
DATA blockedLanes<>+132(SB)/4, $0x00000000
DATA blockedLanes<>+136(SB)/4, $0xffffffff
DATA blockedLanes<>+140(SB)/4, $0x00000000
DATA blockedLanes<>+144(SB)/4, $0xffffffff
DATA blockedLanes<>+148(SB)/4, $0x00000000
DATA blockedLanes<>+152(SB)/4, $0xffffffff
DATA blockedLanes<>+156(SB)/4, $0x00000000
DATA blockedLanes<>+160(SB)/4, $0xffffffff
DATA blockedLanes<>+164(SB)/4, $0xffffffff
DATA blockedLanes<>+168(SB)/4, $0xffffffff
DATA blockedLanes<>+172(SB)/4, $0x00000000
DATA blockedLanes<>+176(SB)/4, $0xffffffff
DATA blockedLanes<>+180(SB)/4, $0x00000000
DATA blockedLanes<>+184(SB)/4, $0xffffffff
DATA blockedLanes<>+188(SB)/4, $0x00000000
DATA blockedLanes<>+192(SB)/4, $0xffffffff
DATA blockedLanes<>+196(SB)/4, $0xffffffff
DATA blockedLanes<>+200(SB)/4, $0xffffffff
DATA blockedLanes<>+204(SB)/4, $0xffffffff
DATA blockedLanes<>+208(SB)/4, $0xffffffff
DATA blockedLanes<>+212(SB)/4, $0x00000000
DATA blockedLanes<>+216(SB)/4, $0xffffffff
DATA blockedLanes<>+220(SB)/4, $0x00000000
DATA blockedLanes<>+224(SB)/4, $0xffffffff
DATA blockedLanes<>+228(SB)/4, $0xffffffff
DATA blockedLanes<>+232(SB)/4, $0xffffffff
DATA blockedLanes<>+236(SB)/4, $0xffffffff
DATA blockedLanes<>+240(SB)/4, $0xffffffff
DATA blockedLanes<>+244(SB)/4, $0xffffffff
DATA blockedLanes<>+248(SB)/4, $0xffffffff
DATA blockedLanes<>+252(SB)/4, $0x00000000
DATA blockedLanes<>+256(SB)/4, $0xffffffff
DATA blockedLanes<>+260(SB)/4, $0xffffffff
DATA blockedLanes<>+264(SB)/4, $0xffffffff
DATA blockedLanes<>+268(SB)/4, $0xffffffff
DATA blockedLanes<>+272(SB)/4, $0xffffffff
DATA blockedLanes<>+276(SB)/4, $0xffffffff
DATA blockedLanes<>+280(SB)/4, $0xffffffff
DATA blockedLanes<>+284(SB)/4, $0xffffffff
GLOBL blockedLanes<>(SB), RODATA|NOPTR, $288

// blockedShifts holds, for s = 8 and 9 bits per position, the shifts of
// the 64-bit lanes that bring positions 0 to 3 to the low halves
// (j s) and positions 4 to 7 to the high halves (j s - 32).
DATA blockedShifts<>+0(SB)/8, $0
DATA blockedShifts<>+8(SB)/8, $8
DATA blockedShifts<>+16(SB)/8, $16
DATA blockedShifts<>+24(SB)/8, $24
DATA blockedShifts<>+32(SB)/8, $0
DATA blockedShifts<>+40(SB)/8, $8
DATA blockedShifts<>+48(SB)/8, $16
DATA blockedShifts<>+56(SB)/8, $24
DATA blockedShifts<>+64(SB)/8, $0
DATA blockedShifts<>+72(SB)/8, $9
DATA blockedShifts<>+80(SB)/8, $18
DATA blockedShifts<>+88(SB)/8, $27
DATA blockedShifts<>+96(SB)/8, $4
DATA blockedShifts<>+104(SB)/8, $13
DATA blockedShifts<>+112(SB)/8, $22
DATA blockedShifts<>+120(SB)/8, $31
GLOBL blockedShifts<>(SB), RODATA|NOPTR, $128

// blockedMasks holds lanes of 255 (s = 8, at the offset of its shifts),
// of 31, and of 511 (s = 9, at the offset of its shifts).
DATA blockedMasks<>+0(SB)/4, $255
DATA blockedMasks<>+4(SB)/4, $255
DATA blockedMasks<>+8(SB)/4, $255
DATA blockedMasks<>+12(SB)/4, $255
DATA blockedMasks<>+16(SB)/4, $255
DATA blockedMasks<>+20(SB)/4, $255
DATA blockedMasks<>+24(SB)/4, $255
DATA blockedMasks<>+28(SB)/4, $255
DATA blockedMasks<>+32(SB)/4, $31
DATA blockedMasks<>+36(SB)/4, $31
DATA blockedMasks<>+40(SB)/4, $31
DATA blockedMasks<>+44(SB)/4, $31
DATA blockedMasks<>+48(SB)/4, $31
DATA blockedMasks<>+52(SB)/4, $31
DATA blockedMasks<>+56(SB)/4, $31
DATA blockedMasks<>+60(SB)/4, $31
DATA blockedMasks<>+64(SB)/4, $511
DATA blockedMasks<>+68(SB)/4, $511
DATA blockedMasks<>+72(SB)/4, $511
DATA blockedMasks<>+76(SB)/4, $511
DATA blockedMasks<>+80(SB)/4, $511
DATA blockedMasks<>+84(SB)/4, $511
DATA blockedMasks<>+88(SB)/4, $511
DATA blockedMasks<>+92(SB)/4, $511
GLOBL blockedMasks<>(SB), RODATA|NOPTR, $96

// The macros of the blocked filter's batches (blockedContains and
// blockedAdd, below), here after the tables so that go vet reads their
// argument names in no function.
//
// blockedContains and blockedAdd run a whole batch of digests in one
// call: each key's block is reduce(h1, z) << (s - 3) bytes from words
// (Blocked.block), and its k positions come from h2 as blockedTest takes
// them. With prefetch set, the blocks of the first BATCHAHEAD keys are
// prefetched (PREFETCHT0) before the first test, and then, before key i is
// tested or set, the block of key i + BATCHAHEAD: BATCHAHEAD cache misses
// stay in flight while the loop works, with no pause between groups.
//
// Registers, in both: SI the digest of the current key, R10 the keys left
// (this one included), R13 the digest of the next key to prefetch, DX the
// block of the current key. The tests keep in Y5 and Y6 the lane shifts
// and in Y7 the position mask of s (BLOCKEDPOSITIONS), in Y8 lanes of 1,
// in Y10 lanes of 31, and in Y11 the lane mask of k when k <= 64/s.

#define BATCHAHEAD 16

// BATCHBLOCK leaves in DX the block of the digest at r, for blocks of
// 1 << bsh bytes; it clobbers AX.
#define BATCHBLOCK(r, bsh) \
	MOVQ (r), AX \
	MULQ z+8(FP) \
	SHLQ $bsh, DX \
	ADDQ words+0(FP), DX

// BATCHPREFETCH prefetches the block of the digest at R13 and advances R13
// by a stride, if prefetching is on and a key remains BATCHAHEAD keys
// ahead of the current one; otherwise it jumps to skip. It clobbers AX
// and DX.
#define BATCHPREFETCH(bsh, pf, skip) \
	CMPB       pf, $0 \
	JEQ        skip \
	CMPQ       R10, $BATCHAHEAD \
	JLE        skip \
	BATCHBLOCK(R13, bsh) \
	PREFETCHT0 (DX) \
	ADDQ       stride+48(FP), R13

// BATCHSTART loads SI, R10 and R13 and, if prefetching is on, prefetches
// the blocks of the first min(n, BATCHAHEAD) keys; it jumps to none if
// n <= 0. It clobbers AX, CX and DX.
#define BATCHSTART(bsh, pf, none, first, started) \
	MOVQ       d+40(FP), SI \
	MOVQ       n+56(FP), R10 \
	MOVQ       SI, R13 \
	TESTQ      R10, R10 \
	JLE        none \
	CMPB       pf, $0 \
	JEQ        started \
	MOVQ       R10, CX \
	CMPQ       CX, $BATCHAHEAD \
	JLE        first \
	MOVQ       $BATCHAHEAD, CX \
first: \
	BATCHBLOCK(R13, bsh) \
	PREFETCHT0 (DX) \
	ADDQ       stride+48(FP), R13 \
	DECQ       CX \
	JNZ        first \
started:

// BATCHWORDS512 and BATCHWORDS256 fetch into Y3 each lane's 32-bit word
// of the block at DX for the positions in Y1, as WORDS512 and WORDS256 do
// for the block at AX.
#define BATCHWORDS512 \
	VPSRLD    $5, Y1, Y2 \
	VPERMD    (DX), Y2, Y3 \
	VPERMD    32(DX), Y2, Y4 \
	VPSLLD    $23, Y1, Y9 \
	VBLENDVPS Y9, Y4, Y3, Y3

#define BATCHWORDS256 \
	VPSRLD $5, Y1, Y2 \
	VPERMD (DX), Y2, Y3

// BATCHBITS turns the positions in Y1, whose words are in Y3, into their
// bits within the words, keeps the lanes of the mask at m, and tests them:
// CF is set if every bit is set.
#define BATCHBITS(m) \
	VPAND   Y10, Y1, Y1 \
	VPSLLVD Y1, Y8, Y1 \
	VPAND   m, Y1, Y1 \
	VPTEST  Y1, Y3

// BATCHMIX sets R8 to the next value of h2 (in BX), mix64(h2 + t weyl)
// for t = R11 + 1, and increments R11; it clobbers R12.
#define BATCHMIX \
	INCQ  R11 \
	MOVQ  $0x9e3779b97f4a7c15, R8 \
	IMULQ R11, R8 \
	ADDQ  BX, R8 \
	MOVQ  R8, R12 \
	SHRQ  $30, R12 \
	XORQ  R12, R8 \
	MOVQ  $0xbf58476d1ce4e5b9, R12 \
	IMULQ R12, R8 \
	MOVQ  R8, R12 \
	SHRQ  $27, R12 \
	XORQ  R12, R8 \
	MOVQ  $0x94d049bb133111eb, R12 \
	IMULQ R12, R8 \
	MOVQ  R8, R12 \
	SHRQ  $31, R12 \
	XORQ  R12, R8

// BATCHCONTAINS is the body of blockedContains for one block size: off
// and bsh select the shifts and masks of s (as BLOCKEDPOSITIONS) and the
// bytes per block, log2; words is BATCHWORDS512 or BATCHWORDS256; the
// other parameters are labels.
#define BATCHCONTAINS(off, bsh, words, none, first, started, one, oneloop, loop, loopnext, value, pass, fail, next) \
	BATCHSTART(bsh, prefetch+72(FP), none, first, started) \
	MOVQ         out+64(FP), DI \
	VMOVDQU      blockedShifts<>+off(SB), Y5 \
	VMOVDQU      blockedShifts<>+off+32(SB), Y6 \
	VMOVDQU      blockedMasks<>+off(SB), Y7 \
	VMOVDQU      blockedMasks<>+32(SB), Y10 \
	ONES(Y8) \
	MOVQ         k+16(FP), AX \
	CMPQ         AX, per+24(FP) \
	JGT          loop \
	SHLQ         $5, AX \
	LEAQ         blockedLanes<>(SB), R12 \
	VMOVDQU      (R12)(AX*1), Y11 \
oneloop: \
	BATCHPREFETCH(bsh, prefetch+72(FP), one) \
one: \
	BATCHBLOCK(SI, bsh) \
	VPBROADCASTQ 8(SI), Y0 \
	VPSRLVQ      Y5, Y0, Y1 \
	VPSRLVQ      Y6, Y0, Y2 \
	VPBLENDD     $0xaa, Y2, Y1, Y1 \
	VPAND        Y7, Y1, Y1 \
	words \
	BATCHBITS(Y11) \
	SETCS        (DI) \
	INCQ         DI \
	ADDQ         stride+48(FP), SI \
	DECQ         R10 \
	JNZ          oneloop \
	VZEROUPPER \
	RET \
loop: \
	BATCHPREFETCH(bsh, prefetch+72(FP), loopnext) \
loopnext: \
	BATCHBLOCK(SI, bsh) \
	MOVQ         8(SI), BX \
	MOVQ         BX, R8 \
	MOVQ         k+16(FP), CX \
	XORQ         R11, R11 \
value: \
	MOVQ         CX, R9 \
	CMPQ         R9, per+24(FP) \
	CMOVQGT      per+24(FP), R9 \
	VMOVQ        R8, X0 \
	VPBROADCASTQ X0, Y0 \
	VPSRLVQ      Y5, Y0, Y1 \
	VPSRLVQ      Y6, Y0, Y2 \
	VPBLENDD     $0xaa, Y2, Y1, Y1 \
	VPAND        Y7, Y1, Y1 \
	words \
	MOVQ         R9, R12 \
	SHLQ         $5, R12 \
	LEAQ         blockedLanes<>(SB), AX \
	BATCHBITS((AX)(R12*1)) \
	JCC          fail \
	SUBQ         R9, CX \
	JLE          pass \
	BATCHMIX \
	JMP          value \
pass: \
	MOVB         $1, (DI) \
	JMP          next \
fail: \
	MOVB         $0, (DI) \
next: \
	INCQ         DI \
	ADDQ         stride+48(FP), SI \
	DECQ         R10 \
	JNZ          loop \
	VZEROUPPER \
	RET

// BATCHADD is the body of blockedAdd for one block size: bsh the bytes
// per block, log2, s the bits per position and wmask = 2^(s-6) - 1; the
// other parameters are labels. A position i = x & (2^s - 1) sets bit
// i & 63 = x & 63 (BTSQ takes its count mod 64) of 64-bit word
// i >> 6 = (x >> 6) & wmask, as Blocked.set does; DI holds the bit.
#define BATCHADD(bsh, s, wmask, none, first, started, key, keynext, value, pos, next) \
	BATCHSTART(bsh, prefetch+64(FP), none, first, started) \
key: \
	BATCHPREFETCH(bsh, prefetch+64(FP), keynext) \
keynext: \
	BATCHBLOCK(SI, bsh) \
	MOVQ    8(SI), BX \
	MOVQ    BX, R8 \
	MOVQ    k+16(FP), CX \
	XORQ    R11, R11 \
value: \
	MOVQ    CX, R9 \
	CMPQ    R9, per+24(FP) \
	CMOVQGT per+24(FP), R9 \
	SUBQ    R9, CX \
pos: \
	MOVL    R8, AX \
	SHRL    $6, AX \
	ANDL    $wmask, AX \
	XORL    DI, DI \
	BTSQ    R8, DI \
	ORQ     DI, (DX)(AX*8) \
	SHRQ    $s, R8 \
	DECQ    R9 \
	JNZ     pos \
	TESTQ   CX, CX \
	JLE     next \
	BATCHMIX \
	JMP     value \
next: \
	ADDQ    stride+48(FP), SI \
	DECQ    R10 \
	JNZ     key \
	RET

// BLOCKEDPOSITIONS leaves in Y1 the positions of the 64-bit value in r,
// lanes in the order 0, 4, 1, 5, 2, 6, 3, 7, each masked to s bits, with
// the lane shifts and the mask for s at offset off of blockedShifts and
// blockedMasks.
#define BLOCKEDPOSITIONS(r, off) \
	VMOVQ        r, X0 \
	VPBROADCASTQ X0, Y0 \
	VPSRLVQ      blockedShifts<>+off(SB), Y0, Y1 \
	VPSRLVQ      blockedShifts<>+off+32(SB), Y0, Y2 \
	VPBLENDD     $0xaa, Y2, Y1, Y1 \
	VPAND        blockedMasks<>+off(SB), Y1, Y1

// BLOCKEDTEST tests the bits at positions Y1 against the words Y3 of
// their lanes, for the first R9 lanes (R9 = 0 to 8), and jumps to fail if
// one is clear. Y8 holds lanes of 1.
#define BLOCKEDTEST(fail) \
	VPAND   blockedMasks<>+32(SB), Y1, Y1 \
	VPSLLVD Y1, Y8, Y1 \
	MOVQ    R9, R12 \
	SHLQ    $5, R12 \
	LEAQ    blockedLanes<>(SB), R13 \
	VPAND   (R13)(R12*1), Y1, Y1 \
	VPTEST  Y1, Y3 \
	JCC     fail

// BLOCKEDNEXT subtracts the R9 positions just tested from DX (the
// positions left), jumps to done if none is left, and otherwise sets R8 to
// the next value, mix64(h2 + t weyl) for t = R11 + 1, h2 in BX, and R9 to
// the number of positions it gives, min(DX, DI).
#define BLOCKEDNEXT(done) \
	SUBQ    R9, DX \
	JLE     done \
	INCQ    R11 \
	MOVQ    $0x9e3779b97f4a7c15, R8 \
	IMULQ   R11, R8 \
	ADDQ    BX, R8 \
	MOVQ    R8, R12 \
	SHRQ    $30, R12 \
	XORQ    R12, R8 \
	MOVQ    $0xbf58476d1ce4e5b9, R12 \
	IMULQ   R12, R8 \
	MOVQ    R8, R12 \
	SHRQ    $27, R12 \
	XORQ    R12, R8 \
	MOVQ    $0x94d049bb133111eb, R12 \
	IMULQ   R12, R8 \
	MOVQ    R8, R12 \
	SHRQ    $31, R12 \
	XORQ    R12, R8 \
	MOVQ    DX, R9 \
	CMPQ    R9, DI \
	CMOVQGT DI, R9

// BLOCKEDSETUP loads the arguments: AX the block, BX = R8 = h2, DX = k,
// DI = per, R9 = min(k, per), R11 = 0; it jumps to pass if k <= 0, and
// sets Y8 to lanes of 1.
#define BLOCKEDSETUP(pass) \
	MOVQ    b+0(FP), AX \
	MOVQ    h2+8(FP), BX \
	MOVQ    k+16(FP), DX \
	MOVQ    per+24(FP), DI \
	MOVQ    BX, R8 \
	XORQ    R11, R11 \
	MOVQ    DX, R9 \
	CMPQ    R9, DI \
	CMOVQGT DI, R9 \
	TESTQ   DX, DX \
	JLE     pass \
	ONES(Y8)

// BLOCKEDONE is the whole of blockedTest when k <= 64/s, the positions
// of h2 alone (k up to 7 at B = 512, 8 at B = 256, the usual case up to a
// rate near 1e-3): one vector pass without the loop's bookkeeping. off
// selects the shifts and the position mask of s, as in BLOCKEDPOSITIONS;
// words fetches each lane's 32-bit word of the block into Y3.
#define BLOCKEDONE(off, words) \
	MOVQ         b+0(FP), AX \
	MOVQ         k+16(FP), R9 \
	VPBROADCASTQ h2+8(FP), Y0 \
	VPSRLVQ      blockedShifts<>+off(SB), Y0, Y1 \
	VPSRLVQ      blockedShifts<>+off+32(SB), Y0, Y2 \
	VPBLENDD     $0xaa, Y2, Y1, Y1 \
	VPAND        blockedMasks<>+off(SB), Y1, Y1 \
	words \
	ONES(Y8) \
	VPAND        blockedMasks<>+32(SB), Y1, Y1 \
	VPSLLVD      Y1, Y8, Y1 \
	SHLQ         $5, R9 \
	LEAQ         blockedLanes<>(SB), R13 \
	VPAND        (R13)(R9*1), Y1, Y1 \
	VPTEST       Y1, Y3 \
	SETCS        ret+40(FP) \
	VZEROUPPER \
	RET

#define WORDS512 \
	VPSRLD    $5, Y1, Y2 \
	VPERMD    (AX), Y2, Y3 \
	VPERMD    32(AX), Y2, Y4 \
	VPSLLD    $23, Y1, Y9 \
	VBLENDVPS Y9, Y4, Y3, Y3

#define WORDS256 \
	VPSRLD $5, Y1, Y2 \
	VPERMD (AX), Y2, Y3

// func blockedTest(b unsafe.Pointer, h2 uint64, k, per int, shift uint) bool
TEXT ·blockedTest(SB), NOSPLIT, $0-41
	CMPB ·useAVX2(SB), $0
	JEQ  testgo
	MOVQ shift+32(FP), CX
	CMPQ CX, $9
	JEQ  test512
	CMPQ CX, $8
	JEQ  test256

testgo:
	JMP ·blockedTestGo(SB)

test512:
	CMPQ k+16(FP), $7
	JGT  loop512setup
	BLOCKEDONE(64, WORDS512)

loop512setup:
	BLOCKEDSETUP(testpass)

loop512:
	BLOCKEDPOSITIONS(R8, 64)
	VPSRLD    $5, Y1, Y2
	VPERMD    (AX), Y2, Y3
	VPERMD    32(AX), Y2, Y4
	VPSLLD    $23, Y1, Y9
	VBLENDVPS Y9, Y4, Y3, Y3
	BLOCKEDTEST(testfail)
	BLOCKEDNEXT(testpass)
	JMP       loop512

test256:
	CMPQ k+16(FP), $8
	JGT  loop256setup
	BLOCKEDONE(0, WORDS256)

loop256setup:
	BLOCKEDSETUP(testpass)

loop256:
	BLOCKEDPOSITIONS(R8, 0)
	VPSRLD $5, Y1, Y2
	VPERMD (AX), Y2, Y3
	BLOCKEDTEST(testfail)
	BLOCKEDNEXT(testpass)
	JMP    loop256

testpass:
	MOVB $1, ret+40(FP)
	VZEROUPPER
	RET

testfail:
	MOVB $0, ret+40(FP)
	VZEROUPPER
	RET

// STAGEADDR leaves in DX the block, in the stream stage at SI, of the
// stream seed in R12: with R12 advanced to the state x = s + x0, the block
// reduce(wyout(x + wyp0), b) << bshift from words, as
// streamStage.blockDigest and block compute it. It clobbers AX and CX.
#define STAGEADDR \
	ADDQ    streamStage_x0(SI), R12 \
	MOVQ    $0xa0761d6478bd642f, AX \
	ADDQ    R12, AX \
	MOVQ    $0xe7037ed1a0b428db, DX \
	XORQ    AX, DX \
	MULQ    DX \
	XORQ    DX, AX \
	MULQ    streamStage_b(SI) \
	MOVBQZX streamStage_bshift(SI), CX \
	SHLQ    CX, DX \
	ADDQ    streamStage_words(SI), DX

// STAGEBLOCK leaves in R13 the block (STAGEADDR) and in BX = R8 the
// in-block value h2 = wyout(x + 2 wyp0) of the seed in R12 in the stream
// stage at SI. It clobbers AX, CX, DX and R12.
#define STAGEBLOCK \
	STAGEADDR \
	MOVQ DX, R13 \
	MOVQ $0x40ec3ac8f17ac85e, AX \
	ADDQ R12, AX \
	MOVQ $0xe7037ed1a0b428db, DX \
	XORQ AX, DX \
	MULQ DX \
	XORQ DX, AX \
	MOVQ AX, BX \
	MOVQ AX, R8

// func streamBlockedTest(hot unsafe.Pointer, n int, s uint64, prefetch bool) bool
//
// The caller has checked useAVX2 and that every stage has 8 or 9 bits per
// position (B = 256 or 512). If prefetch is set, a first pass prefetches
// every stage's block, so that the stages' cache misses are in flight
// together (as touch does for a batch); the second tests the blocks. R10 counts the stages left;
// SI is the stage record, from the oldest up in the first pass and from
// the newest (n-1) down in the second.
TEXT ·streamBlockedTest(SB), NOSPLIT, $0-33
	MOVQ  hot+0(FP), SI
	MOVQ  n+8(FP), R10
	TESTQ R10, R10
	JLE   sfail
	CMPB  prefetch+24(FP), $0
	JEQ   test

prefetch:
	MOVQ       s+16(FP), R12
	STAGEADDR
	PREFETCHT0 (DX)
	ADDQ       $streamStage__size, SI
	DECQ       R10
	JNZ        prefetch

	MOVQ hot+0(FP), SI
	MOVQ n+8(FP), R10

test:
	MOVQ R10, AX
	DECQ AX
	IMULQ $streamStage__size, AX
	ADDQ AX, SI
	ONES(Y8)

stage:
	MOVQ    s+16(FP), R12
	STAGEBLOCK
	MOVQ    R13, AX
	MOVQ    streamStage_bk(SI), DX
	MOVQ    streamStage_bper(SI), DI
	XORQ    R11, R11
	MOVQ    DX, R9
	CMPQ    R9, DI
	CMOVQGT DI, R9
	TESTQ   DX, DX
	JLE     spass
	CMPQ    streamStage_bbits(SI), $9
	JNE     s256

s512:
	BLOCKEDPOSITIONS(R8, 64)
	VPSRLD    $5, Y1, Y2
	VPERMD    (AX), Y2, Y3
	VPERMD    32(AX), Y2, Y4
	VPSLLD    $23, Y1, Y9
	VBLENDVPS Y9, Y4, Y3, Y3
	BLOCKEDTEST(snext)
	BLOCKEDNEXT(spass)
	JMP       s512

s256:
	BLOCKEDPOSITIONS(R8, 0)
	VPSRLD $5, Y1, Y2
	VPERMD (AX), Y2, Y3
	BLOCKEDTEST(snext)
	BLOCKEDNEXT(spass)
	JMP    s256

snext:
	SUBQ $streamStage__size, SI
	DECQ R10
	JNZ  stage

sfail:
	MOVB $0, ret+32(FP)
	VZEROUPPER
	RET

spass:
	MOVB $1, ret+32(FP)
	VZEROUPPER
	RET

// ---- The blocked filter's batches ----
//
// The loops are described with their macros, after the tables above.

// func blockedContains(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, out *bool, prefetch bool)
//
// The caller has checked z against the table and out against n. Blocks of
// 256 and 512 bits (s = 8 and 9) take the AVX2 tests, one vector pass per
// key for k <= 64/s and a pass per value of h2 above; the other block
// sizes, and processors without AVX2, jump to blockedContainsGo.
TEXT ·blockedContains(SB), NOSPLIT, $0-73
	CMPB ·useAVX2(SB), $0
	JEQ  bcgo
	MOVQ shift+32(FP), CX
	CMPQ CX, $9
	JEQ  bc512
	CMPQ CX, $8
	JEQ  bc256

bcgo:
	JMP ·blockedContainsGo(SB)

bcnone:
	RET

bc512:
	BATCHCONTAINS(64, 6, BATCHWORDS512, bcnone, c512first, c512started, c512one, c512oneloop, c512loop, c512loopnext, c512value, c512pass, c512fail, c512next)

bc256:
	BATCHCONTAINS(0, 5, BATCHWORDS256, bcnone, c256first, c256started, c256one, c256oneloop, c256loop, c256loopnext, c256value, c256pass, c256fail, c256next)

// func blockedAdd(words unsafe.Pointer, z uint64, k, per int, shift uint, d unsafe.Pointer, stride uintptr, n int, prefetch bool)
//
// The caller has checked z against the table. Blocks of 256 and 512 bits
// with AVX2 take this loop (scalar: it uses no vector register); the
// others jump to blockedAddGo, as blockedContains does.
TEXT ·blockedAdd(SB), NOSPLIT, $0-65
	CMPB ·useAVX2(SB), $0
	JEQ  bago
	MOVQ shift+32(FP), CX
	CMPQ CX, $9
	JEQ  ba512
	CMPQ CX, $8
	JEQ  ba256

bago:
	JMP ·blockedAddGo(SB)

banone:
	RET

ba512:
	BATCHADD(6, 9, 7, banone, a512first, a512started, a512key, a512keynext, a512value, a512pos, a512next)

ba256:
	BATCHADD(5, 8, 3, banone, a256first, a256started, a256key, a256keynext, a256value, a256pos, a256next)

// func streamBlockedPrefetch(hot unsafe.Pointer, n int, seeds *uint64, m int)
//
// For each of the m stream seeds at seeds, it prefetches the block of
// every one of the n stream stages at hot (STAGEADDR), so that the cache
// misses of a group of keys in every stage are in flight together. The
// prefetches wait for nothing: the loop runs on while the lines arrive.
// Scalar code; with useAVX2 off it jumps to streamBlockedPrefetchGo.
TEXT ·streamBlockedPrefetch(SB), NOSPLIT, $0-32
	CMPB  ·useAVX2(SB), $0
	JEQ   sprefgo
	MOVQ  seeds+16(FP), DI
	MOVQ  m+24(FP), R9
	TESTQ R9, R9
	JLE   sprefdone
	CMPQ  n+8(FP), $0
	JLE   sprefdone

sprefkey:
	MOVQ hot+0(FP), SI
	MOVQ n+8(FP), R10

sprefstage:
	MOVQ       (DI), R12
	STAGEADDR
	PREFETCHT0 (DX)
	ADDQ       $streamStage__size, SI
	DECQ       R10
	JNZ        sprefstage
	ADDQ       $8, DI
	DECQ       R9
	JNZ        sprefkey

sprefdone:
	RET

sprefgo:
	JMP ·streamBlockedPrefetchGo(SB)
