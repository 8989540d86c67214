package ss18

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"gonum.org/v1/gonum/mat"
)

// TestLinUCBRidgeIsRidgeRegression: with H = λI, θ̃_t is the ridge estimate
// (XᵀX + λI)⁻¹Xᵀy, V_t = XᵀX + λI, and the chosen action maximises the UCB
// computed independently with gonum — for both scoring kernels.
func TestLinUCBRidgeIsRidgeRegression(t *testing.T) {
	for _, d := range []int{1, 3, 8, 9, 17} {
		const lambda, n, k = 0.7, 60, 13
		reg, err := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: d}, Lambda: lambda}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewLinUCB(LinUCBConfig{Dim: d, Horizon: n, Regularizer: reg, Sigma: 0.5, Alpha: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		rng := bandit.Stream(7, uint64(d))
		gram := mat.NewSymDense(d, nil)
		for i := 0; i < d; i++ {
			gram.SetSym(i, i, lambda)
		}
		xty := mat.NewVecDense(d, nil)
		for round := 1; round <= n; round++ {
			r := testutil.RandomRound(t, uint64(round*100+d), k, d)
			r.T = round
			got := p.Choose(r)
			// Independent computation.
			var chol mat.Cholesky
			if !chol.Factorize(gram) {
				t.Fatal("gram not PD")
			}
			var theta mat.VecDense
			if err := chol.SolveVecTo(&theta, xty); err != nil {
				t.Fatal(err)
			}
			beta := 0.5*math.Sqrt(2*math.Log(2/0.05)+chol.LogDet()-float64(d)*math.Log(lambda)) + math.Sqrt(lambda)
			if rb := p.Radius(); math.Abs(rb-beta) > 1e-9*beta {
				t.Fatalf("d=%d t=%d: β_t = %v, want %v", d, round, rb, beta)
			}
			th := p.ThetaTo(nil)
			for i := 0; i < d; i++ {
				if math.Abs(th[i]-theta.AtVec(i)) > 1e-9*(1+math.Abs(theta.AtVec(i))) {
					t.Fatalf("d=%d t=%d: θ̃[%d] = %v, want %v", d, round, i, th[i], theta.AtVec(i))
				}
			}
			want, wantScore, second := -1, math.Inf(-1), math.Inf(-1)
			for a := 0; a < k; a++ {
				x := mat.NewVecDense(d, append([]float64(nil), r.Action(a)...))
				var vx mat.VecDense
				if err := chol.SolveVecTo(&vx, x); err != nil {
					t.Fatal(err)
				}
				score := mat.Dot(&theta, x) + beta*math.Sqrt(mat.Dot(x, &vx))
				if score > wantScore {
					second = wantScore
					want, wantScore = a, score
				} else if score > second {
					second = score
				}
			}
			if got != want && wantScore-second > 1e-9 {
				t.Fatalf("d=%d t=%d: chose %d, want %d", d, round, got, want)
			}
			y := rng.NormFloat64()
			x := r.Action(got)
			p.Update(r, got, y)
			xv := mat.NewVecDense(d, append([]float64(nil), x...))
			gram.SymRankOne(gram, 1, xv)
			xty.AddScaledVec(xty, y, xv)
		}
		if p.Err() != nil {
			t.Fatal(p.Err())
		}
	}
}

func TestLinUCBConfidenceDistance(t *testing.T) {
	const d = 4
	reg, _ := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: d}, Lambda: 2}, nil)
	p, _ := NewLinUCB(LinUCBConfig{Dim: d, Horizon: 10, Regularizer: reg})
	r := testutil.RandomRound(t, 3, 5, d)
	for range 5 {
		a := p.Choose(r)
		p.Update(r, a, 0.3)
	}
	theta := []float64{0.1, -0.2, 0.3, 0.4}
	th := p.ThetaTo(nil)
	v := p.VTo(nil)
	z := make([]float64, d)
	for i := range z {
		z[i] = theta[i] - th[i]
	}
	var want float64
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			want += z[i] * v[i*d+j] * z[j]
		}
	}
	want = math.Sqrt(want)
	if got := p.ConfidenceDistance(theta); math.Abs(got-want) > 1e-12*(1+want) {
		t.Fatalf("ConfidenceDistance = %v, want %v", got, want)
	}
}

func TestLinUCBBadInput(t *testing.T) {
	reg, _ := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 2}, Lambda: 1}, nil)
	if _, err := NewLinUCB(LinUCBConfig{Dim: 0, Horizon: 10, Regularizer: reg}); err == nil {
		t.Error("d = 0 accepted")
	}
	if _, err := NewLinUCB(LinUCBConfig{Dim: 3, Horizon: 10, Regularizer: reg}); err == nil || !strings.Contains(err.Error(), "dimension") {
		t.Errorf("mismatched dimensions: err = %v", err)
	}
	if _, err := NewLinUCB(LinUCBConfig{Dim: 2, Horizon: 10}); err == nil {
		t.Error("nil regularizer accepted")
	}
	if _, err := NewLinUCB(LinUCBConfig{Dim: 2, Horizon: 10, Regularizer: reg, Alpha: 1.5}); err == nil {
		t.Error("alpha 1.5 accepted")
	}
	if _, err := NewLinUCB(LinUCBConfig{Dim: 2, Horizon: 10, Regularizer: reg, Sigma: math.NaN()}); err == nil {
		t.Error("sigma NaN accepted")
	}
	if _, err := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 2}, Lambda: -1}, nil); err == nil {
		t.Error("negative lambda accepted")
	}
	for _, c := range []struct {
		name string
		x    []float64
		y    float64
	}{
		{"nan context", []float64{math.NaN(), 0}, 0},
		{"inf reward", []float64{0, 0}, math.Inf(1)},
	} {
		p, _ := NewLinUCB(LinUCBConfig{Dim: 2, Horizon: 10, Regularizer: reg})
		if err := p.Observe(c.x, c.y); err == nil {
			t.Errorf("%s accepted", c.name)
		}
		if p.Rounds() != 0 {
			t.Errorf("%s: rejected observation was counted", c.name)
		}
	}
}

