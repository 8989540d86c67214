package as17

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// ballHessian returns ∇²R(x) for R = −log(1 − ‖x‖²):
// 2I/(1−r²) + 4xxᵀ/(1−r²)².
func ballHessian(x []float64) [][]float64 {
	n := len(x)
	var r2 float64
	for _, v := range x {
		r2 += v * v
	}
	d := 1 - r2
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
		for j := range h[i] {
			h[i][j] = 4 * x[i] * x[j] / (d * d)
		}
		h[i][i] += 2 / d
	}
	return h
}

// TestSCRiBLEEigenBasis: for random interior points the vectors eigen(i)
// returns form an orthonormal basis of eigenvectors of ∇²R(x) with the
// returned eigenvalues (ball and cube), including x near ±e_0 and x = 0.
func TestSCRiBLEEigenBasis(t *testing.T) {
	const n = 5
	rng := bandit.Stream(1, 1)
	for _, set := range []DecisionSet{Ball, Cube} {
		s, _ := NewSCRiBLE(SCRiBLEConfig{Set: set, Dim: n, Horizon: 10, Epsilon: inf()}, rng)
		points := [][]float64{make([]float64, n), {0.99, 0, 0, 0, 0}, {-0.7, 1e-9, 0, 0, 0}}
		for range 20 {
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.Float64()*2 - 1
			}
			if set == Ball {
				r := Ball.Norm(x) / (0.999 * rng.Float64())
				for i := range x {
					x[i] /= r
				}
			}
			points = append(points, x)
		}
		for _, x := range points {
			copy(s.x, x)
			var r2 float64
			for i, v := range x {
				r2 += v * v
				s.gap[i] = 1 - math.Abs(v)
			}
			s.in = 1 - r2
			vecs := make([][]float64, n)
			for i := range n {
				lam := s.eigen(i)
				vecs[i] = append([]float64(nil), s.dir...)
				var hv []float64
				if set == Ball {
					h := ballHessian(x)
					hv = make([]float64, n)
					for a := range n {
						for b := range n {
							hv[a] += h[a][b] * vecs[i][b]
						}
					}
				} else {
					hv = make([]float64, n)
					for a := range n {
						hv[a] = (1/((1-x[a])*(1-x[a])) + 1/((1+x[a])*(1+x[a]))) * vecs[i][a]
					}
				}
				for a := range n {
					if math.Abs(hv[a]-lam*vecs[i][a]) > 1e-9*lam {
						t.Fatalf("%v x=%v: H v_%d ≠ %v v_%d", set, x, i, lam, i)
					}
				}
			}
			for i := range n {
				for j := range n {
					var d float64
					for a := range n {
						d += vecs[i][a] * vecs[j][a]
					}
					want := 0.0
					if i == j {
						want = 1
					}
					if math.Abs(d-want) > 1e-12 {
						t.Fatalf("%v x=%v: ⟨v_%d, v_%d⟩ = %v", set, x, i, j, d)
					}
				}
			}
		}
	}
}

// TestSCRiBLEUnbiased: averaging over the 2N equally likely (i, s), the
// estimate N ℓ s λ_i^{1/2} e_i with ℓ = ⟨l, y⟩ equals l exactly.
func TestSCRiBLEUnbiased(t *testing.T) {
	const n = 4
	l := []float64{0.3, -0.1, 0.2, 0.05}
	for _, set := range []DecisionSet{Ball, Cube} {
		s, _ := NewSCRiBLE(SCRiBLEConfig{Set: set, Dim: n, Horizon: 10, Epsilon: inf()}, bandit.Stream(1, 1))
		copy(s.x, []float64{0.2, -0.5, 0.1, 0.3})
		s.in = 1 - (0.04 + 0.25 + 0.01 + 0.09)
		copy(s.gap, []float64{0.8, 0.5, 0.9, 0.7})
		mean := make([]float64, n)
		for i := range n {
			lam := s.eigen(i)
			for _, sg := range []float64{-1, 1} {
				var loss float64
				for a := range n {
					loss += l[a] * (s.x[a] + sg/math.Sqrt(lam)*s.dir[a])
				}
				for a := range n {
					mean[a] += n * loss * sg * math.Sqrt(lam) * s.dir[a] / (2 * n)
				}
			}
		}
		for a := range n {
			if math.Abs(mean[a]-l[a]) > 1e-12 {
				t.Errorf("%v: E[l̃] = %v, want %v", set, mean, l)
				break
			}
		}
	}
}

