//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

// DSTORE stores the lanes of z in mask m at addr (a diagonal tile's row).
#define DSTORE(m, z, addr) \
	MOVQ    $m, R10; \
	KMOVQ   R10, K2; \
	VMOVUPD z, K2, addr

// func symLowerAVX512(v *float64, d int)
//
// symLower's full 8×8 tiles: each tile (I, J ≥ I) of the upper triangle of
// the d×d row-major v, both below ⌊d/8⌋·8, is transposed (TRANSPOSE8) and
// stored into tile (J, I); in a diagonal tile only the lanes below the
// diagonal are stored. Only copies: the bits are the upper triangle's.
// Requires AVX-512F.
//
// Registers: SI v, CX d, R12 S = 8d, R11 3S, R14 ⌊d/8⌋·8, AX i0, BX j0, DX
// the tile's rows, R9 DX + 4S, R8 and R13 = R8 + 4S the mirrored tile's rows,
// R10 mask scratch.
TEXT ·symLowerAVX512(SB), NOSPLIT, $0-16
	MOVQ v+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ CX, R12
	SHLQ $3, R12
	LEAQ (R12)(R12*2), R11
	MOVQ CX, R14
	ANDQ $-8, R14
	TRANSPOSE8INDICES
	MOVQ $0xff, R10
	KMOVQ R10, K1
	XORQ AX, AX

tilerow:
	CMPQ AX, R14
	JGE  done
	MOVQ AX, BX

tile:
	CMPQ  BX, R14
	JGE   nexttilerow
	MOVQ  AX, DX
	IMULQ CX, DX
	ADDQ  BX, DX
	LEAQ  (SI)(DX*8), DX
	LEAQ  (DX)(R12*4), R9
	TRANSPOSE8
	MOVQ  BX, R8
	IMULQ CX, R8
	ADDQ  AX, R8
	LEAQ  (SI)(R8*8), R8
	LEAQ  (R8)(R12*4), R13
	CMPQ  BX, AX
	JEQ   diagtile
	VMOVUPD Z4, (R8)
	VMOVUPD Z6, (R8)(R12*1)
	VMOVUPD Z5, (R8)(R12*2)
	VMOVUPD Z7, (R8)(R11*1)
	VMOVUPD Z0, (R13)
	VMOVUPD Z1, (R13)(R12*1)
	VMOVUPD Z8, (R13)(R12*2)
	VMOVUPD Z9, (R13)(R11*1)
	JMP     nexttile

diagtile:
	// Column c of the tile goes to row i0+c, lanes (rows) below c only.
	DSTORE(0x01, Z6, (R8)(R12*1))
	DSTORE(0x03, Z5, (R8)(R12*2))
	DSTORE(0x07, Z7, (R8)(R11*1))
	DSTORE(0x0f, Z0, (R13))
	DSTORE(0x1f, Z1, (R13)(R12*1))
	DSTORE(0x3f, Z8, (R13)(R12*2))
	DSTORE(0x7f, Z9, (R13)(R11*1))

nexttile:
	ADDQ $8, BX
	JMP  tile

nexttilerow:
	ADDQ $8, AX
	JMP  tilerow

done:
	VZEROUPPER
	RET
