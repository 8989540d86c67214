//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

// Frame (from R13, SP rounded up to 64 bytes): the transposed actions of
// group g (g = 0, 1) at XTG·g + 64·j (coordinate j of its eight actions, j <
// lanesMaxDim = 128).
#define XTG 8192

// LEAD is the frame slot (above the aligned transposed actions) that holds
// the rows the leading four-row blocks cover.
#define LEAD 16448

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

// TRANS8FULL is TRANS8 for a block of eight coordinates (no mask) with
// fewer shuffles: each register is loaded as two 256-bit halves, rows a and
// a+4 (a load and an insert, which may issue on either FMA port), so that
// the unpacks and one VPERMT2PD stage (TRANSPOSE8PAIRS) finish the
// transposition (16 uops that need the shuffle port, against TRANSPOSE8's
// 24). Rows a at DX + a·S (R11 = 3S, R9 = DX + 4S); uses Z0–Z15, Z28–Z29
// (TRANSPOSE8INDICES).
#define TRANS8FULL \
	VMOVUPD 0(DX), Y0; \
	VINSERTF64X4 $1, 0(R9), Z0, Z0; \
	VMOVUPD 0(DX)(R12*1), Y1; \
	VINSERTF64X4 $1, 0(R9)(R12*1), Z1, Z1; \
	VMOVUPD 0(DX)(R12*2), Y2; \
	VINSERTF64X4 $1, 0(R9)(R12*2), Z2, Z2; \
	VMOVUPD 0(DX)(R11*1), Y3; \
	VINSERTF64X4 $1, 0(R9)(R11*1), Z3, Z3; \
	VMOVUPD 32(DX), Y4; \
	VINSERTF64X4 $1, 32(R9), Z4, Z4; \
	VMOVUPD 32(DX)(R12*1), Y5; \
	VINSERTF64X4 $1, 32(R9)(R12*1), Z5, Z5; \
	VMOVUPD 32(DX)(R12*2), Y6; \
	VINSERTF64X4 $1, 32(R9)(R12*2), Z6, Z6; \
	VMOVUPD 32(DX)(R11*1), Y7; \
	VINSERTF64X4 $1, 32(R9)(R11*1), Z7, Z7; \
	TRANSPOSE8PAIRS; \
	VMOVAPD Z0, 0(R8); \
	VMOVAPD Z1, 64(R8); \
	VMOVAPD Z8, 128(R8); \
	VMOVAPD Z9, 192(R8); \
	VMOVAPD Z2, 256(R8); \
	VMOVAPD Z3, 320(R8); \
	VMOVAPD Z12, 384(R8); \
	VMOVAPD Z13, 448(R8)

// LOADX loads coordinate j of the two groups (xt cursor DX) into Z8–Z9.
#define LOADX \
	VMOVAPD 0(DX), Z8; \
	VMOVAPD XTG(DX), Z9

// FMAROW adds M_{i0+r, j} (broadcast in m) times coordinate j of the two
// groups to row r's two accumulators.
#define FMAROW(m, w0, w1) \
	VFMADD231PD Z8, m, w0; \
	VFMADD231PD Z9, m, w1

// FOLD folds row r's w (two groups) into its lane sums, held in registers:
// q = fma(w, w, q), s = fma(z_{i0+r}, w, s), z broadcast in zz.
#define FOLD(zz, w0, w1, q0, q1, s0, s1) \
	VFMADD231PD w0, w0, q0; \
	VFMADD231PD w1, w1, q1; \
	VFMADD231PD w0, zz, s0; \
	VFMADD231PD w1, zz, s1

// LOADX6 loads coordinate j of the two groups into Z12–Z13 (six-row blocks).
#define LOADX6 \
	VMOVAPD 0(DX), Z12; \
	VMOVAPD XTG(DX), Z13

// FMAROW6 adds M_{i0+r, j} (broadcast in m) times coordinate j of the two
// groups (Z12–Z13) to row r's two accumulators.
#define FMAROW6(m, w0, w1) \
	VFMADD231PD Z12, m, w0; \
	VFMADD231PD Z13, m, w1

