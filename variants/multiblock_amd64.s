//go:build !purego

#include "textflag.h"

// The AVX2 probes of the multiblock filter's multiblock layouts
// (Multiblock, Multi true) with windows of w = 32 bits (K = 1 to 16) and
// w = 64 bits (K = 1 to 8), at any stride. A key sets bit f_i of window i
// of its block, f_i the i-th field of log2 w bits of h2 from the low bits
// up (12 fields of 5 bits and 10 of 6 bits per 64-bit value); at w = 32
// fields 12 to 15 come from the next value, mix64(h2 + weyl). The block
// begins at a whole byte p, and window i is the 32- or 64-bit
// little-endian word at p + i w/8, so the probes read the block with
// unaligned loads whatever the stride.
//
// A vector holds eight 32-bit windows or four 64-bit ones: each lane gets
// its field (VPSRLVQ of h2 broadcast, by the lane's shift), then the bit
// 1 << f_i (VPSLLVD or VPSLLVQ). A block of fewer lanes than the vector is
// read with VPMASKMOVD or VPMASKMOVQ, which touch no byte of a masked
// lane, and written back 16, 8 and 4 bytes at a time (STOREPART), so that
// a probe reads and writes nothing outside its block: neither past the
// end of the table nor, at a byte stride, the windows of the blocks that
// overlap its own. The test is one VPTEST
// (CF set when no bit of the key is clear), or two vectors' clear bits
// ORed and tested for zero when the block spans two vectors.
//
// The two entry points are only for useAVX2: the caller (Multiblock's
// probes, multiblock_amd64.go) checks it and the layout, and passes the
// block's address, k and the layout's vector probe (multiblockVecOf).

// multiShifts holds the 64-bit lane shifts that bring a field to the low
// bits of its lane:
//
//	+0   w = 32, fields 0, 2, 4, 6 (low halves of the four lanes)
//	+32  w = 32, fields 1, 3, 5, 7 (moved to the high halves by VPSLLQ)
//	+64  w = 32, fields 8, 10 of h2 and 12, 14 of the next value
//	+96  w = 32, fields 9, 11 of h2 and 13, 15 of the next value
//	+128 w = 64, fields 0 to 3
//	+160 w = 64, fields 4 to 7
DATA multiShifts<>+0(SB)/8, $0
DATA multiShifts<>+8(SB)/8, $10
DATA multiShifts<>+16(SB)/8, $20
DATA multiShifts<>+24(SB)/8, $30
DATA multiShifts<>+32(SB)/8, $5
DATA multiShifts<>+40(SB)/8, $15
DATA multiShifts<>+48(SB)/8, $25
DATA multiShifts<>+56(SB)/8, $35
DATA multiShifts<>+64(SB)/8, $40
DATA multiShifts<>+72(SB)/8, $50
DATA multiShifts<>+80(SB)/8, $0
DATA multiShifts<>+88(SB)/8, $10
DATA multiShifts<>+96(SB)/8, $45
DATA multiShifts<>+104(SB)/8, $55
DATA multiShifts<>+112(SB)/8, $5
DATA multiShifts<>+120(SB)/8, $15
DATA multiShifts<>+128(SB)/8, $0
DATA multiShifts<>+136(SB)/8, $6
DATA multiShifts<>+144(SB)/8, $12
DATA multiShifts<>+152(SB)/8, $18
DATA multiShifts<>+160(SB)/8, $24
DATA multiShifts<>+168(SB)/8, $30
DATA multiShifts<>+176(SB)/8, $36
DATA multiShifts<>+184(SB)/8, $42
GLOBL multiShifts<>(SB), RODATA|NOPTR, $192

