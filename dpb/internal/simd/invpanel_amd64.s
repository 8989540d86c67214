//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

DATA ·invPanelSign<>+0(SB)/8, $0x8000000000000000
GLOBL ·invPanelSign<>(SB), RODATA|NOPTR, $8

// GSTEP(s, A): step s (from the cursors AX, DX) of a row's dot products:
// L_{i,k}·M_{k, j0+l} in lane l, k = j0 + s, added to accumulator A.
#define GSTEP(s, A) \
	VBROADCASTSD  (8*s)(AX), Z5; \
	VMULPD        (64*s)(DX), Z5, Z4; \
	VADDPD        Z4, A, A

// TAILP(q): the product of the step n0 − q (q = 1, 2, 3 from the end) in
// Z4, from AX = &L_{i,i} and DX = &r[8i].
#define TAILP(q) \
	VBROADCASTSD  (-8*q)(AX), Z5; \
	VMULPD        (-64*q)(DX), Z5, Z4

// TADD(A, m): add Z4 to A in the lanes of the mask at offset m of
// invPanelMasks.
#define TADD(A, m) \
	KMOVB         ·invPanelMasks<>+m(SB), K2; \
	VADDPD        Z4, A, K2, A

// The routing masks of the tails' steps, by offset: 0xdd, 0x22, 0x99, 0x44,
// 0xbb, 0x33, 0x88, 0x77, 0x66, 0x11, 0xee, 0xcc.
DATA ·invPanelMasks<>+0(SB)/1, $0xdd
DATA ·invPanelMasks<>+1(SB)/1, $0x22
DATA ·invPanelMasks<>+2(SB)/1, $0x99
DATA ·invPanelMasks<>+3(SB)/1, $0x44
DATA ·invPanelMasks<>+4(SB)/1, $0xbb
DATA ·invPanelMasks<>+5(SB)/1, $0x33
DATA ·invPanelMasks<>+6(SB)/1, $0x88
DATA ·invPanelMasks<>+7(SB)/1, $0x77
DATA ·invPanelMasks<>+8(SB)/1, $0x66
DATA ·invPanelMasks<>+9(SB)/1, $0x11
DATA ·invPanelMasks<>+10(SB)/1, $0xee
DATA ·invPanelMasks<>+11(SB)/1, $0xcc
GLOBL ·invPanelMasks<>(SB), RODATA|NOPTR, $16

// TSTORE(Z): column c of a transposed block, Z, to DX in the rows of the
// masks BX (rows below d) and R13 (rows from c on in the diagonal block),
// which then shifts by R11 (1 in the diagonal block, else 0).
#define TSTORE(Z) \
	MOVL          R13, R12; \
	ANDL          BX, R12; \
	KMOVB         R12, K2; \
	VMOVUPD       Z, K2, (DX); \
	SHLXL         R11, R13, R13

