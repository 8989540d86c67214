//go:build amd64 && !purego

package simd_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// awkwardValues returns a source of values that make dot products show any
// change in their order of roundings: signed zeros, subnormals, values near
// overflow, and normal values of either sign with exponents in [−40, 40].
func awkwardValues(rng *rand.Rand) func() float64 {
	f := noise.NewFastRand(rng)
	return func() float64 {
		switch f.Uint64() % 64 {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return 5e-324 * float64(1+f.Uint64()%7)
		case 2:
			return 1e300 * float64(1+f.Uint64()%3)
		}
		v := math.Ldexp(1+float64(f.Uint64()>>11)/(1<<53), int(f.Uint64()%81)-40)
		if f.Uint64()&1 == 0 {
			v = -v
		}
		return v
	}
}

// TestInvRowSameBits compares InvRowAVX2 with InvRowGo bit for bit: on
// arbitrary rows (entries with random signs and exponents over ±2⁴⁰, so that
// any change in the order of the roundings shows, and ±0, subnormals and
// overflow to ±Inf among them) for every row index i = 1…70 and a padded
// stride, and through InverseFactorTo on random lower-triangular L for
// D = 1…70 (RandomFactor) by each path: the Go rows, the AVX2 rows and, on
// AVX-512, the eight-column rows with z from ZFromFactorAVX512.
// Deterministic: no false failures. Skipped on CPUs without AVX2.
func TestInvRowSameBits(t *testing.T) {
	if !simd.InvRowAVX {
		t.Skip("no AVX2 on this CPU")
	}
	val := awkwardValues(bandit.Stream(4, 509))
	const dmax = 70
	for rep := range 40 {
		for i := 1; i <= dmax; i++ {
			dp := simd.PadDim(dmax) + 4*(rep%2)
			li := make([]float64, i)
			for k := range li {
				li[k] = val()
			}
			mt := make([]float64, dp*dp)
			for k := range mt {
				mt[k] = val()
			}
			mii := val()
			got, want := append([]float64(nil), mt...), append([]float64(nil), mt...)
			simd.InvRowAVX2(&li[0], &got[0], dp, i, -mii)
			simd.InvRowGo(li, want, dp, i, mii)
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
					t.Fatalf("rep %d, i = %d, dp = %d: mt[%d] = %v (AVX2), %v (Go)", rep, i, dp, k, got[k], want[k])
				}
			}
		}
	}
	defer func(on, lanes bool) { simd.InvRowAVX, simd.InvLanes = on, lanes }(simd.InvRowAVX, simd.InvLanes)
	rng := bandit.Stream(4, 510)
	paths := []struct {
		name        string
		avx2, lanes bool
	}{{"Go", false, false}, {"AVX2", true, false}, {"AVX-512 lanes", true, true}}
	if !simd.HasAVX512() || !simd.HasBMI12() {
		paths = paths[:2]
	}
	for d := 1; d <= dmax; d++ {
		dp := simd.PadDim(d)
		l, u := testutil.RandomFactor(rng, d)
		var out [3][]float64
		for s, path := range paths {
			simd.InvRowAVX, simd.InvLanes = path.avx2, path.lanes
			mt, zp := make([]float64, dp*dp), make([]float64, dp)
			simd.InverseFactorTo(mt, zp, l, u, make([]float64, d*dp), d, dp)
			out[s] = append(mt, zp...)
			for k := range out[0] {
				if math.Float64bits(out[s][k]) != math.Float64bits(out[0][k]) {
					t.Fatalf("d = %d: inverse factor entry %d = %v (%s), %v (Go)", d, k, out[s][k], path.name, out[0][k])
				}
			}
		}
	}
}

// TestZFromFactorSameBits compares z = M u from ZFromFactorAVX512 with
// InverseFactorTo's Go loop bit for bit, for d = 1…70 and u holding ±Inf
// and NaN besides normal draws: a row i < j that the kernel failed to mask
// would turn Inf·0 into NaN there.
func TestZFromFactorSameBits(t *testing.T) {
	if !simd.InvLanes {
		t.Skip("no AVX-512 with BMI2 on this CPU")
	}
	rng := bandit.Stream(4, 512)
	for d := 1; d <= 70; d++ {
		dp := simd.PadDim(d)
		_, _, mt, _ := testutil.RandomKernel(rng, d, dp)
		u := make([]float64, d)
		for i := range u {
			switch rng.IntN(8) {
			case 0:
				u[i] = math.Inf(1 - 2*rng.IntN(2))
			case 1:
				u[i] = math.NaN()
			default:
				u[i] = rng.NormFloat64()
			}
		}
		want := make([]float64, d)
		for j := 0; j < d; j++ {
			for i := j; i < d; i++ {
				want[i] += float64(u[j] * mt[j*dp+i])
			}
		}
		got := make([]float64, d+1)
		got[d] = 12345 // sentinel: must not be written
		simd.ZFromFactorAVX512(&got[0], &mt[0], &u[0], d, dp)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Fatalf("d = %d: z[%d] = %v (AVX-512), %v (Go)", d, i, got[i], want[i])
			}
		}
		if got[d] != 12345 {
			t.Fatalf("d = %d: wrote past z", d)
		}
	}
}

