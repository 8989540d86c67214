package audit

import (
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// ss18Setting is the audited SS18 setting: d = 2, n = 8 users, ε = 1,
// δ = 0.1 (the paper's Figure 4 privacy), L̃² = 1.
var ss18Setting = ss18.Setting{D: 2, N: 8, Epsilon: 1, Delta: 0.1, Lt2: 1}

// ss18Neighbours is the argument shared by the two SS18 tree audits.
//
// Neighbours: users 2..8 contribute (x, y) = 0; user 1 contributes
// x = e₁ (D) or x = e₂ (D′), y = 0. A user's data enters the packed Gram
// matrix vvᵀ, v = (x, y), ‖v‖² ≤ L̃² = 1, and ‖vvᵀ − v′v′ᵀ‖_F² =
// 2 − 2(v·v′)² is largest, 2, for orthogonal unit vectors: this pair moves
// the node sums by the most any pair can (√2·L̃²), in two diagonal entries of
// the released V_t. The tree's first leaf is a data-independent zero item, so
// user 1's data is leaf 2, in the nodes [1,2], [1,4], [1,8] that the releases
// after users 1, 3 and 7 consist of (plain tree: the release at tree round 2ʲ
// is one node); every later user's leaf is in at most as many noisy nodes
// (m − 1 = 3), so user 1 is a worst case. The output audited is the released
// V_t (the regularized Gram matrix; V_t + cI is the tree's block) after every
// user.
const ss18Neighbours = "users 2–8 send (x, y) = 0; user 1 sends x = e₁ (D) or x = e₂ (D′), y = 0: ‖Δ(vvᵀ)‖_F = √2·L̃², the largest"

// ss18Scratch holds one worker's buffers for the SS18 tree audits: the
// released V after users 1, 3 and 7 (d×d row-major) and ũ.
type ss18Scratch struct {
	blocks [3][]float64
	u, x   []float64
}

func newSS18Scratch() *ss18Scratch {
	d := ss18Setting.D
	s := &ss18Scratch{u: make([]float64, d), x: make([]float64, d)}
	for i := range s.blocks {
		s.blocks[i] = make([]float64, d*d)
	}
	return s
}

// run streams the neighbouring data through a tree regularizer and keeps
// the released V after users 1, 3 and 7 (tree rounds 2, 4, 8) in blocks.
func (sc *ss18Scratch) run(reg *ss18.TreeRegularizer, which int) {
	blocks, u, x := sc.blocks, sc.u, sc.x
	for user := 1; user <= ss18Setting.N; user++ {
		clear(x)
		if user == 1 {
			x[which] = 1 // e₁ under D, e₂ under D′
		}
		reg.Add(x, 0)
		switch user {
		case 1:
			reg.StatsTo(blocks[0], u)
		case 3:
			reg.StatsTo(blocks[1], u)
		case 7:
			reg.StatsTo(blocks[2], u)
		}
	}
}

// gaussianTree audits SS18's Gaussian tree (Section 4.2: symmetrised Gaussian
// node noise with σ_noise = 4√m L̃² ln(4/δ)/ε, [ss18.NewRegularizer] RegGaussianTree). See
// [ss18Neighbours]. Test: in each released node block the diagonal noise
// entries are i.i.d. N(0, 2σ²) and independent of everything else, and the
// pair moves V₁₁ (D) or V₂₂ (D′) by 1, so the log-likelihood ratio is
// increasing in Σ_j (V₂₂ − V₁₁) over the three nodes: that sum is the
// Neyman–Pearson statistic. The audit cannot be tight: σ_noise is calibrated
// with ln(4/δ) where zCDP needs only √ln, so the neighbours' output laws are
// N(±μ/2, 1) with μ = √3·L̃²/σ ≈ 0.05, whose total variation (≈ 0.02) is
// below the claimed δ = 0.1 — no test of any size can show ε > 0 at that δ,
// and the row checks that nothing gross (missing noise, wrong scale) breaks
// that.
func gaussianTree(name string, nm noise.Mode) *Mechanism {
	s := ss18Setting
	return &Mechanism{
		Name:        name,
		Mechanism:   describe("SS18 §4.2 Gaussian tree (d = 2, n = 8, plain), released V_t", nm),
		Neighbours:  ss18Neighbours,
		Test:        "Neyman–Pearson: Σ (V₂₂ − V₁₁) over the releases after users 1, 3, 7",
		Epsilon:     s.Epsilon,
		Delta:       s.Delta,
		Trials:      100000,
		ShortTrials: 4000,
		New: func() func(*rand.Rand, int) float64 {
			d := s.D
			sc := newSS18Scratch()
			return func(rng *rand.Rand, which int) float64 {
				regAny, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegGaussianTree, Setting: s, Mode: counter.Plain, Noise: nm}, rng)
				if err != nil {
					panic(err)
				}
				reg := regAny.(*ss18.TreeRegularizer)
				sc.run(reg, which)
				sum := 0.0
				for _, b := range sc.blocks {
					sum += b[d+1] - b[0]
				}
				return sum
			}
		},
	}
}

