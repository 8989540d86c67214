//go:build amd64 && !purego

#include "textflag.h"

// ARGS8 loads the eight-action kernels' arguments into their registers
// (see scoreBlocks8AVX2).
#define ARGS8 \
	MOVQ mt+0(FP), SI; \
	MOVQ dp+8(FP), BX; \
	SHLQ $3, BX; \
	MOVQ zp+16(FP), DI; \
	MOVQ d+24(FP), R9; \
	MOVQ x+32(FP), R10; \
	MOVQ n8+40(FP), R14; \
	MOVQ scores+56(FP), R15; \
	MOVQ R9, R12; \
	SHLQ $3, R12; \
	LEAQ (R12)(R12*2), R13

// FMABCST8 adds m times x_a[j] to w_a for the eight actions a of the block
// (embedded broadcast, AVX-512VL for YMM m), then steps to column j+1 and
// compares the x cursor with its end.
#define FMABCST8(m, w0, w1, w2, w3, w4, w5, w6, w7) \
	VFMADD231PD.BCST (CX), m, w0; \
	VFMADD231PD.BCST (CX)(R12*1), m, w1; \
	VFMADD231PD.BCST (CX)(R12*2), m, w2; \
	VFMADD231PD.BCST (CX)(R13*1), m, w3; \
	VFMADD231PD.BCST (CX)(R12*4), m, w4; \
	VFMADD231PD.BCST (DX)(R12*4), m, w5; \
	VFMADD231PD.BCST (CX)(R13*2), m, w6; \
	VFMADD231PD.BCST (DX)(R13*2), m, w7; \
	ADDQ BX, R8; \
	ADDQ $8, CX; \
	ADDQ $8, DX; \
	CMPQ CX, R11

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func scoreBlocksAVX2(mt *float64, dp int, zp *float64, d int, x *float64, nblk int, beta float64, scores *float64)
//
// For each block of four consecutive actions x_k (each d floats, contiguous),
// k = 0..4·nblk−1:
//   w_k = M x_k (M lower triangular, given as mt[j·dp+i] = M_ij, zero-padded)
//   scores[k] = Σ_i z_i w_ki + β·sqrt(Σ_i w_ki²)
// Rows of M are processed four at a time (one YMM per action); for the row
// block [i0, i0+4) only columns j < min(i0+4, d) can be non-zero.
//
// Registers: SI mt, DI zp, BX row stride of mt in bytes, R9 d,
// R10–R13 the four action pointers, AX i0, CX j, DX end of j, R8 mt cursor,
// R14 blocks left, R15 scores cursor, SP untouched.
// Y0–Y3 w, Y4 mt row, Y5 broadcast x, Y6 z block, Y7 β, Y8–Y11 q, Y12–Y15 s.
TEXT ·scoreBlocksAVX2(SB), NOSPLIT, $0-64
	MOVQ mt+0(FP), SI
	MOVQ dp+8(FP), BX
	SHLQ $3, BX
	MOVQ zp+16(FP), DI
	MOVQ d+24(FP), R9
	MOVQ x+32(FP), R10
	MOVQ nblk+40(FP), R14
	VBROADCASTSD beta+48(FP), Y7
	MOVQ scores+56(FP), R15
	MOVQ R9, DX
	SHLQ $3, DX                // DX = d·8, the stride between actions
	LEAQ (R10)(DX*1), R11
	LEAQ (R11)(DX*1), R12
	LEAQ (R12)(DX*1), R13

block:
	TESTQ R14, R14
	JEQ   ret
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	XORQ AX, AX

rowblock:
	CMPQ AX, R9
	JGE  blockdone
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ AX, DX
	ADDQ $4, DX
	CMPQ DX, R9
	CMOVQGT R9, DX             // DX = min(i0+4, d)
	LEAQ (SI)(AX*8), R8        // &mt[0·dp + i0]
	XORQ CX, CX

