package dpb

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
// (experiment.RegretLockstep) call it once a round, before the policies
// choose. It draws no random numbers.
func PrepareLockstep(pols []Policy) {
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

// prepareFactors is prepare between prepareStats and prepareFinish: the
// factor (jittered when V_t is not positive definite), M and z.
func prepareFactors(p *LinUCB) {
	if !cholesky(p.v, p.s, p.d) {
		p.factorFailed()
	}
	inverseFactorTo(p.mt, p.zp, p.v, p.u, p.lanes, p.d, p.dp)
}
