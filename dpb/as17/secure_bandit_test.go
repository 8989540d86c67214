package as17

import (
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// Private EXP2 and SCRiBLE (AS17 Algorithm 4 around Algorithms 5 and
// SCRiBLE) with the noise mode left unset run on secure noise and say so:
// a release-grade guarantee, never a silent simulation (issue 56).
func TestPrivateBanditsUnsetNoiseIsSecure(t *testing.T) {
	type privacier interface{ Privacy() bandit.Privacy }
	build := map[string]func() (BanditLearner, error){
		"exp2": func() (BanditLearner, error) {
			return NewPrivateExp2(Exp2Config{Arms: 4, Horizon: 64, Epsilon: 1}, bandit.Stream(1, 1))
		},
		"scrible-ball": func() (BanditLearner, error) {
			return NewPrivateSCRiBLE(SCRiBLEConfig{Set: Ball, Dim: 3, Horizon: 64, Epsilon: 1}, bandit.Stream(1, 1))
		},
		"scrible-cube": func() (BanditLearner, error) {
			return NewPrivateSCRiBLE(SCRiBLEConfig{Set: Cube, Dim: 3, Horizon: 64, Epsilon: 1}, bandit.Stream(1, 1))
		},
	}
	for name, f := range build {
		b, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := b.(privacier).Privacy()
		if p.Noise != "secure" || !p.ReleaseGrade() {
			t.Errorf("%s with Noise unset: noise %q, release-grade %v: %s", name, p.Noise, p.ReleaseGrade(), p)
		}
	}
}
