//go:build amd64 && !purego

#include "textflag.h"

DATA ·prep4One<>+0(SB)/8, $1.0
GLOBL ·prep4One<>(SB), RODATA|NOPTR, $8
DATA ·prep4Sign<>+0(SB)/8, $0x8000000000000000
GLOBL ·prep4Sign<>(SB), RODATA|NOPTR, $8

// LOAD4(base): Y0 ← the float64 at byte offset R14 from each of the four
// pointers at base(R8). Clobbers AX, X1.
#define LOAD4(base) \
	MOVQ base+0(R8), AX; VMOVSD (AX)(R14*1), X0; \
	MOVQ base+8(R8), AX; VMOVHPD (AX)(R14*1), X0, X0; \
	MOVQ base+16(R8), AX; VMOVSD (AX)(R14*1), X1; \
	MOVQ base+24(R8), AX; VMOVHPD (AX)(R14*1), X1, X1; \
	VINSERTF128 $1, X1, Y0, Y0

// STORE4(base): Y0's four lanes to byte offset R14 from each of the four
// pointers at base(R8). Clobbers AX, X1.
#define STORE4(base) \
	MOVQ base+0(R8), AX; VMOVSD X0, (AX)(R14*1); \
	MOVQ base+8(R8), AX; VMOVHPD X0, (AX)(R14*1); \
	VEXTRACTF128 $1, Y0, X1; \
	MOVQ base+16(R8), AX; VMOVSD X1, (AX)(R14*1); \
	MOVQ base+24(R8), AX; VMOVHPD X1, (AX)(R14*1)

// func cholInv4AVX2(lanes *[16]*float64, s []float64, d, dp int) (bad int)
//
// Four LinUCB factorisations side by side, one per vector lane: lane b's
// V_t (d×d row-major), ũ_t, kernel-layout M and z are at lanes[b],
// lanes[4+b], lanes[8+b] and lanes[12+b]. s is zeroed scratch of
// 2·d²·4 + 2·d·4 float64 (its strict upper triangle of m must stay zero): the
// four matrices and vectors are interleaved there (entry (i, j) of matrix b
// at [(i·d+j)·4+b]), factored and inverted, and written back: L into V's
// lower triangle (the upper one unchanged), M into mt[j·dp+i], z into zp.
// In every lane the operations are those of linalg.Cholesky and of
// inverseFactorTo: M_ii = 1/L_ii, M_ij = −Dot(L_i[j:i], M[j:i]_j)·M_ii with
// linalg.Dot's four chains, tail and final sums, and z_i = Σ_j u_j M_ij
// (j ascending), every product rounded before its sum; row i of M is
// computed as soon as column i of L is (as prepareFactors does at d ≤ 15),
// so the two chains overlap. Lanes are independent
// IEEE operations, so each lane has the bits of the scalar code. Bit b of
// bad is set when matrix b met a pivot that is not > 0 (nothing is written
// back for it; the caller factors it again, jittered).
//
// Registers: SI a, DI m, R8 lanes (then u), R9 z, CX d, R15 row stride d·32,
// R14 byte offset in the lanes' arrays (LOAD4, STORE4);
// Y15 1.0, Y14 bad lanes, Y13 zero, Y12 all ones, Y11 sign bit.
TEXT ·CholInv4AVX2(SB), NOSPLIT, $0-56
	MOVQ lanes+0(FP), R8
	MOVQ s_base+8(FP), SI
	MOVQ d+32(FP), CX
	MOVQ CX, R15
	SHLQ $5, R15
	MOVQ CX, BX
	IMULQ R15, BX
	LEAQ (SI)(BX*1), DI      // m = a + d²·32
	LEAQ (DI)(BX*1), R10     // u = m + d²·32
	LEAQ (R10)(R15*1), R9    // z = u + d·32
	VBROADCASTSD ·prep4One<>(SB), Y15
	VBROADCASTSD ·prep4Sign<>(SB), Y11
	VXORPD  Y14, Y14, Y14
	VXORPD  Y13, Y13, Y13
	VCMPPD  $0, Y13, Y13, Y12

	// Interleave V (d² entries) into a, ũ (d) into u.
	MOVQ CX, BX
	IMULQ CX, BX
	XORQ R14, R14
	MOVQ SI, R13

