package harness

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
}
