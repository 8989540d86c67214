package plot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"
	"github.com/janpfeifer/gonb/gonbui"
)

// Interactive charts with go-echarts, offline.
//
// go-echarts loads echarts.min.js from a CDN, which neither the CI machines
// nor an offline Docker container reach. This adapter loads the library
// from the repository's own pinned copy instead: echarts@5.4.3's
// dist/echarts.min.js (Apache-2.0), which .ci/run (and the Dockerfile) fetch
// with npm into notebooks/third_party/echarts/ (git-ignored;
// .ci/fetch-echarts checks its SHA-256). It lives beside the notebooks so
// that a Jupyter server started in notebooks/ serves it too. [ShowEChartsLibrary] shows a small loader once per notebook,
// not the 1 MB library, so committed notebooks stay small; each chart then
// only carries its option JSON. Without the file the notebook shows a
// one-line note instead of the chart: every notebook also draws its figures
// with gonum/plot, so nothing is lost but interactivity.
//
// Charts use the SVG renderer and no animation, so that screenshots and
// HTML exports are sharp and complete.

// EChartsVersion is the echarts release the adapter expects.
const EChartsVersion = "5.4.3"

// EChartsJSPath returns the path of echarts.min.js: $DPB_ECHARTS_JS if set,
// else notebooks/third_party/echarts/echarts.min.js under the repository root.
func EChartsJSPath() (string, bool) {
	if p := os.Getenv("DPB_ECHARTS_JS"); p != "" {
		_, err := os.Stat(p)
		return p, err == nil
	}
	root, ok := RepoRoot()
	if !ok {
		return "", false
	}
	p := filepath.Join(root, "notebooks", "third_party", "echarts", "echarts.min.js")
	_, err := os.Stat(p)
	return p, err == nil
}

// EChartsLibraryURLs are the places, relative to the page, where the
// loader of [EChartsLibraryHTML] looks for echarts.min.js, in order: beside
// the notebook in the classic Notebook (/notebooks/<dir>/third_party/…
// redirects to /files/…, wherever the server was started), beside a
// notebook in a sibling folder of notebooks/ (the browser test's copies),
// and from an HTML export in .ci/out/html/. In JupyterLab the loader first
// tries /files/<the notebook's folder>/third_party/…, read from the page's
// /lab/tree/… address. Every place is relative to the notebook, so Jupyter
// started anywhere in the repository (or in notebooks/) finds the library.
var EChartsLibraryURLs = []string{
	"third_party/echarts/echarts.min.js",
	"../notebooks/third_party/echarts/echarts.min.js",
	"../../../notebooks/third_party/echarts/echarts.min.js",
}

// EChartsLibraryHTML returns a <script> element that loads echarts.min.js
// from the local pinned copy (the first of [EChartsLibraryURLs] that loads)
// and sets window.echarts, or an HTML note when the file is missing here.
//
// When RequireJS is on the page (classic notebook, nbconvert HTML) the UMD
// header of echarts.min.js would register an AMD module and leave
// window.echarts undefined, so the library is then loaded through RequireJS.
func EChartsLibraryHTML() string {
	p, ok := EChartsJSPath()
	if !ok {
		return `<p><em>echarts.min.js not found (run .ci/fetch-echarts): interactive charts are off; the static figures show the same data.</em></p>`
	}
	if _, err := os.Stat(p); err != nil {
		return "<p><em>reading " + html.EscapeString(p) + ": " + html.EscapeString(err.Error()) + "</em></p>"
	}
	urls, _ := json.Marshal(EChartsLibraryURLs)
	return `<script type="text/javascript">(function () {
  if (window.echarts || window.dpbEChartsLoading) { return; }
  window.dpbEChartsLoading = true;
  var urls = ` + string(urls) + `;
  var lab = location.pathname.match(/^(.*?)\/lab\/(?:workspaces\/[^\/]+\/)?tree\/(.*\/)?[^\/]*$/);
  if (lab) { urls.unshift(lab[1] + "/files/" + (lab[2] || "") + "third_party/echarts/echarts.min.js"); }
  function next(i) {
    if (window.echarts || i >= urls.length) { window.dpbEChartsLoading = false; return; }
    var url = new URL(urls[i], document.baseURI).href;
    if (typeof window.require === "function" && typeof window.define === "function" && window.define.amd) {
      window.require([url], function (ec) { window.echarts = window.echarts || ec; next(i + 1); }, function () { next(i + 1); });
      return;
    }
    var s = document.createElement("script");
    s.src = url;
    s.onload = function () { next(i + 1); };
    s.onerror = function () { next(i + 1); };
    document.head.appendChild(s);
  }
  next(0);
})();</script>`
}