col:
	VMOVUPD (R8), Y4
	VBROADCASTSD (R10)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y0
	VBROADCASTSD (R11)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y1
	VBROADCASTSD (R12)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y2
	VBROADCASTSD (R13)(CX*8), Y5
	VFMADD231PD Y4, Y5, Y3
	ADDQ BX, R8
	INCQ CX
	CMPQ CX, DX
	JLT  col

	VMOVUPD (DI)(AX*8), Y6
	VFMADD231PD Y0, Y0, Y8
	VFMADD231PD Y1, Y1, Y9
	VFMADD231PD Y2, Y2, Y10
	VFMADD231PD Y3, Y3, Y11
	VFMADD231PD Y0, Y6, Y12
	VFMADD231PD Y1, Y6, Y13
	VFMADD231PD Y2, Y6, Y14
	VFMADD231PD Y3, Y6, Y15
	ADDQ $4, AX
	JMP  rowblock

blockdone:
	// q = (Σ lanes of Y8, …, Σ lanes of Y11), s likewise from Y12–Y15.
	VHADDPD Y9, Y8, Y0         // (q0a+q0b, q1a+q1b, q0c+q0d, q1c+q1d)
	VHADDPD Y11, Y10, Y1       // (q2…, q3…, q2…, q3…)
	VPERM2F128 $0x20, Y1, Y0, Y2
	VPERM2F128 $0x31, Y1, Y0, Y3
	VADDPD Y3, Y2, Y2          // (q0, q1, q2, q3)
	VHADDPD Y13, Y12, Y0
	VHADDPD Y15, Y14, Y1
	VPERM2F128 $0x20, Y1, Y0, Y4
	VPERM2F128 $0x31, Y1, Y0, Y5
	VADDPD Y5, Y4, Y4          // (s0, s1, s2, s3)
	VSQRTPD Y2, Y2
	VFMADD231PD Y2, Y7, Y4     // s + β·sqrt(q)
	VMOVUPD Y4, (R15)
	ADDQ $32, R15

	MOVQ R9, DX
	SHLQ $5, DX                // 4 actions · d · 8 bytes
	ADDQ DX, R10
	ADDQ DX, R11
	ADDQ DX, R12
	ADDQ DX, R13
	DECQ R14
	JMP  block

ret:
	VZEROUPPER
	RET

// The reduction of four actions' lane sums q_r (Y8–Y11) and s_r (Y12–Y15)
// to scores[k] = fma(β, √((q0+q1)+(q2+q3)), (s0+s1)+(s2+s3)) for the four
// actions, β in Y7, stored at dst. Clobbers Y0–Y5.
#define REDUCE4(dst) \
	VHADDPD Y9, Y8, Y0; \
	VHADDPD Y11, Y10, Y1; \
	VPERM2F128 $0x20, Y1, Y0, Y2; \
	VPERM2F128 $0x31, Y1, Y0, Y3; \
	VADDPD Y3, Y2, Y2; \
	VHADDPD Y13, Y12, Y0; \
	VHADDPD Y15, Y14, Y1; \
	VPERM2F128 $0x20, Y1, Y0, Y4; \
	VPERM2F128 $0x31, Y1, Y0, Y5; \
	VADDPD Y5, Y4, Y4; \
	VSQRTPD Y2, Y2; \
	VFMADD231PD Y2, Y7, Y4; \
	VMOVUPD Y4, dst

// func scoreBlocks8AVX2(mt *float64, dp int, zp *float64, d int, x *float64, n8 int, beta float64, scores *float64)
//
// scoreBlocksAVX2 for n8 blocks of eight actions: eight independent FMA
// chains (one per action) hide the FMA latency, and each row of M loaded
// serves eight actions. The q and s lane sums live in the 512-byte frame
// (q_a at 32a(SP), s_a at 256+32a(SP)); the summation order is that of
// scoreBlocksGo.
//
// Registers: SI mt, BX row stride of mt in bytes, DI zp, R9 d, R10 action 0
// of the block, R12 S = 8d (the stride between actions), R13 3S, CX and DX
// cursors at x_0[j] and x_1[j] (x_a[j] is addressed from them with S and
// 3S), R11 end of the j loop, AX i0, R8 mt cursor, R14 blocks left, R15
// scores cursor. Y0–Y7 w, Y8 mt row, Y9–Y15 broadcasts and lane sums.
TEXT ·scoreBlocks8AVX2(SB), 0, $512-64
	ARGS8

block8:
	TESTQ R14, R14
	JEQ   ret8
	VXORPD Y0, Y0, Y0
	MOVQ $0, AX