// wishartTree audits SS18's Wishart tree (Section 4.1: W_{d+1}(L̃²I, k)
// node noise with the printed k, [ss18.NewRegularizer] RegWishartTree). See
// [ss18Neighbours]. Test: the top-left d×d block of a W_{d+1}(sI, k) matrix
// is W_d(sI, k), with density ∝ det(B)^{(k−d−1)/2} e^{−tr B/(2s)}; the node
// block is B_j = V_t + cI (c the shift) = data + noise, the three nodes are
// independent, and tr e₁e₁ᵀ = tr e₂e₂ᵀ, so the log-likelihood ratio of the
// released blocks is exactly
//
//	(k − d − 1)/2 · Σ_j [ln det(B_j − e₂e₂ᵀ) − ln det(B_j − e₁e₁ᵀ)]
//
// (±∞ when one of the two is not positive definite). The statistic ignores
// ũ_t (post-processing of a sub-view: the bound stays valid). There is no
// secure sampler for Wishart noise: the row audits the default one only.
func wishartTree(name string) *Mechanism {
	s := ss18Setting
	return &Mechanism{
		Name:            name,
		Mechanism:       "SS18 §4.1 Wishart tree (d = 2, n = 8, plain, printed k), released V_t",
		Neighbours:      ss18Neighbours,
		Test:            "exact log-likelihood ratio of the three released Wishart blocks",
		Epsilon:         s.Epsilon,
		Delta:           s.Delta,
		Trials:          100000,
		ShortTrials:     4000,
		NoSecureSampler: true,
		New: func() func(*rand.Rand, int) float64 {
			d := s.D
			sc := newSS18Scratch()
			return func(rng *rand.Rand, which int) float64 {
				regAny, err := ss18.NewRegularizer(ss18.RegularizerConfig{Kind: ss18.RegWishartTree, Setting: s, Mode: counter.Plain, Noise: noise.Simulated}, rng)
				if err != nil {
					panic(err)
				}
				reg := regAny.(*ss18.TreeRegularizer)
				sc.run(reg, which)
				c := reg.Bounds().Shift
				k := float64(reg.K())
				llr := 0.0
				for _, b := range sc.blocks {
					b11, b12, b22 := b[0]+c, b[1], b[3]+c
					l0 := logDet2(b11-1, b12, b22) // D: e₁e₁ᵀ removed
					l1 := logDet2(b11, b12, b22-1) // D′: e₂e₂ᵀ removed
					term, decided := wishartLLRTerm(l0, l1)
					if decided {
						return term
					}
					llr += term
				}
				return roundScore((k - float64(d) - 1) / 2 * llr)
			}
		},
	}
}

// wishartLLRTerm returns one released block's term ln det B′ − ln det B of
// a Wishart tree's log-likelihood ratio (l0 = ln det B under D, l1 under D′,
// NaN where that matrix is not positive definite), or, when only one input
// can have produced the release, the score ±∞ that decides the test
// (decided). A release impossible under both inputs is a bug: it panics.
func wishartLLRTerm(l0, l1 float64) (term float64, decided bool) {
	switch {
	case math.IsNaN(l0) && math.IsNaN(l1):
		panic("audit: release impossible under both inputs")
	case math.IsNaN(l1):
		return math.Inf(-1), true
	case math.IsNaN(l0):
		return math.Inf(1), true
	}
	return l1 - l0, false
}

// logDet2 returns ln det of the symmetric 2×2 matrix [[a, b], [b, c]], or
// NaN if it is not positive definite.
func logDet2(a, b, c float64) float64 {
	det := a*c - b*b
	if !(a > 0 && det > 0) {
		return math.NaN()
	}
	return xmath.Log(det)
}

// roundScore rounds a statistic to 9 significant digits so that its last
// bits (rounding noise that can differ between D and D′ for reasons of
// floating point alone — the fp-attack rows' business) cannot be selected on.
func roundScore(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	e := math.Floor(math.Log10(math.Abs(x)))
	p := xmath.Pow(10, 8-e)
	return math.Round(x*p) / p
}
