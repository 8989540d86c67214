package ss18_test

import (
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// The constants of SS18's experiments (Appendix D.2).
func ExampleSetting() {
	s := ss18.Setting{D: 5, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2} // α defaults to 1/n
	if err := s.Validate(); err != nil {
		panic(err)
	}
	k := s.WishartK()
	_, shifted := s.WishartBounds(k)
	fmt.Printf("m = %d, k = %d (authors' code: %d)\n", s.Levels(), k, s.WishartKAuthors())
	fmt.Printf("Wishart shift c = %.4g, ρ′_min = %.4g, ρ′_max = %.4g\n", shifted.Shift, shifted.RhoMin, shifted.RhoMax)
	fmt.Printf("Gaussian σ_noise = %.2f, Υ = %.4g (corrected %.4g)\n", s.GaussianSigma(), s.Upsilon(), s.UpsilonCorrected())
	// Output:
	// m = 27, k = 139115 (authors' code: 239278)
	// Wishart shift c = 7.259e+06, ρ′_min = 1.69e+05, ρ′_max = 3.38e+05
	// Gaussian σ_noise = 153.34, Υ = 9.155e+04 (corrected 1.966e+04)
}

// A Wishart node noise as SS18 Section 4.1 uses it: W_{d+1}(L̃² I, k) in
// packed form. Its draws are positive definite.
func Example_wishartNoise() {
	s := ss18.Setting{D: 5, N: 50_000_000, Epsilon: 1, Delta: 0.1, Lt2: 2}
	w, err := noise.New(noise.Config{Law: noise.WishartLaw, Mode: noise.Simulated, N: s.D + 1, Scale: s.Lt2, DF: float64(s.WishartK())}, bandit.Stream(1, bandit.StreamID(0, 1)))
	if err != nil {
		panic(err)
	}
	z := make([]float64, w.Dim())
	w.Sample(z)
	// Each diagonal entry is L̃²·χ²(k): mean 2k ≈ 278230, sd 2√(2k) ≈ 1055.
	d00 := z[simd.PackedIndex(s.D+1, 0, 0)]
	fmt.Println(len(z), d00 > 270000 && d00 < 286000)
	// Output:
	// 21 true
}
