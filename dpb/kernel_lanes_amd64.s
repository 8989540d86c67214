//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

// Frame (from R13, SP rounded up to 64 bytes): the lane sums q_r of the
// four groups at 64·(4r+g), s_r at 1024+64·(4r+g); the transposed actions of
// group g at 2048 + 8192·g + 64·j (coordinate j of its eight actions, j <
// lanesMaxDim = 128).
#define QS(r, g) (64*(4*r+g))
#define SS(r, g) (1024+64*(4*r+g))
#define XT 2048
#define XTG 8192

// TRANS8 transposes the 8×8 block at DX (TRANSPOSE8) and stores coordinate
// j0+c of its eight actions at 64c(R8).
#define TRANS8 \
	TRANSPOSE8; \
	VMOVAPD Z4, 0(R8); \
	VMOVAPD Z6, 64(R8); \
	VMOVAPD Z5, 128(R8); \
	VMOVAPD Z7, 192(R8); \
	VMOVAPD Z0, 256(R8); \
	VMOVAPD Z1, 320(R8); \
	VMOVAPD Z8, 384(R8); \
	VMOVAPD Z9, 448(R8)

// LOADX loads coordinate j of the four groups (xt cursor DX) into Z16–Z19.
#define LOADX \
	VMOVAPD 0(DX), Z16; \
	VMOVAPD XTG(DX), Z17; \
	VMOVAPD 2*XTG(DX), Z18; \
	VMOVAPD 3*XTG(DX), Z19

// FMAROW adds M_{i0+r, j} (broadcast in m) times coordinate j of the four
// groups to row r's four accumulators.
#define FMAROW(m, w0, w1, w2, w3) \
	VFMADD231PD Z16, m, w0; \
	VFMADD231PD Z17, m, w1; \
	VFMADD231PD Z18, m, w2; \
	VFMADD231PD Z19, m, w3

// FOLD folds row r's w (four groups) into the lane sums q_r and s_r:
// q_r = fma(w, w, q_r), s_r = fma(z_{i0+r}, w, s_r), z broadcast in zz.
#define FOLD1(r, g, w, zz) \
	VMOVAPD QS(r, g)(R13), Z24; \
	VFMADD231PD w, w, Z24; \
	VMOVAPD Z24, QS(r, g)(R13); \
	VMOVAPD SS(r, g)(R13), Z25; \
	VFMADD231PD w, zz, Z25; \
	VMOVAPD Z25, SS(r, g)(R13)

#define FOLD(r, zz, w0, w1, w2, w3) \
	FOLD1(r, 0, w0, zz); \
	FOLD1(r, 1, w1, zz); \
	FOLD1(r, 2, w2, zz); \
	FOLD1(r, 3, w3, zz)

// SCORE8 writes the scores of group g: fma(β, √((q0+q1)+(q2+q3)),
// (s0+s1)+(s2+s3)), β in Z27.
#define SCORE8(g) \
	VMOVAPD QS(0, g)(R13), Z0; \
	VADDPD QS(1, g)(R13), Z0, Z0; \
	VMOVAPD QS(2, g)(R13), Z1; \
	VADDPD QS(3, g)(R13), Z1, Z1; \
	VADDPD Z1, Z0, Z0; \
	VSQRTPD Z0, Z0; \
	VMOVAPD SS(0, g)(R13), Z2; \
	VADDPD SS(1, g)(R13), Z2, Z2; \
	VMOVAPD SS(2, g)(R13), Z3; \
	VADDPD SS(3, g)(R13), Z3, Z3; \
	VADDPD Z3, Z2, Z2; \
	VFMADD231PD Z0, Z27, Z2; \
	VMOVUPD Z2, (64*g)(R15)

