package data

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

// Per-action features: arm a's vector is its a<a>_ columns followed by the
// shared x columns (dimension p + d), read from an io.Reader. (Before, the
// a<j>_ columns were ignored and the loader took only a path.)
func TestCSVLogPerActionFromReader(t *testing.T) {
	text := "id,action,a1_price,a0_price,reward,a0_new,xage,propensity,a1_new\n" +
		"7,1,2.5,1.5,0,1,0.3,0.5,0\n" +
		"8,0,3,1,1,0,-0.2,0.5,1\n"
	l, err := ReadCSVLog(strings.NewReader(text), "svc-log", CSVLogConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Arms() != 2 || l.ActionDim() != 2 || l.ContextDim() != 1 || l.Dim() != 3 || l.Len() != 2 {
		t.Fatalf("arms %d, p %d, d %d, dim %d, len %d; want 2, 2, 1, 3, 2", l.Arms(), l.ActionDim(), l.ContextDim(), l.Dim(), l.Len())
	}
	r := &bandit.Round{K: 2, Dim: 3, Actions: make([]float64, 6)}
	for i, c := range []struct {
		want  []float64
		arm   int
		y, pr float64
	}{{[]float64{1.5, 1, 0.3, 2.5, 0, 0.3}, 1, 0, 0.5}, {[]float64{1, 0, -0.2, 3, 1, -0.2}, 0, 1, 0.5}} {
		a, y, pr := l.Event(r, i)
		if a != c.arm || y != c.y || pr != c.pr {
			t.Errorf("event %d: %d %v %v", i, a, y, pr)
		}
		for j, v := range c.want {
			if r.Actions[j] != v {
				t.Fatalf("event %d: features %v, want %v (a0: price, new, age; a1: …)", i, r.Actions, c.want)
			}
		}
	}
	for _, c := range []struct{ text, msg string }{
		{"action,reward,propensity,a0_p,a2_p\n0,1,0.5,1,2\n", "none for arm 1"},
		{"action,reward,propensity,a0_p,a1_q\n0,1,0.5,1,2\n", "every arm needs the same"},
		{"action,reward,propensity,a0_p,a1_p\n2,1,0.5,1,2\n", "action is \"2\", want an integer in [0, 2)"},
		{"action,reward,propensity,a0_p,a1_p\n0,1,0.5,1,NaN\n", "svc:2: a1_p is \"NaN\""},
		{"action,reward,propensity,a0_p,a1_p\n", "no data rows"},
		{"action,reward,propensity\n0,1,0.5\n", "no context columns"},
	} {
		_, err := ReadCSVLog(strings.NewReader(c.text), "svc", CSVLogConfig{})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: err = %v, want %q", c.text, err, c.msg)
		}
	}
	if _, err := ReadCSVLog(strings.NewReader("action,reward,propensity,a0_p,a1_p\n0,1,0.5,1,2\n"), "svc", CSVLogConfig{Arms: 3}); err == nil || !strings.Contains(err.Error(), "Arms is 3") {
		t.Errorf("Arms 3 with two arm blocks: err = %v", err)
	}
	// Column names that only look like per-action ones stay ignored.
	for _, h := range []string{"action", "a_x", "a1", "a01_x", "ab_x"} {
		if _, _, ok := perActionCol(h); ok {
			t.Errorf("%q parsed as a per-action column", h)
		}
	}
}