// ShowEChartsLibrary displays the library's loader (once per notebook, in an
// early cell).
func ShowEChartsLibrary() {
	gonbui.DisplayHTML(EChartsLibraryHTML())
	gonbui.Sync()
}

// Snippeter is what every go-echarts chart type implements.
type Snippeter interface {
	RenderSnippet() render.ChartSnippet
}

// EChartsHTML returns a <div> and a <script> that draw chart with the SVG
// renderer once window.echarts exists, and a note in the div if it never does.
// width and height are CSS lengths ("900px", "100%").
func EChartsHTML(chart Snippeter, width, height string) string {
	opt := strings.TrimSpace(chart.RenderSnippet().Option)
	opt = strings.TrimSuffix(opt, ";")
	opt = strings.ReplaceAll(opt, "</script", `<\/script`)
	// A content hash, not a random id, so re-executed notebooks do not change.
	sum := sha256.Sum256([]byte(opt + width + height))
	id := "dpb_echarts_" + hex.EncodeToString(sum[:6])
	return `<div id="` + id + `" style="width:` + html.EscapeString(width) + `;height:` + html.EscapeString(height) + `;"></div>
<script type="text/javascript">(function () {
  var el = document.getElementById("` + id + `");
  var tries = 0;
  function draw() {
    if (!window.echarts) {
      if (++tries < 100) { setTimeout(draw, 100); return; }
      el.style.height = "auto";
      el.innerHTML = "<p><em>echarts not loaded: run the cell with plot.ShowEChartsLibrary() (needs notebooks/third_party/echarts, see docs/notebooks.md).</em></p>";
      return;
    }
    var option = ` + opt + `;
    option.animation = false;
    echarts.init(el, null, {renderer: "svg"}).setOption(option);
  }
  draw();
})();</script>`
}

// ShowECharts displays chart in the notebook (see [EChartsHTML]).
func ShowECharts(chart Snippeter, width, height string) {
	gonbui.DisplayHTML(EChartsHTML(chart, width, height))
	gonbui.Sync()
}

// EChartsCurves returns an interactive line chart of every series of c (mean
// only), with a zoom slider and an axis tooltip; logY uses a log y-axis.
func EChartsCurves(c *harness.Curves, title, xLabel, yLabel string, logY bool) *charts.Line {
	line := charts.NewLine()
	yType := "value"
	if logY {
		yType = "log"
	}
	colours := make(opts.Colors, len(Palette))
	for i, col := range Palette {
		r, g, b, _ := col.RGBA()
		colours[i] = fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
	}
	line.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "32", Left: "center"}),
		charts.WithGridOpts(opts.Grid{Top: "80", Left: "60", Right: "80", Bottom: "70"}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside"}, opts.DataZoom{Type: "slider"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: xLabel}),
		charts.WithYAxisOpts(opts.YAxis{Type: yType, Name: yLabel}),
		charts.WithColorsOpts(colours),
		charts.WithAnimation(false),
	)
	for s, name := range c.Names {
		data := make([]opts.LineData, 0, len(c.X))
		for k, x := range c.X {
			y := c.Mean[s][k]
			if logY && y <= 0 {
				continue
			}
			data = append(data, opts.LineData{Value: []float64{x, y}})
		}
		line.AddSeries(name, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}))
	}
	return line
}
