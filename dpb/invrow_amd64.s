//go:build amd64 && !purego

#include "textflag.h"

// func invRowAVX2(li *float64, mt *float64, dp, i int, nmii float64)
//
// invRowGo: for j = 0, …, i−1, mt[j·dp+i] = Dot(li[j:i], mt[j·dp+j:j·dp+i])·nmii
// (nmii = −M_ii, so the product is −Dot·M_ii exactly). One dot product:
// Y0's lanes are Dot's chains s0…s3 over the full groups of four (VMULPD then
// VADDPD: each product and sum rounded, as Dot's s_r += a·b), then s2, s3 are
// set aside (X1), the tail is added to s0 one term at a time, and the result
// is (s0+s1)+(s2+s3). Successive j are independent, so the processor
// overlaps their chains.
//
// Registers: SI li+8j, R11 mt+8j(dp+1) (the column's diagonal), R8 8(dp+1),
// CX i, DX j, R9 n = i−j, R12 groups left, R13 byte offset; X7 nmii.
TEXT ·invRowAVX2(SB), NOSPLIT, $0-40
	MOVQ   li+0(FP), SI
	MOVQ   mt+8(FP), R11
	MOVQ   dp+16(FP), R8
	INCQ   R8
	SHLQ   $3, R8
	MOVQ   i+24(FP), CX
	VMOVSD nmii+32(FP), X7
	XORQ   DX, DX

row:
	CMPQ   DX, CX
	JGE    done
	MOVQ   CX, R9
	SUBQ   DX, R9
	MOVQ   R9, R12
	SHRQ   $2, R12
	XORQ   R13, R13
	VXORPD Y0, Y0, Y0
	TESTQ  R12, R12
	JZ     lanes

quad:
	VMOVUPD (SI)(R13*1), Y2
	VMULPD  (R11)(R13*1), Y2, Y2
	VADDPD  Y2, Y0, Y0
	ADDQ    $32, R13
	DECQ    R12
	JNZ     quad

lanes:
	VEXTRACTF128 $1, Y0, X1 // s2, s3 (the VEX.128 operations below clear Y0's upper half)
	MOVQ         R9, R12
	ANDQ         $3, R12
	JZ           sum

tail:
	VMOVSD (SI)(R13*1), X2
	VMULSD (R11)(R13*1), X2, X2
	VADDSD X2, X0, X0 // s0 += a·b; s1 kept in the upper lane
	ADDQ   $8, R13
	DECQ   R12
	JNZ    tail

sum:
	VHADDPD X0, X0, X0 // s0+s1
	VHADDPD X1, X1, X1 // s2+s3
	VADDSD  X1, X0, X0
	VMULSD  X7, X0, X0
	VMOVSD  X0, (R11)(R9*8) // mt[j·dp+i]
	ADDQ    $8, SI
	ADDQ    R8, R11
	INCQ    DX
	JMP     row

done:
	VZEROUPPER
	RET

// PHASEB0(m, next) and PHASEB(m, r, next) are step k = KA + m of
// invRowLanesAVX512's block, m = 0…9, for the lanes whose dot products are
// still running: lane l (column j0+l, n_l = n0 − l elements) takes the
// product a·b of its element k (zero-masked loads of the lanes with k <
// n_l, K1); in its groups of four (K2) the product goes to chain s_r, r =
// m mod 4, in its tail (K3 = K1 and not K2) to s0 — when r = 0, both to s0,
// one add under K1. The masks depend only on n0 − KA (R15) and m:
// invMasks[n0−KA][m] holds K1, K2, K3 (DX points at invMasks[n0−KA]).
// Jumps to next once no lane has an element k (R15 ≤ m).
#define PHASEB0(m, next) \
	CMPQ      R15, $m; \
	JLE       next; \
	KMOVB     (4*m)(DX), K1; \
	VMOVUPD.Z (R12), K1, Z4; \
	VMOVUPD.Z (R13), K1, Z5; \
	VMULPD    Z5, Z4, Z4; \
	VADDPD    Z4, Z0, K1, Z0; \
	ADDQ      $8, R12; \
	ADDQ      BX, R13

