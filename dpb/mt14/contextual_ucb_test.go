package mt14

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/mat"
)

func fillContexts(r *bandit.Round, rng interface{ Float64() float64 }) {
	for i := range r.Actions {
		r.Actions[i] = rng.Float64()
	}
}

// TestContextualZeroNoiseExact: the non-private model is LinUCB exactly:
// Ã = I + Σ zzᵀ, b̃ = Σ z y, for shared and disjoint models.
func TestContextualZeroNoiseExact(t *testing.T) {
	const d, k, T = 3, 4, 200
	for _, disjoint := range []bool{false, true} {
		p, err := NewContextualUCB(ContextualUCBConfig{Dim: d, Arms: k, Horizon: T, Disjoint: disjoint, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if p.NodeScale() != 0 {
			t.Fatalf("non-private node scale %v", p.NodeScale())
		}
		nm := 1
		if disjoint {
			nm = k
		}
		A := make([][]float64, nm)
		B := make([][]float64, nm)
		for m := range A {
			A[m] = make([]float64, d*d)
			for i := 0; i < d; i++ {
				A[m][i*d+i] = 1
			}
			B[m] = make([]float64, d)
		}
		rng := bandit.Stream(2, 0)
		r := &bandit.Round{K: k, Dim: d, Actions: make([]float64, k*d)}
		gotA, gotB := make([]float64, d*d), make([]float64, d)
		for t1 := 1; t1 <= T; t1++ {
			r.T = t1
			// Dyadic values keep every sum exact in floating point.
			for i := range r.Actions {
				r.Actions[i] = float64(rng.IntN(5)) / 4
			}
			a := p.Choose(r)
			y := float64(rng.IntN(3)) / 2
			p.Update(r, a, y)
			m := 0
			if disjoint {
				m = a
			}
			z := r.Action(a)
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					A[m][i*d+j] += z[i] * z[j]
				}
				B[m][i] += z[i] * y
			}
			p.ModelTo(a, gotA, gotB)
			for i := range gotA {
				if gotA[i] != A[m][i] {
					t.Fatalf("disjoint=%v round %d: Ã[%d] = %v, want %v", disjoint, t1, i, gotA[i], A[m][i])
				}
			}
			for i := range gotB {
				if gotB[i] != B[m][i] {
					t.Fatalf("disjoint=%v round %d: b̃[%d] = %v, want %v", disjoint, t1, i, gotB[i], B[m][i])
				}
			}
		}
	}
}

// TestContextualChoice checks the arm chosen against LinUCB's index computed
// with gonum (Cholesky solve), and the fallback branch when Ã is not PD.
func TestContextualChoice(t *testing.T) {
	const d, k = 4, 6
	rng := bandit.Stream(5, 0)
	for _, mech := range []ContextMechanism{ContextNonPrivate, ContextEntryTrees, ContextSS18Tree} {
		for _, eps := range []float64{1e3, 0.05} {
			p, err := NewContextualUCB(ContextualUCBConfig{Dim: d, Arms: k, Horizon: 64, Mechanism: mech, Epsilon: eps, Alpha: 0.7, Noise: noise.Simulated}, bandit.Stream(6, uint64(mech)))
			if err != nil {
				t.Fatal(err)
			}
			r := &bandit.Round{K: k, Dim: d, Actions: make([]float64, k*d)}
			sawPD, sawFallback := false, false
			for t1 := 1; t1 <= 64; t1++ {
				r.T = t1
				fillContexts(r, rng)
				a := p.Choose(r)
				A, b := make([]float64, d*d), make([]float64, d)
				p.ModelTo(0, A, b)
				var ch mat.Cholesky
				pd := ch.Factorize(mat.NewSymDense(d, A))
				if pd != p.PositiveDefinite(0) {
					// Borderline matrices may differ; skip unless clearly PD/indefinite.
					var es mat.EigenSym
					es.Factorize(mat.NewSymDense(d, A), false)
					if ev := es.Values(nil); math.Abs(ev[0]) > 1e-6*math.Abs(ev[d-1]) {
						t.Fatalf("%v ε=%v round %d: PositiveDefinite = %v, gonum says %v (eigenvalues %v)", mech, eps, t1, p.PositiveDefinite(0), pd, ev)
					}
					p.Update(r, a, rng.Float64())
					continue
				}
				want, bv := 0, math.Inf(-1)
				var inv mat.SymDense
				var theta mat.VecDense
				if pd {
					sawPD = true
					if err := ch.InverseTo(&inv); err != nil {
						t.Fatal(err)
					}
					if err := ch.SolveVecTo(&theta, mat.NewVecDense(d, b)); err != nil {
						t.Fatal(err)
					}
				} else {
					sawFallback = true
				}
				for c := 0; c < k; c++ {
					z := mat.NewVecDense(d, append([]float64(nil), r.Action(c)...))
					var v float64
					if pd {
						v = mat.Dot(z, &theta) + 0.7*math.Sqrt(mat.Inner(z, &inv, z))
					} else {
						v = mat.Dot(z, mat.NewVecDense(d, b)) + 0.7*math.Sqrt(mat.Dot(z, z))
					}
					if c == 0 || v > bv+1e-9*math.Abs(bv) {
						want, bv = c, v
					}
				}
				if a != want {
					t.Fatalf("%v ε=%v round %d (pd=%v): chose %d, want %d", mech, eps, t1, pd, a, want)
				}
				p.Update(r, a, rng.Float64())
			}
			if mech == ContextNonPrivate || eps > 1 {
				if !sawPD {
					t.Errorf("%v ε=%v: Ã never positive definite", mech, eps)
				}
			} else if !sawFallback {
				t.Errorf("%v ε=%v: Ã always positive definite; the fallback branch was not exercised", mech, eps)
			}
		}
	}
}