// func invPanelsAVX512(l, mt, r *float64, d, dp int) (ok int)
//
// The rows of the inverse factor M = L⁻¹ below its diagonal (which mt
// already holds, mt[j·dp+j] = M_jj), in the kernel layout mt[j·dp+i] = M_ij,
// eight columns j0…j0+7 (a panel) at a time, one per lane, with invRowGo's
// operations: M_ij = Dot(L_{i,j..i−1}, M_{j..i−1, j})·(−M_ii), the dot
// product as linalg.Dot forms it (element t to chain t mod 4 while t is in
// a full group of four, the tail to chain 0, each product and sum rounded,
// then (s0+s1)+(s2+s3)).
//
// Row i of a panel is one pass over k = j0…i−1: step s = k − j0 multiplies
// L_ik (one broadcast: every lane's element k has the same factor of L) by
// row k of the panel (M_{k, j0+l} in lane l, as row k was stored: one
// load), so no lane needs a gather or a scatter. Lane l's element k is its
// element t = s − l; in the lanes l > s, which have no element there, row
// k holds +0 (M's upper triangle), so their product is ±0 and their
// accumulators stay +0. That needs L_ik finite (Inf·0 is NaN): the kernel
// first checks every entry of l (d×d) and returns 0 without writing
// anything if one is not finite, for the caller's row-by-row loop. The
// accumulators rotate: step s adds to A_{s mod 4} (Z0–Z3), so lane l's
// chain c is in A_{(c+l) mod 4}; then lane l's (s0+s1)+(s2+s3) is
// (A0+A1)+(A2+A3) for even l and (A1+A2)+(A3+A0) for odd l (for l ≡ 2 and 3
// these are Dot's sums with the operands of the outer addition swapped,
// which gives the same value). A lane's tail (its last r_l = n_l mod 4
// elements, n_l = n0 − l, n0 = i − j0) goes to its chain 0, A_{l mod 4}: on
// the last three steps (q = 1, 2, 3 from the end) the lanes whose tail is
// longer than q are added to their own accumulator (masks by n0 mod 4), the
// others to A_{s mod 4} (for the lanes whose tail is exactly q the two
// agree). Row i of the panel (0 in the lanes l > i − j0, M_ii in lane
// i − j0) is stored for the rows below it: panel p (j0 = 8p) keeps its rows
// j0…d−1 in r from float 8·Σ_{q<p}(d − 8q) on. The rows go in the order
// i = 1…d−1 and, within a row, panel by panel, so that the panels' chains
// (row i of a panel needs its row i−1 at its last step) overlap. Then each
// panel's 8×8 blocks are transposed into mt's columns, rows ≥ d, columns ≥
// d and the upper triangle left as they are. r holds at least
// invPanelScratch(d) floats (the last block reads seven rows past the
// last panel's). Returns 1. Requires AVX-512F, DQ and BMI2.
//
// Registers: SI l, DI mt, R8 r, CX d, BX scratch, R9 j0, R10 i, R11 n0,
// R12 &L_{i,j0}, R13 the panel's row j0, R14, R15 scratch, AX, DX the
// steps' cursors; Z0–Z3 the accumulators, Z4–Z5 products, Z6 M_ii and Z7
// −M_ii of row i, Z8–Z11 the sums; the transposition uses Z0–Z15 and
// Z28–Z31.
TEXT ·InvPanelsAVX512(SB), NOSPLIT, $0-48
	MOVQ l+0(FP), SI
	MOVQ mt+8(FP), DI
	MOVQ r+16(FP), R8
	MOVQ d+24(FP), CX
	MOVQ $0, ok+40(FP)

	// Every entry of l finite? x − x is +0 for finite x and NaN otherwise;
	// the OR of the bits stays NaN once one is.
	MOVQ   CX, AX
	IMULQ  CX, AX            // d² entries
	MOVQ   SI, DX
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9

chk:
	CMPQ    AX, $16
	JB      chk8
	VMOVUPD (DX), Z4
	VSUBPD  Z4, Z4, Z4
	VORPD   Z4, Z8, Z8
	VMOVUPD 64(DX), Z5
	VSUBPD  Z5, Z5, Z5
	VORPD   Z5, Z9, Z9
	ADDQ    $128, DX
	SUBQ    $16, AX
	JMP     chk

chk8:
	CMPQ      AX, $8
	JB        chk1
	VMOVUPD   (DX), Z4
	VSUBPD    Z4, Z4, Z4
	VORPD     Z4, Z8, Z8
	ADDQ      $64, DX
	SUBQ      $8, AX

chk1:
	MOVL      $0xff, BX
	BZHIL     AX, BX, BX
	KMOVB     BX, K1
	VMOVUPD.Z (DX), K1, Z4
	VSUBPD    Z4, Z4, Z4
	VORPD     Z4, Z8, Z8
	VORPD     Z9, Z8, Z8
	VCMPPD    $3, Z8, Z8, K1     // unordered: NaN
	KORTESTB  K1, K1
	JNZ       notFinite

	TRANSPOSE8INDICES
	XORQ R10, R10            // i

irow:
	CMPQ R10, CX
	JAE  transposeAll
	// M_ii (Z6) and −M_ii (Z7), at mt + 8(i·dp + i), for every panel of row i.
	MOVQ    R10, AX
	IMULQ   dp+32(FP), AX
	ADDQ    R10, AX
	VBROADCASTSD (DI)(AX*8), Z6
	VBROADCASTSD ·invPanelSign<>(SB), Z7
	VXORPD  Z6, Z7, Z7
	XORQ R9, R9              // j0
	MOVQ R8, R13             // the panel's row j0

