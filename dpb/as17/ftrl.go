package as17

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// OnlineLearner is a full-information online linear optimisation learner
// (AS17 Section 2): each round it predicts x_t ∈ 𝒳 (a point, or for the
// simplex a distribution over experts), then observes the whole loss vector
// l_t ∈ 𝒴 and suffers ⟨l_t, x_t⟩.
//
// Predict writes x_t into dst (nil allocates) and returns it. Observe returns
// an error for a loss that is not finite or lies outside the loss set the
// learner's noise is calibrated for (unless it was configured to clip).
type OnlineLearner interface {
	Predict(dst []float64) []float64
	Observe(loss []float64) error
}

var (
	_ OnlineLearner = (*FTRL)(nil)
	_ OnlineLearner = (*FTPL)(nil)
)

// leaderSum holds the private cumulative loss L̃_t released by TreeBasedAgg
// (AS17 Algorithm 2, [counter.TreeSum] in Padded mode): L̃_0 is the sum of m
// independent node draws (Algorithm 1 lines 2–3), and after round t the tree's
// release. In Plain mode L̃_0 = 0 and releases carry popcount(t) draws.
type leaderSum struct {
	ctr  counter.Counter  // the counter releasing L̃_t
	tree *counter.TreeSum // ctr when it is a TreeSum (the Laplace and FTPL paths), else nil
	sum  []float64
	clip []float64 // a clipped loss, when the learner clips
}

func newLeaderSum(dim, horizon int, nz noise.Noise, mode counter.ReleaseMode) (*leaderSum, error) {
	treeAny, err := counter.New(counter.Config{Kind: counter.Tree, Dim: dim, Horizon: horizon, Noise: nz, Mode: mode})
	if err != nil {
		return nil, err
	}
	tree := treeAny.(*counter.TreeSum)
	ls := &leaderSum{ctr: tree, tree: tree, sum: make([]float64, dim), clip: make([]float64, dim)}
	if mode == counter.Padded {
		tmp := make([]float64, dim)
		for range tree.Levels() {
			nz.Sample(tmp)
			for i, v := range tmp {
				ls.sum[i] += v
			}
		}
	}
	return ls, nil
}

// observe validates l_t against 𝒴 of set (see checkLoss: rejected, or
// clipped into the leader's own buffer when clip) and feeds it to the tree.
// On an error nothing is added.
func (ls *leaderSum) observe(set DecisionSet, l []float64, clip bool) error {
	if len(l) != len(ls.sum) {
		panic(param.BadDim)
	}
	l, err := checkLoss(set, ls.clip, l, 1, clip)
	if err != nil {
		return err
	}
	ls.ctr.Add(l)
	ls.ctr.SumTo(ls.sum)
	return nil
}

// FTRLConfig configures [NewFTRL].
type FTRLConfig struct {
	// Set is the decision set; it fixes the regulariser and the loss set 𝒴
	// (Corollary 3.2). Defaults to Simplex.
	Set DecisionSet
	// Dim is N. Required (>= 2 for Simplex).
	Dim int
	// Horizon T. Required.
	Horizon int
	// Epsilon is the privacy parameter ε. Required: > 0; +Inf means
	// non-private (no noise, exact prefix sums).
	Epsilon float64
	// Eta is the step η. Defaults to [FTRLEta](Set, Dim, Horizon).
	Eta float64
	// Lambda is the Laplace scale λ of each tree node. Defaults to
	// [FTRLLambda](Set, Dim, Horizon, Epsilon) (the privacy-correct scale;
	// [FTRLLambdaPrinted] is the paper's).
	Lambda float64
	// Clip projects out-of-𝒴 losses onto 𝒴 instead of rejecting them.
	Clip bool
	// Plain uses the plain binary mechanism instead of TreeBasedAgg's padding.
	Plain bool
	// Noise selects the sampler. Unset (noise.Default) it is
	// noise.Secure: exact discrete Laplace on a grid from crypto/rand, no
	// seed, not reproducible (see [noise.Mode]). noise.Simulated, the
	// seeded floating-point noise every experiment runs, reproducible and
	// not a release-grade guarantee, must be named. A Counter without a
	// secure sampler (square root, BLT) refuses an unset Noise with an
	// error that says to name noise.Simulated.
	Noise noise.Mode
	// Delta, when > 0, selects the (ε, δ) variant (see
	// [FTRLGaussianSigma]): the loss sums are released by the continual
	// counter Counter with Gaussian node noise N(0, σ²I). Lambda and Plain
	// are errors then; noise.Secure draws the exact discrete Gaussian on
	// every counter (the square-root and BLT counters with the data bound
	// ‖𝒴‖₂ per entry); 0 keeps AS17's pure-DP Laplace tree.
	Delta float64
	// Counter is the counter of the (ε, δ) variant. Defaults to CounterTree
	// (the plain binary tree).
	Counter counter.Kind
	// Sigma is the Gaussian node σ of the (ε, δ) variant. Defaults to
	// [FTRLGaussianSigma]; a smaller value is an error (it would not be
	// (ε, δ)-DP), a larger one is allowed.
	Sigma float64
}

