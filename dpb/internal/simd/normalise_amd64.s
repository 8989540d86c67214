//go:build amd64 && !purego

#include "textflag.h"

DATA ·normOne<>+0(SB)/8, $1.0
GLOBL ·normOne<>(SB), RODATA|NOPTR, $8

// NLOADF loads A_j (of a whole pass of eight vectors) from acts (DI) into
// register zr; after A_{d−1} (d: CX) it goes to done. NLOADT is the same for
// a last pass under the mask K2 (its low eight bits: the lanes of A_j below
// the tail's r·d floats), which it then shifts to the next register's.
#define NLOADF(j, zr, done) \
	VMOVUPD (j*64)(DI), zr; \
	CMPQ    CX, $(j+1); \
	JEQ     done

#define NLOADT(j, zr, done) \
	VMOVUPD.Z (j*64)(DI), K2, zr; \
	KSHIFTRQ  $8, K2, K2; \
	CMPQ      CX, $(j+1); \
	JEQ       done

// NPERM moves the components i of the pass's vectors that A_j (zr) holds
// into their lanes of Z0 (tab.idx[i] in Z14, under tab.mask[i][j]); after
// A_{d−1} it goes to next. NPERM0 starts Z0 from A_0, its other lanes zero.
#define NPERM0(i, next) \
	KMOVB     (8+512+8*i)(R8), K1; \
	VPERMPD.Z Z16, Z14, K1, Z0; \
	CMPQ      CX, $1; \
	JEQ       next

#define NPERM(i, j, zr, next) \
	KMOVB   (8+512+8*i+j)(R8), K1; \
	VPERMPD zr, Z14, K1, Z0; \
	CMPQ    CX, $(j+1); \
	JEQ     next

// NCOMP gathers component i of the pass's eight vectors into Z0 (lane k ←
// flat position d·k+i, from register (d·k+i)/8) and then, at next, adds it
// to s and u in lane order as normaliseTo does: s += v·v, u += v·θ_i, each
// product rounded, no fused multiply-add.
#define NCOMP(i, next) \
	VMOVDQU64 (8+64*i)(R8), Z14; \
	NPERM0(i, next); \
	NPERM(i, 1, Z17, next); \
	NPERM(i, 2, Z18, next); \
	NPERM(i, 3, Z19, next); \
	NPERM(i, 4, Z20, next); \
	NPERM(i, 5, Z21, next); \
	NPERM(i, 6, Z22, next); \
	NPERM(i, 7, Z23, next); \
next: \
	VMULPD       Z0, Z0, Z10; \
	VADDPD       Z10, Z8, Z8; \
	VBROADCASTSD (8*i)(SI), Z11; \
	VMULPD       Z11, Z0, Z10; \
	VADDPD       Z10, Z9, Z9; \
	CMPQ         CX, $(i+1); \
	JEQ          norm

// NSCALEF scales A_j (zr) by inv expanded to its lanes (tab.exp[j]: lane l
// belongs to vector (8j+l)/d) and stores it; after A_{d−1} it goes to done.
// NSCALET stores under K2 and shifts it, as NLOADT.
#define NSCALEF(j, zr, done) \
	VMOVDQU64 (8+512+64+64*j)(R8), Z14; \
	VPERMPD   Z12, Z14, Z15; \
	VMULPD    zr, Z15, Z15; \
	VMOVUPD   Z15, (j*64)(DI); \
	CMPQ      CX, $(j+1); \
	JEQ       done

#define NSCALET(j, zr, done) \
	VMOVDQU64 (8+512+64+64*j)(R8), Z14; \
	VPERMPD   Z12, Z14, Z15; \
	VMULPD    zr, Z15, Z15; \
	VMOVUPD   Z15, K2, (j*64)(DI); \
	KSHIFTRQ  $8, K2, K2; \
	CMPQ      CX, $(j+1); \
	JEQ       done

// EACHREG applies op (NLOADF, NLOADT, NSCALEF or NSCALET) to A_0…A_7 in
// order, each of which goes to done after A_{d−1}.
#define EACHREG(op, done) \
	op(0, Z16, done); \
	op(1, Z17, done); \
	op(2, Z18, done); \
	op(3, Z19, done); \
	op(4, Z20, done); \
	op(5, Z21, done); \
	op(6, Z22, done); \
	op(7, Z23, done)

