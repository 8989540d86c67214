//go:build amd64 && !purego

#include "textflag.h"

// VEC2(OP) is the body of vecAddAVX512 and vecMulAVX512: dst[k] = a[k] OP
// b[k], eight entries a pass, the last pass masked (a masked load or store
// does not touch the entries it leaves out). (Labels are local to a TEXT
// block, so both bodies may carry the same ones.)
#define VEC2(OP) \
	MOVQ dst+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
pass8: \
	CMPQ CX, $8; \
	JL   tail; \
	VMOVUPD (SI), Z0; \
	OP      (DX), Z0, Z0; \
	VMOVUPD Z0, (DI); \
	ADDQ    $64, SI; \
	ADDQ    $64, DX; \
	ADDQ    $64, DI; \
	SUBQ    $8, CX; \
	JMP     pass8; \
tail: \
	TESTQ   CX, CX; \
	JEQ     done; \
	MOVQ    $1, AX; \
	SHLQ    CX, AX; \
	DECQ    AX; \
	KMOVB   AX, K1; \
	VMOVUPD (SI), K1, Z0; \
	VMOVUPD (DX), K1, Z1; \
	OP      Z1, Z0, Z0; \
	VMOVUPD Z0, K1, (DI); \
done: \
	VZEROUPPER; \
	RET

// func vecAddAVX512(dst, a, b *float64, n int)
//
// dst[k] = a[k] + b[k] (VEC2).
TEXT ·vecAddAVX512(SB), NOSPLIT, $0-32
	VEC2(VADDPD)

// func vecAdd3AVX512(dst, a, b, c *float64, n int)
//
// dst[k] = (a[k] + b[k]) + c[k], as vecAddAVX512.
TEXT ·vecAdd3AVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R8
	MOVQ n+32(FP), CX

add38:
	CMPQ CX, $8
	JL   add3tail
	VMOVUPD (SI), Z0
	VADDPD  (DX), Z0, Z0
	VADDPD  (R8), Z0, Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, R8
	ADDQ    $64, DI
	SUBQ    $8, CX
	JMP     add38

add3tail:
	TESTQ   CX, CX
	JEQ     add3done
	MOVQ    $1, AX
	SHLQ    CX, AX
	DECQ    AX
	KMOVB   AX, K1
	VMOVUPD (SI), K1, Z0
	VMOVUPD (DX), K1, Z1
	VMOVUPD (R8), K1, Z2
	VADDPD  Z1, Z0, Z0
	VADDPD  Z2, Z0, Z0
	VMOVUPD Z0, K1, (DI)

add3done:
	VZEROUPPER
	RET

// func vecMulAVX512(dst, a, b *float64, n int)
//
// dst[k] = a[k]·b[k] (VEC2).
TEXT ·vecMulAVX512(SB), NOSPLIT, $0-32
	VEC2(VMULPD)