inV:
	TESTQ BX, BX
	JZ    inU
	LOAD4(0)
	VMOVUPD Y0, (R13)
	ADDQ  $32, R13
	ADDQ  $8, R14
	DECQ  BX
	JMP   inV

inU:
	MOVQ CX, BX
	XORQ R14, R14
	MOVQ R10, R13

inU1:
	TESTQ BX, BX
	JZ    inDone
	LOAD4(32)
	VMOVUPD Y0, (R13)
	ADDQ  $32, R13
	ADDQ  $8, R14
	DECQ  BX
	JMP   inU1

inDone:
	MOVQ R10, R8             // u (lanes reloaded at the end)

	// Cholesky, column j (R10).
	XORQ R10, R10

cholJ:
	CMPQ R10, CX
	JAE  cholDone
	MOVQ R10, AX
	IMULQ R15, AX
	LEAQ (SI)(AX*1), R11     // row j
	MOVQ R10, BX
	SHLQ $5, BX              // column j's offset
	VMOVUPD (R11)(BX*1), Y0  // s = a_jj
	XORQ DX, DX

diagK:
	CMPQ DX, R10
	JAE  diagDone
	MOVQ DX, AX
	SHLQ $5, AX
	VMOVUPD (R11)(AX*1), Y1
	VMULPD  Y1, Y1, Y1
	VSUBPD  Y1, Y0, Y0       // s −= L_jk·L_jk
	INCQ    DX
	JMP     diagK

diagDone:
	VCMPPD  $0x1e, Y13, Y0, Y2   // s > 0 (ordered: false for NaN)
	VANDNPD Y12, Y2, Y3
	VORPD   Y3, Y14, Y14
	VSQRTPD Y0, Y0
	VMOVUPD Y0, (R11)(BX*1)
	VDIVPD  Y0, Y15, Y4          // 1/L_jj
	LEAQ    1(R10), R12

rowI:
	CMPQ R12, CX
	JAE  rowDone
	MOVQ R12, AX
	IMULQ R15, AX
	LEAQ (SI)(AX*1), R13     // row i
	VMOVUPD (R13)(BX*1), Y0  // s = a_ij
	XORQ DX, DX

offK:
	CMPQ DX, R10
	JAE  offDone
	MOVQ DX, AX
	SHLQ $5, AX
	VMOVUPD (R13)(AX*1), Y1
	VMULPD  (R11)(AX*1), Y1, Y1
	VSUBPD  Y1, Y0, Y0       // s −= L_ik·L_jk
	INCQ    DX
	JMP     offK

offDone:
	VMULPD  Y4, Y0, Y0
	VMOVUPD Y0, (R13)(BX*1)
	INCQ    R12
	JMP     rowI

rowDone:
	// Row j (R10) of M, now that row j of L is complete: M_jj = 1/L_jj
	// (Y4, the factorisation's own reciprocal), then M_jk for k < j (R12),
	// each the dot product of terms t = 0…n−1, n = j−k, L_{j,k+t}·M_{k+t,k}
	// (L at row j + (k+t)·32, M at (k+t)·R15 + k·32). The next columns of
	// L do not wait for it, so the processor overlaps the two chains.
	MOVQ R10, AX
	IMULQ R15, AX
	LEAQ (DI)(AX*1), R11     // row j of M
	MOVQ R10, BX
	SHLQ $5, BX
	VMOVUPD Y4, (R11)(BX*1)  // M_jj
	XORQ R12, R12

invK:
	CMPQ R12, R10
	JAE  invRowDone
	MOVQ R10, AX
	IMULQ R15, AX
	LEAQ (SI)(AX*1), R13
	MOVQ R12, BX
	SHLQ $5, BX              // k·32
	ADDQ BX, R13             // &L_jk: L_{j,k+t} at R13 + t·32
	MOVQ R12, AX
	IMULQ R15, AX
	LEAQ (DI)(AX*1), R14
	ADDQ BX, R14             // &M_kk: M_{k+t,k} at R14 + t·R15
	MOVQ R10, DX
	SUBQ R12, DX             // n
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

