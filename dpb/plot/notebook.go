package plot

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
)

// Notebook helpers. The gonbui display calls do nothing outside a GoNB
// kernel, so code that calls them also runs under go test and the CLI.
//
// Every Show function waits (gonbui.Sync) until GoNB has received what it
// sent: a cell program that exits right after a display can otherwise lose
// it (seen with GoNB v0.11.1 under nbconvert: a cell with no output).

// Show displays p in the notebook as SVG (sharp at any zoom, and what the
// HTML export and the screenshots show).
func Show(p *plot.Plot) error {
	svg, err := Render(p, "svg")
	if err != nil {
		return err
	}
	gonbui.DisplaySVG(fitWidth(string(svg)))
	gonbui.Sync()
	return nil
}

// ShowAndSave displays p and saves it as base.svg and base.png (see [Save]).
// A relative base is taken relative to the repository root when it can be
// found (see [RepoRoot]), so notebooks write figures/… wherever they run.
func ShowAndSave(p *plot.Plot, base string) error {
	base = savePath(base)
	if err := Save(p, base); err != nil {
		return err
	}
	return Show(p)
}

// ShowMarkdown displays markdown (tables, LaTeX in $…$) in the notebook and
// prints nothing elsewhere.
func ShowMarkdown(md string) {
	gonbui.DisplayMarkdown(md)
	gonbui.Sync()
}

// InNotebook reports whether the code runs inside a GoNB kernel.
func InNotebook() bool { return gonbui.IsNotebook }

// RepoRoot returns the repository root: the nearest folder holding go.mod,
// searched upward from $GONB_DIR (the notebook's folder in a GoNB kernel) and
// then from the working directory.
func RepoRoot() (string, bool) {
	var starts []string
	if d := os.Getenv("GONB_DIR"); d != "" {
		starts = append(starts, d)
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, s := range starts {
		for d := s; ; {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				if _, err := os.Stat(filepath.Join(d, "dpb")); err == nil {
					return d, true
				}
			}
			up := filepath.Dir(d)
			if up == d {
				break
			}
			d = up
		}
	}
	return "", false
}

// FigurePath returns figures/<name> under the repository root (or the
// relative path when the root is unknown), or $DPB_FIGURES/<name> when that
// is set.
func FigurePath(name string) string {
	return savePath(filepath.Join("figures", name))
}

// EnvFigures names the environment variable that redirects the figures the
// notebooks save (figures/<name>) to another directory, so a test run on
// synthetic data never overwrites the committed figures.
const EnvFigures = "DPB_FIGURES"

// savePath resolves the base of a saved figure: absolute bases are kept;
// relative ones are taken from the repository root, except that
// figures/<name> goes to $DPB_FIGURES/<name> when that is set.
func savePath(base string) string {
	if filepath.IsAbs(base) {
		return base
	}
	if d := os.Getenv(EnvFigures); d != "" {
		if rest, ok := strings.CutPrefix(filepath.ToSlash(base), "figures/"); ok {
			return filepath.Join(d, filepath.FromSlash(rest))
		}
	}
	if root, ok := RepoRoot(); ok {
		return filepath.Join(root, base)
	}
	return base
}

// fitWidth makes an SVG from gonum/plot (which has a viewBox) shrink to the
// width of the notebook's output area instead of overflowing it (two or
// three tiles side by side are wider than the area); narrower figures keep
// their size. The saved files are not changed.
func fitWidth(svg string) string {
	return strings.Replace(svg, "<svg ", `<svg style="max-width:100%;height:auto" `, 1)
}
