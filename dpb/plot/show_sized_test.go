package plot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
	"gonum.org/v1/plot/vg"
)

func TestShowSizedAndSave(t *testing.T) {
	ds, err := ss18fig.DecisionSet(env.LinearEnvConfig{Dim: 3, K: 20, Gap: 0.1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := SS18Fig1(ds, SS18Fig1View)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "sub", "fig1")
	w, h := SS18Fig1Size(3 * vg.Inch)
	if err := ShowSizedAndSave(p, base, w, h); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".svg", ".png"} {
		if st, err := os.Stat(base + ext); err != nil || st.Size() == 0 {
			t.Errorf("%s%s not written: %v", base, ext, err)
		}
	}
}
