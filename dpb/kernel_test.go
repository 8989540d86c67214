package dpb

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestQuadTile4 compares the portable tile (quadTile4Go) and quadOne with a
// direct computation, for every d from 1 to 70 (all remainders mod 4) and
// strided action layouts. The kernel in use (assembly on amd64 with AVX2) is
// compared in TestScoreBlocks.
func TestQuadTile4(t *testing.T) {
	rng := Stream(1, 1)
	for d := 1; d <= 70; d++ {
		dp := padDim(d)
		m, z, mt, zp := randomKernel(rng, d, dp)
		for _, ldx := range []int{d, d + 3} {
			x := make([]float64, 4*ldx)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			var q, s [4]float64
			quadTile4Go(mt, dp, zp, d, x, ldx, &q, &s)
			for k := 0; k < 4; k++ {
				xk := x[k*ldx : k*ldx+d]
				var wq, ws float64
				for i := 0; i < d; i++ {
					var w float64
					for j := 0; j <= i; j++ {
						w += m[i*d+j] * xk[j]
					}
					wq += w * w
					ws += z[i] * w
				}
				tol := 1e-12 * float64(d) * (1 + wq)
				if math.Abs(q[k]-wq) > tol {
					t.Fatalf("d=%d ldx=%d k=%d: q = %v, want %v", d, ldx, k, q[k], wq)
				}
				if math.Abs(s[k]-ws) > tol {
					t.Fatalf("d=%d ldx=%d k=%d: s = %v, want %v", d, ldx, k, s[k], ws)
				}
				q1, s1 := quadOne(mt, dp, zp, d, xk)
				if math.Abs(q1-wq) > tol || math.Abs(s1-ws) > tol {
					t.Fatalf("d=%d: quadOne = %v, %v, want %v, %v", d, q1, s1, wq, ws)
				}
			}
		}
	}
}

// TestScoreBlocks compares the kernel in use (assembly on amd64 with AVX2)
// with the direct computation of ⟨z, Mx⟩ + β‖Mx‖ for d = 1..70 and 1–3 blocks.
func TestScoreBlocks(t *testing.T) {
	rng := Stream(1, 2)
	for d := 1; d <= 70; d++ {
		dp := padDim(d)
		_, _, mt, zp := randomKernel(rng, d, dp)
		nblk := 1 + d%3
		x := make([]float64, 4*nblk*d)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		const beta = 1.7
		got := make([]float64, 4*nblk+1)
		got[4*nblk] = 12345 // sentinel: must not be written
		scoreBlocks(mt, dp, zp, d, x, nblk, beta, got)
		goScores := make([]float64, 4*nblk)
		scoreBlocksGo(mt, dp, zp, d, x, nblk, beta, goScores)
		for k := 0; k < 4*nblk; k++ {
			q, s := quadOne(mt, dp, zp, d, x[k*d:(k+1)*d])
			want := s + beta*math.Sqrt(q)
			tol := 1e-12 * float64(d) * (1 + math.Abs(s) + q)
			if math.Abs(got[k]-want) > tol || math.Abs(goScores[k]-want) > tol {
				t.Fatalf("d=%d k=%d: score %v (go %v), want %v [%s]", d, k, got[k], goScores[k], want, kernelName())
			}
		}
		if got[4*nblk] != 12345 {
			t.Fatalf("d=%d: kernel wrote past its blocks", d)
		}
	}
}

// randomKernel draws a lower-triangular M (d×d row-major) and z with
// standard normal entries and returns them with mt (dp×dp, Mᵀ zero-padded)
// and zp (len dp): the layout inverseFactorTo produces, for tests that choose
// M directly.
func randomKernel(rng *rand.Rand, d, dp int) (m, z, mt, zp []float64) {
	m, z = make([]float64, d*d), make([]float64, d)
	mt, zp = make([]float64, dp*dp), make([]float64, dp)
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			m[i*d+j] = rng.NormFloat64()
			mt[j*dp+i] = m[i*d+j]
		}
		z[i] = rng.NormFloat64()
		zp[i] = z[i]
	}
	return m, z, mt, zp
}

// TestInverseFactor checks M = L⁻¹ (L M = I) and z = M u in the kernel layout.
func TestInverseFactor(t *testing.T) {
	rng := Stream(1, 3)
	for d := 1; d <= 20; d++ {
		dp := padDim(d)
		l := make([]float64, d*d)
		u := make([]float64, d)
		for i := 0; i < d; i++ {
			for j := 0; j < i; j++ {
				l[i*d+j] = rng.NormFloat64()
			}
			l[i*d+i] = 1 + rng.Float64()
			u[i] = rng.NormFloat64()
		}
		mt, zp := make([]float64, dp*dp), make([]float64, dp)
		inverseFactorTo(mt, zp, l, u, d, dp)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				var s float64 // (L M)_ij
				for k := 0; k < d; k++ {
					var mkj float64
					if k >= j {
						mkj = mt[j*dp+k]
					}
					s += l[i*d+k] * mkj * b2f(k <= i)
				}
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(s-want) > 1e-10 {
					t.Fatalf("d=%d: (L·M)[%d,%d] = %v, want %v", d, i, j, s, want)
				}
			}
			var zi float64
			for j := 0; j <= i; j++ {
				zi += mt[j*dp+i] * u[j]
			}
			if math.Abs(zp[i]-zi) > 1e-12*(1+math.Abs(zi)) {
				t.Fatalf("d=%d: z[%d] = %v, want %v", d, i, zp[i], zi)
			}
		}
		for i := d; i < dp; i++ {
			if zp[i] != 0 {
				t.Fatalf("d=%d: padding of z written", d)
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