// COL6 adds column j of a six-row block (x_j at xoff(DX), M_{i0..i0+5, j}
// from the address m on) to its twelve chains.
#define COL6(xoff, m) \
	VMOVAPD xoff(DX), Z12; \
	VMOVAPD (XTG+xoff)(DX), Z13; \
	VBROADCASTSD m, Z30; \
	FMAROW6(Z30, Z0, Z1); \
	VBROADCASTSD 8+m, Z31; \
	FMAROW6(Z31, Z2, Z3); \
	VBROADCASTSD 16+m, Z30; \
	FMAROW6(Z30, Z4, Z5); \
	VBROADCASTSD 24+m, Z31; \
	FMAROW6(Z31, Z6, Z7); \
	VBROADCASTSD 32+m, Z30; \
	FMAROW6(Z30, Z8, Z9); \
	VBROADCASTSD 40+m, Z31; \
	FMAROW6(Z31, Z10, Z11)

// FOLDZ folds row r of a six-row block (w in w0, w1) into lane sums q and s
// of index i0+r mod 4, z_{i0+r} broadcast into zz from off(DI)(AX*8).
#define FOLDZ(off, zz, w0, w1, q0, q1, s0, s1) \
	VBROADCASTSD off(DI)(AX*8), zz; \
	FOLD(zz, w0, w1, q0, q1, s0, s1)

// SCORE writes one group's scores at off(R15): fma(β, √((q0+q1)+(q2+q3)),
// (s0+s1)+(s2+s3)).
#define SCORE(q0, q1, q2, q3, s0, s1, s2, s3, off) \
	VADDPD q1, q0, Z10; \
	VADDPD q3, q2, Z11; \
	VADDPD Z11, Z10, Z10; \
	VSQRTPD Z10, Z10; \
	VADDPD s1, s0, Z12; \
	VADDPD s3, s2, Z13; \
	VADDPD Z13, Z12, Z12; \
	VBROADCASTSD beta+48(FP), Z31; \
	VFMADD231PD Z10, Z31, Z12; \
	VMOVUPD Z12, off(R15)

