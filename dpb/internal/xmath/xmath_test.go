package xmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// On an amd64 CPU with FMA, math.Exp and math.Log are the assembly routines
// that Exp and Log write out, so they must agree bit for bit: over 4·10⁶
// arguments spread over the whole range of each function (uniform in the
// argument and in its bit pattern), the special values, the edges of the
// overflow and subnormal ranges, and x = √2/2, where Log's reduction turns;
// and Pow (which calls them) on 6·10⁵ pairs and its special cases.
// Deterministic (fixed seed): no false failures. Elsewhere math.Exp and
// math.Log are other code, so there is nothing to compare with.
func TestSameBitsAsAMD64(t *testing.T) {
	if !mathExpFMA {
		t.Skip("math.Exp takes its FMA path only on amd64 CPUs with AVX and FMA")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var exps, logs []float64
	for range 1_000_000 {
		exps = append(exps, (r.Float64()-0.5)*1500, math.Float64frombits(r.Uint64()))
		logs = append(logs, r.Float64()*1e3, math.Float64frombits(r.Uint64()>>1))
	}
	specials := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		709.782712893384, 7.09782712893384e+02, math.Nextafter(709.782712893384, 1000), -708.39, -708.4, -744.4, -745.1, -745.2, -1e300,
		math.SmallestNonzeroFloat64, 0x1p-1022, math.MaxFloat64, 2, 0.5, 1e-300, -1e-300}
	exps = append(exps, specials...)
	logs = append(logs, specials...)
	h := 7.07106781186547524401e-01
	for _, e := range []int{-1074, -1030, -1022, -1, 0, 1, 1023} {
		for d := -3; d <= 3; d++ {
			x := math.Ldexp(h, e)
			for range d {
				x = math.Nextafter(x, 2*x)
			}
			for i := 0; i > d; i-- {
				x = math.Nextafter(x, 0)
			}
			logs = append(logs, x)
		}
	}
	pows := [][2]float64{{2, 0.125}, {0, -1}, {math.Copysign(0, -1), -3}, {-1, math.Inf(1)}, {-8, 1.0 / 3}, {-2, 3}, {math.Inf(-1), -3}, {10, -400}, {0.5, 1e20}, {3, 0.5}, {3, -0.5}}
	for range 200_000 {
		pows = append(pows, [2]float64{r.Float64() * 1e3, (r.Float64() - 0.5) * 100}, [2]float64{math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())},
			[2]float64{(r.Float64() - 0.5) * 20, float64(r.IntN(200) - 100)})
	}
	for _, p := range pows {
		if got, want := Pow(p[0], p[1]), math.Pow(p[0], p[1]); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("Pow(%v, %v) = %v, math.Pow %v", p[0], p[1], got, want)
		}
	}
	for _, x := range exps {
		if got, want := exp(x), math.Exp(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Exp(%v) = %v (%#x), math.Exp %v (%#x)", x, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	for _, x := range logs {
		if got, want := Log(x), math.Log(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Log(%v) = %v (%#x), math.Log %v (%#x)", x, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// TestExpProbe pins the probe mathExpFMA reads: exp gives the FMA path's
// bits for e^3.33 on every CPU, and Exp (math.Exp or exp) too.
func TestExpProbe(t *testing.T) {
	for _, f := range []func(float64) float64{exp, Exp} {
		if got := math.Float64bits(f(3.33)); got != 0x403bf037296fdfad {
			t.Fatalf("e^3.33 = %#x, want the FMA path's 0x403bf037296fdfad", got)
		}
	}
}

var sink float64

func BenchmarkFuncs(b *testing.B) {
	xs := make([]float64, 1024)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range xs {
		xs[i] = r.Float64()*20 + 0.01
	}
	for _, f := range []struct {
		name string
		fn   func(float64) float64
	}{{"exp", exp}, {"Exp", Exp}, {"math.Exp", math.Exp}, {"Log", Log}, {"math.Log", math.Log}} {
		b.Run(f.name, func(b *testing.B) {
			s := 0.0
			i := 0
			for b.Loop() {
				s += f.fn(xs[i&1023])
				i++
			}
			sink = s
		})
	}
}
