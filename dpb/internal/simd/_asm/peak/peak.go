// Command peak writes peak_amd64.s with avo (github.com/mmcloughlin/avo):
// the FMA peak loops of dpb bench -peak (simd.FmaPeak256, simd.FmaPeak512),
// many independent VFMADD231PD chains so that only the units' issue rate
// counts. go generate in dpb/internal/simd runs it (peak_amd64.go), and
// .ci/generate-check fails when the committed file differs from what it writes.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// oneNano is the bits of 1e-9, the FMAs' multiplicands (small, so that the
// chains stay far from overflow however long they run).
const oneNano = 0x3e112e0be826d695

func main() {
	ConstraintExpr("amd64,!purego")
	// 12 YMM chains: enough to cover the FMA latency on two units.
	peak("FmaPeak256", ymm(12), reg.Y14, reg.Y15, reg.X14, func(r reg.VecPhysical) { VXORPD(r, r, r) })
	// 24 ZMM chains.
	peak("FmaPeak512", zmm(24), reg.Z30, reg.Z31, reg.X0, func(r reg.VecPhysical) { VPXORQ(r, r, r) })
	Generate()
}

// peak writes name: n iterations of one VFMADD231PD a·b into each of acc,
// with a and b broadcast from 1e-9 through the XMM register x.
func peak(name string, acc []reg.VecPhysical, a, b, x reg.VecPhysical, zero func(reg.VecPhysical)) {
	TEXT(name, NOSPLIT, "func(n int)")
	Load(Param("n"), reg.RCX)
	MOVQ(U64(oneNano), reg.RAX)
	MOVQ(reg.RAX, x)
	VBROADCASTSD(x, a)
	VMOVAPD(a, b)
	for _, r := range acc {
		zero(r)
	}
	loop, done := LabelRef("loop"+name), LabelRef("done"+name)
	TESTQ(reg.RCX, reg.RCX)
	JEQ(done)
	Label("loop" + name)
	for _, r := range acc {
		VFMADD231PD(a, b, r)
	}
	DECQ(reg.RCX)
	JNE(loop)
	Label("done" + name)
	VZEROUPPER()
	RET()
}

func ymm(n int) []reg.VecPhysical {
	all := []reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7, reg.Y8, reg.Y9, reg.Y10, reg.Y11}
	return all[:n]
}

func zmm(n int) []reg.VecPhysical {
	all := []reg.VecPhysical{reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7, reg.Z8, reg.Z9, reg.Z10, reg.Z11,
		reg.Z12, reg.Z13, reg.Z14, reg.Z15, reg.Z16, reg.Z17, reg.Z18, reg.Z19, reg.Z20, reg.Z21, reg.Z22, reg.Z23}
	return all[:n]
}
