package ss18

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// chooseBlocked returns the first action with the largest UCB score.
func (p *LinUCB) chooseBlocked(r *bandit.Round) int {
	d, dp, k := p.d, p.dp, r.K
	if cap(p.scores) < k {
		p.scores = make([]float64, k) // grows once to the largest K seen
	}
	sc := p.scores[:k]
	nblk := k / 4
	simd.ScoreBlocks(p.mt, dp, p.zp, d, r.Actions, nblk, p.beta, sc)
	for a := 4 * nblk; a < k; a++ {
		q, s := simd.QuadOne(p.mt, dp, p.zp, d, r.Actions[a*d:(a+1)*d])
		sc[a] = s + float64(p.beta*math.Sqrt(q))
	}
	return simd.Argmax(sc)
}