// func scoreLanesAVX512(mt *float64, dp int, zp *float64, d int, x *float64, n16 int, beta float64, scores *float64)
//
// scoreBlocksGo for n16 passes of 16 actions, one action per lane: a pass
// transposes its two groups of eight actions into the frame (coordinate j
// of a group is one register; blocks of eight coordinates by TRANS8FULL,
// the last partial one by TRANS8), then for each row block runs the chains
// w_i of the two groups — each lane the chain fma(M_ij, x_j, w) over j in
// increasing order, as quadLanes — and folds them into the lane sums q_r,
// s_r (r = i mod 4) in row order. The terms with i < j < i0+4, whose M_ij
// = 0, are skipped: for finite actions they leave w unchanged (w is never
// −0), so the bits are those of scoreBlocksGo.
//
// Row blocks: first four-row blocks (eight chains) over the first dp mod
// 12 rows, where the triangle gives them at most eight columns, then
// six-row blocks (twelve chains) in pairs, i0 ≡ 0 and i0 ≡ 2 mod 4, to dp.
// (The four-row blocks came last until this order: at d = 64 the one of
// rows 60–63 ran 64 columns of eight chains. Alternated call by call with
// the previous order, K = 4096, the kernel's fastest call is 0.5–0.7 %
// quicker at d = 16 and 64.) Per column a six-row block broadcasts six
// M_ij and loads two x_j for twelve FMAs, two columns an iteration. Eight chains are exactly the FMA latency times its two
// ports, so any cycle an FMA loses to another uop is lost for good: a loop
// of eight chains ran at ≈ 81 % of the peak, one of twelve at ≈ 97 %
// (the kernel alone at d = 64, K = 512: 1.27 → 1.19× the FMA bound, paired;
// Intel Xeon family 6 model 207). The sixteen lane sums stay in registers
// (with four groups a pass they lived in the frame, and each row block's
// fold took 32 loads and 32 stores). While a pass computes, the next pass's
// actions are prefetched, two lines a row. Requires AVX-512F, AVX-512VL and
// BMI2, and d ≤ lanesMaxDim.
//
// Registers: SI mt, BX row stride of mt in bytes, DI zp, CX d, R10 the
// pass's first action, R12 S = 8d, R14 passes left, R15 scores cursor, R13
// the frame (aligned), R9 prefetch cursor; AX i0, DX xt cursor, R8 mt cursor,
// R11 count. Z14–Z21 q_{r,g} (Z(14+2r+g)), Z22–Z29 s_{r,g} (Z(22+2r+g)).
// Six-row blocks: Z0–Z11 w (row r, group g in Z(2r+g)), Z12–Z13 x_j of the
// groups, Z30–Z31 M_{i0+r, j} (then z_{i0+r}), alternately. Four-row
// blocks: Z0–Z7 w, Z8–Z9 x_j, Z10–Z13 M_{i0+r, j} (then z_{i0+r}). Z31 β
// at the end; the transposition uses Z0–Z15 and Z28–Z31 before the sums
// are zeroed.
TEXT ·scoreLanesAVX512(SB), 0, $16456-64
	MOVQ mt+0(FP), SI
	MOVQ dp+8(FP), BX
	SHLQ $3, BX
	MOVQ zp+16(FP), DI
	MOVQ d+24(FP), CX
	MOVQ x+32(FP), R10
	MOVQ n16+40(FP), R14
	MOVQ scores+56(FP), R15
	MOVQ CX, R12
	SHLQ $3, R12
	LEAQ 63(SP), R13
	ANDQ $-64, R13

pass:
	TESTQ R14, R14
	JEQ   ret
	TRANSPOSE8INDICES
	LEAQ (R12)(R12*2), R11
	MOVQ R10, SI
	MOVQ R13, DI

group:
	MOVQ SI, DX
	MOVQ DI, R8
	MOVQ CX, AX

coords:
	LEAQ (DX)(R12*4), R9
	CMPQ AX, $8
	JLT  partial
	TRANS8FULL
	JMP  cnext

partial:
	MOVQ $0xff, R9
	BZHIQ AX, R9, R9
	KMOVQ R9, K1
	LEAQ (DX)(R12*4), R9
	TRANS8

cnext:
	ADDQ $64, DX
	ADDQ $512, R8
	SUBQ $8, AX
	JGT  coords

	LEAQ (SI)(R12*8), SI
	ADDQ $XTG, DI
	LEAQ (2*XTG)(R13), R9
	CMPQ DI, R9
	JLT  group
	MOVQ mt+0(FP), SI
	MOVQ zp+16(FP), DI
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
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
	MOVQ R12, R9
	SHLQ $4, R9
	ADDQ R10, R9                // prefetch cursor: the next pass (16S on)
	XORQ AX, AX

	// Four-row blocks first, dp mod 12 rows of them (0, 4 or 8), where the
	// triangle leaves them a few columns; then six-row blocks in pairs (i0
	// ≡ 0 and 2 mod 4) to d. The frame slot LEAD holds dp mod 12.
	LEAQ 3(CX), R11
	ANDQ $-4, R11

lead:
	CMPQ R11, $12
	JLT  leadset
	SUBQ $12, R11
	JMP  lead

leadset:
	MOVQ R11, LEAD(SP)

blocks:
	CMPQ AX, LEAD(SP)
	JLT  rows
	CMPQ AX, CX
	JGE  scored

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
	ADDQ $768, R9
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
	LEAQ (SI)(AX*8), R8
	MOVQ R13, DX
	MOVQ AX, R11
	TESTQ R11, R11
	JEQ  tri6

	TESTQ $1, R11
	JEQ   pairs6
	COL6(0, 0(R8))
	ADDQ $64, DX
	ADDQ BX, R8
	DECQ R11
	JEQ  tri6