// func normaliseBlocksAVX512(acts, theta, means []float64, tab *normTables, k int)
//
// normaliseTo for the k vectors acts[a·d : (a+1)·d] (d = tab.d ≤ 8), eight
// per pass: a pass loads the d registers A_0…A_{d−1} (Z16…) that hold its
// eight vectors, transposes them (component i of vector k, at flat position
// d·k+i, goes to lane k of Z0, one merge-masked VPERMPD per source
// register), makes in every lane the operations of normaliseTo in its order —
// s += v·v and u += v·θ_i for i = 0…d−1 (each product rounded, no fused
// multiply-add), inv = 1/√s — then scales the A_j by inv expanded to the
// vectors' positions and stores them, and means = u·inv. Each lane's
// arithmetic is that of the scalar loop, so the bits are the same. A last
// pass of r = k mod 8 vectors loads and stores its r·d floats under masks
// (BMI2's BZHI makes them), its other lanes zero, and stores r means.
//
// Every loop over i and j is written out, with an exit after d, so that a
// pass runs without a taken branch until its exits: with a loop for each
// register (the previous form) the loop's own instructions filled the
// reorder buffer and a pass of d = 5 took about three times its arithmetic.
//
// Registers: DI acts (the pass's first vector), SI theta, DX means, R8 tab,
// CX d, R9 vectors left, R13 d·64 bytes a pass; Z16–Z23 A_j, Z0 a component,
// Z8 s, Z9 u, Z10 product, Z11 θ_i, Z12 inv, Z13 1, Z14 index, Z15 scaled
// A_j; K1 a permute's mask, K2 a tail's float mask, K3 its means' mask.
TEXT ·normaliseBlocksAVX512(SB), NOSPLIT, $0-88
	MOVQ acts_base+0(FP), DI
	MOVQ theta_base+24(FP), SI
	MOVQ means_base+48(FP), DX
	MOVQ tab+72(FP), R8
	MOVQ k+80(FP), R9
	MOVQ 0(R8), CX           // d
	TESTQ R9, R9
	JLE  done
	MOVQ CX, R13
	SHLQ $6, R13
	VBROADCASTSD ·normOne<>(SB), Z13

pass:
	CMPQ R9, $8
	JB   tailLoad
	EACHREG(NLOADF, loaded)

tailLoad:
	MOVQ  R9, AX
	IMULQ CX, AX             // r·d < 64 floats
	MOVQ  $-1, BX
	BZHIQ AX, BX, BX
	KMOVQ BX, K2
	EACHREG(NLOADT, loaded)

loaded:
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	NCOMP(0, comp0)
	NCOMP(1, comp1)
	NCOMP(2, comp2)
	NCOMP(3, comp3)
	NCOMP(4, comp4)
	NCOMP(5, comp5)
	NCOMP(6, comp6)
	NCOMP(7, comp7)

norm:
	VSQRTPD Z8, Z8
	VDIVPD  Z8, Z13, Z12         // inv = 1/√s
	VMULPD  Z12, Z9, Z9          // means = u·inv
	CMPQ    R9, $8
	JB      tailStore
	VMOVUPD Z9, (DX)
	EACHREG(NSCALEF, scaled)

scaled:
	ADDQ R13, DI
	ADDQ $64, DX
	SUBQ $8, R9
	JNZ  pass
	JMP  done

tailStore:
	MOVQ  $-1, BX
	BZHIQ R9, BX, AX
	KMOVQ AX, K3
	VMOVUPD Z9, K3, (DX)
	MOVQ  R9, AX
	IMULQ CX, AX
	BZHIQ AX, BX, BX
	KMOVQ BX, K2
	EACHREG(NSCALET, done)

done:
	VZEROUPPER
	RET

#include "transpose_amd64.h"

// NACC adds coordinate j = j0+c (register x, θ_j at c·8(R8)) of one group to
// its sums in lane order: s = s + x·x, u = u + x·θ_j, each product rounded
// (no fused multiply-add), as normaliseTo.
#define NACC(c, x, s, u) \
	VMULPD x, x, Z25; \
	VADDPD Z25, s, s; \
	VBROADCASTSD (c*8)(R8), Z24; \
	VMULPD Z24, x, Z26; \
	VADDPD Z26, u, u

// NGROUP transposes coordinates j0…j0+7 (those below d: BX of them, mask
// K1) of the group whose block starts at DX and adds them to its sums s, u
// in increasing j; skip labels the end.
#define NGROUP(s, u, skip) \
	LEAQ (DX)(R12*4), R9; \
	TRANSPOSE8; \
	NACC(0, Z4, s, u); \
	CMPQ BX, $1; \
	JLE  skip; \
	NACC(1, Z6, s, u); \
	CMPQ BX, $2; \
	JLE  skip; \
	NACC(2, Z5, s, u); \
	CMPQ BX, $3; \
	JLE  skip; \
	NACC(3, Z7, s, u); \
	CMPQ BX, $4; \
	JLE  skip; \
	NACC(4, Z0, s, u); \
	CMPQ BX, $5; \
	JLE  skip; \
	NACC(5, Z1, s, u); \
	CMPQ BX, $6; \
	JLE  skip; \
	NACC(6, Z8, s, u); \
	CMPQ BX, $7; \
	JLE  skip; \
	NACC(7, Z9, s, u); \
