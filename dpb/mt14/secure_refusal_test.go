package mt14

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// DP-UCB's Laplace noise has no secure sampler on the square-root and BLT
// counters (their secure measurements are discrete Gaussian only): unset or
// secure, the refusal says to name noise.Simulated (issue 56); named, the
// same configuration builds (the control: the refusal is about the noise).
func TestDPUCBSecureRefusalNamesSimulated(t *testing.T) {
	for _, kind := range []counter.Kind{counter.Sqrt, counter.BLT} {
		for _, m := range []noise.Mode{noise.Default, noise.Secure, noise.SecureSeeded} {
			cfg := DPUCBConfig{Arms: 3, Horizon: 64, Epsilon: 1, Counter: kind, Mode: counter.Plain, NoRelaxation: true, Noise: m}
			_, err := NewDPUCB(cfg, bandit.Stream(1, 1))
			if err == nil || !strings.Contains(err.Error(), "noise.Simulated") {
				t.Errorf("DP-UCB on %v, noise %v: error %v, want one that says to name noise.Simulated", kind, m, err)
			}
			cfg.Noise = noise.Simulated
			if _, err := NewDPUCB(cfg, bandit.Stream(1, 1)); err != nil {
				t.Errorf("DP-UCB on %v, simulated: %v", kind, err)
			}
		}
	}
}
