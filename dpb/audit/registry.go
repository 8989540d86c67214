package audit

import (
	"fmt"
	"strings"

	"github.com/dpbandits/dpbandits/dpb"
)

// All returns every audit, in table order.
func All() []*Mechanism {
	ms := []*Mechanism{
		laplaceCounter("laplace-tree-plain", dpb.Plain, dpb.NoiseSimulated),
		laplaceCounter("laplace-tree-padded", dpb.Padded, dpb.NoiseSimulated),
		laplaceCounter("laplace-tree-plain-secure", dpb.Plain, dpb.NoiseSecure),
		fpAttack("fp-attack-default", dpb.NoiseSimulated),
		fpAttack("fp-attack-secure", dpb.NoiseSecure),
		gaussianTree("ss18-gaussian-tree", dpb.NoiseSimulated),
		gaussianTree("ss18-gaussian-tree-secure", dpb.NoiseSecure),
		wishartTree("ss18-wishart-tree"),
		dpucb("mt14-dpucb-arms", dpb.NoiseSimulated),
		dpucb("mt14-dpucb-arms-secure", dpb.NoiseSecure),
		ftrl("as17-ftrl-predictions", dpb.NoiseSimulated),
		ftrl("as17-ftrl-predictions-secure", dpb.NoiseSecure),
		linUCB("ss18-linucb-joint", dpb.NoiseSimulated),
		linUCB("ss18-linucb-joint-secure", dpb.NoiseSecure),
	}
	for _, k := range dpb.CounterKinds {
		ms = append(ms, gaussianCounter(k))
	}
	ms = append(ms,
		fpAttackGaussian("fp-attack-gaussian-default", dpb.NoiseSimulated),
		fpAttackGaussian("fp-attack-gaussian-secure", dpb.NoiseSecure))
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
