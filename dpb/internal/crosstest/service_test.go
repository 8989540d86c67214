package crosstest

import (
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/anytime"
	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
	"github.com/dpbandits/dpbandits/dpb/mt14"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// unitRound fills a round of k unit-norm actions in dimension d from seed.
func unitRound(d, k int, seed uint64) *bandit.Round {
	rng := bandit.Stream(seed, 1)
	r := &bandit.Round{T: 1, K: k, Dim: d, Actions: make([]float64, k*d)}
	for a := range k {
		x := r.Action(a)
		var n2 float64
		for i := range x {
			x[i] = rng.NormFloat64()
			n2 += x[i] * x[i]
		}
		for i := range x {
			x[i] /= math.Sqrt(n2)
		}
	}
	return r
}

// A NaN or infinite feature is never scored: ChooseErr returns an error
// naming it, Choose panics, and the policy is unchanged. (Before, Choose
// scored the NaN and played an action.)
func TestNonFiniteFeatureIsAnError(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting, Noise: noise.Simulated}, bandit.Stream(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		a, err := anytime.NewSS18FromSource(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting, Noise: noise.Simulated}, bandit.StreamSource(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		r := unitRound(3, 4, 2)
		r.Actions[2*3+1] = bad
		for name, c := range map[string]bandit.Checked{"LinUCB": p, "anytime.SS18": a, "Locked": bandit.NewLocked(p)} {
			arm, err := c.ChooseErr(r)
			if err == nil || arm != -1 {
				t.Errorf("%s, feature %v: ChooseErr = %d, %v; want -1 and an error", name, bad, arm, err)
			} else if !strings.Contains(err.Error(), "feature 1 of action 2") {
				t.Errorf("%s: error %q does not name feature 1 of action 2", name, err)
			}
			if msg := testkit.MustPanic(t, func() { c.Choose(r) }); !strings.Contains(msg, "must be finite") {
				t.Errorf("%s, feature %v: Choose panic %q, want the finite-feature message", name, bad, msg)
			}
		}
		if p.Rounds() != 0 || p.Err() != nil {
			t.Errorf("refused round changed the policy: %d rounds, Err %v", p.Rounds(), p.Err())
		}
	}
	// Finite features whose scores overflow (the refusal looks at the scores
	// first) are played, not refused.
	p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := unitRound(3, 4, 2)
	r.Actions[4] = 1e300
	if arm, err := p.ChooseErr(r); err != nil || arm < 0 {
		t.Errorf("feature 1e300: ChooseErr = %d, %v; want an arm and no error", arm, err)
	}
	if testkit.MustPanic(t, func() { p.Choose(r) }) != "" {
		t.Errorf("feature 1e300: Choose panicked")
	}
}

// UpdateErr skips a record the mechanism cannot take, counts it and keeps
// learning, with Err still nil; the skipped round enters the tree as the
// zero observation, so the policy after it has the same bits as one fed
// (0, 0) in its place. Update, given the same record, stops for good (the
// sticky Err). (Before, there was only the sticky path.)
func TestUpdateErrSkipsAndKeepsLearning(t *testing.T) {
	mk := func() *ss18.LinUCB {
		p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: svcSetting, Noise: noise.Simulated}, bandit.Stream(3, 1))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	svc, ref, sticky := mk(), mk(), mk()
	r := unitRound(3, 4, 5)
	bads := []float64{math.NaN(), 5, math.Inf(-1)} // 1 + 25 > L̃² = 2: out of bound
	for t0 := 1; t0 <= 10; t0++ {
		r.T = t0
		arm := svc.Choose(r)
		if ref.Choose(r) != arm {
			t.Fatalf("round %d: the service and the reference policies chose differently", t0)
		}
		y := 0.5
		if t0%3 == 0 {
			y = bads[t0/3-1]
			if err := svc.UpdateErr(r, arm, y); err == nil || !strings.Contains(err.Error(), "skipped") {
				t.Fatalf("round %d, reward %v: UpdateErr = %v, want a skipped-round error", t0, y, err)
			}
			if err := ref.Observe(make([]float64, 3), 0); err != nil {
				t.Fatal(err)
			}
		} else {
			if err := svc.UpdateErr(r, arm, y); err != nil {
				t.Fatalf("round %d: %v", t0, err)
			}
			ref.Update(r, arm, y)
		}
		sticky.Update(r, arm, y)
	}
	if svc.Skipped() != 3 || svc.Err() != nil || svc.Rounds() != 10 {
		t.Errorf("service policy: %d skipped, Err %v, %d rounds; want 3, nil, 10", svc.Skipped(), svc.Err(), svc.Rounds())
	}
	a, b := svc.ThetaTo(nil), ref.ThetaTo(nil)
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) || svc.Radius() != ref.Radius() {
			t.Fatalf("θ̃ %v, β %v after skips; fed zeros: %v, %v", a, svc.Radius(), b, ref.Radius())
		}
	}
	if sticky.Err() == nil || sticky.Rounds() != 2 {
		t.Errorf("Update path: Err %v after %d rounds; want the round-3 error after 2", sticky.Err(), sticky.Rounds())
	}

	// DP-UCB: a reward outside [0, 1] is skipped (entered as 0), not a panic.
	d, err := mt14.NewDPUCB(mt14.DPUCBConfig{Arms: 2, Horizon: 16, Epsilon: 1, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	kr := &bandit.Round{T: 1, K: 2}
	if err := d.UpdateErr(kr, 0, 1.5); err == nil || d.Skipped() != 1 {
		t.Errorf("DP-UCB reward 1.5: UpdateErr %v, Skipped %d; want an error and 1", err, d.Skipped())
	}
	if err := d.UpdateErr(kr, 1, 0.5); err != nil || d.Skipped() != 1 {
		t.Errorf("DP-UCB reward 0.5: UpdateErr %v, Skipped %d; want nil and 1", err, d.Skipped())
	}
	if err := d.UpdateErr(kr, 2, 0.5); err == nil {
		t.Errorf("DP-UCB arm 2 of 2: no error")
	}
	if _, err := d.ChooseErr(&bandit.Round{K: 3}); err == nil {
		t.Errorf("DP-UCB ChooseErr with K = 3 of 2 arms: no error")
	}
}

// Two goroutines share one LinUCB through bandit.Locked, choosing and
// updating; under `go test -race` (.ci/race, a step of .ci/run) the detector
// fails the test on any unsynchronised access. Negative control: with
// DPB_RACE_UNLOCKED=1 the goroutines call the bare policy, and
// `DPB_RACE_UNLOCKED=1 go test -race -run TestLockedPolicyRace ./dpb/internal/crosstest`
// fails with "race detected" (two concurrent Chooses already race).
func TestLockedPolicyRace(t *testing.T) {
	p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: ss18.Setting{D: 3, N: 1000, Epsilon: 1, Delta: 1e-3, Lt2: 2}, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	var pol bandit.Checked = bandit.NewLocked(p)
	if os.Getenv("DPB_RACE_UNLOCKED") == "1" {
		pol = p
	}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := unitRound(3, 5, uint64(10+g)) // each goroutine its own Round
			for i := range 100 {
				r.T = i + 1
				arm, err := pol.ChooseErr(r)
				if err != nil {
					t.Error(err)
					return
				}
				if g == 0 && i%2 == 0 {
					if err := pol.UpdateErr(r, arm, 0.5); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if n := p.Rounds(); n != 50 {
		t.Errorf("%d rounds learned, want 50", n)
	}
}
