package as17

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// TableRow is one row of AS17's Table 1 or 2: a setting, the algorithm the
// paper uses for it, and the bound beside which the measured regret is shown.
// Exactly one of NewFull and NewBandit is set.
type TableRow struct {
	Name  string // short name, e.g. "experts"
	Title string // the row as the table names it
	Table int    // 1 (full information) or 2 (bandit)
	Set   DecisionSet
	Dim   int
	// Loss is the loss sequence (Set, Dim and Horizon are filled in per run).
	Loss LossConfig
	// BoundName names Bound, e.g. "Cor. 3.2 / Thm 3.4 proof".
	BoundName string
	// Explicit is true when Bound is an inequality with explicit constants
	// (not an O(·) read with constant 1).
	Explicit bool
	// Bound returns the bound at (T, ε); rng is for Monte-Carlo constants.
	Bound     func(horizon int, eps float64, rng *rand.Rand) float64
	NewFull   func(horizon int, eps float64, rng *rand.Rand) (OnlineLearner, error)
	NewBandit func(horizon int, eps float64, rng *rand.Rand) (BanditLearner, error)
}

// DLapSamples is the Monte-Carlo sample size behind the D_Lap in the
// tables' bounds ([DLap]).
const DLapSamples = 2000

// ftrlRowNames are the names and titles of Table 1's DP-FTRL rows.
var ftrlRowNames = map[DecisionSet][2]string{
	Simplex: {"experts", "prediction with expert advice (DP-FTRL, entropy)"},
	Ball:    {"sphere", "OLO over the sphere (DP-FTRL, ‖x‖²)"},
	Cube:    {"cube", "OLO over the cube (DP-FTRL, ‖x‖²)"},
}

// FTRLRow returns Table 1's row of DP-FTRL (Corollary 3.2) on set: experts
// (the simplex), the sphere (the ball) or the cube.
func FTRLRow(set DecisionSet, dim int, kind LossKind) (TableRow, error) {
	nt, ok := ftrlRowNames[set]
	if !ok {
		return TableRow{}, fmt.Errorf("as17: no DP-FTRL row on the decision set %v", set)
	}
	return ftrlRow(nt[0], nt[1], set, dim, kind), nil
}

