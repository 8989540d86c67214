package as17

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

func inf() float64 { return math.Inf(1) }

// TestFTRLNoiseOffIsHedge: with ε = +Inf DP-FTRL on the simplex must be
// Hedge, computed here by multiplicative updates w_i ← w_i e^{−η l_i}.
func TestFTRLNoiseOffIsHedge(t *testing.T) {
	const n, T = 5, 400
	f, err := NewFTRL(FTRLConfig{Set: Simplex, Dim: n, Horizon: T, Epsilon: inf(), Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	eta := f.Config().Eta
	if want := math.Sqrt(math.Log(n) / T); eta != want {
		t.Fatalf("eta = %v, want √(log N/T) = %v", eta, want)
	}
	losses, _ := NewLosses(LossConfig{Set: Simplex, Dim: n, Kind: Switching, Horizon: T}, bandit.Stream(1, 2))
	w := []float64{1, 1, 1, 1, 1}
	x, l := make([]float64, n), make([]float64, n)
	for s := 1; s <= T; s++ {
		f.Predict(x)
		var z float64
		for _, v := range w {
			z += v
		}
		for i := range w {
			if d := math.Abs(x[i] - w[i]/z); d > 1e-12 {
				t.Fatalf("t=%d x[%d] = %v, Hedge gives %v", s, i, x[i], w[i]/z)
			}
		}
		losses.Next(s, l)
		for i := range w {
			w[i] *= math.Exp(-eta * l[i])
		}
		if err := f.Observe(l); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFTRLNoiseOffIsLazyProjection: with ε = +Inf DP-FTRL on the ball (cube)
// must be lazy projected gradient descent y ← y − (η/2) l, x = Π(y).
func TestFTRLNoiseOffIsLazyProjection(t *testing.T) {
	const n, T = 4, 300
	for _, set := range []DecisionSet{Ball, Cube} {
		f, err := NewFTRL(FTRLConfig{Set: set, Dim: n, Horizon: T, Epsilon: inf(), Eta: 0.3, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		losses, _ := NewLosses(LossConfig{Set: set, Dim: n, Kind: Switching, Horizon: T, Gap: 0.3}, bandit.Stream(1, 2))
		y := make([]float64, n)
		x, l, want := make([]float64, n), make([]float64, n), make([]float64, n)
		for s := 1; s <= T; s++ {
			f.Predict(x)
			copy(want, y)
			if set == Ball {
				if nr := Ball.Norm(want); nr > 1 {
					for i := range want {
						want[i] /= nr
					}
				}
			} else {
				for i := range want {
					want[i] = math.Max(-1, math.Min(1, want[i]))
				}
			}
			for i := range x {
				if math.Abs(x[i]-want[i]) > 1e-12 {
					t.Fatalf("%v t=%d x = %v, lazy projection gives %v", set, s, x, want)
				}
			}
			losses.Next(s, l)
			for i := range y {
				y[i] -= 0.3 / 2 * l[i]
			}
			if err := f.Observe(l); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestFTRLNonPrivateWithinBound: without noise, the FTRL regret bound
// D_R/η + ηTG² holds for every loss sequence (a deterministic check).
func TestFTRLNonPrivateWithinBound(t *testing.T) {
	const n, T = 6, 2000
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		for _, kind := range []LossKind{Stochastic, WorstCase, Switching} {
			f, _ := NewFTRL(FTRLConfig{Set: set, Dim: n, Horizon: T, Epsilon: inf(), Noise: noise.Simulated}, bandit.Stream(1, 1))
			losses, _ := NewLosses(LossConfig{Set: set, Dim: n, Kind: kind, Horizon: T}, bandit.Stream(2, 2))
			out := make([]float64, 1)
			if err := OLORegretCurve(f, set, losses, T, []int{T}, out); err != nil {
				t.Fatal(err)
			}
			if b := FTRLBound(set, n, T, f.Config().Eta, 0); out[0] > b {
				t.Errorf("%v %v: regret %.1f > bound %.1f", set, kind, out[0], b)
			}
		}
	}
}

// TestFTRLPrivateDecisions: private iterates stay in 𝒳 and differ from the
// non-private ones (the noise is really there).
func TestFTRLPrivateDecisions(t *testing.T) {
	const n, T = 4, 64
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		f, _ := NewFTRL(FTRLConfig{Set: set, Dim: n, Horizon: T, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
		g, _ := NewFTRL(FTRLConfig{Set: set, Dim: n, Horizon: T, Epsilon: inf(), Noise: noise.Simulated}, bandit.Stream(1, 1))
		if f.Config().Lambda != FTRLLambda(set, n, T, 1) {
			t.Errorf("%v: default lambda %v, want %v", set, f.Config().Lambda, FTRLLambda(set, n, T, 1))
		}
		losses, _ := NewLosses(LossConfig{Set: set, Dim: n}, bandit.Stream(1, 2))
		x, y, l := make([]float64, n), make([]float64, n), make([]float64, n)
		differ := false
		for s := 1; s <= T; s++ {
			f.Predict(x)
			g.Predict(y)
			checkInSet(t, set, x)
			for i := range x {
				differ = differ || x[i] != y[i]
			}
			losses.Next(s, l)
			if err := f.Observe(l); err != nil {
				t.Fatal(err)
			}
			if err := g.Observe(l); err != nil {
				t.Fatal(err)
			}
		}
		if !differ {
			t.Errorf("%v: private and non-private iterates identical", set)
		}
	}
}

func checkInSet(t *testing.T, set DecisionSet, x []float64) {
	t.Helper()
	const tol = 1e-12
	switch set {
	case Simplex:
		var s float64
		for _, v := range x {
			if v < 0 {
				t.Fatalf("simplex point %v has a negative entry", x)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("simplex point %v sums to %v", x, s)
		}
	case Ball:
		if Ball.Norm(x) > 1+tol {
			t.Fatalf("ball point %v has norm %v", x, Ball.Norm(x))
		}
	case Cube:
		for _, v := range x {
			if math.Abs(v) > 1+tol {
				t.Fatalf("cube point %v outside", x)
			}
		}
	}
}

func TestFTRLLossValidation(t *testing.T) {
	cases := []struct {
		set  DecisionSet
		loss []float64
		want []float64 // after clipping
	}{
		{Simplex, []float64{1.5, -0.2, -3}, []float64{1, -0.2, -1}},
		{Ball, []float64{3, 4, 0}, []float64{0.6, 0.8, 0}},
		{Cube, []float64{1, -1, 2}, []float64{0.25, -0.25, 0.5}},
	}
	for _, c := range cases {
		f, _ := NewFTRL(FTRLConfig{Set: c.set, Dim: 3, Horizon: 8, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
		l := append([]float64(nil), c.loss...)
		if err := f.Observe(l); err == nil || !strings.Contains(err.Error(), "must be <=") {
			t.Errorf("%v: loss %v accepted (err %v)", c.set, c.loss, err)
		}
		if f.lead.tree.Rounds() != 0 {
			t.Errorf("%v: rejected loss entered the tree", c.set)
		}
		g, _ := NewFTRL(FTRLConfig{Set: c.set, Dim: 3, Horizon: 8, Epsilon: 1, Clip: true, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err := g.Observe(l); err != nil {
			t.Errorf("%v clip: %v", c.set, err)
		}
		got := g.lead.tree.Exact()
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%v clip: the tree got %v, want %v", c.set, got, c.want)
			}
			if l[i] != c.loss[i] {
				t.Errorf("%v clip modified the caller's loss: %v, was %v", c.set, l, c.loss)
			}
		}
		nan := []float64{0, math.NaN(), 0}
		if err := g.Observe(nan); err == nil {
			t.Errorf("%v: NaN loss accepted with clipping", c.set)
		}
	}
}

func TestFTRLConfigErrors(t *testing.T) {
	bad := []FTRLConfig{
		{Set: Simplex, Dim: 1, Horizon: 10, Epsilon: 1, Noise: noise.Simulated},
		{Set: Ball, Dim: 0, Horizon: 10, Epsilon: 1, Noise: noise.Simulated},
		{Set: Ball, Dim: 2, Horizon: 1, Epsilon: 1, Noise: noise.Simulated},
		{Set: Ball, Dim: 2, Horizon: 10, Epsilon: 0, Noise: noise.Simulated},
		{Set: Ball, Dim: 2, Horizon: 10, Epsilon: math.NaN(), Noise: noise.Simulated},
		{Set: Ball, Dim: 2, Horizon: 10, Epsilon: 1, Eta: -1, Noise: noise.Simulated},
		{Set: Ball, Dim: 2, Horizon: 10, Epsilon: inf(), Lambda: 1, Noise: noise.Simulated},
		{Set: DecisionSet(7), Dim: 2, Horizon: 10, Epsilon: 1, Noise: noise.Simulated},
	}
	for _, c := range bad {
		if _, err := NewFTRL(c, bandit.Stream(1, 1)); err == nil {
			t.Errorf("NewFTRL(%+v) accepted", c)
		}
		if _, err := NewFTPL(FTPLConfig{Set: c.Set, Dim: c.Dim, Horizon: c.Horizon, Epsilon: c.Epsilon, Delta: 0.1, Sigma: c.Eta, Noise: noise.Simulated}, bandit.Stream(1, 1)); err == nil && c.Lambda == 0 {
			t.Errorf("NewFTPL(%+v) accepted", c)
		}
	}
	if _, err := NewFTPL(FTPLConfig{Set: Ball, Dim: 2, Horizon: 10, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1)); err == nil {
		t.Error("NewFTPL without delta accepted")
	}
}

// TestFTPLLinearOracle: FTPL plays argmin ⟨x, L̃_{t−1}⟩, a vertex of the
// simplex, a unit vector on the ball, a ±1 vector on the cube.
func TestFTPLLinearOracle(t *testing.T) {
	const n, T = 5, 100
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		f, err := NewFTPL(FTPLConfig{Set: set, Dim: n, Horizon: T, Epsilon: 1, Delta: 0.01, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if want := FTPLSigma(set, n, T, 1, 0.01); f.Config().Sigma != want {
			t.Errorf("%v: sigma %v, want %v", set, f.Config().Sigma, want)
		}
		losses, _ := NewLosses(LossConfig{Set: set, Dim: n}, bandit.Stream(1, 2))
		x, l := make([]float64, n), make([]float64, n)
		for s := 1; s <= T; s++ {
			f.Predict(x)
			// x attains min ⟨L̃, ·⟩ over 𝒳.
			var v float64
			for i := range x {
				v += x[i] * f.lead.sum[i]
			}
			if m := set.MinLinear(f.lead.sum); math.Abs(v-m) > 1e-9*math.Max(1, math.Abs(m)) {
				t.Fatalf("%v t=%d: ⟨x, L̃⟩ = %v, min is %v", set, s, v, m)
			}
			checkInSet(t, set, x)
			losses.Next(s, l)
			if err := f.Observe(l); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestLossesInSet(t *testing.T) {
	const n, T = 5, 500
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		for _, kind := range []LossKind{Stochastic, WorstCase, Switching} {
			ls, err := NewLosses(LossConfig{Set: set, Dim: n, Kind: kind, Horizon: T, Gap: 0.7}, bandit.Stream(1, 1))
			if err != nil {
				t.Fatal(err)
			}
			l := make([]float64, n)
			for s := 1; s <= T; s++ {
				ls.Next(s, l)
				if _, err := checkLoss(set, nil, l, 1, false); err != nil {
					t.Fatalf("%v %v t=%d: %v", set, kind, s, err)
				}
			}
		}
	}
	ls, _ := NewLosses(LossConfig{Set: Simplex, Dim: 3, Kind: Switching, Horizon: 100, Phases: 4}, bandit.Stream(1, 1))
	for _, c := range [][2]int{{1, 0}, {25, 0}, {26, 1}, {51, 2}, {76, 0}, {100, 0}} {
		if b := ls.Best(c[0]); b != c[1] {
			t.Errorf("switching: best at t=%d is %d, want %d", c[0], b, c[1])
		}
	}
	for _, c := range []LossConfig{{Dim: 1}, {Set: Ball, Dim: 0}, {Set: Ball, Dim: 2, Gap: 2}, {Set: Ball, Dim: 2, Kind: Switching}, {Set: Ball, Dim: 2, Kind: LossKind(9)}} {
		if _, err := NewLosses(c, bandit.Stream(1, 1)); err == nil {
			t.Errorf("NewLosses(%+v) accepted", c)
		}
	}
}

// TestLossesMean: the stochastic losses have mean g·u (u = 1 − 2e_0 on the
// simplex, −e_0 elsewhere). z-test per coordinate, false-failure ≈ 1e-5 each.
func TestLossesMean(t *testing.T) {
	const n, T, g = 3, 20000, 0.3
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		ls, _ := NewLosses(LossConfig{Set: set, Dim: n, Gap: g}, bandit.Stream(1, 5))
		l := make([]float64, n)
		sum, sq := make([]float64, n), make([]float64, n)
		for s := 1; s <= T; s++ {
			ls.Next(s, l)
			for i, v := range l {
				sum[i] += v
				sq[i] += v * v
			}
		}
		for i := range sum {
			want := 0.0
			switch {
			case set == Simplex && i == 0:
				want = -g
			case set == Simplex:
				want = g
			case i == 0:
				want = -g
			}
			m := sum[i] / T
			sd := math.Sqrt((sq[i]/T - m*m) / T)
			if math.Abs(m-want) > testkit.Z5*sd {
				t.Errorf("%v: mean loss[%d] = %.4f, want %.4f ± %.4f", set, i, m, want, testkit.Z5*sd)
			}
		}
	}
}

func TestDecisionSetGeometry(t *testing.T) {
	L := []float64{3, -4, 1}
	x := make([]float64, 3)
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		set.ArgminLinearTo(x, L)
		var v float64
		for i := range x {
			v += x[i] * L[i]
		}
		if math.Abs(v-set.MinLinear(L)) > 1e-12 {
			t.Errorf("%v: ⟨argmin, L⟩ = %v, MinLinear = %v", set, v, set.MinLinear(L))
		}
	}
	for _, c := range []struct {
		set        DecisionSet
		min, width float64
		y1, y2, x2 float64
	}{
		{Simplex, -4, 7, 3, math.Sqrt(3), 1},
		{Ball, -math.Sqrt(26), 2 * math.Sqrt(26), math.Sqrt(3), 1, 1},
		{Cube, -8, 16, 1, 1, math.Sqrt(3)},
	} {
		if got := c.set.MinLinear(L); math.Abs(got-c.min) > 1e-12 {
			t.Errorf("%v MinLinear = %v, want %v", c.set, got, c.min)
		}
		if got := c.set.Width(L); math.Abs(got-c.width) > 1e-12 {
			t.Errorf("%v Width = %v, want %v", c.set, got, c.width)
		}
		if c.set.YNorm1(3) != c.y1 || c.set.YNorm2(3) != c.y2 || c.set.XNorm2(3) != c.x2 {
			t.Errorf("%v norms %v %v %v", c.set, c.set.YNorm1(3), c.set.YNorm2(3), c.set.XNorm2(3))
		}
	}
}

func BenchmarkFTRLRound(b *testing.B) {
	for _, set := range []DecisionSet{Simplex, Ball, Cube} {
		b.Run("set="+set.String()+"/dim=16", func(b *testing.B) {
			const n, T = 16, 1 << 20
			f, _ := NewFTRL(FTRLConfig{Set: set, Dim: n, Horizon: T, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
			l, x := make([]float64, n), make([]float64, n)
			l[0] = 0.5 / float64(n)
			k := 0
			b.ReportAllocs()
			for b.Loop() {
				if k == T {
					f, _ = NewFTRL(FTRLConfig{Set: set, Dim: n, Horizon: T, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
					k = 0
				}
				f.Predict(x)
				if err := f.Observe(l); err != nil {
					b.Fatal(err)
				}
				k++
			}
		})
	}
}
