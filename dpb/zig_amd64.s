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

// func zigFastAVX512Loads(dst []float64, s uint64) (n int, next, u uint64)
//
// zigFastAVX512 without gathers: each lane's table entry zigWK[i] = (zigW[i],
// zigK[i]) is one 16-byte load. The byte offsets 16·i go to the stack as
// eight quadwords; lanes 0, 2, 4, 6 are loaded into Z5 and lanes 1, 3, 5, 7
// into Z6, so that one in-lane unpack gives the eight widths (Z25) and
// another the eight bounds as quadwords (Z26). The same words, operations and
// bits as zigFastAVX512 (TestZigFastSameBits); on AMD family 25 (Zen 4),
// whose gathers are slow, 20-25 % faster (BenchmarkZigKernel).
//
// Registers: as zigFastAVX512, with R8 &zigWK, Z4 0xff0, Z16 the offsets,
// R11, R12 offsets, Z5–Z8 entries, Z21 |j| as quadwords.
TEXT ·zigFastAVX512Loads(SB), NOSPLIT, $64-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R14
	MOVQ s+24(FP), AX
	XORQ BX, BX
	LEAQ ·zigWK(SB), R8
	VPBROADCASTQ AX, Z0
	VPADDQ ·zigLaneInc<>(SB), Z0, Z0
	MOVQ $0xe7037ed1a0b428db, R10
	VPBROADCASTQ R10, Z1
	MOVQ $0x03b0eb23c5eb2178, R10
	VPBROADCASTQ R10, Z2
	MOVQ $0xffffffff, R10
	VPBROADCASTQ R10, Z3
	MOVQ $0xff0, R10
	VPBROADCASTQ R10, Z4

lloop:
	CMPQ BX, R14
	JAE  ldone

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

	// Offsets 16·i, i = (u >> 32) & 255, as eight quadwords on the stack.
	VPSRLQ    $28, Z15, Z16
	VPANDQ    Z4, Z16, Z16
	VMOVDQU64 Z16, (SP)
	VPMOVQD   Z15, Y17
	VCVTDQ2PD Y17, Z18

	MOVQ        0(SP), R11
	MOVQ        16(SP), R12
	VMOVDQU     (R8)(R11*1), X5
	VINSERTI128 $1, (R8)(R12*1), Y5, Y5
	MOVQ        32(SP), R11
	MOVQ        48(SP), R12
	VMOVDQU     (R8)(R11*1), X7
	VINSERTI128 $1, (R8)(R12*1), Y7, Y7
	VINSERTI64X4 $1, Y7, Z5, Z5   // entries of lanes 0, 2, 4, 6
	MOVQ        8(SP), R11
	MOVQ        24(SP), R12
	VMOVDQU     (R8)(R11*1), X6
	VINSERTI128 $1, (R8)(R12*1), Y6, Y6
	MOVQ        40(SP), R11
	MOVQ        56(SP), R12
	VMOVDQU     (R8)(R11*1), X8
	VINSERTI128 $1, (R8)(R12*1), Y8, Y8
	VINSERTI64X4 $1, Y8, Z6, Z6   // entries of lanes 1, 3, 5, 7
	VUNPCKLPD   Z6, Z5, Z25        // zigW[i] of lanes 0…7
	VUNPCKHPD   Z6, Z5, Z26        // zigK[i] of lanes 0…7

	// x = float64(int32(u))·zigW[i], fast when |int32(u)| < zigK[i].
	VMULPD    Z25, Z18, Z18
	VPABSD    Y17, Y21
	VPMOVZXDQ Y21, Z21
	VPCMPUQ   $1, Z26, Z21, K3
	KMOVW     K3, R10
	ANDL      $0xff, R10     // fast lanes

	MOVQ R14, DX
	SUBQ BX, DX              // draws still wanted
	CMPQ DX, $8
	JB   ltail
	CMPL R10, $0xff
	JNE  lslow
	VMOVUPD Z18, (DI)(BX*8)
	ADDQ    $8, BX
	VPADDQ  Z2, Z0, Z0
	JMP     lloop

ltail:
	// Fewer than eight wanted: lanes [0, DX) count.
	MOVL  DX, CX
	MOVL  $1, R11
	SHLL  CX, R11
	SUBL  $1, R11            // (1 << DX) − 1
	MOVL  R10, R12
	NOTL  R12
	ANDL  R11, R12           // slow lanes among the wanted ones
	JNZ   lslow
	KMOVW R11, K4
	VMOVUPD Z18, K4, (DI)(BX*8)
	ADDQ  DX, BX

ldone:
	// next = s + n·C
	MOVQ  $0xa0761d6478bd642f, R12
	IMULQ BX, R12
	ADDQ  AX, R12
	MOVQ  BX, n+32(FP)
	MOVQ  R12, next+40(FP)
	MOVQ  $0, u+48(FP)
	VZEROUPPER
	RET

lslow:
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
// same conversion and product, the same test, so the same bits. Its stores
// are scalar, so a caller may read the draws back at once.
//
// Registers: DI dst, R14 len(dst), BX n, AX state, R8 &zigWK, R9 and R10 the
// wyrand constants, R12 u, R13 16·i, CX j, DX |j|, X0 x.
TEXT ·zigFastScalar(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R14
	MOVQ s+24(FP), AX
	XORQ BX, BX
	LEAQ ·zigWK(SB), R8
	MOVQ $0xa0761d6478bd642f, R9
	MOVQ $0xe7037ed1a0b428db, R10
	TESTQ R14, R14
	JEQ   sdone

sloop:
	ADDQ  R9, AX             // next state
	MOVQ  AX, DX
	XORQ  R10, DX            // b
	MULXQ AX, R11, R12       // R12:R11 = a·b
	XORQ  R11, R12           // u
	MOVQ  R12, R13
	SHRQ  $28, R13
	ANDL  $0xff0, R13        // 16·i
	MOVL  R12, CX            // j
	VXORPD X0, X0, X0
	VCVTSI2SDL CX, X0, X0
	VMULSD (R8)(R13*1), X0, X0
	MOVL  CX, DX
	NEGL  DX
	CMOVLLT CX, DX           // |j|
	CMPL  DX, 8(R8)(R13*1)
	JAE   sslow
	VMOVSD X0, (DI)(BX*8)
	INCQ  BX
	CMPQ  BX, R14
	JB    sloop

sdone:
	MOVQ BX, n+32(FP)
	MOVQ AX, next+40(FP)
	MOVQ $0, u+48(FP)
	RET

sslow:
	MOVQ BX, n+32(FP)
	MOVQ AX, next+40(FP)
	MOVQ R12, u+48(FP)
	RET
