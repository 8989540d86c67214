package as17

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// TestAS17Constants checks the printed formulas at one point, by hand.
func TestAS17Constants(t *testing.T) {
	const n, T, eps = 4, 1024, 0.5
	lt := math.Log(T)
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("λ printed experts", FTRLLambdaPrinted(Simplex, n, T, eps), 4*lt/eps)
	near("λ printed sphere", FTRLLambdaPrinted(Ball, n, T, eps), 2*lt/eps)
	near("λ printed cube", FTRLLambdaPrinted(Cube, n, T, eps), lt/eps)
	near("λ corrected cube", FTRLLambda(Cube, n, T, eps), 2*11/eps) // m = 1 + log₂ 1024
	near("η experts", FTRLEta(Simplex, n, T), math.Sqrt(math.Log(4)/T))
	near("η sphere", FTRLEta(Ball, n, T), math.Sqrt(2.0/T))
	near("η cube", FTRLEta(Cube, n, T), math.Sqrt(2.0*n/T))
	// At the documented η the proof's bound is twice the printed √ term.
	for _, s := range []DecisionSet{Simplex, Ball, Cube} {
		near("bound at η*", FTRLBound(s, n, T, FTRLEta(s, n, T), 3), 2*(Theorem31Bound(s, n, T, 3)-3)+3)
	}
	near("Cor 3.2 sphere", Corollary32Bound(Ball, n, T, eps), math.Sqrt(T)+n*lt*lt/eps)
	near("σ FTPL", FTPLSigma(Ball, n, T, eps, 0.01), math.Max(math.Sqrt(T/(2*lt)), 2/eps*lt*math.Log(lt/0.01)))
	near("σ FTPL non-private", FTPLSigma(Simplex, n, T, inf(), 0), 2*math.Sqrt(T/(2*lt)))
	near("ν cube", SCRiBLENu(Cube, n), 8)
	near("η SCRiBLE ball", SCRiBLEEta(Ball, n, T, eps), math.Sqrt(lt/(2*16*T*(1+16*4))))
	near("Thm 4.5 cube", Theorem45Bound(Cube, n, T, eps), math.Sqrt(T*lt)*math.Sqrt(16*8*(1+4*4*1/(eps*eps))))
	near("Thm 4.1", Theorem41Bound(n, T, eps), math.Sqrt(n*T*lt*math.Log(n))/eps)
}

// TestDLapMonteCarlo compares the Monte-Carlo D_Lap with closed forms. A sum
// of k Lap(λ) draws is a difference of two Gamma(k, λ) variables, with
// E|Z| = λ·2k·C(2k, k)/4^k (λ, 3λ/2, …, 2.1875λ for k = 4). With m = 2: ball
// in one dimension, width 2|Z| → 3λ; cube with N = 2, 2E(|Z₁|+|Z₂|) → 6λ;
// simplex with N = 2, |Z₁ − Z₂| (a sum of 4 draws) → 2.1875λ.
// z-test with false-failure probability ≈ 1e-5 each.
func TestDLapMonteCarlo(t *testing.T) {
	const lam = 1.7
	for _, c := range []struct {
		set  DecisionSet
		n    int
		want float64
	}{{Ball, 1, 3 * lam}, {Cube, 2, 6 * lam}, {Simplex, 2, 2.1875 * lam}} {
		m, se := DLap(c.set, c.n, 2, lam, 20000, bandit.Stream(1, 40))
		if math.Abs(m-c.want) > testkit.Z5*se {
			t.Errorf("%v: D_Lap = %.4f ± %.4f, want %.4f", c.set, m, se, c.want)
		}
	}
}
