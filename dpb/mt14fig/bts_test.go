package mt14fig

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

// unitCtxLog maps a synthetic log's context id c into [0, 1] (c/M), as
// MT14's contextual UCB requires.
type unitCtxLog struct{ *testutil.SynthLog }

func (l unitCtxLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	a, y, p := l.SynthLog.Event(r, i)
	r.Actions[0] /= float64(l.M)
	for b := 1; b < r.K; b++ {
		r.Actions[b] = float64(b) / float64(r.K) // arms distinguishable
	}
	return a, y, p
}

// The BTS figure's experiment on synthetic logs: every row has finite
// estimates with ordered intervals; the uniform policy's IPS on the
// non-uniform log is within Z5 standard errors of its true value (false
// failure ≈ 1e-5); the result does not depend on the number of workers.
func TestMT14Fig2BTS(t *testing.T) {
	mu := [][]float64{{0.1, 0.3, 0.6}, {0.7, 0.2, 0.1}}
	logging := [][]float64{{0.7, 0.2, 0.1}, {0.1, 0.2, 0.7}}
	logged := unitCtxLog{testutil.NewSynthLogLogged(4000, mu, logging, bandit.Stream(5, 0))}
	uniform := unitCtxLog{testutil.NewSynthLog(4000, 3, 2, 1.0/3, bandit.Stream(5, 1))}
	uniform.Mu = mu // NewSynthLog draws its own means; only the shapes matter here
	cfg := Fig2BTSConfig{Logged: logged, Uniform: uniform, Epsilons: []float64{1, 10}, Reps: 2, Seed: 3, RunOptions: harness.RunOptions{Workers: 1}}
	res, err := RunFig2BTS(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 3 || res.PMin != 1.0/3 || res.Events != 4000 {
		t.Fatalf("rows %d, pmin %v, events %d", len(res.Rows), res.PMin, res.Events)
	}
	for _, r := range res.Rows {
		for _, v := range []OPEValue{r.Replay, r.Rejection, r.DR} {
			if !(v.Lo <= v.Value && v.Value <= v.Hi) || !(v.Events > 0) {
				t.Errorf("%s: %+v", r.Name, v)
			}
		}
		if !(r.DR.ESS > 1) || r.DR.Events != 4000 {
			t.Errorf("%s: DR %+v", r.Name, r.DR)
		}
	}
	var v float64
	for c := range mu {
		for a := range mu[c] {
			v += mu[c][a] / 6
		}
	}
	if ips := res.UniformPolicy[0]; math.Abs(ips.Value-v) > testutil.Z5*ips.SE {
		t.Errorf("uniform policy IPS %v, true %v ± %v", ips.Value, v, testutil.Z5*ips.SE)
	}
	cfg.Workers = 2
	res2, err := RunFig2BTS(cfg)
	if err != nil {
		t.Fatal(err)
	}
	j1, err1 := json.Marshal(res)
	j2, err2 := json.Marshal(res2)
	if err1 != nil || err2 != nil || string(j1) != string(j2) {
		t.Errorf("result depends on the number of workers")
	}
	if res.Markdown() == "" {
		t.Error("empty markdown")
	}
}

func TestOPEValueJSON(t *testing.T) {
	b, err := json.Marshal([]OPEValue{{Value: math.NaN(), Lo: 0, Hi: 1, Events: 0}, {Value: 0.25, SE: 0.01, Lo: 0.1, Hi: 0.4, Events: 10, ESS: 3.5}})
	if want := `[{"value":null,"se":0,"lo":0,"hi":1,"events":0},{"value":0.25,"se":0.01,"lo":0.1,"hi":0.4,"events":10,"ess":3.5}]`; err != nil || string(b) != want {
		t.Errorf("%s, %v; want %s", b, err, want)
	}
}
