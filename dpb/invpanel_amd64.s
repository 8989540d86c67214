//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

DATA ·invPanelSign<>+0(SB)/8, $0x8000000000000000
GLOBL ·invPanelSign<>(SB), RODATA|NOPTR, $8

// STEP(s, A, m): step s of a row's dot products, s < 8: the product
// L_{i,j0+s}·M_{j0+s, j0+l} in lane l (zero-masked to the lanes l ≤ s that
// have an element there, mask m), added to accumulator A.
#define STEP(s, A, m) \
	MOVL          $m, R15; \
	KMOVB         R15, K1; \
	VBROADCASTSD  (8*s)(R12), Z5; \
	VMULPD.Z      (64*s)(R13), Z5, K1, Z4; \
	VADDPD        Z4, A, A

// GSTEP(s, A): a step of the groups (every lane has its element there),
// from the cursors AX (L) and DX (panel).
#define GSTEP(s, A) \
	VBROADCASTSD  (8*s)(AX), Z5; \
	VMULPD        (64*s)(DX), Z5, Z4; \
	VADDPD        Z4, A, A

// TAILP(q): the product of the step s = n0 − q (q = 1, 2, 3 from the end) in
// Z4, zero-masked to the lanes l ≤ s. Clobbers R14, R15, K1.
#define TAILP(q) \
	MOVQ          R11, R14; \
	SUBQ          $q, R14; \
	LEAQ          1(R14), R15; \
	MOVL          $0xff, BX; \
	BZHIL         R15, BX, R15; \
	KMOVB         R15, K1; \
	VBROADCASTSD  (R12)(R14*8), Z5; \
	SHLQ          $6, R14; \
	VMULPD.Z      (R13)(R14*1), Z5, K1, Z4

// TADD(A, m): add Z4 to A in the lanes of the constant mask m.
#define TADD(A, m) \
	MOVL          $m, R15; \
	KMOVB         R15, K2; \
	VADDPD        Z4, A, K2, A

// TSTORE(Z): column c of a transposed block, Z, to DX in the rows of the
// masks BX (rows below d) and R13 (rows from c on in the diagonal block),
// which then shifts by R11 (1 in the diagonal block, else 0).
#define TSTORE(Z) \
	MOVL          R13, R12; \
	ANDL          BX, R12; \
	KMOVB         R12, K2; \
	VMOVUPD       Z, K2, (DX); \
	SHLXL         R11, R13, R13

// func invPanelsAVX512(l, mt, r *float64, d, dp int)
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
// element t = s − l; lanes with no element there (l > s) get a product of
// +0 (zero-masked), which leaves their accumulators at +0. The accumulators
// rotate: step s adds to A_{s mod 4} (Z0–Z3), so lane l's chain c is in
// A_{(c+l) mod 4}; then lane l's (s0+s1)+(s2+s3) is (A0+A1)+(A2+A3) for even
// l and (A1+A2)+(A3+A0) for odd l (for l ≡ 2 and 3 these are Dot's sums
// with the operands of the outer addition swapped, which gives the same
// value). A lane's tail (its last r_l = n_l mod 4 elements, n_l = n0 − l,
// n0 = i − j0) goes to its chain 0, A_{l mod 4}: on the last three steps
// (q = 1, 2, 3 from the end) the lanes whose tail is longer than q are
// added to their own accumulator (masks by n0 mod 4), the others to
// A_{s mod 4} (for the lanes whose tail is exactly q the two agree).
// Row i of the panel (0 in the lanes l > i − j0, M_ii in lane i − j0) is
// stored at r[8i:8i+8] for the rows below it; when the panel's rows are
// done, its 8×8 blocks are transposed into mt's columns, rows ≥ d and
// columns ≥ d left as they are. r holds at least 8·(d+7) floats. Requires
// AVX-512F, DQ and BMI2.
//
// Registers: SI l, DI mt, R8 r, CX d, BX scratch, R9 j0, R10 i, R11 n0,
// R12 &L_{i,j0}, R13 &r[8·j0], R14, R15 scratch, AX, DX the groups'
// cursors; Z0–Z3 the accumulators, Z4–Z5 products, Z6 −M_ii, Z8–Z11 the
// sums; the transposition uses Z0–Z15 and Z28–Z31.
TEXT ·invPanelsAVX512(SB), NOSPLIT, $0-40
	MOVQ l+0(FP), SI
	MOVQ mt+8(FP), DI
	MOVQ r+16(FP), R8
	MOVQ d+24(FP), CX
	TRANSPOSE8INDICES
	XORQ R9, R9

panel:
	// Row j0 of the panel: M_{j0 j0} in lane 0.
	MOVQ    R9, AX
	IMULQ   dp+32(FP), AX
	ADDQ    R9, AX
	VMOVSD  (DI)(AX*8), X4
	MOVQ    R9, AX
	SHLQ    $6, AX
	VMOVUPD Z4, (R8)(AX*1)
	LEAQ    (R8)(AX*1), R13
	LEAQ    1(R9), R10

