package plot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

func TestEChartsHTML(t *testing.T) {
	c := &harness.Curves{
		Names: []string{"plain", "padded"},
		X:     []float64{1, 2, 3},
		Mean:  [][]float64{{1, 2, 3}, {3, 2, 1}},
	}
	h := EChartsHTML(EChartsCurves(c, "demo", "t", "error", false), "600px", "300px")
	for _, want := range []string{`"plain"`, `"padded"`, `renderer: "svg"`, `width:600px`, `"type":"value"`} {
		if !strings.Contains(h, want) {
			t.Errorf("chart HTML lacks %s:\n%s", want, h)
		}
	}
	if strings.Count(h, "</script") != 1 {
		t.Errorf("chart HTML must hold exactly one </script>:\n%s", h)
	}
}

func TestEChartsLibraryHTML(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "echarts.min.js")
	if err := os.WriteFile(js, []byte(`window.echarts={v:"</script>"};`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DPB_ECHARTS_JS", js)
	h := EChartsLibraryHTML()
	if !strings.HasPrefix(h, "<script") || strings.Count(h, "</script") != 1 {
		t.Errorf("library HTML is not one script element:\n%s", h)
	}
	if !strings.Contains(h, "window.require([url]") || strings.Contains(h, "window.echarts={v:") {
		t.Errorf("library is inlined, or not loaded through RequireJS when present:\n%s", h)
	}
	for _, u := range EChartsLibraryURLs {
		if !strings.Contains(h, u) {
			t.Errorf("loader lacks %s:\n%s", u, h)
		}
	}
	t.Setenv("DPB_ECHARTS_JS", filepath.Join(dir, "missing.js"))
	if h := EChartsLibraryHTML(); strings.Contains(h, "<script") {
		t.Errorf("missing library should give a note, got %s", h)
	}
}
