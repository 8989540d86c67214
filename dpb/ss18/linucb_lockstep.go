package ss18

import (
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// prep4MaxDim is the largest d PrepareLockstep factors four at a time: above
// it a factorisation is long enough to keep the processor busy on its own.
const prep4MaxDim = 16

// PrepareLockstep readies every [*LinUCB] among pols for its next Choose,
// as Choose would one policy at a time, with the same operations on each and
// so the same bits (TestPrepareLockstepSameBits), but four policies of equal
// dimension d ≤ 16 at once, one per vector lane (AVX2, prepare4_amd64.s): at
// small d a policy's per-round factorisation (V_t = L Lᵀ, M = L⁻¹, z = M ũ_t)
// is one long chain of dependent square roots, divisions and short sums, and
// four lanes do four chains in the time of one (SS18 Fig. 4 at d = 5: four
// policies a round). Other policies are prepared one by one, as their Choose
// would. Runners that show one decision set to several policies
// (ss18fig.RegretLockstep) call it once a round, before the policies
// choose. It draws no random numbers.
func PrepareLockstep(pols []bandit.Policy) {
	var batch [4]*LinUCB
	for {
		n, d := 0, 0
		for _, pol := range pols {
			p, ok := pol.(*LinUCB)
			if !ok || p.fresh || (n > 0 && p.d != d) {
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

// cholInvMaxDim is the largest d at which prepareFactors computes each row
// of M = L⁻¹ as soon as the Cholesky factorisation has written the row of L
// it needs, so that the processor overlaps the two chains (below the
// dimensions where either runs in AVX-512 rows).
const cholInvMaxDim = 15

// prepareFactors is prepare between prepareStats and prepareFinish: the
// factor (jittered when V_t is not positive definite), M and z.
func prepareFactors(p *LinUCB) {
	d, dp, l, mt := p.d, p.dp, p.v, p.mt
	if d == 5 && dp == 8 {
		if simd.PrepareFactors5((*[25]float64)(l), (*[37]float64)(mt), (*[5]float64)(p.zp), (*[5]float64)(p.u)) {
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
			simd.ZFromFactorTo(p.zp, mt, p.u, d, dp)
			return
		}
	} else if p.choleskyV() {
		simd.InverseFactorTo(mt, p.zp, l, p.u, p.lanes, d, dp)
		return
	}
	p.factorFailed()
}

// ChooseLockstep sets arms[i] = pols[i].Choose(r) for every policy, with the
// same bits (TestChooseLockstepSameBits), after PrepareLockstep. Every
// [*LinUCB] of dimension d ≤ 8 is scored with up to three others in one pass
// over the decision set (AVX-512, score4SmallAVX512): the set is transposed
// once, eight actions a vector, and each policy's w = M x, ⟨z, w⟩ and ‖w‖²
// run one action per lane, in the order of ScoreBlocksGo; at small d one
// policy's scoring is short chains, and four policies give the processor
// four times the independent work (SS18 Fig. 4: four policies, d = 5).
// Other policies, and every policy on other CPUs or kernels, choose one by
// one. Runners that show one decision set to several policies
// (ss18fig.RegretLockstep) call it once a round. It draws no random
// numbers.
func ChooseLockstep(pols []bandit.Policy, r *bandit.Round, arms []int) {
	if len(arms) != len(pols) {
		panic(param.BadDim)
	}
	PrepareLockstep(pols)
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
// r.Dim ≤ LockMaxDim, prepared (PrepareLockstep): all of them at once when
// ChooseLockstep can, else one by one.
func chooseBatch(ps []*LinUCB, idx []int, r *bandit.Round, arms []int) {
	p0 := ps[0]
	p0.checkRound(r)
	k, d := r.K, r.Dim
	if len(p0.lockPad) < 16*d {
		p0.lockPad = make([]float64, 16*d)
	}
	for _, p := range ps {
		if m := 4*(k/4) + 8; cap(p.scores) < m {
			p.scores = make([]float64, m) // grows once, as in chooseBlocked
		}
		p.scores = p.scores[:cap(p.scores)]
	}
	var out [4]int
	var lp [4]simd.LockPolicy
	for i, p := range ps {
		lp[i] = simd.LockPolicy{D: p.d, Dp: p.dp, Mt: p.mt, Zp: p.zp, Scores: p.scores, Beta: p.beta}
	}
	if !simd.ChooseLockstep(lp[:len(ps)], r.Actions, k, d, p0.lockPad, out[:len(ps)]) {
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
		_, _, _ = p.v[d*d-1], p.mt[(d-1)*p.dp+d-1], p.zp[d-1]
		lanes[b], lanes[4+b], lanes[8+b], lanes[12+b] = &p.v[0], &p.u[0], &p.mt[0], &p.zp[0]
		if p.dp != ps[0].dp {
			panic("ss18: prepare4: policies of one dimension with different strides")
		}
	}
	bad := simd.CholInvLanes(&lanes, ps[0].lanes, d, ps[0].dp)
	for b, p := range ps {
		if bad&(1<<b) != 0 {
			p.factorFailed() // as prepare: the jittered factor, M and z
		}
	}
}
