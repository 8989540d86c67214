package check

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestSecureSamplersRows(t *testing.T) {
	start := time.Now()
	vs, err := SecureSamplers(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", time.Since(start))
	for _, v := range vs {
		t.Logf("%s pass=%v ctl=%v score=%.3g slack=%.3g: %s", v.Name, v.Pass, *v.ControlCaught, v.ControlScore, v.Slack, v.Note)
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught {
			t.Errorf("%s: pass %v, control caught %v", v.Name, v.Pass, v.ControlCaught)
		}
	}
}

func TestStatedNoiseRows(t *testing.T) {
	start := time.Now()
	vs, err := PrivateMABNoise(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mab %v", time.Since(start))
	start = time.Now()
	av, err := AS17StatedNoise(rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("as17 %v", time.Since(start))
	for _, v := range append(vs, av...) {
		t.Logf("%s pass=%v ctl=%v score=%.3g slack=%.3g: %s", v.Name, v.Pass, *v.ControlCaught, v.ControlScore, v.Slack, v.Note)
		if !v.Pass || v.ControlCaught == nil || !*v.ControlCaught {
			t.Errorf("%s: pass %v, control caught %v", v.Name, v.Pass, v.ControlCaught)
		}
	}
}
