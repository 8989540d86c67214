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

DATA ·zigMulK<>+0(SB)/8, $0xe7037ed1a0b428db
GLOBL ·zigMulK<>(SB), RODATA|NOPTR, $8

DATA ·zigTwo53<>+0(SB)/8, $0x3ca0000000000000
GLOBL ·zigTwo53<>(SB), RODATA|NOPTR, $8

DATA ·zigAbs<>+0(SB)/8, $0x7fffffffffffffff
GLOBL ·zigAbs<>(SB), RODATA|NOPTR, $8

// func zigFastAVX512(dst []float64, s uint64) (n int, next, u uint64)
//
// zigFastGo for eight draws per pass (see there): the same words, the same
// operations, the same bits. Lane k of a pass makes the (w+k+1)-th word
// after s, w the words used before it; bits.Mul64's high half is put
// together from four 32×32-bit products. A pass whose lanes all take the
// fast path stores eight normals. A pass with a slow lane finishes it in the
// vector registers as zigFastScalar does one draw: each slow lane's wedge y
// from the next lane's word (lane 7: the word after the pass), the chord at
// |x| and the squeeze, with the wedge tables read by masked gathers; then
// the lanes are taken in order from the masks — a slow lane that starts a
// draw makes the next lane its y (no draw of its own; lane 7's is the next
// pass's lane 0, a carry), and accepts its x or rejects it, so that the
// lane after the y starts the draw again — and the draws are compressed
// into dst. Only a slow lane in the base strip, or with y within zigD[i] of
// the chord, returns to Go, with the draws before it stored and next the
// state after its word. The kernel used to return to Go at every slow lane
// (a pass in eleven) and start over: ZigKernel 125 draws 236 → 221 ns, 1000
// draws 1.77 → 1.69 µs (minima of 16; paired medians −7 % and −6 %; Intel
// Xeon family 6 model 207). Most of what is left of the slow lanes' cost is
// the branch on a pass's fast lanes, which waits for the gathers (with
// every lane treated as fast, 1000 draws take 1.0 µs).
//
// Registers: DI dst, R14 len(dst), BX n, R15 w, R11 the carry (lane 0 is
// the last pass's y), AX s, SI C, R8 &zigW, R9 &zigK, R10 fast lanes. Z0
// lane states, Z1 wyrand's xor constant, Z2 8·C, Z3 2³²−1, Z4 255, Z5–Z15
// the product, Z15 u, Z16 layer i, Y17 j, Z18 x, Z19 zigW[i], Y20 zigK[i],
// Y21 |j|; K1, K2 gather masks, K3 fast lanes. The slow pass: Z6 y, Z7–Z11
// zigF[i], zigF[i−1], zigA[i], zigS[i], zigD[i], Z12 c, Z13–Z14 c ∓
// zigD[i]; K4 slow lanes with i ≥ 1, K5 accepting, K6 y ≤ c + zigD[i];
// R12 accepting then output lanes, R13 exits, DX consumed lanes.
TEXT ·ZigFastAVX512(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R14
	MOVQ s+24(FP), AX
	XORQ BX, BX
	XORQ R15, R15
	XORQ R11, R11
	MOVQ $0xa0761d6478bd642f, SI
	LEAQ ·ZigW(SB), R8
	LEAQ ·ZigK(SB), R9
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

	// x = float64(int32(u))·ZigW[i], fast when |int32(u)| < zigK[i],
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

	TESTQ R11, R11
	JNZ  vslow               // lane 0 is the last pass's y
	MOVQ R14, DX
	SUBQ BX, DX              // draws still wanted
	CMPQ DX, $8
	JB   tail
	CMPL R10, $0xff
	JNE  vslow
	VMOVUPD Z18, (DI)(BX*8)
	ADDQ    $8, BX
	ADDQ    $8, R15
	VPADDQ  Z2, Z0, Z0
	JMP     loop

tail:
	// Fewer than eight wanted: lanes [0, DX) count; if none of them is slow
	// they are the draws, else the pass goes the slow way.
	MOVL  $0xff, CX
	BZHIL DX, CX, CX         // (1 << DX) − 1
	ANDNL CX, R10, R12       // slow lanes among the wanted ones
	JNZ   vslow
	KMOVB CX, K5
	VMOVUPD Z18, K5, (DI)(BX*8)
	ADDQ  DX, BX
	ADDQ  DX, R15
	JMP   done

vslow:
	// A pass with a slow lane, a lane that is the last pass's y, or fewer
	// than eight draws wanted. Every slow lane's wedge is computed in the
	// vector registers: y from the next lane's word (lane 7: the word
	// after the pass, u8), the chord c at |x| and the squeeze. Then the
	// lanes are read in order from the masks: a slow lane that starts a
	// draw makes the next lane its y (consumed), accepts x or rejects it
	// (the lane after the y starts the draw again), or, in the base strip
	// or within zigD[i] of the chord, ends the kernel there.
	LEAQ    9(R15), CX
	IMULQ   SI, CX
	ADDQ    AX, CX           // the state of the word after the pass
	MOVQ    CX, DX
	XORQ    ·zigMulK<>(SB), DX
	MULXQ   CX, R12, DX
	XORQ    R12, DX          // u8
	VPBROADCASTQ DX, Z5
	VALIGNQ $1, Z15, Z5, Z6  // the next word of every lane: u1 … u7, u8
	VPSRLQ  $11, Z6, Z6
	VCVTQQ2PD Z6, Z6
	VMULPD.BCST ·zigTwo53<>(SB), Z6, Z6 // uniforms from [0, 1)
	MOVL    R10, CX
	NOTL    CX
	ANDL    $0xff, CX        // slow lanes
	KMOVB   CX, K4
	VPTESTMQ Z16, Z16, K4, K4 // slow lanes above the base strip (i ≥ 1)
	LEAQ    ·ZigF(SB), CX
	KMOVB   K4, K1
	VGATHERQPD (CX)(Z16*8), K1, Z7     // zigF[i]
	KMOVB   K4, K1
	VGATHERQPD -8(CX)(Z16*8), K1, Z8   // zigF[i−1]
	LEAQ    ·ZigA(SB), CX
	KMOVB   K4, K1
	VGATHERQPD (CX)(Z16*8), K1, Z9
	LEAQ    ·ZigS(SB), CX
	KMOVB   K4, K1
	VGATHERQPD (CX)(Z16*8), K1, Z10
	LEAQ    ·ZigD(SB), CX
	KMOVB   K4, K1
	VGATHERQPD (CX)(Z16*8), K1, Z11
	VSUBPD  Z7, Z8, Z12
	VMULPD  Z12, Z6, Z6
	VADDPD  Z7, Z6, Z6       // y = zigF[i] + u·(zigF[i−1] − zigF[i])
	VPANDQ.BCST ·zigAbs<>(SB), Z18, Z12 // |x|
	VSUBPD  Z9, Z12, Z12
	VMULPD  Z10, Z12, Z12
	VADDPD  Z8, Z12, Z12     // the chord c at |x|
	VSUBPD  Z11, Z12, Z13    // c − zigD[i]
	VADDPD  Z11, Z12, Z14    // c + zigD[i]
	VCMPPD  $1, Z13, Z6, K4, K5 // accept: y < c − zigD[i]
	VCMPPD  $2, Z14, Z6, K4, K6 // y ≤ c + zigD[i]: accept, or exp decides
	KMOVB   K5, R12          // accepting slow lanes
	KMOVB   K6, R13
	ANDNL   R13, R12, R13    // near the chord (ANDN: ^R12 & R13)
	KMOVB   K4, DX
	MOVL    R10, CX
	NOTL    CX
	ANDL    $0xff, CX        // slow lanes
	ANDNL   CX, DX, DX       // … in the base strip: ^(i ≥ 1) & slow
	ORL     DX, R13          // slow lanes that end the kernel if they start a draw

	// Consumed lanes: bit k+1 set when lane k starts a draw and is slow;
	// bit 0 from the last pass.
	MOVL    R11, DX          // consumed
	MOVL    CX, R11          // slow lanes left to walk

consumed:
	TESTL   R11, R11
	JEQ     walked
	TZCNTL  R11, R9          // the next slow lane k
	BTRL    R9, R11
	BTL     R9, DX
	JCS     consumed         // lane k is itself a y
	INCL    R9
	BTSL    R9, DX           // lane k+1 is k's y
	JMP     consumed

walked:
	// DX consumed (bit 8: the next pass's lane 0), CX slow lanes. Exits:
	// R13 &= slow lanes that start a draw; outputs = ^consumed & (fast |
	// (starting slow & accepting)), before the first exit.
	MOVL    DX, R9
	SHRL    $8, R9           // the carry into the next pass
	ANDNL   CX, DX, CX       // slow lanes that start a draw
	ANDL    CX, R13          // … and end the kernel
	ANDL    CX, R12          // … and accept
	ORL     R10, R12
	ANDNL   R12, DX, R12     // outputs (bits 0–7)
	ANDL    $0xff, R12
	TESTL   R13, R13
	JEQ     noexit
	TZCNTL  R13, CX          // the first exit e
	MOVL    $0xff, DX
	BZHIL   CX, DX, DX
	ANDL    DX, R12          // outputs before e

noexit:
	// R12 outputs, R13 ≠ 0 iff an exit (at its lowest lane).
	MOVQ    R14, R11
	SUBQ    BX, R11          // draws wanted
	POPCNTL R12, CX
	CMPQ    CX, R11
	JAE     vfull
	KMOVB   R12, K5
	VCOMPRESSPD Z18, K5, Z7
	MOVL    $0xff, DX
	BZHIL   CX, DX, DX
	KMOVB   DX, K5
	VMOVUPD Z7, K5, (DI)(BX*8)
	ADDQ    CX, BX
	TESTL   R13, R13
	JNE     vexit
	MOVQ    R9, R11          // the carry
	ADDQ    $8, R15
	VPADDQ  Z2, Z0, Z0
	LEAQ    ·ZigK(SB), R9
	JMP     loop

vfull:
	// The outputs fill dst: keep the first R11 of them; the words used end
	// at the last one's lane b, or at its y when it is a slow accept.
	MOVL    $1, CX
	SHLXL   R11, CX, CX
	SHRL    $1, CX           // bit R11−1
	PDEPL   R12, CX, CX      // the R11-th output's lane bit
	TZCNTL  CX, CX           // b
	KMOVB   R12, K5
	VCOMPRESSPD Z18, K5, Z7
	MOVL    $0xff, DX
	BZHIL   R11, DX, DX
	KMOVB   DX, K5
	VMOVUPD Z7, K5, (DI)(BX*8)
	ADDQ    R11, BX
	LEAQ    1(R15)(CX*1), R15 // words through lane b
	BTL     CX, R10
	JCS     vfulldone        // lane b is fast
	INCQ    R15              // a slow accept: its y too

vfulldone:
	XORQ    R11, R11
	JMP     done

vexit:
	// Back to Go at lane e: n draws, next the state after u_e, u_e.
	TZCNTL  R13, R10         // e
	VPBROADCASTQ R10, Z5
	VPERMQ  Z15, Z5, Z6
	VMOVQ   X6, R13
	LEAQ    1(R15)(R10*1), R12
	IMULQ   SI, R12
	ADDQ    AX, R12
	MOVQ    BX, n+32(FP)
	MOVQ    R12, next+40(FP)
	MOVQ    R13, u+48(FP)
	VZEROUPPER
	RET

done:
	// next = s + (w + carry)·C
	ADDQ  R11, R15
	MOVQ  R15, R12
	IMULQ SI, R12
	ADDQ  AX, R12
	MOVQ  BX, n+32(FP)
	MOVQ  R12, next+40(FP)
	MOVQ  $0, u+48(FP)
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