// FTRL is DP-FTRL, AS17 Algorithm 1: follow the regularised leader on the
// private cumulative loss released by TreeBasedAgg with Lap^N(λ) node noise,
//
//	x_t = argmin_{x∈𝒳} η⟨x, L̃_{t−1}⟩ + R(x),
//
// instantiated as in Corollary 3.2:
//
//	Simplex  R(x) = Σ x_i log x_i   x_t ∝ exp(−η L̃_{t−1})         (Hedge)
//	Ball     R(x) = ‖x‖₂²           x_t = Π_ball(−η L̃_{t−1}/2)    (lazy projected gradient)
//	Cube     R(x) = ‖x‖₂²           x_t = clip(−η L̃_{t−1}/2, −1, 1)
//
// Privacy (Theorem 3.1 / Lemma 3.3): the sequence (x_t) is ε-DP for loss
// sequences in 𝒴 differing in one round's vector, when each node's noise is
// Lap(λ) with λ ≥ Δ₁·m/ε (Δ₁ the ℓ1 sensitivity of one loss, m the tree levels);
// see [FTRLLambda]. Cost per round: O(N) plus N Laplace draws; no allocation.
//
// With FTRLConfig.Delta > 0 the cumulative loss is instead released by any
// continual [Counter] with Gaussian node noise, σ calibrated exactly to
// (ε, δ) ([FTRLGaussianSigma]). Cost per round: the counter's
// (O(N·buffers) for the BLT) plus N Gaussian draws; no allocation.
//
// An FTRL is not safe for concurrent use: share it between goroutines
// behind a mutex.
type FTRL struct {
	cfg  FTRLConfig
	lead *leaderSum
	x    []float64
}