// TestInvPanelsSameBits runs InvPanelsAVX512 on lower-triangular L with
// awkwardValues entries (signed zeros, subnormals, near-overflow values,
// exponents over ±2⁴⁰: any change in the order of the roundings shows) and
// M's diagonal from the same source, for d = 1…70 and a padded stride, and
// requires InvRowGo's bits (NaNs equal whatever their payload and sign, as
// the lanes kernel and the Go loop may keep a different NaN) in M's lower
// triangle, and every other entry of mt (the upper triangle, the padding
// rows) and the scratch beyond InvPanelScratch(d) floats untouched. One factor in four
// gets a ±Inf or NaN below the diagonal: the kernel must refuse it (ok = 0)
// and write nothing. Deterministic: no false failures.
func TestInvPanelsSameBits(t *testing.T) {
	if !simd.InvLanes {
		t.Skip("no AVX-512 with BMI2 on this CPU")
	}
	val := awkwardValues(bandit.Stream(4, 513))
	rng := bandit.Stream(4, 514)
	nonFinite := 0
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for rep := range 6 {
		for d := 1; d <= 70; d++ {
			dp := simd.PadDim(d) + 4*(rep%2)
			l := make([]float64, d*d)
			for i := range d {
				for j := range i + 1 {
					l[i*d+j] = val()
				}
			}
			finite := true
			if rng.IntN(4) == 0 { // one entry of the strict lower triangle ±Inf or NaN
				if i := 1 + rng.IntN(max(d-1, 1)); i < d {
					l[i*d+rng.IntN(i)] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
					finite = false
				}
			}
			mt := make([]float64, (d-1)*dp+d)
			for k := range mt {
				mt[k] = val() // the diagonal M_jj, and sentinels elsewhere
			}
			want := append([]float64(nil), mt...)
			for i := 1; i < d; i++ {
				simd.InvRowGo(l[i*d:i*d+i], want, dp, i, want[i*dp+i])
			}
			got := append([]float64(nil), mt...)
			r := make([]float64, simd.InvPanelScratch(d)+8)
			r[len(r)-1] = 42
			ok := simd.InvPanelsAVX512(&l[0], &got[0], &r[0], d, dp)
			if !finite {
				if ok != 0 || testkit.FirstDiff(got, mt) >= 0 {
					t.Fatalf("d = %d: a factor that is not finite gave ok %d and mt written at %d; want 0 and nothing written", d, ok, testkit.FirstDiff(got, mt))
				}
				nonFinite++
				continue
			}
			if ok != 1 {
				t.Fatalf("d = %d: a finite factor refused", d)
			}
			for k := range got {
				if !same(got[k], want[k]) {
					t.Fatalf("rep %d, d = %d, dp = %d: mt[%d] (M_%d,%d) = %v (panels), %v (Go)", rep, d, dp, k, k%dp, k/dp, got[k], want[k])
				}
			}
			if r[len(r)-1] != 42 {
				t.Fatalf("d = %d: wrote past invPanelScratch(d) floats of scratch", d)
			}
		}
	}
	if nonFinite == 0 {
		t.Fatal("no factor with a non-finite entry drawn")
	}
}

// BenchmarkInverseFactor times InverseFactorTo (M = L⁻¹ and z = M u in the
// kernel layout) at d = 16 and 64: the AVX-512 panels (lanes=true) against
// the AVX2 rows one dot product at a time.
func BenchmarkInverseFactor(b *testing.B) {
	for _, d := range []int{16, 64} {
		for _, lanes := range []bool{true, false} {
			b.Run(fmt.Sprintf("d=%d/lanes=%v", d, lanes), func(b *testing.B) {
				if lanes && !simd.InvLanes {
					b.Skip("no AVX-512 with BMI2 on this CPU")
				}
				dp := simd.PadDim(d)
				l, u := testutil.RandomFactor(bandit.Stream(1, 2), d)
				mt, zp := make([]float64, dp*dp), make([]float64, dp)
				scratch := make([]float64, d*dp)
				defer func(v bool) { simd.InvLanes = v }(simd.InvLanes)
				simd.InvLanes = lanes
				b.ReportAllocs()
				for b.Loop() {
					simd.InverseFactorTo(mt, zp, l, u, scratch, d, dp)
				}
			})
		}
	}
}