zero8:
	VMOVUPD Y0, (SP)(AX*1)
	ADDQ $32, AX
	CMPQ AX, $512
	JLT  zero8
	XORQ AX, AX

rows8:
	CMPQ AX, R9
	JGE  done8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ AX, R11
	ADDQ $4, R11
	CMPQ R11, R9
	CMOVQGT R9, R11            // jend = min(i0+4, d)
	LEAQ (R10)(R11*8), R11     // &x_0[jend]
	MOVQ R10, CX
	LEAQ (R10)(R12*1), DX
	LEAQ (SI)(AX*8), R8        // &mt[0·dp + i0]

col8:
	VMOVUPD (R8), Y8
	VBROADCASTSD (CX), Y9
	VFMADD231PD Y8, Y9, Y0
	VBROADCASTSD (CX)(R12*1), Y10
	VFMADD231PD Y8, Y10, Y1
	VBROADCASTSD (CX)(R12*2), Y11
	VFMADD231PD Y8, Y11, Y2
	VBROADCASTSD (CX)(R13*1), Y12
	VFMADD231PD Y8, Y12, Y3
	VBROADCASTSD (CX)(R12*4), Y13
	VFMADD231PD Y8, Y13, Y4
	VBROADCASTSD (DX)(R12*4), Y14
	VFMADD231PD Y8, Y14, Y5
	VBROADCASTSD (CX)(R13*2), Y15
	VFMADD231PD Y8, Y15, Y6
	VBROADCASTSD (DX)(R13*2), Y9
	VFMADD231PD Y8, Y9, Y7
	ADDQ BX, R8
	ADDQ $8, CX
	ADDQ $8, DX
	CMPQ CX, R11
	JLT  col8

	VMOVUPD (DI)(AX*8), Y8     // z[i0:i0+4]
#define LANES8(w, off) \
	VMOVUPD off(SP), Y9; \
	VMOVUPD 256+off(SP), Y10; \
	VFMADD231PD w, w, Y9; \
	VFMADD231PD w, Y8, Y10; \
	VMOVUPD Y9, off(SP); \
	VMOVUPD Y10, 256+off(SP)
	LANES8(Y0, 0)
	LANES8(Y1, 32)
	LANES8(Y2, 64)
	LANES8(Y3, 96)
	LANES8(Y4, 128)
	LANES8(Y5, 160)
	LANES8(Y6, 192)
	LANES8(Y7, 224)
	ADDQ $4, AX
	JMP  rows8

done8:
	VBROADCASTSD beta+48(FP), Y7
	VMOVUPD 0(SP), Y8
	VMOVUPD 32(SP), Y9
	VMOVUPD 64(SP), Y10
	VMOVUPD 96(SP), Y11
	VMOVUPD 256(SP), Y12
	VMOVUPD 288(SP), Y13
	VMOVUPD 320(SP), Y14
	VMOVUPD 352(SP), Y15
	REDUCE4((R15))
	VMOVUPD 128(SP), Y8
	VMOVUPD 160(SP), Y9
	VMOVUPD 192(SP), Y10
	VMOVUPD 224(SP), Y11
	VMOVUPD 384(SP), Y12
	VMOVUPD 416(SP), Y13
	VMOVUPD 448(SP), Y14
	VMOVUPD 480(SP), Y15
	REDUCE4(32(R15))
	ADDQ $64, R15
	LEAQ (R10)(R12*8), R10     // the next eight actions
	DECQ R14
	JMP  block8

ret8:
	VZEROUPPER
	RET

// func scoreBlocks8AVX512(mt *float64, dp int, zp *float64, d int, x *float64, n8 int, beta float64, scores *float64)
//
// scoreBlocks8AVX2 with eight rows of M per ZMM register: per column j one
// load of M[i0:i0+8, j] and eight FMAs with an embedded broadcast of x_a[j],
// eight independent chains. The two halves of w are folded into the four
// lane sums in row order (rows i0..i0+3, then i0+4..i0+7), so the
// summation order is that of scoreBlocksGo. When dp − i0 = 4 the last row
// block is done with YMM registers. Lane sums: q_a in Y16+a, s_a in Y24+a.
// Requires AVX-512F and AVX-512VL.
//
// Registers as in scoreBlocks8AVX2; Z0–Z7 w, Z8 mt rows, Y9–Y10 z halves,
// Y11 scratch.
TEXT ·scoreBlocks8AVX512(SB), NOSPLIT, $0-64
	ARGS8

