package ss18

// The fast path of Algorithm 1: what LinUCB computes, in the kernels'
// layout, with the special cases, the dispatch to the assembly of
// dpb/internal/simd and the scratch they need, and the lockstep driver
// that prepares and scores up to four policies at once. Every path here
// computes the same operations in the same order as the portable Go loops,
// so the same bits whatever the CPU (docs/design.md); algorithm1.go states
// the algorithm plainly and the tests hold this file to it
// (TestReferenceMatchesFastPath). Nothing here is part of the paper's API:
// the lockstep functions reach the figure drivers through
// dpb/internal/lockstep.

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/lockstep"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

func init() { lockstep.Register(chooseLockstep, prepareLockstep) }

// factors is a LinUCB's round in the kernels' layout: V_t and its
// Cholesky factor L, M = L⁻¹ and z = M ũ_t, and the scratch of the kernels
// that form and use them (allocated once, in newFactors).
type factors struct {
	v      []float64 // V_t (d×d row-major), then L in its lower triangle
	u      []float64 // ũ_t
	dp     int       // d rounded up to 4
	mt, zp []float64 // M (column j at mt[j·dp+j : j·dp+d]) and z, padded to dp
	fresh  bool      // v, mt, zp hold the current round's factor
	jit    float64   // the jitter added to V_t's diagonal this round (factorJittered), else 0
	notPD  int       // rounds whose V_t was factored with jitter
	lam    float64   // λ_t of this round (RadiusMinEig), valid when lamOK
	lamOK  bool

	lanes   []float64 // prepareLockstep's scratch when this policy leads a group of four (d ≤ prep4MaxDim), else InverseFactorTo's (d·dp)
	scores  []float64 // per-action UCB scores, grown to the largest K seen
	lockPad []float64 // chooseLockstep's last group of four actions and its K mod 4 last ones, each padded to eight, when this policy leads a group
	cs      []float64 // the Cholesky kernel's scratch, CholScratchLen(d)
	ltStats ltStatser // the regularizer, when it writes V_t for the panel kernel (d above cholInvMaxDim and prep4MaxDim, where prepareFactors factors by cholesky)
	ltReady bool      // this round's V_t is in CholLT's copy, not in v
	s       []float64 // scratch, len d (VTo's ũ)
	xy      []float64 // scratch for clipping
	eig     []float64 // RadiusMinEig's scratch: V_t and V_t − μI (d·d each), two vectors (2d)
}

// newFactors allocates a policy's factors for dimension d and regularizer
// reg.
func newFactors(d int, reg Regularizer) factors {
	f := factors{
		v: make([]float64, d*d), u: make([]float64, d),
		s: make([]float64, d), cs: make([]float64, simd.CholScratchLen(d)), xy: make([]float64, d),
	}
	f.eig = make([]float64, 2*d*d+2*d)
	if ls, ok := reg.(ltStatser); ok && d > max(cholInvMaxDim, prep4MaxDim) {
		f.ltStats = ls
	}
	f.dp = simd.PadDim(d)
	f.mt = make([]float64, f.dp*f.dp)
	f.zp = make([]float64, f.dp)
	if d <= prep4MaxDim {
		f.lanes = make([]float64, 2*d*d*4+2*d*4)
	} else {
		f.lanes = make([]float64, d*f.dp)
	}
	return f
}

// stats writes V_t and ũ_t where the factorisation reads them: the panel
// kernel's column-major copy when the regularizer can write it (ltReady),
// else v and u.
func (f *factors) stats(reg Regularizer, d int) {
	f.ltReady, f.jit = false, 0
	if lt, s, ok := simd.CholLT(f.cs, d); ok && f.ltStats != nil {
		f.ltStats.statsLT(lt, s, f.u)
		f.ltReady = true
	} else {
		reg.StatsTo(f.v, f.u)
	}
}

// cholesky factors the d×d matrix in v in place (linalg.Cholesky's bits).
func (f *factors) cholesky(d int) bool { return simd.Cholesky(f.v, f.cs, d) }

// choleskyV factors V_t into v's lower triangle (cholesky's bits) from
// wherever stats put it: the panel kernel's copy when ltReady, else v.
func (f *factors) choleskyV(d int) bool {
	if f.ltReady {
		return simd.CholFromLT(f.v, f.cs, d)
	}
	return f.cholesky(d)
}

