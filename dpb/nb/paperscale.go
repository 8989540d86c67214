package nb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/figspec"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

// committedFigures is where a notebook finds the committed figures: the
// kernel's working directory is notebooks/, beside figures/.
const committedFigures = "../figures"

// PaperScale shows, for each figure named (as in "dpb reproduce -list"), the
// command that makes it at full scale, its summary and the files it writes,
// linked as ../figures/FILE, all taken from the command line's figure table
// ([figspec]) instead of copied into the notebook's markdown; and whether
// its committed figures/NAME.json (the run's metadata and the files'
// SHA-256s) is there. In a notebook it displays the markdown; it returns it
// too. An unknown name panics, so the cell fails.
func PaperScale(names ...string) string {
	md, err := paperScale(committedFigures, names)
	if err != nil {
		panic(err)
	}
	if dpbplot.InNotebook() {
		dpbplot.ShowMarkdown(md)
	}
	return md
}

// paperScale is [PaperScale] with the committed figures under dir.
func paperScale(dir string, names []string) (string, error) {
	if len(names) == 0 {
		return "", fmt.Errorf("nb: PaperScale needs at least one figure name")
	}
	var b strings.Builder
	b.WriteString("**At full scale**, from the command line's figure table (dpb/figspec):\n\n")
	for _, name := range names {
		s, ok := figspec.Lookup(name)
		if !ok {
			return "", fmt.Errorf("nb: no figure %q in dpb reproduce's table (dpb/figspec)", name)
		}
		links := make([]string, 0, len(s.Outputs))
		for _, f := range s.Files() {
			links = append(links, fmt.Sprintf("[%s](%s/%s)", f, committedFigures, f))
		}
		committed := "not committed here: run the command"
		if _, err := os.Stat(filepath.Join(dir, name+".json")); err == nil {
			committed = fmt.Sprintf("committed: [%s.json](%s/%s.json) holds the run's configuration and the files' SHA-256s", name, committedFigures, name)
		}
		fmt.Fprintf(&b, "* `dpb reproduce %s`: %s. Files: %s; %s.\n", name, s.Summary, strings.Join(links, ", "), committed)
	}
	return b.String(), nil
}
