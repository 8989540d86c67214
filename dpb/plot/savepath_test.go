package plot

import (
	"path/filepath"
	"testing"
)

func TestSavePathFiguresOverride(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvFigures, dir)
	if got, want := savePath("figures/mt14_fig2_shuttle"), filepath.Join(dir, "mt14_fig2_shuttle"); got != want {
		t.Errorf("savePath = %s, want %s", got, want)
	}
	if got := FigurePath("x"); got != filepath.Join(dir, "x") {
		t.Errorf("FigurePath = %s", got)
	}
	if got := savePath("/abs/base"); got != "/abs/base" {
		t.Errorf("absolute base moved to %s", got)
	}
	t.Setenv(EnvFigures, "")
	root, ok := RepoRoot()
	if !ok {
		t.Skip("no repository root")
	}
	if got := savePath("figures/x"); got != filepath.Join(root, "figures", "x") {
		t.Errorf("savePath without override = %s", got)
	}
}
