//go:build amd64 && !purego

#include "textflag.h"

// func zigFastScalar(dst []float64, s uint64) (n int, next, u uint64)
//
// zigFastGo one draw at a time: the same words (MULX gives bits.Mul64), the
// same conversion and product, and the same test, so the same bits. The
// layer i = (u >> 32) & 255 is one BEXTR; the test |j| < zigK[i] is
// uint64(j + zigKLo[i]) < zigKSpan[i] with j sign-extended, one add and one
// compare (see zigKLo). Its stores are scalar, so a caller may read the
// draws back at once.
//
// A word off the fast path in a layer i ≥ 1 is finished here when normSlow's
// chord squeeze decides it: the next word gives y; y < c − zigD[i] accepts x,
// y > c + zigD[i] rejects it and the next word starts the draw again, as in
// normSlow's loop. Only the base strip (i = 0) and a y within zigD[i] of the
// chord (where normSlow calls math.Exp) return to Go, with next the state
// after u, so normSlow(u) draws the same y. The squeeze never decides
// differently from the exact test, so the draws are normSlow's whichever
// words finish where (TestZigFastSameBits).
//
// Registers: DI dst, R14 len(dst), BX n, AX state, R8 &zigW, R9 &zigKLo,
// R10 &zigKSpan, SI and R15 the wyrand constants, R11 the BEXTR control,
// R13 u, R12 i, CX j, X15 zero, X0 x, X14 2⁻⁵³; the wedge: CX and DX the
// second word, then table addresses and |x|; X1 y, X2 zigF[i−1], X4 c,
// X5 c ∓ zigD[i].
TEXT ·ZigFastScalar(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R14
	MOVQ s+24(FP), AX
	XORQ BX, BX
	LEAQ ·ZigW(SB), R8
	LEAQ ·zigKLo(SB), R9
	LEAQ ·zigKSpan(SB), R10
	MOVQ $0xa0761d6478bd642f, SI
	MOVQ $0xe7037ed1a0b428db, R15
	MOVL $0x0820, R11        // BEXTR: 8 bits from bit 32
	VXORPD X15, X15, X15
	MOVQ $0x3ca0000000000000, CX
	MOVQ CX, X14             // 2⁻⁵³
	TESTQ R14, R14
	JEQ   sdone

sloop:
	ADDQ    SI, AX           // next state
	MOVQ    AX, DX
	XORQ    R15, DX          // b
	MULXQ   AX, R12, R13     // R13:R12 = a·b
	XORQ    R12, R13         // u
	BEXTRQ  R11, R13, R12    // i
	MOVLQSX R13, CX          // j
	VCVTSI2SDQ CX, X15, X0
	VMULSD  (R8)(R12*8), X0, X0
	ADDQ    (R9)(R12*8), CX  // j + zigK[i] − 1
	CMPQ    CX, (R10)(R12*8) // fast iff below 2·ZigK[i] − 1, unsigned
	JAE     sslow
	VMOVSD  X0, (DI)(BX*8)
	INCQ    BX
	CMPQ    BX, R14
	JB      sloop

sdone:
	MOVQ BX, n+32(FP)
	MOVQ AX, next+40(FP)
	MOVQ $0, u+48(FP)
	RET

sslow:
	TESTQ R12, R12
	JEQ   sexit              // the base strip: the tail is normSlow's
	MOVQ  AX, CX
	ADDQ  SI, CX             // the state of the second word
	MOVQ  CX, DX
	XORQ  R15, DX
	MULXQ CX, CX, DX
	XORQ  CX, DX
	SHRQ  $11, DX
	VCVTSI2SDQ DX, X15, X1
	VMULSD X14, X1, X1       // a uniform draw from [0, 1)
	LEAQ   ·ZigF(SB), CX
	VMOVSD -8(CX)(R12*8), X2
	VSUBSD (CX)(R12*8), X2, X3
	VMULSD X3, X1, X1
	VADDSD (CX)(R12*8), X1, X1 // y = zigF[i] + u·(zigF[i−1] − zigF[i])
	VMOVQ  X0, DX
	BTRQ   $63, DX
	VMOVQ  DX, X4            // |x|
	LEAQ   ·ZigA(SB), CX
	VSUBSD (CX)(R12*8), X4, X4
	LEAQ   ·ZigS(SB), CX
	VMULSD (CX)(R12*8), X4, X4
	VADDSD X2, X4, X4        // the chord c at |x|
	LEAQ   ·ZigD(SB), CX
	VSUBSD (CX)(R12*8), X4, X5
	VUCOMISD X5, X1
	JB     saccept           // y < c − zigD[i]: under the density
	VADDSD (CX)(R12*8), X4, X5
	VUCOMISD X5, X1
	JBE    sexit             // within zigD[i] of the chord: math.Exp decides
	ADDQ   SI, AX            // above the density: the second word is used,
	JMP    sloop             // and the next one starts the draw again

saccept:
	ADDQ    SI, AX
	VMOVSD  X0, (DI)(BX*8)
	INCQ    BX
	CMPQ    BX, R14
	JB      sloop
	JMP     sdone

sexit:
	MOVQ BX, n+32(FP)
	MOVQ AX, next+40(FP)
	MOVQ R13, u+48(FP)
	RET
