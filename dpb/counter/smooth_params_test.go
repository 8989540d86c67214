package counter

import (
	"testing"
)

// binomAtLeast reports C(h, k) ≥ n without overflow.
func binomAtLeast(h, k, n int) bool {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(h-k+i) / float64(i)
	}
	return c >= float64(n)-0.5
}

// TestSmoothBinaryParamsScan: the in-place binomial scan picks the same
// (h, k) as the direct definition (every h ≤ 62, k ≤ h with C(h, k) ≥ n,
// least (k+1)(h−k+1), first found on ties).
func TestSmoothBinaryParamsScan(t *testing.T) {
	direct := func(n int) (h, k int) {
		best := -1.0
		for hh := 1; hh <= 62; hh++ {
			for kk := 0; kk <= hh; kk++ {
				if binomAtLeast(hh, kk, n) {
					c := float64(kk+1) * float64(hh-kk+1)
					if best < 0 || c < best {
						best, h, k = c, hh, kk
					}
				}
			}
		}
		return h, k
	}
	ns := []int{1 << 20, 1 << 30, 1<<40 + 7, 50_000_000}
	for n := 1; n <= 300; n++ {
		ns = append(ns, n)
	}
	for _, n := range ns {
		h, k := SmoothBinaryParams(n)
		if wh, wk := direct(n); h != wh || k != wk {
			t.Fatalf("n = %d: (h, k) = (%d, %d), direct definition (%d, %d)", n, h, k, wh, wk)
		}
	}
}