// TestSCRiBLEArgmin: the new centre solves η Σl̃ + ∇R(x) = 0.
func TestSCRiBLEArgmin(t *testing.T) {
	const n, eta = 3, 0.7
	for _, set := range []DecisionSet{Ball, Cube} {
		s, _ := NewSCRiBLE(SCRiBLEConfig{Set: set, Dim: n, Horizon: 100, Epsilon: inf(), Eta: eta}, bandit.Stream(1, 1))
		y := make([]float64, n)
		for k := range 20 {
			s.Play(y)
			if err := s.Feedback(float64(k%3) - 0.8); err != nil {
				t.Fatal(err)
			}
			x := s.x
			var r2 float64
			for _, v := range x {
				r2 += v * v
			}
			for a := range n {
				var grad float64
				if set == Ball {
					grad = 2 * x[a] / (1 - r2)
				} else {
					grad = 1/(1-x[a]) - 1/(1+x[a])
				}
				if g := eta*s.sum[a] + grad; math.Abs(g) > 1e-9*(1+math.Abs(grad)) {
					t.Fatalf("%v step %d: gradient[%d] = %v at x = %v", set, k, a, g, x)
				}
			}
		}
	}
}

// TestSCRiBLEInside: played points y_t stay in 𝒳 and centres strictly inside,
// under heavy Laplace noise (ε = 0.05) and adversarial switching losses.
func TestSCRiBLEInside(t *testing.T) {
	const n = 6
	T := 20000
	if testing.Short() {
		T = 5000
	}
	for _, set := range []DecisionSet{Ball, Cube} {
		for _, c := range []struct{ eps, eta float64 }{{inf(), 1.0 / (4 * n)}, {0.05, 0}, {0.5, 0}} {
			eps := c.eps
			b, err := NewPrivateSCRiBLE(SCRiBLEConfig{Set: set, Dim: n, Horizon: T, Epsilon: eps, Eta: c.eta, Noise: noise.Simulated}, bandit.Stream(1, 1))
			if err != nil {
				t.Fatal(err)
			}
			inner := b
			if pb, ok := b.(*PrivateBandit); ok {
				inner = pb.Inner()
			}
			s := inner.(*SCRiBLE)
			losses, _ := NewLosses(LossConfig{Set: set, Dim: n, Kind: Switching, Horizon: T}, bandit.Stream(1, 2))
			y, l := make([]float64, n), make([]float64, n)
			for k := 1; k <= T; k++ {
				b.Play(y)
				checkInSet(t, set, y)
				if set == Ball && !(s.in > 0) || set == Cube && !(s.gap[0] > 0) {
					t.Fatalf("%v: centre %v on the boundary", set, s.Center())
				}
				losses.Next(k, l)
				var v float64
				for i := range l {
					v += l[i] * y[i]
				}
				if err := b.Feedback(v); err != nil {
					t.Fatalf("%v ε=%v round %d: %v", set, eps, k, err)
				}
			}
		}
	}
}

func TestSCRiBLEConfigErrors(t *testing.T) {
	for _, c := range []SCRiBLEConfig{{Set: Simplex, Dim: 2, Horizon: 10, Epsilon: 1}, {Set: Ball, Dim: 0, Horizon: 10, Epsilon: 1}, {Set: Ball, Dim: 2, Horizon: 1, Epsilon: 1}, {Set: Cube, Dim: 2, Horizon: 10, Epsilon: 0}, {Set: Cube, Dim: 2, Horizon: 10, Epsilon: 1, Eta: math.Inf(1)}} {
		if _, err := NewPrivateSCRiBLE(c, bandit.Stream(1, 1)); err == nil {
			t.Errorf("NewPrivateSCRiBLE(%+v) accepted", c)
		}
	}
}

func BenchmarkSCRiBLERound(b *testing.B) {
	for _, set := range []DecisionSet{Ball, Cube} {
		b.Run("set="+set.String()+"/dim=16", func(b *testing.B) {
			const n = 16
			s, _ := NewPrivateSCRiBLE(SCRiBLEConfig{Set: set, Dim: n, Horizon: 1 << 20, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
			y := make([]float64, n)
			b.ReportAllocs()
			for b.Loop() {
				s.Play(y)
				if err := s.Feedback(0.01 * y[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