func ftrlRow(name, title string, set DecisionSet, dim int, kind LossKind) TableRow {
	return TableRow{
		Name: name, Title: title, Table: 1, Set: set, Dim: dim,
		Loss:      LossConfig{Kind: kind},
		BoundName: "D_R/η + ηTG² + D_Lap (Thm 3.4 proof, D_Lap by Monte Carlo)",
		Explicit:  true,
		Bound: func(T int, eps float64, rng *rand.Rand) float64 {
			eta := FTRLEta(set, dim, T)
			d := 0.0
			if !math.IsInf(eps, 1) {
				d, _ = DLap(set, dim, counter.TreeLevels(T), FTRLLambda(set, dim, T, eps), DLapSamples, rng)
			}
			return FTRLBound(set, dim, T, eta, d)
		},
		NewFull: func(T int, eps float64, rng *rand.Rand) (OnlineLearner, error) {
			return NewFTRL(FTRLConfig{Set: set, Dim: dim, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, rng)
		},
	}
}

// FTPLDelta is the δ the Table 1 row of DP-FTPL gives it (the tables
// print no δ).
const FTPLDelta = 1e-3

// Table1Rows returns the rows of Table 1 measured by the experiments:
// DP-FTRL for experts, sphere and cube (Corollary 3.2), and DP-FTPL on the
// sphere standing for the general-OLO row (Theorem 3.5).
func Table1Rows(dim int, kind LossKind) []TableRow {
	ftpl := TableRow{
		Name: "ftpl-ball", Title: "online linear optimisation (DP-FTPL on the ball)", Table: 1, Set: Ball, Dim: dim,
		Loss:      LossConfig{Kind: kind},
		BoundName: "Thm 3.5 O(·), constant 1",
		Bound: func(T int, eps float64, _ *rand.Rand) float64 {
			return Theorem35Bound(Ball, dim, T, eps, FTPLDelta)
		},
		NewFull: func(T int, eps float64, rng *rand.Rand) (OnlineLearner, error) {
			return NewFTPL(FTPLConfig{Set: Ball, Dim: dim, Horizon: T, Epsilon: eps, Delta: FTPLDelta, Noise: noise.Simulated}, rng)
		},
	}
	return []TableRow{
		ftrlRow(ftrlRowNames[Simplex][0], ftrlRowNames[Simplex][1], Simplex, dim, kind),
		ftrlRow(ftrlRowNames[Ball][0], ftrlRowNames[Ball][1], Ball, dim, kind),
		ftrlRow(ftrlRowNames[Cube][0], ftrlRowNames[Cube][1], Cube, dim, kind),
		ftpl,
	}
}

// Table2Rows returns the rows of Table 2: private SCRiBLE on the ball and
// the cube (Theorem 4.5) and private EXP2 for K-armed bandits (Theorem 4.1).
func Table2Rows(dim int, kind LossKind) []TableRow {
	scr := func(name string, set DecisionSet) TableRow {
		return TableRow{
			Name: name, Title: "bandit linear optimisation over the " + set.String() + " (private SCRiBLE)", Table: 2, Set: set, Dim: dim,
			Loss:      LossConfig{Kind: kind},
			BoundName: "Thm 4.5 O(·), constant 1",
			Bound: func(T int, eps float64, _ *rand.Rand) float64 {
				return Theorem45Bound(set, dim, T, eps)
			},
			NewBandit: func(T int, eps float64, rng *rand.Rand) (BanditLearner, error) {
				return NewPrivateSCRiBLE(SCRiBLEConfig{Set: set, Dim: dim, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, rng)
			},
		}
	}
	return []TableRow{
		scr("blo-ball", Ball),
		scr("blo-cube", Cube),
		{
			Name: "mab", Title: "non-stochastic multi-armed bandits (private EXP2)", Table: 2, Set: Simplex, Dim: dim,
			Loss:      LossConfig{Kind: kind},
			BoundName: "Thm 4.1 proof: log N/η + 2ηTN(1+λ²log²NT) + 2Tγ + 1",
			Explicit:  true,
			Bound: func(T int, eps float64, _ *rand.Rand) float64 {
				eta, gamma := Exp2Params(dim, T, eps)
				return Exp2ProofBound(dim, T, eps, eta, math.Min(1, gamma))
			},
			NewBandit: func(T int, eps float64, rng *rand.Rand) (BanditLearner, error) {
				return NewPrivateExp2(Exp2Config{Arms: dim, Horizon: T, Epsilon: eps, Noise: noise.Simulated}, rng)
			},
		},
	}
}

// Regret plays one game of the row at horizon T and privacy ε (+Inf: the
// non-private learner) on the losses of lc drawn from lossRng, the learner
// drawing from rng, and returns its final regret against the best fixed
// decision ([OLORegretCurve], [BanditRegretCurve] at T).
func (row TableRow) Regret(T int, eps float64, lossRng, rng *rand.Rand) (float64, error) {
	lc := row.Loss
	lc.Set, lc.Dim, lc.Horizon = row.Set, row.Dim, T
	losses, err := NewLosses(lc, lossRng)
	if err != nil {
		return 0, err
	}
	out := make([]float64, 1)
	rec := []int{T}
	switch {
	case row.NewFull != nil:
		l, err := row.NewFull(T, eps, rng)
		if err != nil {
			return 0, err
		}
		err = OLORegretCurve(l, row.Set, losses, T, rec, out)
		return out[0], err
	case row.NewBandit != nil:
		b, err := row.NewBandit(T, eps, rng)
		if err != nil {
			return 0, err
		}
		err = BanditRegretCurve(b, row.Set, losses, T, rec, out)
		return out[0], err
	}
	return 0, fmt.Errorf("as17: row %q needs exactly one of NewFull and NewBandit", row.Name)
}

// Bounds returns the row's bound at every (ε, T): Bounds[e][h] at
// (epsilons[e], horizons[h]), in that order, the Monte-Carlo constants
// drawing from rng.
func (row TableRow) Bounds(horizons []int, epsilons []float64, rng *rand.Rand) [][]float64 {
	out := make([][]float64, len(epsilons))
	for e, eps := range epsilons {
		out[e] = make([]float64, len(horizons))
		for h, T := range horizons {
			out[e][h] = row.Bound(T, eps, rng)
		}
	}
	return out
}