// multiLanes holds, at 32 n bytes for n = 0 to 8, the mask of the first n
// 32-bit lanes (row 2n for the first n 64-bit lanes).
DATA multiLanes<>+0(SB)/8, $0
DATA multiLanes<>+8(SB)/8, $0
DATA multiLanes<>+16(SB)/8, $0
DATA multiLanes<>+24(SB)/8, $0
DATA multiLanes<>+32(SB)/8, $0x00000000ffffffff
DATA multiLanes<>+40(SB)/8, $0
DATA multiLanes<>+48(SB)/8, $0
DATA multiLanes<>+56(SB)/8, $0
DATA multiLanes<>+64(SB)/8, $-1
DATA multiLanes<>+72(SB)/8, $0
DATA multiLanes<>+80(SB)/8, $0
DATA multiLanes<>+88(SB)/8, $0
DATA multiLanes<>+96(SB)/8, $-1
DATA multiLanes<>+104(SB)/8, $0x00000000ffffffff
DATA multiLanes<>+112(SB)/8, $0
DATA multiLanes<>+120(SB)/8, $0
DATA multiLanes<>+128(SB)/8, $-1
DATA multiLanes<>+136(SB)/8, $-1
DATA multiLanes<>+144(SB)/8, $0
DATA multiLanes<>+152(SB)/8, $0
DATA multiLanes<>+160(SB)/8, $-1
DATA multiLanes<>+168(SB)/8, $-1
DATA multiLanes<>+176(SB)/8, $0x00000000ffffffff
DATA multiLanes<>+184(SB)/8, $0
DATA multiLanes<>+192(SB)/8, $-1
DATA multiLanes<>+200(SB)/8, $-1
DATA multiLanes<>+208(SB)/8, $-1
DATA multiLanes<>+216(SB)/8, $0
DATA multiLanes<>+224(SB)/8, $-1
DATA multiLanes<>+232(SB)/8, $-1
DATA multiLanes<>+240(SB)/8, $-1
DATA multiLanes<>+248(SB)/8, $0x00000000ffffffff
DATA multiLanes<>+256(SB)/8, $-1
DATA multiLanes<>+264(SB)/8, $-1
DATA multiLanes<>+272(SB)/8, $-1
DATA multiLanes<>+280(SB)/8, $-1
GLOBL multiLanes<>(SB), RODATA|NOPTR, $288

// multiFields holds 32-bit lanes of 31 (+0) and 64-bit lanes of 63
// (+32), the field masks of w = 32 and 64.
DATA multiFields<>+0(SB)/8, $0x0000001f0000001f
DATA multiFields<>+8(SB)/8, $0x0000001f0000001f
DATA multiFields<>+16(SB)/8, $0x0000001f0000001f
DATA multiFields<>+24(SB)/8, $0x0000001f0000001f
DATA multiFields<>+32(SB)/8, $63
DATA multiFields<>+40(SB)/8, $63
DATA multiFields<>+48(SB)/8, $63
DATA multiFields<>+56(SB)/8, $63
GLOBL multiFields<>(SB), RODATA|NOPTR, $64

// CONST32 sets Y8 to 32-bit lanes of 1.
#define CONST32 \
	VPCMPEQD Y8, Y8, Y8 \
	VPSRLD   $31, Y8, Y8

// CONST64 sets Y8 to 64-bit lanes of 1.
#define CONST64 \
	VPCMPEQQ Y8, Y8, Y8 \
	VPSRLQ   $63, Y8, Y8

// BITS32 leaves in dst the bits of eight 32-bit windows for the values in
// the 64-bit lanes of src, with the shifts at offset off of multiShifts
// (fields in lane order); it clobbers Y2. Y8 holds CONST32.
#define BITS32(off, src, dst) \
	VPSRLVQ  multiShifts<>+off(SB), src, dst \
	VPSRLVQ  multiShifts<>+off+32(SB), src, Y2 \
	VPSLLQ   $32, Y2, Y2 \
	VPBLENDD $0xaa, Y2, dst, dst \
	VPAND    multiFields<>+0(SB), dst, dst \
	VPSLLVD  dst, Y8, dst

// BITS64 leaves in dst the bits of four 64-bit windows for the values in
// the lanes of src, with the shifts at offset off of multiShifts. Y8
// holds CONST64.
#define BITS64(off, src, dst) \
	VPSRLVQ multiShifts<>+off(SB), src, dst \
	VPAND   multiFields<>+32(SB), dst, dst \
	VPSLLVQ dst, Y8, dst

// LANES leaves in Y4 the row r (0 to 8) of multiLanes; it clobbers DX
// and r.
#define LANES(r) \
	SHLQ    $5, r \
	LEAQ    multiLanes<>(SB), DX \
	VMOVDQU (DX)(r*1), Y4

