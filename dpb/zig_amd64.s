//go:build amd64 && !purego

#include "textflag.h"

// The wyrand increments of eight consecutive draws: lane k of a block starts
// from the state s + (k+1)·C, C = 0xa0761d6478bd642f (mod 2⁶⁴).
DATA ·zigLaneInc<>+0(SB)/8, $0xa0761d6478bd642f
DATA ·zigLaneInc<>+8(SB)/8, $0x40ec3ac8f17ac85e
DATA ·zigLaneInc<>+16(SB)/8, $0xe162582d6a382c8d
DATA ·zigLaneInc<>+24(SB)/8, $0x81d87591e2f590bc
DATA ·zigLaneInc<>+32(SB)/8, $0x224e92f65bb2f4eb
DATA ·zigLaneInc<>+40(SB)/8, $0xc2c4b05ad470591a
DATA ·zigLaneInc<>+48(SB)/8, $0x633acdbf4d2dbd49
DATA ·zigLaneInc<>+56(SB)/8, $0x03b0eb23c5eb2178
GLOBL ·zigLaneInc<>(SB), RODATA|NOPTR, $64

// func zigFastAVX512(dst []float64, s uint64) (n int, next, u uint64)
//
// zigFastGo for eight draws per pass (see there): the same words, the same
// operations, the same bits. Lane k of a pass makes the (n+k+1)-th word after
// s; bits.Mul64's high half is put together from four 32×32-bit products.
// A pass whose lanes all take the fast path stores eight normals; otherwise
// it stores the lanes before the first slow one and returns.
//
// Registers: DI dst, R14 len(dst), BX n, AX s, CX shift counts, R8 &zigW, R9 &zigK.
// Z0 lane states, Z1 wyrand's xor constant, Z2 8·C, Z3 2³²−1, Z4 255,
// Z5–Z15 the product, Z15 u, Z16 layer i, Y17 j, Z18 x, Z19 zigW[i],
// Y20 zigK[i], Y21 |j|; K1, K2 gather masks, K3 fast lanes, K4 store mask.
TEXT ·zigFastAVX512(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R14
	MOVQ s+24(FP), AX
	XORQ BX, BX
	LEAQ ·zigW(SB), R8
	LEAQ ·zigK(SB), R9
	VPBROADCASTQ AX, Z0
	VPADDQ ·zigLaneInc<>(SB), Z0, Z0
	MOVQ $0xe7037ed1a0b428db, R10
	VPBROADCASTQ R10, Z1
	MOVQ $0x03b0eb23c5eb2178, R10
	VPBROADCASTQ R10, Z2
	MOVQ $0xffffffff, R10
	VPBROADCASTQ R10, Z3
	MOVQ $255, R10
	VPBROADCASTQ R10, Z4

loop:
	CMPQ BX, R14
	JAE  done

	// hi, lo = bits.Mul64(a, b), a = state, b = a ^ 0xe7037ed1a0b428db.
	VPXORQ   Z1, Z0, Z5      // b
	VPSRLQ   $32, Z0, Z6     // a_hi
	VPSRLQ   $32, Z5, Z7     // b_hi
	VPMULUDQ Z5, Z0, Z8      // ll = a_lo·b_lo
	VPMULUDQ Z7, Z0, Z9      // lh = a_lo·b_hi
	VPMULUDQ Z5, Z6, Z10     // hl = a_hi·b_lo
	VPMULUDQ Z7, Z6, Z11     // hh = a_hi·b_hi
	VPADDQ   Z9, Z10, Z12
	VPSLLQ   $32, Z12, Z12
	VPADDQ   Z12, Z8, Z12    // lo = ll + (lh + hl)·2³²
	VPSRLQ   $32, Z8, Z13
	VPANDQ   Z3, Z9, Z14
	VPADDQ   Z14, Z13, Z13
	VPANDQ   Z3, Z10, Z14
	VPADDQ   Z14, Z13, Z13
	VPSRLQ   $32, Z13, Z13   // carry into the high half
	VPSRLQ   $32, Z9, Z14
	VPADDQ   Z14, Z11, Z11
	VPSRLQ   $32, Z10, Z14
	VPADDQ   Z14, Z11, Z11
	VPADDQ   Z13, Z11, Z11   // hi
	VPXORQ   Z12, Z11, Z15   // u = hi ^ lo

	// x = float64(int32(u))·zigW[i], fast when |int32(u)| < zigK[i],
	// i = (u >> 32) & 255.
	VPSRLQ    $32, Z15, Z16
	VPANDQ    Z4, Z16, Z16
	VPMOVQD   Z15, Y17
	VCVTDQ2PD Y17, Z18
	KXNORW    K1, K1, K1
	VGATHERQPD (R8)(Z16*8), K1, Z19
	VMULPD    Z19, Z18, Z18
	KXNORW    K2, K2, K2
	VPGATHERQD (R9)(Z16*4), K2, Y20
	VPABSD    Y17, Y21
	VPCMPUD   $1, Y20, Y21, K3
	KMOVW     K3, R10
	ANDL      $0xff, R10     // fast lanes

	MOVQ R14, DX
	SUBQ BX, DX              // draws still wanted
	CMPQ DX, $8
	JB   tail
	CMPL R10, $0xff
	JNE  slow
	VMOVUPD Z18, (DI)(BX*8)
	ADDQ    $8, BX
	VPADDQ  Z2, Z0, Z0
	JMP     loop

tail:
	// Fewer than eight wanted: lanes [0, DX) count.
	MOVL  DX, CX
	MOVL  $1, R11
	SHLL  CX, R11
	SUBL  $1, R11            // (1 << DX) − 1
	MOVL  R10, R12
	NOTL  R12
	ANDL  R11, R12           // slow lanes among the wanted ones
	JNZ   slow
	KMOVW R11, K4
	VMOVUPD Z18, K4, (DI)(BX*8)
	ADDQ  DX, BX

done:
	// next = s + n·C
	MOVQ  $0xa0761d6478bd642f, R12
	IMULQ BX, R12
	ADDQ  AX, R12
	MOVQ  BX, n+32(FP)
	MOVQ  R12, next+40(FP)
	MOVQ  $0, u+48(FP)
	VZEROUPPER
	RET

slow:
	// The first slow lane f: store lanes [0, f), return its word.
	NOTL    R10
	TZCNTL  R10, R10         // f (< 8: some wanted lane is slow)
	MOVL    R10, CX
	MOVL    $1, R11
	SHLL    CX, R11
	SUBL    $1, R11
	KMOVW   R11, K4
	VMOVUPD Z18, K4, (DI)(BX*8)
	ADDQ    R10, BX          // n
	VPBROADCASTQ R10, Z5
	VPERMQ  Z15, Z5, Z6
	VMOVQ   X6, R13          // u of lane f
	LEAQ    1(BX), R11       // words used: n + 1
	MOVQ    $0xa0761d6478bd642f, R12
	IMULQ   R11, R12
	ADDQ    AX, R12
	MOVQ    BX, n+32(FP)
	MOVQ    R12, next+40(FP)
	MOVQ    R13, u+48(FP)
	VZEROUPPER
	RET

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
TEXT ·zigFastScalar(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R14
	MOVQ s+24(FP), AX
	XORQ BX, BX
	LEAQ ·zigW(SB), R8
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
	CMPQ    CX, (R10)(R12*8) // fast iff below 2·zigK[i] − 1, unsigned
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
	LEAQ   ·zigF(SB), CX
	VMOVSD -8(CX)(R12*8), X2
	VSUBSD (CX)(R12*8), X2, X3
	VMULSD X3, X1, X1
	VADDSD (CX)(R12*8), X1, X1 // y = zigF[i] + u·(zigF[i−1] − zigF[i])
	VMOVQ  X0, DX
	BTRQ   $63, DX
	VMOVQ  DX, X4            // |x|
	LEAQ   ·zigA(SB), CX
	VSUBSD (CX)(R12*8), X4, X4
	LEAQ   ·zigS(SB), CX
	VMULSD (CX)(R12*8), X4, X4
	VADDSD X2, X4, X4        // the chord c at |x|
	LEAQ   ·zigD(SB), CX
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