// ltStatser is a regularizer that can write V_t straight into the Cholesky
// panel kernel's column-major copy (TreeRegularizer.statsLT), sparing the
// row-major V_t and its copy; the factor has the same bits.
type ltStatser interface {
	statsLT(lt []float64, s int, u []float64)
}

// factorFailed counts a V_t that is not positive definite, factors it with
// jitter and forms M and z from that factor.
func (p *LinUCB) factorFailed() {
	p.f.notPD++
	p.factorJittered()
	simd.InverseFactorTo(p.f.mt, p.f.zp, p.f.v, p.f.u, p.f.lanes, p.d, p.f.dp)
}

// cholInvMaxDim is the largest d at which prepareFactors computes each row
// of M = L⁻¹ as soon as the Cholesky factorisation has written the row of L
// it needs, so that the processor overlaps the two chains (below the
// dimensions where either runs in AVX-512 rows).
const cholInvMaxDim = 15

// prepareFactors is prepare between prepareStats and prepareFinish: the
// factor (jittered when V_t is not positive definite), M and z.
func prepareFactors(p *LinUCB) {
	d, dp, l, mt := p.d, p.f.dp, p.f.v, p.f.mt
	if d == 5 && dp == 8 {
		if simd.PrepareFactors5((*[25]float64)(l), (*[37]float64)(mt), (*[5]float64)(p.f.zp), (*[5]float64)(p.f.u)) {
			return
		}
	} else if d <= cholInvMaxDim {
		// The same operations as cholesky and InverseFactorTo (the same
		// bits, TestPrepareInterleavedSameBits), row j of M right after
		// column j of L, M_jj = 1/L_jj the factorisation's own reciprocal.
		if linalg.CholeskyCols(l, d, func(j int, inv float64) {
			mt[j*dp+j] = inv
			if j > 0 {
				simd.InvRow(l[j*d:j*d+j], mt, dp, j, inv)
			}
		}) {
			simd.ZFromFactorTo(p.f.zp, mt, p.f.u, d, dp)
			return
		}
	} else if p.f.choleskyV(d) {
		simd.InverseFactorTo(mt, p.f.zp, l, p.f.u, p.f.lanes, d, dp)
		return
	}
	p.factorFailed()
}

// chooseBlocked returns the first action with the largest UCB score.
func (p *LinUCB) chooseBlocked(r *bandit.Round) int {
	d, dp, k := p.d, p.f.dp, r.K
	if cap(p.f.scores) < k {
		p.f.scores = make([]float64, k) // grows once to the largest K seen
	}
	sc := p.f.scores[:k]
	nblk := k / 4
	simd.ScoreBlocks(p.f.mt, dp, p.f.zp, d, r.Actions, nblk, p.beta, sc)
	for a := 4 * nblk; a < k; a++ {
		q, s := simd.QuadOne(p.f.mt, dp, p.f.zp, d, r.Actions[a*d:(a+1)*d])
		sc[a] = s + float64(p.beta*math.Sqrt(q))
	}
	return simd.Argmax(sc)
}

// prep4MaxDim is the largest d prepareLockstep factors four at a time: above
// it a factorisation is long enough to keep the processor busy on its own.
const prep4MaxDim = 16

// prepareLockstep readies every [*LinUCB] among pols for its next Choose,
// as Choose would one policy at a time, with the same operations on each and
// so the same bits (TestPrepareLockstepSameBits), but four policies of equal
// dimension d ≤ 16 at once, one per vector lane (AVX2, prepare4_amd64.s): at
// small d a policy's per-round factorisation (V_t = L Lᵀ, M = L⁻¹, z = M ũ_t)
// is one long chain of dependent square roots, divisions and short sums, and
// four lanes do four chains in the time of one (SS18 Fig. 4 at d = 5: four
// policies a round). Other policies are prepared one by one, as their Choose
// would. It is lockstep.Prepare; runners that show one decision set to
// several policies call it once a round, before the policies choose. It
// draws no random numbers.
func prepareLockstep(pols []bandit.Policy) {
	var batch [4]*LinUCB
	for {
		n, d := 0, 0
		for _, pol := range pols {
			p, ok := pol.(*LinUCB)
			if !ok || p.f.fresh || (n > 0 && p.d != d) {
				continue
			}
			batch[n], d = p, p.d
			n++
			if n == 4 {
				break
			}
		}
		if n == 0 {
			return
		}
		if n < 4 || d > prep4MaxDim {
			for _, p := range batch[:n] {
				p.prepare()
			}
			continue
		}
		for _, p := range batch {
			p.prepareStats()
		}
		prepare4(&batch, d)
		for _, p := range batch {
			p.prepareFinish()
		}
	}
}