ipanel:
	MOVQ R10, R11
	SUBQ R9, R11             // n0
	JL   inext               // j0 > i: every panel of row i done
	JNZ  row
	// i = j0: the panel's first row, M_{j0 j0} in lane 0.
	VMOVQ   X6, X4
	VMOVUPD Z4, (R13)
	JMP     inext

row:
	MOVQ  R10, R12
	IMULQ CX, R12
	ADDQ  R9, R12
	LEAQ  (SI)(R12*8), R12   // &L_{i,j0}
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	MOVQ  R11, R14
	SUBQ  $3, R14            // the steps before the last three
	MOVQ  R12, AX
	MOVQ  R13, DX
	JLE   tail

groups:
	CMPQ  R14, $4
	JB    left
	GSTEP(0, Z0)
	GSTEP(1, Z1)
	GSTEP(2, Z2)
	GSTEP(3, Z3)
	ADDQ  $32, AX
	ADDQ  $256, DX
	SUBQ  $4, R14
	JMP   groups

left:
	TESTQ R14, R14
	JZ    tail
	GSTEP(0, Z0)
	CMPQ  R14, $1
	JEQ   tail
	GSTEP(1, Z1)
	CMPQ  R14, $2
	JEQ   tail
	GSTEP(2, Z2)

tail:
	LEAQ (R12)(R11*8), AX    // &L_{i,i}
	MOVQ R11, DX
	SHLQ $6, DX
	ADDQ R13, DX             // &r[8i]
	// The last min(3, n0) steps, by ρ = n0 mod 4. Lane l's tail has
	// r_l = (ρ − l) mod 4 elements; lanes with r_l = r form the mask
	// 0x11 << ((ρ − r) mod 4), and their chain 0 is A_{(ρ − r) mod 4}.
	MOVQ R11, BX
	ANDQ $3, BX
	CMPQ BX, $1
	JB   tail0
	JEQ  tail1
	CMPQ BX, $2
	JEQ  tail2
	JMP  tail3

	// ρ = 0 (n0 ≥ 4): q = 3 → A1 (all lanes); q = 2 → A2 except r_l = 3
	// (lanes ≡ 1, to A1); q = 1 → A3 except r_l = 2 (≡ 2, A2) and r_l = 3
	// (≡ 1, A1).
tail0:
	TAILP(3)
	VADDPD Z4, Z1, Z1
	TAILP(2)
	TADD(Z2, 0)
	TADD(Z1, 1)
	TAILP(1)
	TADD(Z3, 2)
	TADD(Z2, 3)
	TADD(Z1, 1)
	JMP  sums

	// ρ = 1: q = 3 (n0 ≥ 5) → A2; q = 2 → A3 except r_l = 3 (≡ 2, A2);
	// q = 1 → A0 except r_l = 2 (≡ 3, A3), r_l = 3 (≡ 2, A2).
tail1:
	CMPQ R11, $1
	JEQ  tail1q1
	TAILP(3)
	VADDPD Z4, Z2, Z2
	TAILP(2)
	TADD(Z3, 4)
	TADD(Z2, 3)
tail1q1:
	TAILP(1)
	TADD(Z0, 5)
	TADD(Z3, 6)
	TADD(Z2, 3)
	JMP  sums

	// ρ = 2: q = 3 (n0 ≥ 6) → A3; q = 2 → A0 except r_l = 3 (≡ 3, A3);
	// q = 1 → A1 except r_l = 2 (≡ 0, A0), r_l = 3 (≡ 3, A3).
tail2:
	CMPQ R11, $2
	JEQ  tail2q2
	TAILP(3)
	VADDPD Z4, Z3, Z3
tail2q2:
	TAILP(2)
	TADD(Z0, 7)
	TADD(Z3, 6)
	TAILP(1)
	TADD(Z1, 8)
	TADD(Z0, 9)
	TADD(Z3, 6)
	JMP  sums

	// ρ = 3 (n0 ≥ 3): q = 3 → A0; q = 2 → A1 except r_l = 3 (≡ 0, A0);
	// q = 1 → A2 except r_l = 2 (≡ 1, A1), r_l = 3 (≡ 0, A0).
tail3:
	TAILP(3)
	VADDPD Z4, Z0, Z0
	TAILP(2)
	TADD(Z1, 10)
	TADD(Z0, 9)
	TAILP(1)
	TADD(Z2, 11)
	TADD(Z1, 1)
	TADD(Z0, 9)

