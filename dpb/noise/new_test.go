package noise

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// New builds, for each law and mode, the sampler the law names with the
// parameters given: the same draws, bit for bit, as the sampler built
// directly from the same seed (so the constructors migrated to New release
// what they did); a secure Gaussian given Sigma and Dim is the one given
// Sigmas of Dim equal entries.
func TestNewBuildsTheNamedSampler(t *testing.T) {
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(5, 8)) }
	direct := func(n Noise, err error) Noise {
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		name string
		cfg  Config
		want func(rng *rand.Rand) Noise
	}{
		{"laplace", Config{Law: LaplaceLaw, Mode: Simulated, Dim: 3, Scale: 2}, func(r *rand.Rand) Noise { return direct(newLaplace(3, 2, r)) }},
		{"gaussian", Config{Law: GaussianLaw, Mode: Simulated, Dim: 3, Sigma: 2}, func(r *rand.Rand) Noise { return direct(newGaussian(3, 2, r)) }},
		{"sym", Config{Law: SymGaussianLaw, Mode: Simulated, N: 3, Sigma: 2}, func(r *rand.Rand) Noise { return direct(newSymGaussian(3, 2, r)) }},
		{"wishart", Config{Law: WishartLaw, Mode: Simulated, N: 3, Scale: 2, DF: 9}, func(r *rand.Rand) Noise { return direct(newWishart(3, 2, 9, r)) }},
		{"secure laplace", Config{Law: LaplaceLaw, Mode: SecureSeeded, Dim: 3, Scale: 2, Sensitivity: 1}, func(r *rand.Rand) Noise {
			s, err := newSecureLaplace(3, 2, 1)
			s.SeedFrom(SecureSeeded, r)
			return direct(s, err)
		}},
		{"secure gaussian", Config{Law: GaussianLaw, Mode: SecureSeeded, Dim: 2, Sigma: 3, Sensitivity: 1, Slack: 0.5}, func(r *rand.Rand) Noise {
			s, err := newSecureGaussian([]float64{3, 3}, 1, 0.5)
			s.SeedFrom(SecureSeeded, r)
			return direct(s, err)
		}},
		{"secure sigmas", Config{Law: GaussianLaw, Mode: SecureSeeded, Sigmas: []float64{3, 7}, Sensitivity: 1}, func(r *rand.Rand) Noise {
			s, err := newSecureGaussian([]float64{3, 7}, 1, 0)
			s.SeedFrom(SecureSeeded, r)
			return direct(s, err)
		}},
		{"secure sym", Config{Law: SymGaussianLaw, Mode: SecureSeeded, N: 2, Sigma: 3, Sensitivity: math.Sqrt2, Slack: 0.25}, func(r *rand.Rand) Noise {
			s, err := newSecureSymGaussian(2, 3, 0, math.Sqrt2, 0.25)
			s.SeedFrom(SecureSeeded, r)
			return direct(s, err)
		}},
		{"secure sym split", Config{Law: SymGaussianLaw, Mode: SecureSeeded, N: 3, Sigma: 3, SigmaU: 5, Sensitivity: 2, Slack: 0.25}, func(r *rand.Rand) Noise {
			s, err := newSecureGaussian([]float64{3 * math.Sqrt2, 3, 5, 3 * math.Sqrt2, 5, 5 * math.Sqrt2}, 2, 0.25)
			s.SeedFrom(SecureSeeded, r)
			return direct(s, err)
		}},
	} {
		got, err := New(c.cfg, seed())
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want := c.want(seed())
		if got.Dim() != want.Dim() || ModeOf(got) != ModeOf(want) {
			t.Errorf("%s: Dim %d mode %v, want %d %v", c.name, got.Dim(), ModeOf(got), want.Dim(), ModeOf(want))
			continue
		}
		a, b := make([]float64, got.Dim()), make([]float64, want.Dim())
		for draw := range 20 {
			got.Sample(a)
			want.Sample(b)
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("%s: draw %d entry %d is %v, want %v", c.name, draw, i, a[i], b[i])
				}
			}
		}
	}
}