// chooseLockstep sets arms[i] = pols[i].Choose(r) for every policy, with the
// same bits (TestChooseLockstepSameBits), after prepareLockstep. Every
// [*LinUCB] of dimension d ≤ 8 is scored with up to three others in one pass
// over the decision set (AVX-512, score4SmallAVX512): the set is transposed
// once, eight actions a vector, and each policy's w = M x, ⟨z, w⟩ and ‖w‖²
// run one action per lane, in the order of ScoreBlocksGo; at small d one
// policy's scoring is short chains, and four policies give the processor
// four times the independent work (SS18 Fig. 4: four policies, d = 5).
// Other policies, and every policy on other CPUs or kernels, choose one by
// one. It is lockstep.Choose, which ss18fig.RegretLockstep calls once a
// round. It draws no random numbers.
func chooseLockstep(pols []bandit.Policy, r *bandit.Round, arms []int) {
	if len(arms) != len(pols) {
		panic(param.BadDim)
	}
	prepareLockstep(pols)
	var batch [4]*LinUCB
	var idx [4]int
	n := 0
	for i, pol := range pols {
		p, ok := pol.(*LinUCB)
		if !ok || p.d != r.Dim || p.d > simd.LockMaxDim {
			arms[i] = pol.Choose(r)
			continue
		}
		batch[n], idx[n] = p, i
		n++
		if n == 4 {
			chooseBatch(batch[:n], idx[:n], r, arms)
			n = 0
		}
	}
	if n > 0 {
		chooseBatch(batch[:n], idx[:n], r, arms)
	}
}

// chooseBatch sets arms[idx[i]] = ps[i].Choose(r) for policies of dimension
// r.Dim ≤ LockMaxDim, prepared (prepareLockstep): all of them at once when
// chooseLockstep can, else one by one.
func chooseBatch(ps []*LinUCB, idx []int, r *bandit.Round, arms []int) {
	p0 := ps[0]
	p0.checkRound(r)
	k, d := r.K, r.Dim
	if len(p0.f.lockPad) < 16*d {
		p0.f.lockPad = make([]float64, 16*d)
	}
	for _, p := range ps {
		if m := 4*(k/4) + 8; cap(p.f.scores) < m {
			p.f.scores = make([]float64, m) // grows once, as in chooseBlocked
		}
		p.f.scores = p.f.scores[:cap(p.f.scores)]
	}
	var out [4]int
	var lp [4]simd.LockPolicy
	for i, p := range ps {
		lp[i] = simd.LockPolicy{D: p.d, Dp: p.f.dp, Mt: p.f.mt, Zp: p.f.zp, Scores: p.f.scores, Beta: p.beta}
	}
	if !simd.ChooseLockstep(lp[:len(ps)], r.Actions, k, d, p0.f.lockPad, out[:len(ps)]) {
		for i, p := range ps {
			out[i] = p.Choose(r)
		}
	}
	for i, j := range idx {
		arms[j] = out[i]
	}
}

// prepare4 prepares the four policies of ps (dimension d ≤ prep4MaxDim,
// statistics already in v and u) in vector lanes (CholInvLanes), or one by
// one without AVX2.
func prepare4(ps *[4]*LinUCB, d int) {
	if !simd.Prep4AVX2 {
		for _, p := range ps {
			prepareFactors(p)
		}
		return
	}
	var lanes [16]*float64
	for b, p := range ps {
		_, _, _ = p.f.v[d*d-1], p.f.mt[(d-1)*p.f.dp+d-1], p.f.zp[d-1]
		lanes[b], lanes[4+b], lanes[8+b], lanes[12+b] = &p.f.v[0], &p.f.u[0], &p.f.mt[0], &p.f.zp[0]
		if p.f.dp != ps[0].f.dp {
			panic("ss18: prepare4: policies of one dimension with different strides")
		}
	}
	bad := simd.CholInvLanes(&lanes, ps[0].f.lanes, d, ps[0].f.dp)
	for b, p := range ps {
		if bad&(1<<b) != 0 {
			p.factorFailed() // as prepare: the jittered factor, M and z
		}
	}
}