dot4:
	CMPQ DX, $4
	JB   dotTail
	VMOVUPD (R13), Y5
	VMULPD  (R14), Y5, Y5
	VADDPD  Y5, Y0, Y0
	ADDQ    R15, R14
	VMOVUPD 32(R13), Y6
	VMULPD  (R14), Y6, Y6
	VADDPD  Y6, Y1, Y1
	ADDQ    R15, R14
	VMOVUPD 64(R13), Y7
	VMULPD  (R14), Y7, Y7
	VADDPD  Y7, Y2, Y2
	ADDQ    R15, R14
	VMOVUPD 96(R13), Y8
	VMULPD  (R14), Y8, Y8
	VADDPD  Y8, Y3, Y3
	ADDQ    R15, R14
	ADDQ    $128, R13
	SUBQ    $4, DX
	JMP     dot4

dotTail:
	TESTQ DX, DX
	JZ    dotSum
	VMOVUPD (R13), Y5
	VMULPD  (R14), Y5, Y5
	VADDPD  Y5, Y0, Y0
	ADDQ    R15, R14
	ADDQ    $32, R13
	DECQ    DX
	JMP     dotTail

dotSum:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0        // (s0 + s1) + (s2 + s3)
	VXORPD Y11, Y0, Y0       // −Dot
	VMULPD Y4, Y0, Y0        // ·M_jj
	VMOVUPD Y0, (R11)(BX*1)  // M_jk
	INCQ   R12
	JMP    invK

invRowDone:
	INCQ R10
	JMP  cholJ

cholDone:
invDone:
	// z_i = Σ_{j ≤ i} u_j M_ij, j ascending (z starts at zero).
	XORQ R12, R12

zClear:
	CMPQ R12, CX
	JAE  zCols
	MOVQ R12, AX
	SHLQ $5, AX
	VMOVUPD Y13, (R9)(AX*1)
	INCQ R12
	JMP  zClear

zCols:
	XORQ R10, R10

zJ:
	CMPQ R10, CX
	JAE  zDone
	MOVQ R10, BX
	SHLQ $5, BX
	VMOVUPD (R8)(BX*1), Y4   // u_j
	MOVQ R10, R12

zI:
	CMPQ R12, CX
	JAE  zNextJ
	MOVQ R12, AX
	IMULQ R15, AX
	LEAQ (DI)(AX*1), R13
	VMULPD (R13)(BX*1), Y4, Y0   // u_j·M_ij
	MOVQ R12, AX
	SHLQ $5, AX
	VADDPD (R9)(AX*1), Y0, Y0
	VMOVUPD Y0, (R9)(AX*1)
	INCQ R12
	JMP  zI

zNextJ:
	INCQ R10
	JMP  zJ

zDone:
	// Write back every lane (a bad lane's caller refactors it from the
	// statistics, overwriting V, M's lower triangle and z).
	MOVQ lanes+0(FP), R8
	MOVQ CX, BX
	IMULQ CX, BX
	XORQ R14, R14
	MOVQ SI, R13

outV:
	TESTQ BX, BX
	JZ    outZ
	VMOVUPD (R13), Y0
	STORE4(0)
	ADDQ  $32, R13
	ADDQ  $8, R14
	DECQ  BX
	JMP   outV

outZ:
	MOVQ CX, BX
	XORQ R14, R14
	MOVQ R9, R13

outZ1:
	TESTQ BX, BX
	JZ    outM
	VMOVUPD (R13), Y0
	STORE4(96)
	ADDQ  $32, R13
	ADDQ  $8, R14
	DECQ  BX
	JMP   outZ1

outM:
	// mt[j·dp+i] = M_ij for all i, j < d (m's upper triangle is zero).
	MOVQ dp+40(FP), R11
	SHLQ $3, R11             // dp·8
	XORQ R10, R10            // i
	MOVQ DI, R13             // &m[i][0]

outMI:
	CMPQ R10, CX
	JAE  outDone
	LEAQ (R10*8), R14        // (0·dp + i)·8
	XORQ BX, BX              // j

outMJ:
	CMPQ BX, CX
	JAE  outMNext
	VMOVUPD (R13), Y0
	STORE4(64)
	ADDQ $32, R13
	ADDQ R11, R14
	INCQ BX
	JMP  outMJ

outMNext:
	INCQ R10
	JMP  outMI

outDone:
	VMOVMSKPD Y14, AX
	MOVQ AX, bad+48(FP)
	VZEROUPPER
	RET
