package testkit

import (
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The secure samplers draw from crypto/rand and cannot be seeded, so these
// tests are not reproducible bit for bit; each goodness-of-fit test fails a
// correct sampler with probability 10⁻⁶ (its p-value threshold).
const SecureAlpha = 1e-6

// ChiSquareP returns the p-value of Pearson's χ² test of counts against
// probabilities p (bins with expectation below 5 are pooled into the last).
func ChiSquareP(t *testing.T, counts []int, p []float64, n int) float64 {
	t.Helper()
	var stat, poolE float64
	var poolO, bins int
	for i := range counts {
		e := p[i] * float64(n)
		if e < 5 {
			poolE += e
			poolO += counts[i]
			continue
		}
		d := float64(counts[i]) - e
		stat += d * d / e
		bins++
	}
	if poolE > 0 {
		d := float64(poolO) - poolE
		stat += d * d / poolE
		bins++
	}
	return 1 - distuv.ChiSquared{K: float64(bins - 1)}.CDF(stat)
}

// Histogram draws n integers and counts them on [−w, w] (the two ends
// collect the tails).
func Histogram(n, w int, draw func() int64) []int {
	c := make([]int, 2*w+1)
	for range n {
		k := max(-w, min(w, int(draw())))
		c[k+w]++
	}
	return c
}

// PmfOnWindow returns the law w(k)/Σw on the integers folded onto [−w, w]
// (tails into the ends), summing the weight out to |k| = 40·w.
func PmfOnWindow(w int, weight func(k int) float64) []float64 {
	p := make([]float64, 2*w+1)
	total := 0.0
	for k := -40 * w; k <= 40*w; k++ {
		v := weight(k)
		total += v
		p[max(-w, min(w, k))+w] += v
	}
	for i := range p {
		p[i] /= total
	}
	return p
}

// Z5 is the two-sided 1 − 1e-5 normal quantile: an assertion |X − μ| ≤ z5·σ on
// a (nearly) normal X fails spuriously with probability ≈ 1e-5.
const Z5 = 4.417173
