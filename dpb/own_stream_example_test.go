package dpb_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb"
)

// Private LinUCB (SS18 Algorithm 1, Gaussian tree) on one's own stream of
// contexts, without knowing how many rounds there will be: the policy starts
// with a guess of 1,000 rounds and doubles its horizon as the stream goes
// on, at the same (ε, δ). Its Noise is left unset, which is the secure
// sampler (exact discrete Gaussian on a grid, bits from crypto/rand: the
// releases have the stated guarantee, and two runs differ). Midway it is
// saved (sums and node noises) and restored, as a service would across a
// restart.
func ExampleNewAnytimeSS18() {
	const d, k = 4, 5
	pol, err := dpb.NewAnytimeSS18(dpb.SS18Config{
		Alg:     dpb.SS18Gaussian,
		Setting: dpb.SS18Setting{D: d, N: 1000, Epsilon: 1, Delta: 1e-3, Lt2: 2},
		Mode:    dpb.Padded,
		// Noise unset: secure noise from crypto/rand (dpb.NoiseSecure).
	}, dpb.Stream(42, 1))
	if err != nil {
		fmt.Println(err)
		return
	}
	// The user's stream: k candidate items per visit, unit feature vectors,
	// and a click-like reward in [0, 1] (here simulated from a hidden θ).
	data := rand.New(rand.NewPCG(1, 2))
	theta := []float64{0.6, -0.2, 0.5, 0.1}
	r := &dpb.Round{K: k, Dim: d, Actions: make([]float64, k*d)}
	visit := func(t int) {
		r.T = t
		for a := range k {
			x := r.Action(a)
			var n2 float64
			for i := range x {
				x[i] = data.NormFloat64()
				n2 += x[i] * x[i]
			}
			for i := range x {
				x[i] /= math.Sqrt(n2)
			}
		}
		arm := pol.Choose(r)
		var mean float64
		for i, v := range r.Action(arm) {
			mean += theta[i] * v
		}
		reward := 0.0
		if data.Float64() < (1+mean)/2 {
			reward = 1
		}
		pol.Update(r, arm, reward) // ‖x‖² + y² ≤ 2 = L̃²
	}
	for t := 1; t <= 2500; t++ {
		visit(t)
	}
	saved, _ := pol.MarshalBinary() // e.g. to a file before a restart

	restored, _ := dpb.NewAnytimeSS18(dpb.SS18Config{
		Alg:     dpb.SS18Gaussian,
		Setting: dpb.SS18Setting{D: d, N: 1000, Epsilon: 1, Delta: 1e-3, Lt2: 2},
		Mode:    dpb.Padded,
	}, dpb.Stream(0, 0)) // any seed: the state is restored
	if err := restored.UnmarshalBinary(saved); err != nil {
		fmt.Println(err)
		return
	}
	pol = restored
	for t := 2501; t <= 5000; t++ {
		visit(t)
	}
	e, n := pol.Epoch()
	pr := pol.Privacy()
	fmt.Printf("rounds %d, epoch %d of horizon %d\n", pol.Rounds(), e, n)
	fmt.Printf("(ε, δ) = (%g, %g) over all %d rounds, err %v\n", pr.Epsilon, pr.Delta, pol.Rounds(), pol.Err())
	fmt.Printf("noise %s, release-grade %v: %s\n", pr.Noise, pr.ReleaseGrade(), pr.NoiseNote())
	// Output:
	// rounds 5000, epoch 2 of horizon 4000
	// (ε, δ) = (1, 0.001) over all 5000 rounds, err <nil>
	// noise secure, release-grade true: secure noise (exact discrete sampler, crypto/rand)
}