#define PHASEB(m, r, next) \
	CMPQ      R15, $m; \
	JLE       next; \
	KMOVB     (4*m)(DX), K1; \
	KMOVB     (4*m+1)(DX), K2; \
	KMOVB     (4*m+2)(DX), K3; \
	VMOVUPD.Z (R12), K1, Z4; \
	VMOVUPD.Z (R13), K1, Z5; \
	VMULPD    Z5, Z4, Z4; \
	VADDPD    Z4, r, K2, r; \
	VADDPD    Z4, Z0, K3, Z0; \
	ADDQ      $8, R12; \
	ADDQ      BX, R13

// func invRowLanesAVX512(li, mt, diag *float64, dp, i int, nmii float64)
//
// invRowGo for row i ≥ 1, eight columns j0…j0+7 at a time, one dot product
// per lane: lane l computes Dot(li[j:i], M[j:i, j]) for j = j0+l, its
// four chains s0…s3 in four registers (Z0–Z3), each product and sum
// rounded as Dot's. Element k of lane l is li[j+k] (one vector load at
// li+j0+k) times M_{j+k, j}, which diag holds by subdiagonal (diag[k·dp+j]
// = M_{j+k, j}), so that too is one vector load. While every lane's k is
// in a full group of four (k < KA = ⌊(n0 − 7)/4⌋·4, n0 = i − j0) the loads
// and adds need no mask; the last steps (PHASEB) mask the lanes that have
// ended and send the tail elements to s0, as Dot does after its groups.
// Then (s0+s1)+(s2+s3), times nmii = −M_ii, is scattered to mt[j·dp+i] and
// diag[(i−j)·dp+j] for the lanes with j < i. The bits are invRowGo's
// (TestInvRowLanesSameBits). Requires AVX-512F, DQ, VL and BMI2.
//
// Registers: SI li, DI mt, R8 diag, BX 8dp, R14 24dp, CX i, R9 j0, R10 n0,
// R11 groups of four left, R12 li cursor, R13 diag cursor, R15 n0 − KA,
// DX the masks of PHASEB, AX scratch; Z0–Z3 s0–s3, Z4–Z5 scratch, Z28 l·(1−dp), Z29 l·dp,
// Z30 scratch, Z31 nmii.
TEXT ·invRowLanesAVX512(SB), NOSPLIT, $0-48
	MOVQ         li+0(FP), SI
	MOVQ         mt+8(FP), DI
	MOVQ         diag+16(FP), R8
	MOVQ         dp+24(FP), BX
	MOVQ         i+32(FP), CX
	VBROADCASTSD nmii+40(FP), Z31
	VMOVDQU64    ·iota8(SB), Z28
	VPBROADCASTQ BX, Z30
	VPMULLQ      Z30, Z28, Z29     // l·dp
	VPSUBQ       Z29, Z28, Z28     // l − l·dp
	SHLQ         $3, BX
	LEAQ         (BX)(BX*2), R14
	XORQ         R9, R9

block:
	MOVQ   CX, R10
	SUBQ   R9, R10                   // n0
	MOVQ   R10, R11
	SUBQ   $7, R11
	MOVL   $0, AX
	CMOVQLT AX, R11
	SHRQ   $2, R11                   // KA/4
	MOVQ   R11, R15
	SHLQ   $2, R15
	NEGQ   R15
	ADDQ   R10, R15                  // n0 − KA
	LEAQ   (SI)(R9*8), R12
	LEAQ   (R8)(R9*8), R13
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	TESTQ  R11, R11
	JZ     phaseb

groups:
	VMOVUPD (R12), Z4
	VMULPD  (R13), Z4, Z4
	VADDPD  Z4, Z0, Z0
	VMOVUPD 8(R12), Z5
	VMULPD  (R13)(BX*1), Z5, Z5
	VADDPD  Z5, Z1, Z1
	VMOVUPD 16(R12), Z4
	VMULPD  (R13)(BX*2), Z4, Z4
	VADDPD  Z4, Z2, Z2
	VMOVUPD 24(R12), Z5
	VMULPD  (R13)(R14*1), Z5, Z5
	VADDPD  Z5, Z3, Z3
	ADDQ    $32, R12
	LEAQ    (R13)(BX*4), R13
	DECQ    R11
	JNZ     groups