// TestContextualLaplaceScale checks the node calibration of both private
// mechanisms: entry trees b = m(d²+3d)/(2ε), the SS18 tree b = m·P/ε with
// P = (d+1)(d+2)/2, and that after one update every released entry of Ã − I −
// zzᵀ and b̃ − zy carries one independent Lap(b) draw: over N draws, mean |X|
// estimates b with standard deviation b/√N.
func TestContextualLaplaceScale(t *testing.T) {
	const d, T, eps = 3, 100, 2.0
	m := float64(counter.TreeLevels(T))
	for _, tc := range []struct {
		mech ContextMechanism
		b    float64
	}{
		{ContextEntryTrees, m * float64(d*d+3*d) / (2 * eps)},
		{ContextSS18Tree, m * float64((d+1)*(d+2)/2) / eps},
	} {
		N := 4000
		if testing.Short() {
			N = 1500
		}
		var s float64
		cnt := 0
		z := []float64{0.5, 0.25, 1}
		r := &bandit.Round{K: 1, Dim: d, Actions: z, T: 1}
		A, b := make([]float64, d*d), make([]float64, d)
		for i := 0; i < N; i++ {
			p, err := NewContextualUCB(ContextualUCBConfig{Dim: d, Arms: 1, Horizon: T, Mechanism: tc.mech, Epsilon: eps, Noise: noise.Simulated}, bandit.Stream(7, uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 && math.Abs(p.NodeScale()-tc.b) > 1e-12*tc.b {
				t.Fatalf("%v: node scale %v, want %v", tc.mech, p.NodeScale(), tc.b)
			}
			p.Update(r, 0, 0.5)
			p.ModelTo(0, A, b)
			for i1 := 0; i1 < d; i1++ {
				for j := i1; j < d; j++ {
					want := z[i1] * z[j]
					if i1 == j {
						want++
					}
					s += math.Abs(A[i1*d+j] - want)
					cnt++
				}
				s += math.Abs(b[i1] - z[i1]*0.5)
				cnt++
			}
		}
		mean := s / float64(cnt)
		// False-failure probability ≈ 1e-5 per mechanism (CLT, cnt i.i.d. draws).
		if tol := testkit.Z5 * tc.b / math.Sqrt(float64(cnt)); math.Abs(mean-tc.b) > tol {
			t.Errorf("%v: mean |noise| = %v, want %v ± %v", tc.mech, mean, tc.b, tol)
		}
	}
}

func TestContextualBounds(t *testing.T) {
	p, _ := NewContextualUCB(ContextualUCBConfig{Dim: 2, Arms: 2, Horizon: 10, Noise: noise.Simulated}, bandit.Stream(1, 1))
	r := &bandit.Round{K: 2, Dim: 2, Actions: []float64{0.5, 1.2, 0, 0}, T: 1}
	func() {
		defer func() {
			if e := recover(); e == nil || !strings.Contains(e.(string), "context entry 1.2 outside [0, 1]") {
				t.Errorf("panic %v, want a context bound message", e)
			}
		}()
		p.Update(r, 0, 0.5)
	}()
	q, _ := NewContextualUCB(ContextualUCBConfig{Dim: 2, Arms: 2, Horizon: 10, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
	q.Update(r, 0, 3)
	A, b := make([]float64, 4), make([]float64, 2)
	q.ModelTo(0, A, b)
	if A[3] != 2 || b[0] != 0.5 || b[1] != 1 {
		t.Errorf("clipped model A=%v b=%v, want A[1][1]=2, b=[0.5 1]", A, b)
	}
	for _, tc := range []struct {
		cfg  ContextualUCBConfig
		want string
	}{
		{ContextualUCBConfig{Dim: 0, Arms: 1, Horizon: 1, Noise: noise.Simulated}, "dim is 0"},
		{ContextualUCBConfig{Dim: 2, Arms: 0, Horizon: 1, Noise: noise.Simulated}, "arms is 0"},
		{ContextualUCBConfig{Dim: 2, Arms: 1, Horizon: 0, Noise: noise.Simulated}, "horizon is 0"},
		{ContextualUCBConfig{Dim: 2, Arms: 1, Horizon: 1, Mechanism: ContextEntryTrees, Noise: noise.Simulated}, "epsilon is 0"},
		{ContextualUCBConfig{Dim: 2, Arms: 1, Horizon: 1, Mechanism: ContextSS18Tree, Epsilon: math.Inf(1), Noise: noise.Simulated}, "epsilon is +Inf"},
		{ContextualUCBConfig{Dim: 2, Arms: 1, Horizon: 1, Alpha: -1, Noise: noise.Simulated}, "alpha is -1"},
		{ContextualUCBConfig{Dim: 2, Arms: 1, Horizon: 1, Mechanism: 9, Noise: noise.Simulated}, "unknown context mechanism"},
	} {
		if _, err := NewContextualUCB(tc.cfg, bandit.Stream(1, 1)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func BenchmarkContextualUCBRound(b *testing.B) {
	for _, mech := range []ContextMechanism{ContextNonPrivate, ContextEntryTrees, ContextSS18Tree} {
		b.Run(mech.String(), func(b *testing.B) {
			const d, k = 6, 20
			p, _ := NewContextualUCB(ContextualUCBConfig{Dim: d, Arms: k, Horizon: 1 << 30, Mechanism: mech, Epsilon: 2.7, Noise: noise.Simulated}, bandit.Stream(1, 1))
			r := &bandit.Round{K: k, Dim: d, Actions: make([]float64, k*d)}
			fillContexts(r, bandit.Stream(2, 2))
			b.ReportAllocs()
			for b.Loop() {
				r.T++
				p.Update(r, p.Choose(r), 1)
			}
		})
	}
}
