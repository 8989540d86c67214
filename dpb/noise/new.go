package noise

import (
	"fmt"
	"math/rand/v2"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// Law names the distribution of a node noise ([Config]).
type Law int

const (
	// LawUnset is the zero Law: [New] refuses it (a noise names its law).
	LawUnset Law = iota
	// LaplaceLaw is i.i.d. Lap(Scale) entries ([LaplaceNoise]; on secure
	// modes the discrete Laplace of [SecureNoise]): the node noise of MT14
	// Algorithm 1 and AS17 Algorithm 2.
	LaplaceLaw
	// GaussianLaw is independent N(0, σ²) entries ([GaussianNoise]; on
	// secure modes the discrete Gaussian, one σ per entry if Sigmas is set).
	GaussianLaw
	// SymGaussianLaw is the symmetrised Gaussian n×n matrix of SS18 §4.2,
	// σ off the diagonal and √2σ on it, packed ([SymGaussianNoise]; on
	// secure modes its discrete counterpart).
	SymGaussianLaw
	// WishartLaw is W_n(Scale·I, DF) of SS18 §4.1 by the Bartlett
	// decomposition ([WishartNoise]); it has no secure sampler.
	WishartLaw
)

func (l Law) String() string {
	switch l {
	case LawUnset:
		return "unset"
	case LaplaceLaw:
		return "laplace"
	case GaussianLaw:
		return "gaussian"
	case SymGaussianLaw:
		return "sym-gaussian"
	case WishartLaw:
		return "wishart"
	}
	return fmt.Sprintf("Law(%d)", int(l))
}

// Config configures a node noise for [New]: one struct for every law and
// mode, printable (%+v) and validated by New (Google DP's
// dpagg.CountOptions shape). Fields a law does not use must be left zero.
type Config struct {
	// Law is the distribution. Required.
	Law Law
	// Mode is how it is sampled: Simulated (seeded floating point), Secure
	// (exact discrete on a grid, crypto/rand) or SecureSeeded (the same, bits
	// from the rng passed to New). Defaults (Default) to Secure, as in every
	// policy's config; the Wishart, which has no secure sampler, then
	// returns an error wrapping ErrNoSecure that says to name Simulated.
	Mode Mode
	// Dim is the dimension of the vector laws (Laplace, Gaussian). Required
	// for them (>= 1), except that a secure Gaussian given Sigmas takes its
	// dimension from them.
	Dim int
	// N is the matrix size n of the matrix laws (SymGaussian, Wishart), whose
	// Dim() is PackedLen(n). Required for them (>= 1).
	N int
	// Scale is the Laplace scale b or the Wishart scale s (> 0, finite).
	// Required for those laws.
	Scale float64
	// Sigma is σ of the Gaussian and symmetrised Gaussian laws (> 0,
	// finite). Required for them, unless Sigmas is set.
	Sigma float64
	// SigmaU splits the symmetrised Gaussian (SS18's (d+1)×(d+1) statistic,
	// N = d+1): the last row and column (the reward vector u) get σ_u =
	// SigmaU, the Gram block keeps Sigma (see [NewSymGaussianSplit]; on the
	// secure modes the discrete σ of each entry is inflated as for any
	// secure Gaussian with one σ per entry). Optional (> 0, finite);
	// symmetrised Gaussian only.
	SigmaU float64
	// Sigmas gives a secure Gaussian one σ per entry (each > 0, finite;
	// Dim then 0 or len(Sigmas), Sigma 0). Optional; secure Gaussian only.
	Sigmas []float64
	// DF is the Wishart's degrees of freedom k (> N − 1, finite). Required
	// for the Wishart.
	DF float64
	// Sensitivity is the ℓ1 (Laplace) or ℓ2 (Gaussian laws) sensitivity the
	// noise is calibrated to, which the secure samplers need to pay for
	// rounding the data to their grid (see [SecureNoise]). Required (> 0) on
	// the secure modes; the simulated samplers ignore it (but it must be
	// finite and >= 0).
	Sensitivity float64
	// Slack is the extra ℓ2 sensitivity (in the units of Sensitivity) a secure
	// Gaussian or symmetrised Gaussian pays for beyond the rounding
	// (counter.ToeplitzSlack). Optional (finite, >= 0); ignored by the
	// simulated samplers.
	Slack float64
}

// New returns the node noise cfg describes, drawing from rng: the simulated
// samplers draw from it (the symmetrised Gaussian and the Wishart seed their
// fast generator from it at construction), SecureSeeded takes its bits from
// it, and Secure ignores it (crypto/rand; rng may then be nil). A nil rng in
// the other modes is a programmer error (panics). An invalid field is an
// error naming it.
func New(cfg Config, rng *rand.Rand) (Noise, error) {
	if err := CheckMode(cfg.Mode); err != nil {
		return nil, err
	}
	mode := cfg.Mode.Resolve()
	if rng == nil && mode != Secure {
		panic(param.NilRand)
	}
	if err := cfg.checkFields(mode); err != nil {
		return nil, err
	}
	if !mode.Secure() {
		switch cfg.Law {
		case LaplaceLaw:
			return built(newLaplace(cfg.Dim, cfg.Scale, rng))
		case GaussianLaw:
			return built(newGaussian(cfg.Dim, cfg.Sigma, rng))
		case SymGaussianLaw:
			if cfg.SigmaU != 0 {
				return built(NewSymGaussianSplit(cfg.N, cfg.Sigma, cfg.SigmaU, rng))
			}
			return built(newSymGaussian(cfg.N, cfg.Sigma, rng))
		case WishartLaw:
			return built(newWishart(cfg.N, cfg.Scale, cfg.DF, rng))
		}
	}
	var s *SecureNoise
	var err error
	switch cfg.Law {
	case LaplaceLaw:
		s, err = newSecureLaplace(cfg.Dim, cfg.Scale, cfg.Sensitivity)
	case GaussianLaw:
		sigmas := cfg.Sigmas
		if sigmas == nil {
			if err := param.CheckDim("dimension", cfg.Dim); err != nil {
				return nil, err
			}
			sigmas = make([]float64, cfg.Dim)
			for i := range sigmas {
				sigmas[i] = cfg.Sigma
			}
		}
		s, err = newSecureGaussian(sigmas, cfg.Sensitivity, cfg.Slack)
	case SymGaussianLaw:
		s, err = newSecureSymGaussian(cfg.N, cfg.Sigma, cfg.SigmaU, cfg.Sensitivity, cfg.Slack)
	case WishartLaw:
		err = ExplainDefault(cfg.Mode, NoSecure("noise: the Wishart has no secure sampler: an exact Wishart on a grid would need its own privacy proof"))
	}
	if err != nil {
		return nil, err
	}
	s.SeedFrom(mode, rng)
	return s, nil
}

// checkFields refuses a field the law (or the resolved mode) does not use,
// and an unknown law; the samplers' constructors check the values.
func (cfg Config) checkFields(mode Mode) error {
	vector := cfg.Law == LaplaceLaw || cfg.Law == GaussianLaw
	switch {
	case cfg.Law == LawUnset:
		return fmt.Errorf("noise: the law is unset: name LaplaceLaw, GaussianLaw, SymGaussianLaw or WishartLaw")
	case cfg.Law < LawUnset || cfg.Law > WishartLaw:
		return fmt.Errorf("noise: unknown law %d", int(cfg.Law))
	case vector && cfg.N != 0:
		return fmt.Errorf("noise: N is %d for the %v law: a vector law takes Dim", cfg.N, cfg.Law)
	case !vector && cfg.Dim != 0:
		return fmt.Errorf("noise: Dim is %d for the %v law: a matrix law takes N (its Dim() is PackedLen(N))", cfg.Dim, cfg.Law)
	case cfg.Scale != 0 && cfg.Law != LaplaceLaw && cfg.Law != WishartLaw:
		return fmt.Errorf("noise: Scale is %v for the %v law: only the Laplace and the Wishart take one (a Gaussian takes Sigma)", cfg.Scale, cfg.Law)
	case cfg.Sigma != 0 && cfg.Law != GaussianLaw && cfg.Law != SymGaussianLaw:
		return fmt.Errorf("noise: Sigma is %v for the %v law: only the Gaussian laws take one", cfg.Sigma, cfg.Law)
	case cfg.DF != 0 && cfg.Law != WishartLaw:
		return fmt.Errorf("noise: DF is %v for the %v law: only the Wishart takes one", cfg.DF, cfg.Law)
	case cfg.SigmaU != 0 && cfg.Law != SymGaussianLaw:
		return fmt.Errorf("noise: SigmaU is %v for the %v law: only the symmetrised Gaussian is split", cfg.SigmaU, cfg.Law)
	case cfg.Sigmas != nil && (cfg.Law != GaussianLaw || !mode.Secure()):
		return fmt.Errorf("noise: Sigmas given for the %v law on %v noise: only the secure Gaussian takes one σ per entry", cfg.Law, mode)
	case cfg.Sigmas != nil && cfg.Sigma != 0:
		return fmt.Errorf("noise: both Sigma and Sigmas given: set one")
	case cfg.Sigmas != nil && cfg.Dim != 0 && cfg.Dim != len(cfg.Sigmas):
		return fmt.Errorf("noise: Dim is %d and Sigmas has %d entries", cfg.Dim, len(cfg.Sigmas))
	case cfg.Slack != 0 && cfg.Law != GaussianLaw && cfg.Law != SymGaussianLaw:
		return fmt.Errorf("noise: sensitivity slack is %v for the %v law: only the Gaussian laws take one", cfg.Slack, cfg.Law)
	}
	if err := param.CheckFinite("sensitivity", cfg.Sensitivity); err != nil {
		return err
	}
	if cfg.Sensitivity < 0 {
		return fmt.Errorf("noise: sensitivity is %v, must be > 0 (or 0 on simulated noise, which ignores it)", cfg.Sensitivity)
	}
	if err := param.CheckFinite("sensitivity slack", cfg.Slack); err != nil {
		return err
	}
	if cfg.Slack < 0 {
		return fmt.Errorf("noise: sensitivity slack is %v, must be >= 0", cfg.Slack)
	}
	return nil
}

// built returns n as a Noise, or a nil Noise (not one holding a nil
// pointer) on error.
func built[N Noise](n N, err error) (Noise, error) {
	if err != nil {
		return nil, err
	}
	return n, nil
}