// NewFTRL returns DP-FTRL for cfg, drawing its noise from rng.
func NewFTRL(cfg FTRLConfig, rng *rand.Rand) (*FTRL, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	if err := checkOLO(cfg.Set, cfg.Dim, cfg.Horizon, cfg.Epsilon); err != nil {
		return nil, err
	}
	if err := noise.CheckMode(cfg.Noise); err != nil {
		return nil, err
	}
	requested := cfg.Noise
	cfg.Noise = cfg.Noise.Resolve()
	if cfg.Eta == 0 {
		cfg.Eta = FTRLEta(cfg.Set, cfg.Dim, cfg.Horizon)
	}
	if err := param.CheckPositive("eta", cfg.Eta); err != nil {
		return nil, err
	}
	if cfg.Delta != 0 || cfg.Counter != counter.Tree || cfg.Sigma != 0 {
		f, err := newFTRLCounter(cfg, rng)
		if err != nil {
			return nil, noise.ExplainDefault(requested, err)
		}
		return f, nil
	}
	private := !math.IsInf(cfg.Epsilon, 1)
	if cfg.Lambda == 0 && private {
		cfg.Lambda = FTRLLambda(cfg.Set, cfg.Dim, cfg.Horizon, cfg.Epsilon)
	}
	var nz noise.Noise = noise.ZeroNoise{N: cfg.Dim}
	if private {
		// A node's ℓ1 sensitivity is 2‖𝒴‖₁ (FTRLLambda).
		lap, err := noise.New(noise.Config{Law: noise.LaplaceLaw, Mode: cfg.Noise, Dim: cfg.Dim, Scale: cfg.Lambda, Sensitivity: 2 * cfg.Set.YNorm1(cfg.Dim)}, rng)
		if err != nil {
			return nil, err
		}
		nz = lap
	} else if cfg.Lambda != 0 {
		return nil, fmt.Errorf("as17: lambda is %v with epsilon = +Inf, must be 0 (non-private)", cfg.Lambda)
	}
	mode := counter.Padded
	if cfg.Plain {
		mode = counter.Plain
	}
	lead, err := newLeaderSum(cfg.Dim, cfg.Horizon, nz, mode)
	if err != nil {
		return nil, err
	}
	f := &FTRL{cfg: cfg, lead: lead, x: make([]float64, cfg.Dim)}
	f.decide()
	return f, nil
}

func checkOLO(set DecisionSet, dim, horizon int, eps float64) error {
	if !set.valid() {
		return fmt.Errorf("as17: unknown decision set %d", int(set))
	}
	if err := param.CheckDim("dimension", dim); err != nil {
		return err
	}
	if set == Simplex && dim < 2 {
		return fmt.Errorf("as17: dimension is %d, must be >= 2 for the simplex", dim)
	}
	if horizon < 2 {
		return fmt.Errorf("as17: horizon is %d, must be >= 2", horizon)
	}
	if math.IsInf(eps, 1) {
		return nil
	}
	return param.CheckEpsilon(eps)
}

// Config returns the configuration with defaults filled in.
func (f *FTRL) Config() FTRLConfig { return f.cfg }

// Predict writes x_t into dst and returns it.
func (f *FTRL) Predict(dst []float64) []float64 {
	dst = param.DstOf(dst, f.cfg.Dim)
	copy(dst, f.x)
	return dst
}

// Observe feeds l_t to TreeBasedAgg and computes x_{t+1}. It returns an
// error, leaving the learner unchanged, if l_t is not finite or outside 𝒴
// (a clipped copy enters the tree instead when Config.Clip; loss itself is
// never modified).
func (f *FTRL) Observe(loss []float64) error {
	if err := f.lead.observe(f.cfg.Set, loss, f.cfg.Clip); err != nil {
		return err
	}
	f.decide()
	return nil
}

// decide sets x to argmin η⟨x, L̃⟩ + R(x).
func (f *FTRL) decide() {
	FTRLArgminTo(f.cfg.Set, f.x, f.lead.sum, f.cfg.Eta)
}

// FTRLArgminTo writes argmin_{x∈𝒳} η⟨x, L⟩ + R(x) into dst for the
// regularisers of Corollary 3.2 (see [FTRL]).
func FTRLArgminTo(set DecisionSet, dst, L []float64, eta float64) {
	if len(dst) != len(L) {
		panic(param.BadDim)
	}
	switch set {
	case Simplex:
		m := math.Inf(1)
		for _, v := range L {
			m = math.Min(m, v)
		}
		var z float64
		for i, v := range L {
			dst[i] = xmath.Exp(-eta * (v - m))
			z += dst[i]
		}
		for i := range dst {
			dst[i] /= z
		}
	case Ball:
		var n2 float64
		for i, v := range L {
			dst[i] = -eta * v / 2
			n2 += float64(dst[i] * dst[i])
		}
		if n2 > 1 {
			s := 1 / math.Sqrt(n2)
			for i := range dst {
				dst[i] *= s
			}
		}
	case Cube:
		for i, v := range L {
			dst[i] = math.Max(-1, math.Min(1, -eta*v/2))
		}
	default:
		panic("as17: unknown decision set")
	}
}