phaseb:
	LEAQ    (R15)(R15*4), AX
	LEAQ    ·invMasks(SB), DX
	LEAQ    (DX)(AX*8), DX           // &invMasks[n0 − KA]
	PHASEB0(0, sum)
	PHASEB(1, Z1, sum)
	PHASEB(2, Z2, sum)
	PHASEB(3, Z3, sum)
	PHASEB0(4, sum)
	PHASEB(5, Z1, sum)
	PHASEB(6, Z2, sum)
	PHASEB(7, Z3, sum)
	PHASEB0(8, sum)
	PHASEB(9, Z1, sum)

sum:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	VMULPD Z31, Z0, Z0
	MOVL   $0xff, DX
	BZHIQ  R10, DX, DX               // lanes with j < i
	KMOVB  DX, K1
	KMOVB  DX, K2
	// mt[(j0+l)·dp + i]: base mt + 8i + 8·j0·dp, index l·dp.
	MOVQ   R9, AX
	IMULQ  BX, AX                    // 8·j0·dp
	ADDQ   DI, AX
	LEAQ   (AX)(CX*8), AX
	VSCATTERQPD Z0, K1, (AX)(Z29*8)
	// diag[(i−j0−l)·dp + j0 + l]: base diag + 8((i−j0)·dp + j0), index l(1−dp).
	MOVQ   R10, AX
	IMULQ  BX, AX                    // 8(i−j0)·dp
	ADDQ   R8, AX
	LEAQ   (AX)(R9*8), AX
	VSCATTERQPD Z0, K2, (AX)(Z28*8)
	ADDQ   $8, R9
	CMPQ   R9, CX
	JLT    block
	VZEROUPPER
	RET

// func zFromFactorAVX512(zp, mt, u *float64, d, dp int)
//
// The loop of inverseFactorTo that forms z = M u, eight rows at a time:
// for j = 0, …, d−1, zp[i] += u_j·M_ij for i = j, …, d−1 (mt[j·dp+i] =
// M_ij), each product and sum rounded, masks keeping the rows i < j and
// i ≥ d untouched — per zp[i] the same operations in the same order as the
// Go loop. zp[:d] must be zero on entry. Requires AVX-512F and BMI2.
//
// Registers: DI zp, SI column j of mt, R8 u, CX d, BX 8dp, R9 j, R10 i0,
// R11 mask, AX, DX scratch; Z1 u_j.
TEXT ·zFromFactorAVX512(SB), NOSPLIT, $0-40
	MOVQ zp+0(FP), DI
	MOVQ mt+8(FP), SI
	MOVQ u+16(FP), R8
	MOVQ d+24(FP), CX
	MOVQ dp+32(FP), BX
	SHLQ $3, BX
	XORQ R9, R9

zcol:
	VBROADCASTSD (R8)(R9*8), Z1
	MOVQ R9, R10
	ANDQ $-8, R10                  // i0: the block of row j
	MOVQ R9, AX
	ANDQ $7, AX
	MOVL $0xff, R11
	SHLXL AX, R11, R11             // lanes i >= j in the first block

zblock:
	MOVQ  CX, AX
	SUBQ  R10, AX                  // rows left
	MOVL  $0xff, DX
	BZHIQ AX, DX, DX
	ANDL  DX, R11                  // and i < d
	KMOVB R11, K1
	VMOVUPD.Z (SI)(R10*8), K1, Z2
	VMULPD    Z1, Z2, Z2
	VMOVUPD.Z (DI)(R10*8), K1, Z3
	VADDPD    Z2, Z3, Z3
	VMOVUPD   Z3, K1, (DI)(R10*8)
	MOVL  $0xff, R11
	ADDQ  $8, R10
	CMPQ  R10, CX
	JLT   zblock

	ADDQ BX, SI
	INCQ R9
	CMPQ R9, CX
	JLT  zcol
	VZEROUPPER
	RET