// NEXT32 leaves in Y6 the values of the second vector of w = 32: h2 (in
// Y0) in the low two lanes and, when k (CX) is above 12, mix64(h2 +
// weyl) in the high two (otherwise h2 again, whose lanes the mask drops).
// It clobbers R8, R9 and Y5.
#define NEXT32(skip) \
	VMOVDQU Y0, Y6 \
	CMPQ    CX, $12 \
	JLE     skip \
	MOVQ    $0x9e3779b97f4a7c15, R8 \
	ADDQ    h2+8(FP), R8 \
	MOVQ    R8, R9 \
	SHRQ    $30, R9 \
	XORQ    R9, R8 \
	MOVQ    $0xbf58476d1ce4e5b9, R9 \
	IMULQ   R9, R8 \
	MOVQ    R8, R9 \
	SHRQ    $27, R9 \
	XORQ    R9, R8 \
	MOVQ    $0x94d049bb133111eb, R9 \
	IMULQ   R9, R8 \
	MOVQ    R8, R9 \
	SHRQ    $31, R9 \
	XORQ    R9, R8 \
	VMOVQ        R8, X5 \
	VPBROADCASTQ X5, Y5 \
	VPBLENDD     $0xf0, Y5, Y0, Y6 \
skip:

// STOREPART stores the first CX bytes (4 to 32, a multiple of 4) of the
// vector in Y3 at AX, with no byte beyond: 16, 8 and 4 bytes at a time,
// the upper lanes moved down in turn. It clobbers AX, CX and Y3. A
// masked store (VPMASKMOVD) does the same in one instruction but costs
// several times a plain store on the machines measured.
#define STOREPART(done, lt16, lt8) \
	CMPQ         CX, $16 \
	JLT          lt16 \
	VMOVDQU      X3, (AX) \
	VEXTRACTI128 $1, Y3, X3 \
	ADDQ         $16, AX \
	SUBQ         $16, CX \
lt16: \
	CMPQ         CX, $8 \
	JLT          lt8 \
	VMOVQ        X3, (AX) \
	VPSRLDQ      $8, X3, X3 \
	ADDQ         $8, AX \
	SUBQ         $8, CX \
lt8: \
	TESTQ        CX, CX \
	JEQ          done \
	VMOVD        X3, (AX) \
done:

// func multiTest(p unsafe.Pointer, h2 uint64, k int, vec uint8) bool
//
// vec multiVec32 (1): k is 1 to 16, windows 0 to min(k, 8)-1 in the
// first vector, the rest in the second, at p + 32. vec multiVec64 (2): k
// is 1 to 8, windows 0 to min(k, 4)-1 in the first vector. Other values
// (the block layouts) jump to multiTestGo.
TEXT ·multiTest(SB), NOSPLIT, $0-33
	MOVBLZX vec+24(FP), AX
	CMPL    AX, $1
	JEQ     t32
	CMPL    AX, $2
	JEQ     t64
	JMP     ·multiTestGo(SB)

t32:
	MOVQ         p+0(FP), AX
	MOVQ         k+16(FP), CX
	VPBROADCASTQ h2+8(FP), Y0
	CONST32
	BITS32(0, Y0, Y1)
	CMPQ         CX, $8
	JGT          t32two
	JEQ          t32full
	LANES(CX)
	VPAND        Y4, Y1, Y1
	VPMASKMOVD   (AX), Y4, Y3
	VPTEST       Y1, Y3 // CF = (bits &^ block) == 0
	SETCS        ret+32(FP)
	VZEROUPPER
	RET

t32full:
	VMOVDQU (AX), Y3
	VPTEST  Y1, Y3
	SETCS   ret+32(FP)
	VZEROUPPER
	RET

t32two:
	VMOVDQU    (AX), Y3
	VPANDN     Y1, Y3, Y7 // bits &^ block
	NEXT32(t32next)
	BITS32(64, Y6, Y1)
	SUBQ       $8, CX
	LANES(CX)
	VPAND      Y4, Y1, Y1
	VPMASKMOVD 32(AX), Y4, Y3
	VPANDN     Y1, Y3, Y1
	VPOR       Y1, Y7, Y7
	VPTEST     Y7, Y7
	SETEQ      ret+32(FP)
	VZEROUPPER
	RET