// func scoreLanesAVX512(mt *float64, dp int, zp *float64, d int, x *float64, n32 int, beta float64, scores *float64)
//
// scoreBlocksGo for n32 passes of 32 actions, one action per lane: a pass
// transposes its four groups of eight actions into the frame (coordinate j
// of a group is one register), then for each row block [i0, i0+4) runs the
// sixteen chains w_{i0+r} of the four groups (r = 0..3) — each lane the
// chain fma(M_ij, x_j, w) over j in increasing order, as quadLanes — and
// folds them into the lane sums q_r, s_r in row order. The terms with
// i < j < i0+4, whose M_ij = 0, are skipped: for finite actions they leave
// w unchanged (w is never −0), so the bits are those of scoreBlocksGo. Per
// column, four broadcasts of M_ij and four loads of x_j feed sixteen FMAs,
// so the FMA units, not the load ports, set the pace (the rows-in-lanes
// kernels need a load per FMA). While a pass computes, the next pass's
// actions are prefetched, 16 lines a row block. Requires AVX-512F,
// AVX-512VL and BMI2, and d ≤ lanesMaxDim.
//
// Registers: SI mt, BX row stride of mt in bytes, DI zp, CX d, R10 the
// pass's first action, R12 S = 8d, R14 passes left, R15 scores cursor, R13
// the frame (aligned), R9 prefetch cursor; AX i0, DX xt cursor, R8 mt cursor,
// R11 count. Z0–Z15 w (row r, group g in Z(4r+g)), Z16–Z19 x_j of the
// groups, Z20–Z23 M_{i0+r, j} (then z_{i0+r}), Z24–Z25 scratch, Z27 β,
// Z28–Z31 transposition indices.
TEXT ·scoreLanesAVX512(SB), 0, $34880-64
	MOVQ mt+0(FP), SI
	MOVQ dp+8(FP), BX
	SHLQ $3, BX
	MOVQ zp+16(FP), DI
	MOVQ d+24(FP), CX
	MOVQ x+32(FP), R10
	MOVQ n32+40(FP), R14
	MOVQ scores+56(FP), R15
	MOVQ CX, R12
	SHLQ $3, R12
	LEAQ 63(SP), R13
	ANDQ $-64, R13
	VBROADCASTSD beta+48(FP), Z27
	TRANSPOSE8INDICES

pass:
	TESTQ R14, R14
	JEQ   ret

	// Transpose the four groups (group g's actions start at R10 + 8gS);
	// SI and DI serve as cursors meanwhile and are reloaded after.
	LEAQ (R12)(R12*2), R11      // 3S
	MOVQ R10, SI                // group source
	LEAQ XT(R13), DI            // group destination

group:
	MOVQ SI, DX
	MOVQ DI, R8
	MOVQ CX, AX                 // coordinates left

coords:
	MOVQ $0xff, R9
	BZHIQ AX, R9, R9            // mask of min(8, left) coordinates
	KMOVQ R9, K1
	LEAQ (DX)(R12*4), R9
	TRANS8
	ADDQ $64, DX
	ADDQ $512, R8
	SUBQ $8, AX
	JGT  coords

	LEAQ (SI)(R12*8), SI
	ADDQ $XTG, DI
	LEAQ (XT+4*XTG)(R13), R9
	CMPQ DI, R9
	JLT  group
	MOVQ mt+0(FP), SI
	MOVQ zp+16(FP), DI

	// Zero the lane sums.
	VPXORQ Z0, Z0, Z0
	XORQ AX, AX

zero:
	VMOVAPD Z0, (R13)(AX*1)
	ADDQ $64, AX
	CMPQ AX, $2048
	JLT  zero

	MOVQ R12, R9
	SHLQ $5, R9
	ADDQ R10, R9                // prefetch cursor: the next pass (32S on)
	XORQ AX, AX                 // i0

