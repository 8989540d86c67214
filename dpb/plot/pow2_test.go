package plot

import "testing"

func TestPow2Ticks(t *testing.T) {
	ts := Pow2Ticks{}.Ticks(1000, 70000)
	if len(ts) != 7 || ts[0].Value != 1024 || ts[0].Label != "2^10" || ts[1].Label != "" || ts[6].Label != "2^16" {
		t.Errorf("ticks %+v", ts)
	}
}
