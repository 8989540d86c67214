package audit

import (
	"fmt"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// All returns every audit, in table order.
func All() []*Mechanism {
	ms := []*Mechanism{
		laplaceCounter("laplace-tree-plain", counter.Plain, noise.NoiseSimulated),
		laplaceCounter("laplace-tree-padded", counter.Padded, noise.NoiseSimulated),
		laplaceCounter("laplace-tree-plain-secure", counter.Plain, noise.NoiseSecure),
		fpAttack("fp-attack-default", noise.NoiseSimulated),
		fpAttack("fp-attack-secure", noise.NoiseSecure),
		gaussianTree("ss18-gaussian-tree", noise.NoiseSimulated),
		gaussianTree("ss18-gaussian-tree-secure", noise.NoiseSecure),
		wishartTree("ss18-wishart-tree"),
		dpucb("mt14-dpucb-arms", noise.NoiseSimulated),
		dpucb("mt14-dpucb-arms-secure", noise.NoiseSecure),
		ftrl("as17-ftrl-predictions", noise.NoiseSimulated),
		ftrl("as17-ftrl-predictions-secure", noise.NoiseSecure),
		linUCB("ss18-linucb-joint", noise.NoiseSimulated),
		linUCB("ss18-linucb-joint-secure", noise.NoiseSecure),
	}
	for _, k := range counter.CounterKinds {
		ms = append(ms, gaussianCounter(k))
	}
	ms = append(ms,
		fpAttackGaussian("fp-attack-gaussian-default", noise.NoiseSimulated),
		fpAttackGaussian("fp-attack-gaussian-secure", noise.NoiseSecure))
	ms = append(ms, privMABAudits()...)
	for _, m := range ms {
		if strings.HasSuffix(m.Name, "-secure") && !strings.HasPrefix(m.Name, "fp-attack") {
			// The exact samplers cost about a microsecond a draw
			// (crypto/rand bits): a quarter of the runs.
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

// RunNamed runs the audits of the given names (all of them when names is
// empty) in table order.
func RunNamed(names []string, opt Options) ([]Result, error) {
	ms := All()
	if len(names) > 0 {
		ms = ms[:0]
		for _, n := range names {
			m, err := Lookup(n)
			if err != nil {
				return nil, err
			}
			ms = append(ms, m)
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