t64:
	MOVQ         p+0(FP), AX
	MOVQ         k+16(FP), CX
	VPBROADCASTQ h2+8(FP), Y0
	CONST64
	BITS64(128, Y0, Y1)
	CMPQ         CX, $4
	JGT          t64two
	JEQ          t64full
	SHLQ         $1, CX
	LANES(CX)
	VPAND        Y4, Y1, Y1
	VPMASKMOVQ   (AX), Y4, Y3
	VPTEST       Y1, Y3
	SETCS        ret+32(FP)
	VZEROUPPER
	RET

t64full:
	VMOVDQU (AX), Y3
	VPTEST  Y1, Y3
	SETCS   ret+32(FP)
	VZEROUPPER
	RET

t64two:
	VMOVDQU    (AX), Y3
	VPANDN     Y1, Y3, Y7
	BITS64(160, Y0, Y1)
	SUBQ       $4, CX
	SHLQ       $1, CX
	LANES(CX)
	VPAND      Y4, Y1, Y1
	VPMASKMOVQ 32(AX), Y4, Y3
	VPANDN     Y1, Y3, Y1
	VPOR       Y1, Y7, Y7
	VPTEST     Y7, Y7
	SETEQ      ret+32(FP)
	VZEROUPPER
	RET

// func multiSet(p unsafe.Pointer, h2 uint64, k int, vec uint8)
//
// vec is multiVec32 (1) or multiVec64 (2), with k as for multiTest.
TEXT ·multiSet(SB), NOSPLIT, $0-25
	CMPB    vec+24(FP), $2
	JEQ     s64

	MOVQ         p+0(FP), AX
	MOVQ         k+16(FP), CX
	VPBROADCASTQ h2+8(FP), Y0
	CONST32
	BITS32(0, Y0, Y1)
	CMPQ         CX, $8
	JGE          s32full
	MOVQ         CX, DI
	LANES(DI)
	VPMASKMOVD   (AX), Y4, Y3
	VPOR         Y1, Y3, Y3
	SHLQ         $2, CX
	STOREPART(s32done, s32lt16, s32lt8)
	VZEROUPPER
	RET

s32full:
	VPOR    (AX), Y1, Y1
	VMOVDQU Y1, (AX)
	JEQ     s32done
	NEXT32(s32next)
	BITS32(64, Y6, Y1)
	ADDQ       $32, AX
	SUBQ       $8, CX
	CMPQ       CX, $8
	JEQ        s32second
	MOVQ       CX, DI
	LANES(DI)
	VPMASKMOVD (AX), Y4, Y3
	VPOR       Y1, Y3, Y3
	SHLQ       $2, CX
	STOREPART(s32done2, s32lt16b, s32lt8b)
	VZEROUPPER
	RET

s32second:
	VPOR    (AX), Y1, Y1
	VMOVDQU Y1, (AX)
	VZEROUPPER
	RET

s64:
	MOVQ         p+0(FP), AX
	MOVQ         k+16(FP), CX
	VPBROADCASTQ h2+8(FP), Y0
	CONST64
	BITS64(128, Y0, Y1)
	CMPQ         CX, $4
	JGE          s64full
	SHLQ         $1, CX
	MOVQ         CX, DI
	LANES(DI)
	VPMASKMOVQ   (AX), Y4, Y3
	VPOR         Y1, Y3, Y3
	SHLQ         $2, CX
	STOREPART(s64done, s64lt16, s64lt8)
	VZEROUPPER
	RET

s64full:
	VPOR    (AX), Y1, Y1
	VMOVDQU Y1, (AX)
	JEQ     s64done2
	BITS64(160, Y0, Y1)
	ADDQ       $32, AX
	SUBQ       $4, CX
	CMPQ       CX, $4
	JEQ        s64second
	SHLQ       $1, CX
	MOVQ       CX, DI
	LANES(DI)
	VPMASKMOVQ (AX), Y4, Y3
	VPOR       Y1, Y3, Y3
	SHLQ       $2, CX
	STOREPART(s64done3, s64lt16b, s64lt8b)
	VZEROUPPER
	RET

s64second:
	VPOR    (AX), Y1, Y1
	VMOVDQU Y1, (AX)

s64done2:
	VZEROUPPER
	RET
