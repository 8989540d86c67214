package ope

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
)

// frozenLog is a uniform log of K = 2 arms, Dim 2, every arm's features
// (0.6, 0) and reward 0.5, except event bad whose reward is 5: outside the
// bound ‖x‖² + y² ≤ L̃² = 2 a private LinUCB is calibrated for. The arms
// tie, so the policy plays arm 0, the logged arm of the even events.
func frozenLog(n, bad int) *rowLog {
	l := &rowLog{k: 2, d: 2}
	for i := range n {
		y := 0.5
		if i == bad {
			y = 5
		}
		l.arm, l.y, l.p, l.x = append(l.arm, i%2), append(l.y, y), append(l.p, 0.5), append(l.x, 0.6)
	}
	return l
}

func frozenPolicy(t *testing.T) *ss18.LinUCB {
	p, err := ss18.NewPolicy(ss18.PolicyConfig{Alg: ss18.Gaussian, Setting: ss18.Setting{D: 2, N: 1000, Epsilon: 1, Delta: 1e-3, Lt2: 2}, Noise: noise.Simulated}, bandit.Stream(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A policy that refuses a logged observation stops learning (its sticky
// Err); both replays return that error instead of scoring the frozen
// policy as a learning one. (Before, both returned err = nil.) Negative
// control: the same log without the bad reward replays with no error.
func TestReplaysReturnThePolicysError(t *testing.T) {
	for _, bad := range []int{-1, 4} {
		l := frozenLog(400, bad)
		p := frozenPolicy(t)
		res, err := Replay(p, l, ReplayConfig{})
		if bad < 0 {
			if err != nil || res.Events != 400 {
				t.Errorf("Replay without a bad event: %v, %v", res, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), "stopped learning") || !strings.Contains(err.Error(), "exceeds the bound") {
			t.Errorf("Replay with reward 5 at event 4: err = %v, want the policy's error", err)
		} else if res.Events > 5 || p.Err() == nil {
			t.Errorf("Replay went on after the policy stopped: %d events", res.Events)
		}

		p = frozenPolicy(t)
		pr, err := PropensityReplay(p, l, PropensityReplayConfig{Rand: bandit.Stream(2, 1)})
		if bad < 0 {
			if err != nil || pr.Events != 400 {
				t.Errorf("PropensityReplay without a bad event: %v, %v", pr, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), "stopped learning") {
			t.Errorf("PropensityReplay with reward 5 at event 4: err = %v, want the policy's error", err)
		} else if pr.Events > 5 {
			t.Errorf("PropensityReplay went on after the policy stopped: %d events", pr.Events)
		}
	}
}

// A NaN feature in the log is an error of the replay (the policy's
// ChooseErr), not a panic and not an action played on it.
func TestReplaysReturnANaNFeature(t *testing.T) {
	l := frozenLog(40, -1)
	l.x[5] = math.NaN()
	if _, err := Replay(frozenPolicy(t), l, ReplayConfig{}); err == nil || !strings.Contains(err.Error(), "must be finite") {
		t.Errorf("Replay on a NaN feature: err = %v", err)
	}
	if _, err := PropensityReplay(frozenPolicy(t), l, PropensityReplayConfig{Rand: bandit.Stream(2, 1)}); err == nil || !strings.Contains(err.Error(), "must be finite") {
		t.Errorf("PropensityReplay on a NaN feature: err = %v", err)
	}
}
