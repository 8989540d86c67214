package testutil

import (
	"math"
	"math/rand/v2"
)

// DrawGram5 draws the 5×5 V of trial number trial: B Bᵀ for a standard
// normal B scaled by 2^s (s = 0, or uniform in −400…400 for trial ≡ 1 mod 3,
// so that products overflow or underflow), with a zero column in B (singular)
// for trial ≡ 3 mod 7 and a diagonal entry negated (indefinite) for trial ≡ 4
// mod 5.
func DrawGram5(rng *rand.Rand, trial int) (a [25]float64) {
	var bm [25]float64
	scale := 0
	if trial%3 == 1 {
		scale = rng.IntN(801) - 400
	}
	for i := range bm {
		bm[i] = math.Ldexp(rng.NormFloat64(), scale)
		if trial%7 == 3 && i%5 == 2 {
			bm[i] = 0 // a zero column: singular
		}
	}
	for i := range 5 {
		for j := range 5 {
			var s float64
			for k := range 5 {
				s += float64(bm[i*5+k] * bm[j*5+k])
			}
			a[i*5+j] = s
		}
	}
	if trial%5 == 4 {
		a[rng.IntN(5)*6] *= -1 // a negative pivot somewhere
	}
	return a
}

// RandomKernel draws a lower-triangular M (d×d row-major) and z with
// standard normal entries and returns them with mt (dp×dp, Mᵀ zero-padded)
// and zp (len dp): the layout InverseFactorTo produces, for tests that choose
// M directly.
func RandomKernel(rng *rand.Rand, d, dp int) (m, z, mt, zp []float64) {
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

// RandomFactor draws what InverseFactorTo takes: a lower-triangular L (d×d
// row-major) with standard normal entries below a diagonal in [1, 2), and u
// with standard normal entries.
func RandomFactor(rng *rand.Rand, d int) (l, u []float64) {
	l, u = make([]float64, d*d), make([]float64, d)
	for i := 0; i < d; i++ {
		for j := 0; j < i; j++ {
			l[i*d+j] = rng.NormFloat64()
		}
		l[i*d+i] = 1 + float64(rng.Float64())
		u[i] = rng.NormFloat64()
	}
	return l, u
}