pairs6:
	COL6(0, 0(R8))
	COL6(64, 0(R8)(BX*1))
	ADDQ $128, DX
	LEAQ (R8)(BX*2), R8
	SUBQ $2, R11
	JNZ  pairs6

tri6:
	LOADX6
	VBROADCASTSD 0(R8), Z30
	FMAROW6(Z30, Z0, Z1)
	VBROADCASTSD 8(R8), Z31
	FMAROW6(Z31, Z2, Z3)
	VBROADCASTSD 16(R8), Z30
	FMAROW6(Z30, Z4, Z5)
	VBROADCASTSD 24(R8), Z31
	FMAROW6(Z31, Z6, Z7)
	VBROADCASTSD 32(R8), Z30
	FMAROW6(Z30, Z8, Z9)
	VBROADCASTSD 40(R8), Z31
	FMAROW6(Z31, Z10, Z11)
	LEAQ 1(AX), R11
	CMPQ R11, CX
	JGE  fold6
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX6
	VBROADCASTSD 8(R8), Z31
	FMAROW6(Z31, Z2, Z3)
	VBROADCASTSD 16(R8), Z30
	FMAROW6(Z30, Z4, Z5)
	VBROADCASTSD 24(R8), Z31
	FMAROW6(Z31, Z6, Z7)
	VBROADCASTSD 32(R8), Z30
	FMAROW6(Z30, Z8, Z9)
	VBROADCASTSD 40(R8), Z31
	FMAROW6(Z31, Z10, Z11)
	LEAQ 2(AX), R11
	CMPQ R11, CX
	JGE  fold6
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX6
	VBROADCASTSD 16(R8), Z30
	FMAROW6(Z30, Z4, Z5)
	VBROADCASTSD 24(R8), Z31
	FMAROW6(Z31, Z6, Z7)
	VBROADCASTSD 32(R8), Z30
	FMAROW6(Z30, Z8, Z9)
	VBROADCASTSD 40(R8), Z31
	FMAROW6(Z31, Z10, Z11)
	LEAQ 3(AX), R11
	CMPQ R11, CX
	JGE  fold6
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX6
	VBROADCASTSD 24(R8), Z31
	FMAROW6(Z31, Z6, Z7)
	VBROADCASTSD 32(R8), Z30
	FMAROW6(Z30, Z8, Z9)
	VBROADCASTSD 40(R8), Z31
	FMAROW6(Z31, Z10, Z11)
	LEAQ 4(AX), R11
	CMPQ R11, CX
	JGE  fold6
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX6
	VBROADCASTSD 32(R8), Z30
	FMAROW6(Z30, Z8, Z9)
	VBROADCASTSD 40(R8), Z31
	FMAROW6(Z31, Z10, Z11)
	LEAQ 5(AX), R11
	CMPQ R11, CX
	JGE  fold6
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX6
	VBROADCASTSD 40(R8), Z31
	FMAROW6(Z31, Z10, Z11)

fold6:
	TESTQ $2, AX
	JNZ   fold6b
	FOLDZ(0, Z30, Z0, Z1, Z14, Z15, Z22, Z23)
	FOLDZ(8, Z31, Z2, Z3, Z16, Z17, Z24, Z25)
	FOLDZ(16, Z30, Z4, Z5, Z18, Z19, Z26, Z27)
	FOLDZ(24, Z31, Z6, Z7, Z20, Z21, Z28, Z29)
	FOLDZ(32, Z30, Z8, Z9, Z14, Z15, Z22, Z23)
	FOLDZ(40, Z31, Z10, Z11, Z16, Z17, Z24, Z25)
	ADDQ $6, AX
	JMP  blocks