block16:
	TESTQ R14, R14
	JEQ   ret16
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	VPXORQ Z26, Z26, Z26
	VPXORQ Z27, Z27, Z27
	VPXORQ Z28, Z28, Z28
	VPXORQ Z29, Z29, Z29
	VPXORQ Z30, Z30, Z30
	VPXORQ Z31, Z31, Z31
	XORQ AX, AX

rows16:
	CMPQ AX, R9
	JGE  done16
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	MOVQ R10, CX
	LEAQ (R10)(R12*1), DX
	LEAQ (SI)(AX*8), R8        // &mt[0·dp + i0]
	LEAQ 8(AX), R11
	SHLQ $3, R11
	CMPQ R11, BX
	JGT  tail16                // fewer than eight padded rows left: dp − i0 = 4
	LEAQ 8(AX), R11
	CMPQ R11, R9
	CMOVQGT R9, R11            // jend = min(i0+8, d)
	LEAQ (R10)(R11*8), R11     // &x_0[jend]

col16:
	VMOVUPD (R8), Z8
	FMABCST8(Z8, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	JLT  col16

	VMOVUPD (DI)(AX*8), Y9     // z[i0:i0+4]
	VMOVUPD 32(DI)(AX*8), Y10  // z[i0+4:i0+8]
#define LANES16(z, y, q, s) \
	VFMADD231PD y, y, q; \
	VFMADD231PD y, Y9, s; \
	VEXTRACTF64X4 $1, z, Y11; \
	VFMADD231PD Y11, Y11, q; \
	VFMADD231PD Y11, Y10, s
	LANES16(Z0, Y0, Y16, Y24)
	LANES16(Z1, Y1, Y17, Y25)
	LANES16(Z2, Y2, Y18, Y26)
	LANES16(Z3, Y3, Y19, Y27)
	LANES16(Z4, Y4, Y20, Y28)
	LANES16(Z5, Y5, Y21, Y29)
	LANES16(Z6, Y6, Y22, Y30)
	LANES16(Z7, Y7, Y23, Y31)
	ADDQ $8, AX
	JMP  rows16

tail16:
	LEAQ 4(AX), R11
	CMPQ R11, R9
	CMOVQGT R9, R11            // jend = min(i0+4, d)
	LEAQ (R10)(R11*8), R11

coltail16:
	VMOVUPD (R8), Y8
	FMABCST8(Y8, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	JLT  coltail16

	VMOVUPD (DI)(AX*8), Y9
#define LANES4(y, q, s) \
	VFMADD231PD y, y, q; \
	VFMADD231PD y, Y9, s
	LANES4(Y0, Y16, Y24)
	LANES4(Y1, Y17, Y25)
	LANES4(Y2, Y18, Y26)
	LANES4(Y3, Y19, Y27)
	LANES4(Y4, Y20, Y28)
	LANES4(Y5, Y21, Y29)
	LANES4(Y6, Y22, Y30)
	LANES4(Y7, Y23, Y31)

done16:
	VBROADCASTSD beta+48(FP), Y7
	VMOVAPD Y16, Y8
	VMOVAPD Y17, Y9
	VMOVAPD Y18, Y10
	VMOVAPD Y19, Y11
	VMOVAPD Y24, Y12
	VMOVAPD Y25, Y13
	VMOVAPD Y26, Y14
	VMOVAPD Y27, Y15
	REDUCE4((R15))
	VMOVAPD Y20, Y8
	VMOVAPD Y21, Y9
	VMOVAPD Y22, Y10
	VMOVAPD Y23, Y11
	VMOVAPD Y28, Y12
	VMOVAPD Y29, Y13
	VMOVAPD Y30, Y14
	VMOVAPD Y31, Y15
	REDUCE4(32(R15))
	ADDQ $64, R15
	LEAQ (R10)(R12*8), R10
	DECQ R14
	JMP  block16

ret16:
	VZEROUPPER
	RET