// boundReg is a Ridge with a finite data bound, to test rejection and clipping.
type boundReg struct {
	*Ridge
	lt2  float64
	last []float64
}

func (b *boundReg) DataBound() float64 { return b.lt2 }
func (b *boundReg) Add(x []float64, y float64) {
	b.last = append(append(b.last[:0], x...), y)
	b.Ridge.Add(x, y)
}

func TestLinUCBDataBound(t *testing.T) {
	ridge, _ := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 2}, Lambda: 1}, nil)
	reg := &boundReg{Ridge: ridge.(*Ridge), lt2: 2}
	p, _ := NewLinUCB(LinUCBConfig{Dim: 2, Horizon: 10, Regularizer: reg})
	if err := p.Observe([]float64{1, 0}, 1); err != nil { // ‖x‖²+y² = 2: on the bound, accepted
		t.Fatal(err)
	}
	err := p.Observe([]float64{1, 0.1}, 1)
	if err == nil || !strings.Contains(err.Error(), "exceeds the bound") {
		t.Fatalf("out-of-bound observation: err = %v", err)
	}
	if p.Rounds() != 1 {
		t.Fatal("rejected observation reached the mechanism")
	}
	r := &bandit.Round{T: 2, K: 1, Dim: 2, Actions: []float64{3, 4}}
	p.Update(r, 0, 0)
	if p.Err() == nil {
		t.Fatal("Update did not record the rejection")
	}

	ridge2, _ := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 2}, Lambda: 1}, nil)
	reg2 := &boundReg{Ridge: ridge2.(*Ridge), lt2: 2}
	pc, _ := NewLinUCB(LinUCBConfig{Dim: 2, Horizon: 10, Regularizer: reg2, Clip: true})
	if err := pc.Observe([]float64{3, 4}, 0); err != nil {
		t.Fatal(err)
	}
	var n2 float64
	for _, v := range reg2.last {
		n2 += v * v
	}
	if math.Abs(n2-2) > 1e-12 || math.Abs(reg2.last[0]/reg2.last[1]-0.75) > 1e-12 {
		t.Fatalf("clipped observation %v, want norm² 2 in direction (3,4,0)", reg2.last)
	}
}

// TestPrivatePolicyDataBound: with a private tree regularizer the bound
// ‖x‖² + y² ≤ L̃² is enforced before the tree sees the data, and clipping
// keeps the observation on the sphere of radius L̃.
func TestPrivatePolicyDataBound(t *testing.T) {
	s := Setting{D: 2, N: 10, Epsilon: 1, Delta: 0.1, Lt2: 2}
	for _, alg := range []Alg{Gaussian, Wishart} {
		p, err := NewPolicy(PolicyConfig{Alg: alg, Setting: s, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		reg := p.reg.(*TreeRegularizer)
		if err := p.Observe([]float64{1, 1}, 0.5); err == nil || !strings.Contains(err.Error(), "L̃²") {
			t.Errorf("%v: ‖x‖²+y² = 2.25 > 2 accepted (err %v)", alg, err)
		}
		if got := reg.Tree().Rounds(); got != 1 { // only the zero item
			t.Errorf("%v: rejected data reached the tree (%d items)", alg, got)
		}
		pc, _ := NewPolicy(PolicyConfig{Alg: alg, Setting: s, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err := pc.Observe([]float64{1, 1}, 0.5); err != nil {
			t.Errorf("%v with Clip: %v", alg, err)
		}
		ex := pc.reg.(*TreeRegularizer).Tree().Exact()
		// Exact holds the packed (x, y)(x, y)ᵀ: its trace is ‖x‖² + y² = L̃² after clipping.
		tr := ex[simd.PackedIndex(3, 0, 0)] + ex[simd.PackedIndex(3, 1, 1)] + ex[simd.PackedIndex(3, 2, 2)]
		if math.Abs(tr-2) > 1e-12 {
			t.Errorf("%v: clipped ‖x‖²+y² = %v, want 2", alg, tr)
		}
	}
	if _, err := NewPolicy(PolicyConfig{Alg: Gaussian, Setting: Setting{D: 2, N: 10, Epsilon: 1, Delta: 0.1, Lt2: math.Inf(1)}, Noise: noise.Simulated}, bandit.Stream(1, 1)); err == nil {
		t.Error("L̃² = +Inf accepted")
	}
}

func TestLinUCBChoosePanics(t *testing.T) {
	reg, _ := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 3}, Lambda: 1}, nil)
	p, _ := NewLinUCB(LinUCBConfig{Dim: 3, Horizon: 5, Regularizer: reg})
	defer func() {
		if recover() == nil {
			t.Error("Choose on a round of the wrong dimension did not panic")
		}
	}()
	p.Choose(&bandit.Round{K: 2, Dim: 2, Actions: make([]float64, 4)})
}
