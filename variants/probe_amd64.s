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
