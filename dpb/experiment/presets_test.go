package experiment

import "testing"

func TestScales(t *testing.T) {
	for _, s := range []Scale{ScaleDefault, ScaleQuick, ScalePaper} {
		if got, err := ParseScale(s.String()); err != nil || got != s {
			t.Errorf("ParseScale(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseScale("huge"); err == nil {
		t.Error("ParseScale accepted an unknown scale")
	}
	if ScaleOf(true, true) != ScalePaper || ScaleOf(true, false) != ScaleQuick || ScaleOf(false, false) != ScaleDefault {
		t.Error("ScaleOf: -paper must win over -short")
	}
	// Quick runs are smaller than the defaults, which are not larger than the paper's.
	var q, p SS18Exp2Config
	q.ApplyScale(ScaleQuick)
	p.ApplyScale(ScalePaper)
	d := SS18Exp2Config{}
	d.ApplyScale(ScaleDefault)
	if d.Horizon != 0 || d.Reps != 0 || !(q.Horizon < p.Horizon && q.Reps < p.Reps) {
		t.Errorf("SS18 Exp. 2 scales: quick %d×%d, default %d×%d (0: the config's defaults), paper %d×%d", q.Horizon, q.Reps, d.Horizon, d.Reps, p.Horizon, p.Reps)
	}
	if a, b := AS17Preset(ScaleQuick), AS17Preset(ScaleDefault); !(a.MaxHorizon < b.MaxHorizon && a.Reps < b.Reps && a.EpsHorizon < b.EpsHorizon) {
		t.Errorf("AS17 presets: quick %+v, default %+v", a, b)
	}
	var m1 MT14Fig1Config
	m1.ApplyScale(ScalePaper)
	if m1.Horizon != 1_000_000 || m1.Reps != 20 {
		t.Errorf("MT14 Fig. 1 at the paper's scale: %d × %d", m1.Horizon, m1.Reps)
	}
}
