//go:build amd64 && !purego

#include "textflag.h"


DATA ·argmaxNegInf<>+0(SB)/8, $0xfff0000000000000
GLOBL ·argmaxNegInf<>(SB), RODATA|NOPTR, $8

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
TEXT ·argmaxAVX512(SB), NOSPLIT, $0-32
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	VBROADCASTSD ·argmaxNegInf<>(SB), Z0
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
	// M in every lane of Z5.
	VSHUFF64X2 $0x4e, Z0, Z0, Z5
	VMAXPD     Z5, Z0, Z5
	VSHUFF64X2 $0xb1, Z5, Z5, Z6
	VMAXPD     Z6, Z5, Z5
	VPERMILPD  $0x55, Z5, Z6
	VMAXPD     Z6, Z5, Z5
	VCMPPD     $0, Z5, Z0, K3     // lanes holding M
	VPTERNLOGQ $0xff, Z7, Z7, Z7
	VMOVDQA64  Z1, K3, Z7         // their indices; others 2⁶⁴−1
	VSHUFI64X2 $0x4e, Z7, Z7, Z8
	VPMINUQ    Z8, Z7, Z7
	VSHUFI64X2 $0xb1, Z7, Z7, Z8
	VPMINUQ    Z8, Z7, Z7
	VPSHUFD    $0x4e, Z7, Z8
	VPMINUQ    Z8, Z7, Z7
	VMOVQ      X7, AX
	CMPQ       AX, $-1
	JNE        ret
	XORQ       AX, AX

ret:
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET
