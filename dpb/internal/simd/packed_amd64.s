//go:build amd64 && !purego

#include "textflag.h"

// func packOuterAVX512(dst, z *float64, n int)
//
// packOuterLoop for n > 0: row i of the packed zzᵀ, dst[k + j − i] = z_i·z_j
// for j = i…n−1, eight products a pass with z_i broadcast, the last pass
// masked (a masked load or store does not touch the entries it leaves
// out). One rounded multiplication an entry, as the loop, so the same bits.
//
// Registers: DI dst cursor, SI &z[i], R8 rows left, CX entries left in the
// row, DX z cursor, AX mask scratch; Z1 z_i.
TEXT ·packOuterAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ n+16(FP), R8

row:
	VBROADCASTSD (SI), Z1
	MOVQ         SI, DX
	MOVQ         R8, CX

pass8:
	CMPQ    CX, $8
	JL      tail
	VMULPD  (DX), Z1, Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, DX
	ADDQ    $64, DI
	SUBQ    $8, CX
	JMP     pass8

tail:
	TESTQ     CX, CX
	JEQ       next
	MOVQ      $1, AX
	SHLQ      CX, AX
	DECQ      AX
	KMOVB     AX, K1
	VMOVUPD.Z (DX), K1, Z0
	VMULPD    Z0, Z1, Z0
	VMOVUPD   Z0, K1, (DI)
	LEAQ      (DI)(CX*8), DI

next:
	ADDQ $8, SI
	DECQ R8
	JNZ  row
	VZEROUPPER
	RET