// DP-UCB (MT14 Algorithm 1) on one's own stream of Bernoulli rewards, for
// an unknown horizon: ε = 1 for the whole run, whatever its length, on
// secure noise (Noise unset).
func ExampleNewAnytimeDPUCB() {
	pol, err := dpb.NewAnytimeDPUCB(dpb.DPUCBConfig{Arms: 3, Horizon: 1000, Epsilon: 1}, dpb.Stream(42, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctr := []float64{0.05, 0.5, 0.08} // the user's arms (unknown to the policy)
	data := rand.New(rand.NewPCG(3, 4))
	r := &dpb.Round{K: 3}
	pulls := make([]int, 3)
	for t := 1; t <= 20000; t++ {
		r.T = t
		a := pol.Choose(r)
		pulls[a]++
		reward := 0.0
		if data.Float64() < ctr[a] {
			reward = 1
		}
		pol.Update(r, a, reward)
	}
	e, _ := pol.Epoch()
	fmt.Printf("epoch %d; best arm pulled most: %v\n", e, pulls[1] > pulls[0] && pulls[1] > pulls[2])
	fmt.Printf("ε = %g, δ = %g, release-grade %v\n", pol.Privacy().Epsilon, pol.Privacy().Delta, pol.Privacy().ReleaseGrade())
	// Output:
	// epoch 4; best arm pulled most: true
	// ε = 1, δ = 0, release-grade true
}

// What a private policy guarantees, and why: Privacy follows ε from the
// configuration to the node noise, and names the noise. The Gaussian tree
// with Noise unset runs on secure noise; the Wishart tree has no secure
// sampler, so it needs NoiseSimulated named (and says that its guarantee is
// then not release-grade), and refuses an unset Noise.
func ExampleLinUCB_Privacy() {
	for _, c := range []struct {
		alg   dpb.SS18Alg
		noise dpb.NoiseMode
	}{{dpb.SS18Gaussian, dpb.NoiseDefault}, {dpb.SS18Wishart, dpb.NoiseSimulated}, {dpb.SS18Wishart, dpb.NoiseDefault}} {
		pol, err := dpb.NewSS18Policy(dpb.SS18Config{
			Alg:     c.alg,
			Setting: dpb.SS18Setting{D: 5, N: 100000, Epsilon: 1, Delta: 0.1, Lt2: 2},
			Noise:   c.noise,
		}, dpb.Stream(1, 1))
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(pol.Privacy())
	}
	// Output:
	// (ε = 1, δ = 0.1)-DP on secure noise (exact discrete sampler, crypto/rand): SS18 §4.2 Gaussian tree: symmetrised N(0, σ²) per node, σ = 4√m L̃² ln(4/δ)/ε = 125.2, L̃² = 2, one round enters m = 18 nodes over n = 100000 rounds (zCDP certifies ε = 0.148 at this δ); joint DP by post-processing (Thm. 7); on the discrete noise: the continuous mechanism is μ-GDP with μ = 0.0677713, and the discrete one within total variation (accounting.DiscreteGaussianDelta) of its rounding, so (ε = 0, δ = 0.1)-DP; secure sampler: exact discrete Gaussian on a grid, data rounded to it and the scale inflated for the rounding (dpb/counter's grid wrapper, noise.NewSecureGaussianNoise)
	// (ε = 1, δ = 0.1)-DP on simulated noise, not a release-grade guarantee (floating-point samplers: it holds for the mechanism in exact arithmetic): SS18 §4.1 Wishart tree: W_6(L̃² I, k = 87848) per node (k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉, the printed calibration), L̃² = 2, one round enters m = 18 nodes over n = 100000 rounds, advanced composition over the m levels (Thm. 8); joint DP by post-processing (Thm. 7)
	// noise: Noise is unset, which means secure noise, and this mechanism has none: set Noise to noise.Simulated to run it on seeded floating-point noise, not a release-grade guarantee (its low bits can reveal the data). ss18: the Wishart tree has no secure sampler: an exact Wishart on a grid would need its own privacy proof (noise.Secure is available for the Gaussian variants on every counter, DP-UCB, DP-FTRL and the private MAB family)
}
