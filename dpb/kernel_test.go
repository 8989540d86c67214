package dpb

import (
	"math"
	"testing"
)

// TestQuadTile4 compares the scoring kernel in use (assembly on amd64 with
// AVX2) with the Go loop and with a direct computation, for every d from 1
// to 70 (all remainders mod 4) and strided action layouts.
func TestQuadTile4(t *testing.T) {
	rng := Stream(1, 1)
	for d := 1; d <= 70; d++ {
		dp := padDim(d)
		m := make([]float64, d*d)
		z := make([]float64, d)
		for i := 0; i < d; i++ {
			for j := 0; j <= i; j++ {
				m[i*d+j] = rng.NormFloat64()
			}
			z[i] = rng.NormFloat64()
		}
		mt, zp := make([]float64, dp*dp), make([]float64, dp)
		fillKernel(mt, zp, m, z, d, dp)
		for _, ldx := range []int{d, d + 3} {
			x := make([]float64, 4*ldx)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			var q, s, qg, sg [4]float64
			quadTile4(mt, dp, zp, d, x, ldx, &q, &s)
			quadTile4Go(mt, dp, zp, d, x, ldx, &qg, &sg)
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
				if math.Abs(q[k]-wq) > tol || math.Abs(qg[k]-wq) > tol {
					t.Fatalf("d=%d ldx=%d k=%d: q = %v (go %v), want %v [%s]", d, ldx, k, q[k], qg[k], wq, kernelName())
				}
				if math.Abs(s[k]-ws) > tol || math.Abs(sg[k]-ws) > tol {
					t.Fatalf("d=%d ldx=%d k=%d: s = %v (go %v), want %v [%s]", d, ldx, k, s[k], sg[k], ws, kernelName())
				}
				q1, s1 := quadOne(mt, dp, zp, d, xk)
				if math.Abs(q1-wq) > tol || math.Abs(s1-ws) > tol {
					t.Fatalf("d=%d: quadOne = %v, %v, want %v, %v", d, q1, s1, wq, ws)
				}
			}
		}
	}
}
