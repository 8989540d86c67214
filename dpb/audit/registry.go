package audit

import (
	"fmt"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// All returns every audit, in table order, the secure rows with their bits
// from each run's seeded stream (noise.SecureSeeded: the same exact
// discrete laws as crypto/rand gives, so the same privacy, and a table that
// one seed reproduces).
func All() []*Mechanism { return AllWith(noise.SecureSeeded) }

// AllWith returns every audit with the secure rows in the given secure mode
// (noise.Secure audits the samplers on crypto/rand bits: a table that
// differs from run to run in those rows).
func AllWith(secure noise.Mode) []*Mechanism {
	if !secure.Secure() {
		panic("audit: AllWith wants a secure noise mode")
	}
	ms := []*Mechanism{
		laplaceCounter("laplace-tree-plain", counter.Plain, noise.Simulated),
		laplaceCounter("laplace-tree-padded", counter.Padded, noise.Simulated),
		laplaceCounter("laplace-tree-plain-secure", counter.Plain, secure),
		fpAttack("fp-attack-default", noise.Simulated),
		fpAttack("fp-attack-secure", secure),
		gaussianTree("ss18-gaussian-tree", noise.Simulated),
		gaussianTree("ss18-gaussian-tree-secure", secure),
		wishartTree("ss18-wishart-tree"),
		dpucb("mt14-dpucb-arms", noise.Simulated),
		dpucb("mt14-dpucb-arms-secure", secure),
		ftrl("as17-ftrl-predictions", noise.Simulated),
		ftrl("as17-ftrl-predictions-secure", secure),
		ftrlE2EGaussian(1, noise.Simulated),
		ftrlE2ELaplace(1, noise.Simulated),
		linUCB("ss18-linucb-joint", noise.Simulated),
		linUCB("ss18-linucb-joint-secure", secure),
	}
	for _, k := range counter.Kinds {
		ms = append(ms, gaussianCounter(k, noise.Simulated))
	}
	ms = append(ms,
		fpAttackGaussian("fp-attack-gaussian-default", noise.Simulated),
		fpAttackGaussian("fp-attack-gaussian-secure", secure))
	ms = append(ms, fpAttackCounterAudits(secure)...)
	ms = append(ms, privMABAudits()...)
	for _, a := range E2EAlgs {
		ms = append(ms, e2eAudit(a, noise.Simulated))
	}
	// The off-diagonal pair beside the diagonal one (tree counter).
	ms = append(ms, gaussianE2EOffDiag(ss18.GaussianExact, noise.Simulated))
	// The noise levers (issue 55) on simulated noise: the split on the
	// pair that moves u the most, the one that moves V the most and the
	// one that maximises μ²; the Toeplitz exponent on the BLT row's pair;
	// both levers on the split's worst pair.
	ms = append(ms, leverAudits()...)
	// The same end-to-end rows on the secure sampler (not the Wishart, which
	// has none), each with a control built for ε′, and the calibrated
	// Gaussian counters and the DP-FTRL end-to-end rows on it: the secure
	// rows whose test sees the discrete law and whose control shows it
	// could fail (issue 56).
	for _, a := range E2EAlgs {
		if a != ss18.WishartTight {
			ms = append(ms, e2eAudit(a, secure))
		}
	}
	for _, k := range counter.Kinds {
		ms = append(ms, gaussianCounter(k, secure))
	}
	ms = append(ms, ftrlE2EGaussian(1, secure), ftrlE2ELaplace(1, secure))
	// The noise levers on the secure sampler: each on its worst pair.
	ms = append(ms, leverSecureAudits(secure)...)
	for _, m := range ms {
		if strings.HasSuffix(m.Name, "-secure") && !strings.HasPrefix(m.Name, "fp-attack") {
			// The exact samplers cost about a microsecond a draw: a
			// quarter of the runs.
			m.Trials /= 4
			m.ShortTrials /= 2
		}
	}
	return ms
}

// Names returns the names of every audit, in table order.
func Names() []string {
	var s []string
	for _, m := range All() {
		s = append(s, m.Name)
	}
	return s
}

// Lookup returns the audit of the given name; an unknown name is an error
// wrapping [ErrUnknown] that lists the known ones.
func Lookup(name string) (*Mechanism, error) {
	for _, m := range All() {
		if m.Name == name {
			return m, nil
		}
	}
	return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknown, name, Names())
}

// NoiseModes returns the noise the audits run on, as their JSON records it:
// the simulated rows' [noise.Simulated], then the secure rows' mode,
// [noise.Secure] (bits from crypto/rand) with CryptoBits, else
// [noise.SecureSeeded] (bits from each run's seeded stream).
func (o Options) NoiseModes() []noise.Mode {
	if o.CryptoBits {
		return []noise.Mode{noise.Simulated, noise.Secure}
	}
	return []noise.Mode{noise.Simulated, noise.SecureSeeded}
}

// RunNamed runs the audits of the given names (all of them when names is
// empty) in table order; the secure rows draw their bits from crypto/rand
// with opt.CryptoBits, else from each run's seeded stream.
func RunNamed(names []string, opt Options) ([]Result, error) {
	all := AllWith(opt.NoiseModes()[1])
	ms := all
	if len(names) > 0 {
		ms = nil
		for _, n := range names {
			if _, err := Lookup(n); err != nil {
				return nil, err
			}
			for _, m := range all {
				if m.Name == n {
					ms = append(ms, m)
				}
			}
		}
	}
	var rs []Result
	for _, m := range ms {
		r, err := Run(m, opt)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}