row:
	CMPQ  R10, CX
	JAE   transpose
	MOVQ  R10, R11
	SUBQ  R9, R11            // n0
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
	JLE   tail
	STEP(0, Z0, 0x01)
	CMPQ  R14, $1
	JEQ   tail
	STEP(1, Z1, 0x03)
	CMPQ  R14, $2
	JEQ   tail
	STEP(2, Z2, 0x07)
	CMPQ  R14, $3
	JEQ   tail
	STEP(3, Z3, 0x0f)
	CMPQ  R14, $4
	JEQ   tail
	STEP(4, Z0, 0x1f)
	CMPQ  R14, $5
	JEQ   tail
	STEP(5, Z1, 0x3f)
	CMPQ  R14, $6
	JEQ   tail
	STEP(6, Z2, 0x7f)
	CMPQ  R14, $7
	JEQ   tail
	STEP(7, Z3, 0xff)
	SUBQ  $8, R14            // steps 8…: every lane has its element
	LEAQ  64(R12), AX
	LEAQ  512(R13), DX

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
	// The last min(3, n0) steps, by ρ = n0 mod 4. Lane l's tail has
	// r_l = (ρ − l) mod 4 elements; lanes with r_l = r form the mask
	// 0x11 << ((ρ − r) mod 4), and their chain 0 is A_{(ρ − r) mod 4}.
	MOVQ R11, AX
	ANDQ $3, AX
	CMPQ AX, $1
	JB   tail0
	JEQ  tail1
	CMPQ AX, $2
	JEQ  tail2
	JMP  tail3

	// ρ = 0 (n0 ≥ 4): q = 3 → A1 (all lanes); q = 2 → A2 except r_l = 3
	// (lanes ≡ 1, to A1); q = 1 → A3 except r_l = 2 (≡ 2, A2) and r_l = 3
	// (≡ 1, A1).
tail0:
	TAILP(3)
	VADDPD Z4, Z1, Z1
	TAILP(2)
	TADD(Z2, 0xdd)
	TADD(Z1, 0x22)
	TAILP(1)
	TADD(Z3, 0x99)
	TADD(Z2, 0x44)
	TADD(Z1, 0x22)
	JMP  sums

	// ρ = 1: q = 3 (n0 ≥ 5) → A2; q = 2 → A3 except r_l = 3 (≡ 2, A2);
	// q = 1 → A0 except r_l = 2 (≡ 3, A3), r_l = 3 (≡ 2, A2).
tail1:
	CMPQ R11, $1
	JEQ  tail1q1
	TAILP(3)
	VADDPD Z4, Z2, Z2
	TAILP(2)
	TADD(Z3, 0xbb)
	TADD(Z2, 0x44)
tail1q1:
	TAILP(1)
	TADD(Z0, 0x33)
	TADD(Z3, 0x88)
	TADD(Z2, 0x44)
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
	TADD(Z0, 0x77)
	TADD(Z3, 0x88)
	TAILP(1)
	TADD(Z1, 0x66)
	TADD(Z0, 0x11)
	TADD(Z3, 0x88)
	JMP  sums

	// ρ = 3 (n0 ≥ 3): q = 3 → A0; q = 2 → A1 except r_l = 3 (≡ 0, A0);
	// q = 1 → A2 except r_l = 2 (≡ 1, A1), r_l = 3 (≡ 0, A0).
tail3:
	TAILP(3)
	VADDPD Z4, Z0, Z0
	TAILP(2)
	TADD(Z1, 0xee)
	TADD(Z0, 0x11)
	TAILP(1)
	TADD(Z2, 0xcc)
	TADD(Z1, 0x22)
	TADD(Z0, 0x11)

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
	// −M_ii, M_ii's address mt + 8(i·dp + i).
	MOVQ    R10, AX
	IMULQ   dp+32(FP), AX
	ADDQ    R10, AX
	VBROADCASTSD (DI)(AX*8), Z6
	VBROADCASTSD ·invPanelSign<>(SB), Z7
	VXORPD  Z7, Z6, Z7          // −M_ii
	MOVL    $0xff, BX
	BZHIL   R11, BX, R15        // lanes l < n0
	KMOVB   R15, K1
	VMULPD.Z Z7, Z8, K1, Z8
	LEAQ    1(R11), R14
	BZHIL   R14, BX, R14        // lanes l ≤ n0
	XORL    R15, R14            // lane n0, if < 8
	KMOVB   R14, K2
	VMOVAPD Z6, K2, Z8
	MOVQ    R10, AX
	SHLQ    $6, AX
	VMOVUPD Z8, (R8)(AX*1)
	INCQ    R10
	JMP     row

transpose:
	// The panel's blocks of eight rows i0 = j0, j0+8, … into the columns
	// j0+c < d of mt, rows i0+a < d.
	MOVQ  R9, R15            // j0 (TRANSPOSE8 uses R9)
	MOVQ  R9, R10            // i0
	MOVL  $0xff, AX
	KMOVB AX, K1

tblock:
	CMPQ  R10, CX
	JAE   pnext
	MOVQ  $64, R12
	MOVQ  $192, R11
	MOVQ  R10, DX
	SHLQ  $6, DX
	ADDQ  R8, DX
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

pnext:
	LEAQ  8(R15), R9
	CMPQ  R9, CX
	JB    panel
	VZEROUPPER
	RET