fold6b:
	FOLDZ(0, Z30, Z0, Z1, Z18, Z19, Z26, Z27)
	FOLDZ(8, Z31, Z2, Z3, Z20, Z21, Z28, Z29)
	FOLDZ(16, Z30, Z4, Z5, Z14, Z15, Z22, Z23)
	FOLDZ(24, Z31, Z6, Z7, Z16, Z17, Z24, Z25)
	FOLDZ(32, Z30, Z8, Z9, Z18, Z19, Z26, Z27)
	FOLDZ(40, Z31, Z10, Z11, Z20, Z21, Z28, Z29)
	ADDQ $6, AX
	JMP  blocks

rows:
	PREFETCHT0 0(R9)
	PREFETCHT0 64(R9)
	PREFETCHT0 128(R9)
	PREFETCHT0 192(R9)
	PREFETCHT0 256(R9)
	PREFETCHT0 320(R9)
	PREFETCHT0 384(R9)
	PREFETCHT0 448(R9)
	ADDQ $512, R9
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	LEAQ (SI)(AX*8), R8
	MOVQ R13, DX
	MOVQ AX, R11
	TESTQ R11, R11
	JEQ  tri

full:
	LOADX
	VBROADCASTSD 0(R8), Z10
	VBROADCASTSD 8(R8), Z11
	VBROADCASTSD 16(R8), Z12
	VBROADCASTSD 24(R8), Z13
	FMAROW(Z10, Z0, Z1)
	FMAROW(Z11, Z2, Z3)
	FMAROW(Z12, Z4, Z5)
	FMAROW(Z13, Z6, Z7)
	ADDQ $64, DX
	ADDQ BX, R8
	DECQ R11
	JNZ  full

tri:
	LOADX
	VBROADCASTSD 0(R8), Z10
	VBROADCASTSD 8(R8), Z11
	VBROADCASTSD 16(R8), Z12
	VBROADCASTSD 24(R8), Z13
	FMAROW(Z10, Z0, Z1)
	FMAROW(Z11, Z2, Z3)
	FMAROW(Z12, Z4, Z5)
	FMAROW(Z13, Z6, Z7)
	LEAQ 1(AX), R11
	CMPQ R11, CX
	JGE  fold
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX
	VBROADCASTSD 8(R8), Z11
	VBROADCASTSD 16(R8), Z12
	VBROADCASTSD 24(R8), Z13
	FMAROW(Z11, Z2, Z3)
	FMAROW(Z12, Z4, Z5)
	FMAROW(Z13, Z6, Z7)
	LEAQ 2(AX), R11
	CMPQ R11, CX
	JGE  fold
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX
	VBROADCASTSD 16(R8), Z12
	VBROADCASTSD 24(R8), Z13
	FMAROW(Z12, Z4, Z5)
	FMAROW(Z13, Z6, Z7)
	LEAQ 3(AX), R11
	CMPQ R11, CX
	JGE  fold
	ADDQ $64, DX
	ADDQ BX, R8
	LOADX
	VBROADCASTSD 24(R8), Z13
	FMAROW(Z13, Z6, Z7)

fold:
	VBROADCASTSD 0(DI)(AX*8), Z10
	VBROADCASTSD 8(DI)(AX*8), Z11
	VBROADCASTSD 16(DI)(AX*8), Z12
	VBROADCASTSD 24(DI)(AX*8), Z13
	FOLD(Z10, Z0, Z1, Z14, Z15, Z22, Z23)
	FOLD(Z11, Z2, Z3, Z16, Z17, Z24, Z25)
	FOLD(Z12, Z4, Z5, Z18, Z19, Z26, Z27)
	FOLD(Z13, Z6, Z7, Z20, Z21, Z28, Z29)
	ADDQ $4, AX
	JMP  blocks

scored:
	SCORE(Z14, Z16, Z18, Z20, Z22, Z24, Z26, Z28, 0)
	SCORE(Z15, Z17, Z19, Z21, Z23, Z25, Z27, Z29, 64)
	ADDQ $128, R15
	MOVQ R12, R9
	SHLQ $4, R9
	ADDQ R9, R10
	DECQ R14
	JMP  pass

ret:
	VZEROUPPER
	RET