// New refuses every invalid field with an error naming it, never returns a
// noise beside an error, and panics on a nil generator unless the mode is
// Secure (crypto/rand).
func TestNewConfigErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Dim: 2, Scale: 1}, "law is unset"},
		{Config{Law: Law(9), Dim: 2, Scale: 1}, "unknown law 9"},
		{Config{Law: LaplaceLaw, Mode: Mode(7), Dim: 2, Scale: 1}, "unknown noise mode 7"},
		{Config{Law: LaplaceLaw, Mode: Simulated, Dim: 0, Scale: 1}, "dimension"},
		{Config{Law: LaplaceLaw, Mode: Simulated, Dim: 2, Scale: -1}, "laplace scale"},
		{Config{Law: LaplaceLaw, Mode: Simulated, Dim: 2, Scale: math.NaN()}, "laplace scale"},
		{Config{Law: LaplaceLaw, Mode: Simulated, N: 2, Scale: 1}, "N is 2 for the laplace law"},
		{Config{Law: SymGaussianLaw, Mode: Simulated, Dim: 2, Sigma: 1}, "Dim is 2 for the sym-gaussian law"},
		{Config{Law: GaussianLaw, Mode: Simulated, Dim: 2, Scale: 1}, "Scale is 1 for the gaussian law"},
		{Config{Law: GaussianLaw, Mode: Simulated, Dim: 2, Sigma: math.Inf(1)}, "gaussian sigma"},
		{Config{Law: LaplaceLaw, Mode: Simulated, Dim: 2, Scale: 1, Sigma: 1}, "Sigma is 1 for the laplace law"},
		{Config{Law: LaplaceLaw, Mode: Simulated, Dim: 2, Scale: 1, DF: 3}, "DF is 3"},
		{Config{Law: WishartLaw, Mode: Simulated, N: 3, Scale: 1, DF: 2}, "degrees of freedom"},
		{Config{Law: GaussianLaw, Mode: Simulated, Dim: 2, Sigmas: []float64{1, 1}}, "only the secure Gaussian"},
		{Config{Law: GaussianLaw, Mode: Secure, Sigma: 1, Sigmas: []float64{1, 1}, Sensitivity: 1}, "both Sigma and Sigmas"},
		{Config{Law: GaussianLaw, Mode: Secure, Dim: 3, Sigmas: []float64{1, 1}, Sensitivity: 1}, "Dim is 3 and Sigmas has 2"},
		{Config{Law: GaussianLaw, Mode: Secure, Dim: 2, Sigma: 1}, "sensitivity"},
		{Config{Law: LaplaceLaw, Mode: Secure, Dim: 2, Scale: 1, Sensitivity: -1}, "sensitivity is -1"},
		{Config{Law: LaplaceLaw, Mode: Simulated, Dim: 2, Scale: 1, Sensitivity: math.NaN()}, "sensitivity"},
		{Config{Law: LaplaceLaw, Mode: Secure, Dim: 2, Scale: 1, Sensitivity: 1, Slack: 1}, "slack is 1 for the laplace law"},
		{Config{Law: GaussianLaw, Mode: Secure, Dim: 2, Sigma: 1, Sensitivity: 1, Slack: -1}, "slack is -1"},
		{Config{Law: WishartLaw, N: 3, Scale: 1, DF: 5}, "Noise is unset"},
		{Config{Law: WishartLaw, Mode: Secure, N: 3, Scale: 1, DF: 5}, "no secure sampler"},
	} {
		n, err := New(c.cfg, rng)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.cfg, err, c.want)
		}
		if n != nil {
			t.Errorf("%+v: a non-nil noise beside the error", c.cfg)
		}
	}
	if _, err := New(Config{Law: WishartLaw, N: 3, Scale: 1, DF: 5}, rng); !errors.Is(err, ErrNoSecure) {
		t.Errorf("the Wishart on the unset mode: %v, want ErrNoSecure", err)
	}
	if n, err := New(Config{Law: LaplaceLaw, Mode: Secure, Dim: 1, Scale: 1, Sensitivity: 1}, nil); err != nil || ModeOf(n) != Secure {
		t.Errorf("secure noise without a generator: %v, %v", n, err)
	}
	for _, m := range []Mode{Simulated, SecureSeeded} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%v: nil *rand.Rand accepted", m)
				}
			}()
			_, _ = New(Config{Law: LaplaceLaw, Mode: m, Dim: 1, Scale: 1, Sensitivity: 1}, nil)
		}()
	}
}
