// Package transpose writes the 8×8 transposition of float64s with AVX-512
// that the generators putting one action or vector per lane share
// (kernel_lanes_amd64.s, normalise_amd64.s).
package transpose

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Indices loads the permutation indices of Block (the Go array
// simd.transposePerm: lanes (0,1,8,9,4,5,12,13), (2,3,10,11,6,7,14,15),
// (0,1,2,3,8,9,10,11), (4,5,6,7,12,13,14,15)) into Z28–Z31.
func Indices() {
	perm := Symbol{Name: "·transposePerm"}
	for i, z := range []VecPhysical{Z28, Z29, Z30, Z31} {
		VMOVDQU64(NewDataAddr(perm, 64*i), z)
	}
}

// Block transposes an 8×8 block of float64s: row a is 8 floats at DX + a·S
// (S = R12; R11 = 3S, R9 = DX + 4S), the columns outside the mask K1 read as
// 0 (and not read). Column c of the block, the eight rows' entries in lane
// order, ends in Cols[c]. Uses Z0–Z15; Z28–Z31 hold Indices.
func Block() {
	for a, r := range []struct {
		base  Register
		index Register
		scale uint8
	}{{RDX, nil, 0}, {RDX, R12, 1}, {RDX, R12, 2}, {RDX, R11, 1}, {R9, nil, 0}, {R9, R12, 1}, {R9, R12, 2}, {R9, R11, 1}} {
		m := Mem{Base: r.base}
		if r.index != nil {
			m = m.Idx(r.index, r.scale)
		}
		VMOVUPD_Z(m, K1, zmm(a))
	}
	Regs()
}

// Cols are the registers in which Regs (and Block) leave columns 0…7.
var Cols = [8]VecPhysical{Z4, Z6, Z5, Z7, Z0, Z1, Z8, Z9}

// Pairs is Regs's unpacks and first VPERMT2PD stage: from rows Z0–Z7 to Z0,
// Z8, Z1, Z9, Z2, Z12, Z3, Z13 (each the pairs of rows 0–1, 2–3 and 4–5, 6–7
// of two columns' halves). Uses Z0–Z15; Z28–Z29 hold Indices' first two
// tables.
func Pairs() {
	// Unpacks pair the rows: lanes 2i, 2i+1 from rows 2p, 2p+1.
	for p := range 4 {
		VUNPCKLPD(zmm(2*p+1), zmm(2*p), zmm(8+2*p))
		VUNPCKHPD(zmm(2*p+1), zmm(2*p), zmm(9+2*p))
	}
	// VPERMT2PD (index bit 3 picks the second table) gathers four rows'
	// halves.
	for _, s := range []struct{ lo, src, dlo, dhi VecPhysical }{
		{Z8, Z10, Z0, Z8}, {Z9, Z11, Z1, Z9}, {Z12, Z14, Z2, Z12}, {Z13, Z15, Z3, Z13},
	} {
		VMOVAPD(s.lo, s.dlo)
		VPERMT2PD(s.src, Z28, s.dlo)
		VPERMT2PD(s.src, Z29, s.dhi)
	}
}

// HalvesCols are the registers in which Pairs leaves columns 0…7 when
// register a (a < 4) holds columns 0–3 of rows a and a+4 in its two halves
// and register 4+a their columns 4–7: the unpacks and the first VPERMT2PD
// stage then finish the transposition.
var HalvesCols = [8]VecPhysical{Z0, Z1, Z8, Z9, Z2, Z3, Z12, Z13}

// Regs transposes the 8×8 block whose rows are Z0–Z7: column c ends in
// Cols[c]. Pairs, then VPERMT2PD gathers eight rows. Uses Z0–Z15; Z28–Z31
// hold Indices.
func Regs() {
	Pairs()
	for _, s := range []struct{ a, b, lo VecPhysical }{
		{Z0, Z2, Z4}, {Z8, Z12, Z5}, {Z1, Z3, Z6}, {Z9, Z13, Z7},
	} {
		VMOVAPD(s.a, s.lo)
		VPERMT2PD(s.b, Z30, s.lo)
		VPERMT2PD(s.b, Z31, s.a)
	}
}

func zmm(i int) VecPhysical {
	return []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15}[i]
}