skip:

// NFINISH sets inv = 1/√s for one group, stores it at off(SP) and the
// group's means u·inv at off(R15).
#define NFINISH(s, u, off) \
	VSQRTPD s, s; \
	VDIVPD s, Z27, s; \
	VMOVUPD s, off(SP); \
	VMULPD s, u, u; \
	VMOVUPD u, off(R15)

// func normaliseLanesAVX512(acts, theta, means []float64, d, n32 int)
//
// normaliseBlocksGo for 32·n32 vectors of any dimension d, one vector per
// lane: a pass of 32 vectors (four groups of eight) takes eight coordinates
// at a time, transposes each group's 8×8 block (TRANSPOSE8) and adds
// coordinate j to the lanes' s and u in increasing j — in every lane the
// operations of normaliseTo in its order, so the bits are the same; the
// eight chains (s and u of four groups) keep the adder busy. Then inv =
// 1/√s, means = u·inv, and each vector, contiguous in acts, is scaled by
// its lane's inv eight components at a time.
//
// Registers: R10 the pass's first vector, SI theta, R15 means cursor, CX d,
// R12 S = 8d, R11 3S, R13 8S, R14 passes left, AX j0, BX coordinates of the
// block below d, R8 &theta[j0], DX, R9 block rows; Z16–Z23 s and u of the
// four groups, Z24–Z26 scratch, Z27 1.
TEXT ·normaliseLanesAVX512(SB), NOSPLIT, $256-88
	MOVQ acts_base+0(FP), R10
	MOVQ theta_base+24(FP), SI
	MOVQ means_base+48(FP), R15
	MOVQ d+72(FP), CX
	MOVQ n32+80(FP), R14
	MOVQ CX, R12
	SHLQ $3, R12
	LEAQ (R12)(R12*2), R11
	MOVQ R12, R13
	SHLQ $3, R13
	VBROADCASTSD ·normOne<>(SB), Z27
	TRANSPOSE8INDICES
	TESTQ R14, R14
	JLE   ldone

lpass:
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23
	XORQ AX, AX

lcoords:
	MOVQ CX, BX
	SUBQ AX, BX                 // coordinates left
	MOVQ $0xff, DX
	BZHIQ BX, DX, DX
	KMOVQ DX, K1
	LEAQ (SI)(AX*8), R8
	LEAQ (R10)(AX*8), DX
	NGROUP(Z16, Z17, lg0)
	ADDQ R13, DX
	NGROUP(Z18, Z19, lg1)
	ADDQ R13, DX
	NGROUP(Z20, Z21, lg2)
	ADDQ R13, DX
	NGROUP(Z22, Z23, lg3)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT  lcoords

	NFINISH(Z16, Z17, 0)
	NFINISH(Z18, Z19, 64)
	NFINISH(Z20, Z21, 128)
	NFINISH(Z22, Z23, 192)

	// Scale vector a (at R10 + aS) by inv[a] (at 8a(SP)).
	XORQ R8, R8                 // a
	MOVQ R10, DX

lscale:
	VBROADCASTSD (SP)(R8*8), Z24
	MOVQ DX, R9
	MOVQ CX, BX

lscale8:
	CMPQ BX, $8
	JLT  lscaletail
	VMULPD (R9), Z24, Z25
	VMOVUPD Z25, (R9)
	ADDQ $64, R9
	SUBQ $8, BX
	JMP  lscale8

lscaletail:
	TESTQ BX, BX
	JEQ   lscaled
	MOVQ $0xff, AX
	BZHIQ BX, AX, AX
	KMOVQ AX, K2
	VMOVUPD.Z (R9), K2, Z25
	VMULPD Z25, Z24, Z25
	VMOVUPD Z25, K2, (R9)

lscaled:
	ADDQ R12, DX
	INCQ R8
	CMPQ R8, $32
	JLT  lscale

	MOVQ DX, R10                // the next pass (32 vectors on)
	ADDQ $256, R15
	DECQ R14
	JNZ  lpass

ldone:
	VZEROUPPER
	RET
