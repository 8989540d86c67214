//go:build amd64 && !purego

#include "textflag.h"

#include "argmax_amd64.h"

// func argmaxAVX512(x []float64) int
//
// argmaxGo, eight entries per pass: lane l keeps the largest entry at
// indices ≡ l (mod 8) and its first index, replaced only by a strictly
// larger entry (so never by NaN, and never by −Inf); then the largest lane
// value M is found and, among the lanes that hold M (−0 and +0 compare
// equal), the smallest index is the answer: the first index of the largest
// entry, as argmaxGo's scan finds it. No lane updated (every entry NaN or
// −Inf, or none): 0.
//
// Registers: SI x, CX len, AX i; Z0 lane maxima, Z1 their indices (−1: none),
// Z2 indices of the pass, Z3 8, Z4 entries.
TEXT ·ArgmaxAVX512(SB), NOSPLIT, $0-32
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	VBROADCASTSD ·negInfBits(SB), Z0
	VPTERNLOGQ   $0xff, Z1, Z1, Z1
	VMOVDQU64    ·iota8(SB), Z2
	MOVQ         $8, AX
	VPBROADCASTQ AX, Z3
	XORQ         AX, AX

loop:
	MOVQ CX, DX
	SUBQ AX, DX
	CMPQ DX, $8
	JB   tail
	VMOVUPD   (SI)(AX*8), Z4
	VCMPPD    $0x1e, Z0, Z4, K1   // x > lane max (ordered)
	VMOVAPD   Z4, K1, Z0
	VMOVDQA64 Z2, K1, Z1
	VPADDQ    Z3, Z2, Z2
	ADDQ      $8, AX
	JMP       loop

tail:
	TESTQ DX, DX
	JZ    reduce
	MOVL  $1, BX
	SHLXL DX, BX, BX
	SUBL  $1, BX
	KMOVB BX, K2
	VMOVUPD   (SI)(AX*8), K2, Z4
	VCMPPD    $0x1e, Z0, Z4, K2, K1
	VMOVAPD   Z4, K1, Z0
	VMOVDQA64 Z2, K1, Z1

reduce:
	LANEARGMAX
	VMOVQ      X7, AX
	CMPQ       AX, $-1
	JNE        ret
	XORQ       AX, AX

ret:
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET
