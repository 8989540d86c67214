// Command prepare5x4 writes prepare5x4_amd64.s with avo
// (github.com/mmcloughlin/avo): CholInv5x4AVX2, prepareFactors5
// (simd/prepare5.go) in the four lanes of AVX2 registers, one policy a lane,
// written out so that its 15 + 15 + 5 entry addresses and the order of every
// lane's operations cannot drift from the scalar code it mirrors. go generate
// in dpb/internal/simd runs it (prepare5x4_amd64.go), and .ci/generate-check fails when
// the committed file differs from what it writes.
//
// CholInv5x4AVX2 computes, for four policies at once, one per lane (lane b's
// V_t, 5×5 row-major, ũ_t, M in the kernel layout with dp = 8, and z at
// lanes[b], lanes[4+b], lanes[8+b] and lanes[12+b]; s is scratch),
// prepareFactors5's operations in its order: the Cholesky factor's column j
// (s = V_jj − Σ_k L_jk·L_jk, L_jj = √s, 1/L_jj, then
// L_ij = (V_ij − Σ_k L_ik·L_jk)·(1/L_jj), k ascending), then row j of M
// (M_jj = 1/L_jj, M_jk = −Dot(L_j[k:j], M[k:j]_k)·M_jj with linalg.Dot's
// order: one chain from +0 below four terms, four chains from +0 and
// (s0+s1)+(s2+s3) at four), then z_i = Σ_{j ≤ i} ũ_j·M_ij from +0, j
// ascending; every product is rounded before its sum. Lanes are independent
// IEEE operations, so each lane has the bits of prepareFactors5. Only the
// lower triangles are read and written (L into V's, M into mt's; mt's upper
// one stays as it is, zero). Bit b of bad is set when lane b met a pivot that
// is not > 0 (or NaN), where prepareFactors5 returns false; every lane is
// written back, and the caller factors a bad one again (factorFailed). The
// chain of square roots and divisions is one a column, so the processor
// overlaps the rows of M, the stores and the other lanes with it.
package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

const (
	d  = 5 // the dimension
	dp = 8 // M's stride (the kernel layout)
)

func main() {
	ConstraintExpr("amd64,!purego")
	one := GLOBL("·prep5One", RODATA|NOPTR)
	// (As bits: avo prints F64(1) as $(1), which the assembler reads as the
	// integer 1.)
	DATA(0, U64(math.Float64bits(1)))
	sign := GLOBL("·prep5Sign", RODATA|NOPTR)
	DATA(0, U64(0x8000000000000000))
	g := newGen()
	g.cholInv5x4(one, sign)
	Generate()
}

// value names a four-lane value: one of the scratch slots (kind "a" V's,
// then L's, lower triangle; "u" ũ; "m" M's lower triangle) or a temporary
// ("s" a pivot, "inv" 1/L_jj, "t" an entry of L being formed, "acc" and
// "zacc" sums, "z" an entry of z). i or j is −1 where the value has fewer
// indices.
type value struct {
	kind string
	i, j int
}

func v2(kind string, i, j int) value { return value{kind, i, j} }
func v1(kind string, i int) value    { return value{kind, i, -1} }
func v0(kind string) value           { return value{kind, -1, -1} }

// nTemps is the number of registers the cache holds values in, Y0–Y10: each
// also in its scratch slot, so that evicting one costs nothing. Y11 is the
// lane moves' scratch, Y12 +0, Y13 the sign bit, Y14 the lanes whose pivots
// were all > 0, Y15 1.0.
const nTemps = 11

var ys = [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
var xs = [16]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}

// gen is the register cache: which temporary holds which value, and the
// temporaries in the order of their last use (least recent first).
type gen struct {
	slot  map[value]int
	inreg map[value]int
	owner map[int]value
	age   []int
}

func newGen() *gen {
	g := &gen{slot: map[value]int{}, inreg: map[value]int{}, owner: map[int]value{}}
	for i := range d {
		for j := range i + 1 {
			g.slot[v2("a", i, j)] = len(g.slot)
		}
	}
	for i := range d {
		g.slot[v1("u", i)] = len(g.slot)
	}
	for i := range d {
		for j := range i + 1 {
			g.slot[v2("m", i, j)] = len(g.slot)
		}
	}
	return g
}

// mem is v's scratch slot (32 bytes, one float64 a lane).
func (g *gen) mem(v value) Mem {
	s, ok := g.slot[v]
	if !ok {
		panic(fmt.Sprintf("%v has no slot", v))
	}
	return Mem{Base: RBX, Disp: 32 * s}
}

func (g *gen) touch(r int) {
	for k, a := range g.age {
		if a == r {
			g.age = append(g.age[:k], g.age[k+1:]...)
			break
		}
	}
	g.age = append(g.age, r)
}

func pinnedHas(pinned []int, r int) bool {
	for _, p := range pinned {
		if p == r {
			return true
		}
	}
	return false
}

// fresh returns a temporary for a new value: the first free one, or else
// the least recently used one not pinned, whose value is forgotten.
func (g *gen) fresh(pinned ...int) int {
	for r := range nTemps {
		if _, ok := g.owner[r]; !ok {
			g.touch(r)
			return r
		}
	}
	for _, r := range g.age {
		if !pinnedHas(pinned, r) {
			delete(g.inreg, g.owner[r])
			delete(g.owner, r)
			g.touch(r)
			return r
		}
	}
	panic("no register")
}

// bind records that r holds v (and no longer its previous value).
func (g *gen) bind(v value, r int) {
	if old, ok := g.owner[r]; ok {
		delete(g.inreg, old)
	}
	g.owner[r] = v
	g.inreg[v] = r
	g.touch(r)
}

// forget records that r holds nothing the cache may reuse (v its value).
func (g *gen) forget(v value, r int) {
	g.mustHold(v)
	delete(g.inreg, v)
	delete(g.owner, r)
}

func (g *gen) mustHold(v value) int {
	r, ok := g.inreg[v]
	if !ok {
		panic(fmt.Sprintf("%v is in no register", v))
	}
	return r
}

// operand is a register or the scratch slot that holds v.
func (g *gen) operand(v value) Op {
	if r, ok := g.inreg[v]; ok {
		g.touch(r)
		return ys[r]
	}
	return g.mem(v)
}

// load returns a temporary holding v, loading it from its slot if needed.
func (g *gen) load(v value, pinned ...int) int {
	if r, ok := g.inreg[v]; ok {
		g.touch(r)
		return r
	}
	r := g.fresh(pinned...)
	VMOVUPD(g.mem(v), ys[r])
	g.bind(v, r)
	return r
}

// lanes are four lane pointers, one a policy.
type lanes [4]Register

var (
	vLanes = lanes{R8, R9, R10, R11}
	uLanes = lanes{R12, R13, R14, R15} // ũ's, then (reloaded) M's
	zLanes = lanes{RCX, RDX, RSI, RDI}
)

// load4 sets Y r to the float64 at off from each of the four lane pointers.
// Clobbers X11.
func load4(p lanes, off, r int) {
	VMOVSD(Mem{Base: p[0], Disp: off}, xs[r])
	VMOVHPD(Mem{Base: p[1], Disp: off}, xs[r], xs[r])
	VMOVSD(Mem{Base: p[2], Disp: off}, X11)
	VMOVHPD(Mem{Base: p[3], Disp: off}, X11, X11)
	VINSERTF128(U8(1), X11, ys[r], ys[r])
}

// store4 writes Y r's four lanes to off from the four lane pointers.
// Clobbers X11.
func store4(p lanes, off, r int) {
	VMOVSD(xs[r], Mem{Base: p[0], Disp: off})
	VMOVHPD(xs[r], Mem{Base: p[1], Disp: off})
	VEXTRACTF128(U8(1), ys[r], X11)
	VMOVSD(X11, Mem{Base: p[2], Disp: off})
	VMOVHPD(X11, Mem{Base: p[3], Disp: off})
}

// store records that r holds the final v and writes it to the four lanes at
// off, and to its slot when reread (for later loads).
func (g *gen) store(v value, r int, p lanes, off int, reread bool) {
	g.bind(v, r)
	if reread {
		VMOVUPD(ys[r], g.mem(v))
	}
	store4(p, off, r)
}

// prod returns a new temporary holding x·y (rounded).
func (g *gen) prod(x, y value, pinned ...int) int {
	rx := g.load(x, pinned...)
	r := g.fresh(append(append([]int{}, pinned...), rx)...)
	VMULPD(g.operand(y), ys[rx], ys[r])
	return r
}

func vaddr(i, j int) int { return 8 * (i*d + j) }  // V_ij, row-major d×d
func maddr(i, j int) int { return 8 * (j*dp + i) } // M_ij in the kernel layout: mt[j·dp+i]

func (g *gen) cholInv5x4(one, sign Mem) {
	TEXT("CholInv5x4AVX2", NOSPLIT, fmt.Sprintf("func(lanes *[16]*float64, s *[%d]float64) (bad int)", 4*len(g.slot)))
	Comment(
		"prepareFactors5 for four policies at once, one per lane, with its bits:",
		"see _asm/prepare5x4.",
		"Registers: AX lanes, BX s; R8–R11 V's lanes, R12–R15 ũ's then M's,",
		"CX, DX, SI, DI z's; Y0–Y10 values (also kept in s), Y11 scratch, Y12 +0,",
		"Y13 the sign bit, Y14 the lanes whose pivots were all > 0, Y15 1.0.",
	)
	Load(Param("lanes"), RAX)
	Load(Param("s"), RBX)
	for k, r := range append(vLanes[:], uLanes[:]...) {
		MOVQ(Mem{Base: RAX, Disp: 8 * k}, r)
	}
	VBROADCASTSD(one, Y15)
	VBROADCASTSD(sign, Y13)
	VXORPD(Y12, Y12, Y12)
	Comment("Y14: all ones.")
	VCMPPD(U8(0), Y12, Y12, Y14)

	Comment("Gather: V's lower triangle and ũ into s.")
	for i := range d {
		for j := range i + 1 {
			load4(vLanes, vaddr(i, j), 0)
			VMOVUPD(Y0, g.mem(v2("a", i, j)))
		}
	}
	for i := range d {
		load4(uLanes, 8*i, 0)
		VMOVUPD(Y0, g.mem(v1("u", i)))
	}
	Comment("M's lanes.")
	for k, r := range uLanes {
		MOVQ(Mem{Base: RAX, Disp: 64 + 8*k}, r)
	}

	for j := range d {
		Comment(fmt.Sprintf("Column %d of L.", j))
		// s = V_jj − Σ_k L_jk·L_jk, in a register that the cache must not
		// hand out (s is not a slot value).
		rs := g.load(v2("a", j, j))
		g.bind(v1("s", j), rs)
		for k := range j {
			rp := g.prod(v2("a", j, k), v2("a", j, k), rs)
			VSUBPD(ys[rp], ys[rs], ys[rs])
		}
		rc := g.fresh(rs)
		Comment("s > 0 (false for NaN)")
		VCMPPD(U8(0x1e), Y12, ys[rs], ys[rc])
		VANDPD(ys[rc], Y14, Y14)
		VSQRTPD(ys[rs], ys[rs])
		g.forget(v1("s", j), rs)
		g.store(v2("a", j, j), rs, vLanes, vaddr(j, j), true)
		ri := g.fresh(rs)
		Comment("1/L_jj")
		VDIVPD(ys[rs], Y15, ys[ri])
		g.bind(v1("inv", j), ri)
		for i := j + 1; i < d; i++ {
			rt := g.load(v2("a", i, j), ri)
			g.bind(v2("t", i, j), rt)
			for k := range j {
				rp := g.prod(v2("a", i, k), v2("a", j, k), ri, rt)
				VSUBPD(ys[rp], ys[rt], ys[rt])
			}
			if _, ok := g.inreg[v1("inv", j)]; ok {
				ri = g.load(v1("inv", j))
			}
			VMULPD(ys[ri], ys[rt], ys[rt])
			g.forget(v2("t", i, j), rt)
			g.store(v2("a", i, j), rt, vLanes, vaddr(i, j), true)
		}

		Comment(fmt.Sprintf("Row %d of M.", j))
		ri = g.mustHold(v1("inv", j))
		g.store(v2("m", j, j), ri, uLanes, maddr(j, j), true)
		g.bind(v1("inv", j), ri)
		for k := range j {
			n := j - k
			var rp int
			if n < 4 {
				rp = g.prod(v2("a", j, k), v2("m", k, k), ri)
				Comment("+0 + L·M")
				VADDPD(Y12, ys[rp], ys[rp])
				g.bind(v0("acc"), rp)
				for t := 1; t < n; t++ {
					rq := g.prod(v2("a", j, k+t), v2("m", k+t, k), ri, rp)
					VADDPD(ys[rq], ys[rp], ys[rp])
				}
			} else {
				if n != 4 {
					panic("a dot product of more than four terms")
				}
				var rr []int
				for t := range n {
					rq := g.prod(v2("a", j, k+t), v2("m", k+t, k), append([]int{ri}, rr...)...)
					Comment("+0 + L·M")
					VADDPD(Y12, ys[rq], ys[rq])
					g.bind(v1("acc", len(rr)), rq)
					rr = append(rr, rq)
				}
				VADDPD(ys[rr[1]], ys[rr[0]], ys[rr[0]])
				VADDPD(ys[rr[3]], ys[rr[2]], ys[rr[2]])
				VADDPD(ys[rr[2]], ys[rr[0]], ys[rr[0]])
				rp = rr[0]
				for _, q := range rr[1:] {
					g.forget(g.owner[q], q)
				}
			}
			// (The chains' further +0 terms of linalg.Dot change nothing: a
			// sum that starts from +0 is never −0, and x + 0 = x otherwise.)
			Comment("−Dot·M_jj")
			VXORPD(Y13, ys[rp], ys[rp])
			VMULPD(ys[ri], ys[rp], ys[rp])
			g.forget(g.owner[rp], rp)
			g.store(v2("m", j, k), rp, uLanes, maddr(j, k), true)
		}
		g.forget(v1("inv", j), ri)
	}

	Comment("z = M ũ.")
	for k, r := range zLanes {
		MOVQ(Mem{Base: RAX, Disp: 96 + 8*k}, r)
	}
	for i := range d {
		rz := g.prod(v1("u", 0), v2("m", i, 0))
		Comment("+0 + ũ_0·M_i0")
		VADDPD(Y12, ys[rz], ys[rz])
		g.bind(v0("zacc"), rz)
		for j := 1; j <= i; j++ {
			rq := g.prod(v1("u", j), v2("m", i, j), rz)
			VADDPD(ys[rq], ys[rz], ys[rz])
		}
		g.forget(g.owner[rz], rz)
		g.store(v1("z", i), rz, zLanes, 8*i, false)
	}

	VMOVMSKPD(Y14, EAX)
	XORQ(U8(15), RAX)
	Store(RAX, Return("bad"))
	VZEROUPPER()
	RET()
}
