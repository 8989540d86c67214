//go:build notebooks

package plot

// The notebooks import these packages directly. Blank imports in a file that
// is never built (tag notebooks) keep them, at the versions pinned in go.mod,
// among the module's requirements after `go mod tidy`: the notebooks run with
// %noautoget and take every version from go.mod (see docs/notebooks.md).
import (
	_ "github.com/go-echarts/go-echarts/v2/charts"
	_ "github.com/go-echarts/go-echarts/v2/opts"
	_ "github.com/janpfeifer/gonb/gonbui"
	_ "gonum.org/v1/plot/vg"
)