sums:
	VADDPD  Z1, Z0, Z8          // A0 + A1
	VADDPD  Z3, Z2, Z9          // A2 + A3
	VADDPD  Z9, Z8, Z8          // even lanes: (s0+s1)+(s2+s3)
	VADDPD  Z2, Z1, Z10         // A1 + A2
	VADDPD  Z0, Z3, Z11         // A3 + A0
	VADDPD  Z11, Z10, Z10       // odd lanes
	MOVL    $0xaa, R15
	KMOVB   R15, K2
	VMOVAPD Z10, K2, Z8
	MOVL    $0xff, BX
	BZHIL   R11, BX, R15        // lanes l < n0
	KMOVB   R15, K1
	VMULPD.Z Z7, Z8, K1, Z8
	LEAQ    1(R11), R14
	BZHIL   R14, BX, R14        // lanes l ≤ n0
	XORL    R15, R14            // lane n0, if < 8
	KMOVB   R14, K2
	VMOVAPD Z6, K2, Z8
	VMOVUPD Z8, (DX)            // row i of the panel
	// The next panel: its rows j0+8… follow this one's d − j0.
	MOVQ    CX, AX
	SUBQ    R9, AX
	SHLQ    $6, AX
	ADDQ    AX, R13
	ADDQ    $8, R9
	JMP     ipanel

inext:
	INCQ R10
	JMP  irow

transposeAll:
	// Each panel's blocks of eight rows i0 = j0, j0+8, … into the columns
	// j0+c < d of mt, rows i0+a < d. SI the panel's row j0, R15 j0 (L and
	// R9 are free now).
	MOVQ  R8, SI
	XORQ  R15, R15

tpanel:
	CMPQ  R15, CX
	JAE   tfinished
	MOVQ  R15, R10           // i0
	MOVL  $0xff, AX
	KMOVB AX, K1

tblock:
	CMPQ  R10, CX
	JAE   tpnext
	MOVQ  $64, R12
	MOVQ  $192, R11
	MOVQ  R10, DX
	SUBQ  R15, DX
	SHLQ  $6, DX
	ADDQ  SI, DX             // the panel's row i0
	LEAQ  256(DX), R9
	TRANSPOSE8
	MOVQ  CX, AX
	SUBQ  R10, AX
	MOVL  $0xff, BX
	BZHIL AX, BX, BX         // rows i0+a < d
	// In the diagonal block (i0 = j0) column c keeps its rows a < c (M's
	// upper triangle) as they are: its mask shifts by one a column.
	MOVL  $0xff, R13
	XORL  R11, R11
	CMPQ  R10, R15
	JNE   tstore
	MOVL  $1, R11

tstore:
	// &mt[j0·dp + i0] in DX; R14 = 8dp.
	MOVQ  dp+32(FP), R14
	MOVQ  R15, DX
	IMULQ R14, DX
	ADDQ  R10, DX
	LEAQ  (DI)(DX*8), DX
	SHLQ  $3, R14
	MOVQ  CX, AX
	SUBQ  R15, AX            // columns left: d − j0
	TSTORE(Z4)
	CMPQ  AX, $1
	JEQ   tdone
	ADDQ  R14, DX
	TSTORE(Z6)
	CMPQ  AX, $2
	JEQ   tdone
	ADDQ  R14, DX
	TSTORE(Z5)
	CMPQ  AX, $3
	JEQ   tdone
	ADDQ  R14, DX
	TSTORE(Z7)
	CMPQ  AX, $4
	JEQ   tdone
	ADDQ  R14, DX
	TSTORE(Z0)
	CMPQ  AX, $5
	JEQ   tdone
	ADDQ  R14, DX
	TSTORE(Z1)
	CMPQ  AX, $6
	JEQ   tdone
	ADDQ  R14, DX
	TSTORE(Z8)
	CMPQ  AX, $7
	JEQ   tdone
	ADDQ  R14, DX
	TSTORE(Z9)

tdone:
	ADDQ  $8, R10
	JMP   tblock

tpnext:
	MOVQ  CX, AX
	SUBQ  R15, AX
	SHLQ  $6, AX
	ADDQ  AX, SI
	ADDQ  $8, R15
	JMP   tpanel

tfinished:
	MOVQ  $1, ok+40(FP)

notFinite:
	VZEROUPPER
	RET
