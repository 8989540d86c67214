package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// codeVersion returns the commit stamped into the binary by go build
// (vcs.revision, "+dirty" when vcs.modified), or "unknown" (go run, go test,
// -buildvcs=false): see [stamp.Code].
func codeVersion() string { return readStamp(debug.ReadBuildInfo).Code() }

// writeMeta writes the figure's JSON, base.json, last of its set: it lists
// every other file the figure wrote into its directory (recorded since the
// figure started, see figureSpec) with its SHA-256, so that a reader
// can tell whether the files beside it are this run's
// (harness.VerifyFigureSet).
//
// m.Noise must name the noise modes the figure used (noiseNames), or
// harness.NoNoise: a figure that does not say is an error.
func writeMeta(base string, m harness.Meta) error {
	if len(m.Noise) == 0 {
		return fmt.Errorf("dpb: %s: the figure's metadata names no noise mode (internal error)", m.Name)
	}
	m.Version = snap.Version
	m.Code = codeVersion()
	m.Go = runtime.Version()
	m.Stream = snap.StreamVersion
	dir := filepath.Dir(base)
	var paths []string
	for _, p := range atomicfile.Recorded(dir) {
		if p != base+".json" {
			paths = append(paths, p)
		}
	}
	files, err := harness.SumFiles(dir, paths)
	if err != nil {
		return err
	}
	m.Files = files
	return createWith(base+".json", func(w io.Writer) error { return writeSealedJSON(w, m) })
}

// createWith writes the file at path with write, atomically: a reader, or a
// run killed while writing, sees the old complete file or the new complete
// one, never a part (see package atomicfile). Every file the CLI writes goes
// through it or through dpb/plot's save functions, which are atomic too.
func createWith(path string, write func(io.Writer) error) error {
	return atomicfile.WriteFile(path, 0o644, write)
}

// writeTable writes rows (the header first) as a CSV file at path.
func writeTable(path string, rows [][]string) error {
	return createWith(path, func(w io.Writer) error { return csv.NewWriter(w).WriteAll(rows) })
}

// writeCurvesCSV writes several curve sets as one CSV table at path (one
// header; each part keeps its own x values), prefixing each part's series
// names with prefixes[i] and a space.
func writeCurvesCSV(path, xName string, parts []*harness.Curves, prefixes []string) error {
	var b strings.Builder
	for i, c := range parts {
		named := *c
		named.Names = make([]string, len(c.Names))
		for s, name := range c.Names {
			named.Names[s] = prefixes[i] + " " + name
		}
		var part strings.Builder
		if err := named.WriteCSV(&part, xName); err != nil {
			return err
		}
		rows := part.String()
		if i > 0 {
			rows = rows[strings.IndexByte(rows, '\n')+1:] // one header for the table
		}
		b.WriteString(rows)
	}
	return atomicfile.WriteBytes(path, []byte(b.String()), 0o644)
}

// noiseNames returns the names of the noise modes, each once, in order, for
// harness.Meta.Noise.
func noiseNames(modes ...noise.Mode) []string {
	var out []string
	for _, m := range modes {
		if n := m.String(); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
