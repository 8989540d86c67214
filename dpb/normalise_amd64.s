//go:build amd64 && !purego

#include "textflag.h"

DATA ·normOne<>+0(SB)/8, $1.0
GLOBL ·normOne<>(SB), RODATA|NOPTR, $8

// func normaliseBlocksAVX512(acts, theta, means []float64, tab *normTables, nblk int)
//
// normaliseTo for the 8·nblk vectors acts[a·d : (a+1)·d] (d = tab.d ≤ 8),
// eight per pass: a pass loads the d contiguous registers A_0…A_{d−1} that
// hold its eight vectors, transposes them (component i of vector k, at flat
// position d·k+i, goes to lane k of C_i, one merge-masked VPERMPD per source
// register), makes in every lane the operations of normaliseTo in its order —
// s += v·v and u += v·θ_i for i = 0…d−1 (each product rounded, no fused
// multiply-add), inv = 1/√s — then scales the A_j by inv expanded to the
// vectors' positions and stores them, and means = u·inv. Each lane's
// arithmetic is that of the scalar loop, so the bits are the same.
//
// Registers: DI acts (the pass's first vector), SI theta, DX means, R8 tab,
// CX d, R9 blocks left, R10 i, R11 j, R12 mask pointer, R13 d·64 bytes a pass;
// Z0–Z7 C_i, Z8 s, Z9 u, Z10 product, Z11 θ_i, Z12 inv, Z13 1, Z14 index,
// Z15 scaled A_j.
TEXT ·normaliseBlocksAVX512(SB), NOSPLIT, $0-88
	MOVQ acts_base+0(FP), DI
	MOVQ theta_base+24(FP), SI
	MOVQ means_base+48(FP), DX
	MOVQ tab+72(FP), R8
	MOVQ nblk+80(FP), R9
	MOVQ 0(R8), CX           // d
	TESTQ R9, R9
	JLE  done
	MOVQ CX, R13
	SHLQ $6, R13
	VBROADCASTSD ·normOne<>(SB), Z13

block:
	// C_i for i < d: lane k ← acts[d·k+i], from register (d·k+i)/8, lane
	// (d·k+i) mod 8 (tab.idx[i]), merged under tab.mask[i][j].
	LEAQ 8+64*8(R8), R12     // &tab.mask[0][0]
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	XORQ R10, R10

comp:
	CMPQ R10, CX
	JAE  norm
	MOVQ R10, AX
	SHLQ $6, AX
	VMOVDQU64 8(R8)(AX*1), Z14   // tab.idx[i]
	VPXORQ Z0, Z0, Z0
	XORQ R11, R11
	MOVQ DI, BX

src:
	CMPQ R11, CX
	JAE  srcDone
	KMOVB   (R12), K1
	VPERMPD (BX), Z14, K1, Z0
	INCQ    R12
	ADDQ    $64, BX
	INCQ    R11
	JMP     src

srcDone:
	ADDQ $8, R12
	SUBQ CX, R12             // next row of tab.mask (8 bytes a row)
	VMULPD       Z0, Z0, Z10
	VADDPD       Z10, Z8, Z8     // s += v·v
	VBROADCASTSD (SI)(R10*8), Z11
	VMULPD       Z11, Z0, Z10
	VADDPD       Z10, Z9, Z9     // u += v·θ_i
	INCQ R10
	JMP  comp

norm:
	VSQRTPD Z8, Z8
	VDIVPD  Z8, Z13, Z12         // inv = 1/√s
	VMULPD  Z12, Z9, Z9
	VMOVUPD Z9, (DX)             // means = u·inv

	// A_j ·= inv expanded: lane l of A_j belongs to vector (8j+l)/d
	// (tab.exp[j]).
	XORQ R11, R11
	MOVQ DI, BX
	LEAQ 8+64*8+64(R8), AX       // &tab.exp[0]

scale:
	CMPQ R11, CX
	JAE  scaled
	VMOVDQU64 (AX), Z14
	VPERMPD   Z12, Z14, Z15
	VMULPD    (BX), Z15, Z15
	VMOVUPD   Z15, (BX)
	ADDQ      $64, AX
	ADDQ      $64, BX
	INCQ      R11
	JMP       scale

scaled:
	ADDQ R13, DI
	ADDQ $64, DX
	DECQ R9
	JNZ  block

done:
	VZEROUPPER
	RET