rows:
	PREFETCHT0 0(R9)
	PREFETCHT0 64(R9)
	PREFETCHT0 128(R9)
	PREFETCHT0 192(R9)
	PREFETCHT0 256(R9)
	PREFETCHT0 320(R9)
	PREFETCHT0 384(R9)
	PREFETCHT0 448(R9)
	PREFETCHT0 512(R9)
	PREFETCHT0 576(R9)
	PREFETCHT0 640(R9)
	PREFETCHT0 704(R9)
	PREFETCHT0 768(R9)
	PREFETCHT0 832(R9)
	PREFETCHT0 896(R9)
	PREFETCHT0 960(R9)
	ADDQ $1024, R9

	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	LEAQ (SI)(AX*8), R8         // &mt[0·dp + i0]
	LEAQ XT(R13), DX            // coordinate 0
	MOVQ AX, R11                // columns j < i0: all four rows
	TESTQ R11, R11
	JEQ  tri

full:
	LOADX
	VBROADCASTSD 0(R8), Z20
	VBROADCASTSD 8(R8), Z21
	VBROADCASTSD 16(R8), Z22
	VBROADCASTSD 24(R8), Z23
	FMAROW(Z20, Z0, Z1, Z2, Z3)
	FMAROW(Z21, Z4, Z5, Z6, Z7)
	FMAROW(Z22, Z8, Z9, Z10, Z11)
	FMAROW(Z23, Z12, Z13, Z14, Z15)
	ADDQ $64, DX
	ADDQ BX, R8
	DECQ R11
	JNZ  full

tri:
	// j = i0 + t for t = 0..3 while j < d: rows r >= t only (M_{i0+r, j}
	// = 0 for r < t).
	LOADX
	VBROADCASTSD 0(R8), Z20
	VBROADCASTSD 8(R8), Z21
	VBROADCASTSD 16(R8), Z22
	VBROADCASTSD 24(R8), Z23
	FMAROW(Z20, Z0, Z1, Z2, Z3)
	FMAROW(Z21, Z4, Z5, Z6, Z7)
	FMAROW(Z22, Z8, Z9, Z10, Z11)
	FMAROW(Z23, Z12, Z13, Z14, Z15)
	LEAQ 1(AX), R11
	CMPQ R11, CX
	JGE  fold
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX
	VBROADCASTSD 8(R8), Z21
	VBROADCASTSD 16(R8), Z22
	VBROADCASTSD 24(R8), Z23
	FMAROW(Z21, Z4, Z5, Z6, Z7)
	FMAROW(Z22, Z8, Z9, Z10, Z11)
	FMAROW(Z23, Z12, Z13, Z14, Z15)
	LEAQ 2(AX), R11
	CMPQ R11, CX
	JGE  fold
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX
	VBROADCASTSD 16(R8), Z22
	VBROADCASTSD 24(R8), Z23
	FMAROW(Z22, Z8, Z9, Z10, Z11)
	FMAROW(Z23, Z12, Z13, Z14, Z15)
	LEAQ 3(AX), R11
	CMPQ R11, CX
	JGE  fold
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX
	VBROADCASTSD 24(R8), Z23
	FMAROW(Z23, Z12, Z13, Z14, Z15)

fold:
	VBROADCASTSD 0(DI)(AX*8), Z20
	VBROADCASTSD 8(DI)(AX*8), Z21
	VBROADCASTSD 16(DI)(AX*8), Z22
	VBROADCASTSD 24(DI)(AX*8), Z23
	FOLD(0, Z20, Z0, Z1, Z2, Z3)
	FOLD(1, Z21, Z4, Z5, Z6, Z7)
	FOLD(2, Z22, Z8, Z9, Z10, Z11)
	FOLD(3, Z23, Z12, Z13, Z14, Z15)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT  rows

	SCORE8(0)
	SCORE8(1)
	SCORE8(2)
	SCORE8(3)
	ADDQ $256, R15
	MOVQ R12, R9
	SHLQ $5, R9
	ADDQ R9, R10
	DECQ R14
	JMP  pass

ret:
	VZEROUPPER
	RET
