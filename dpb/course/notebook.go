// Package course turns the project's notebooks into course material: the
// versions handed to students, written from the committed notebooks (which
// hold the worked solutions), and the paper-to-code index
// (docs/paper-to-code.md).
//
// # Exercises
//
// A solution lives in a notebook cell between the lines "// BEGIN SOLUTION"
// and "// END SOLUTION" (the nbgrader convention). A region is either the
// whole body of a function (a coding exercise: the reader writes the
// function) or a run of variable declarations (a prediction: the reader
// writes a number). [Analyse] finds every region and checks the rules that
// make a student version work:
//
//   - each name declared with a region (the "student names") is graded by a
//     Test function of a later %test cell, and no later cell but a %test
//     cell uses it: exercise cells are leaves, so a stub cannot break a
//     later cell;
//   - a coding exercise names, in the cell's metadata
//     ("dpb": {"graded_against": {"name": "pkg.Func"}}), the library
//     function its test compares it with; the test must use it and the
//     solution region must not (a solution that calls the function it is
//     graded against proves nothing);
//   - the cell keeps a plausible wrong solution ("dpb": {"wrong_answer":
//     "the whole cell"}) declaring the same names, which its test must reject.
//
// [Student] replaces each region by a stub that compiles: panic("exercise:
// write this") for a function body, math.NaN() for an answer. [CIRun]
// appends to the solution notebook its exercise cells as the student gets
// them and with the wrong solutions, each followed by copies of its test
// cells, so that one kernel session shows the solutions passing and every
// student and wrong version failing its test (see .ci/notebooks).
package course

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Notebook is a Jupyter notebook (nbformat 4) kept as generic JSON, so that
// fields this package does not know survive a round trip.
type Notebook struct {
	Path  string
	Raw   map[string]any
	Cells []Cell
}

// Cell is one cell of a [Notebook].
type Cell struct{ Raw map[string]any }

// Read reads the notebook at path.
func Read(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("course: %s: %w", path, err)
	}
	nb.Path = path
	return nb, nil
}

// Parse parses a notebook's JSON.
func Parse(data []byte) (*Notebook, error) {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	cells, ok := raw["cells"].([]any)
	if !ok {
		return nil, fmt.Errorf("no cells")
	}
	nb := &Notebook{Raw: raw}
	for i, c := range cells {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("cell %d is not an object", i)
		}
		nb.Cells = append(nb.Cells, Cell{m})
	}
	return nb, nil
}

// Marshal returns the notebook as JSON in the layout of the committed
// notebooks (sorted keys, one-space indent, non-ASCII as is, final newline).
func (nb *Notebook) Marshal() ([]byte, error) {
	cells := make([]any, len(nb.Cells))
	for i, c := range nb.Cells {
		cells[i] = c.Raw
	}
	nb.Raw["cells"] = cells
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(nb.Raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Clone returns a deep copy of the notebook.
func (nb *Notebook) Clone() *Notebook {
	data, err := nb.Marshal()
	if err != nil {
		panic(err) // it was parsed from JSON
	}
	c, err := Parse(data)
	if err != nil {
		panic(err)
	}
	c.Path = nb.Path
	return c
}

// Meta returns the notebook's "dpb" metadata object, creating it.
func (nb *Notebook) Meta() map[string]any { return dpbMeta(nb.Raw) }

func dpbMeta(raw map[string]any) map[string]any {
	md, ok := raw["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		raw["metadata"] = md
	}
	d, ok := md["dpb"].(map[string]any)
	if !ok {
		d = map[string]any{}
		md["dpb"] = d
	}
	return d
}

// BrowserOnlyKey is the notebook metadata key ("dpb": {"browser_only":
// "why"}) that keeps a notebook out of the headless run: [Build] writes no
// CI copy of it, so .ci/notebooks does not execute it (a notebook whose
// widgets wait for a reader would block nbconvert for ever), and .ci/browser
// drives it instead. The value says why, in words; it must be a non-empty
// string.
const BrowserOnlyKey = "browser_only"

// BrowserOnly returns why the notebook is kept out of the headless run, or
// "" when it is not (see [BrowserOnlyKey]); an error when the key holds
// anything but a non-empty string.
func (nb *Notebook) BrowserOnly() (string, error) {
	md, _ := nb.Raw["metadata"].(map[string]any)
	d, _ := md["dpb"].(map[string]any)
	v, ok := d[BrowserOnlyKey]
	if !ok {
		return "", nil
	}
	why, _ := v.(string)
	if strings.TrimSpace(why) == "" {
		return "", fmt.Errorf("course: %s: metadata dpb.%s is %v, must say why in a non-empty string", nb.Path, BrowserOnlyKey, v)
	}
	return why, nil
}

// Type returns "code", "markdown" or "raw".
func (c Cell) Type() string { s, _ := c.Raw["cell_type"].(string); return s }

// ID returns the cell's id.
func (c Cell) ID() string { s, _ := c.Raw["id"].(string); return s }

// Source returns the cell's source text.
func (c Cell) Source() string { return joinText(c.Raw["source"]) }

// SetSource replaces the cell's source, stored as a list of lines as
// nbformat writes it.
func (c Cell) SetSource(s string) { c.Raw["source"] = splitLines(s) }

// Meta returns the cell's "dpb" metadata object (nil when it has none).
func (c Cell) Meta() map[string]any {
	md, _ := c.Raw["metadata"].(map[string]any)
	d, _ := md["dpb"].(map[string]any)
	return d
}

// ClearOutputs removes a code cell's outputs and execution count.
func (c Cell) ClearOutputs() {
	if c.Type() == "code" {
		c.Raw["outputs"] = []any{}
		c.Raw["execution_count"] = nil
	}
}

// Markdown returns the text of the notebook's markdown cells.
func (nb *Notebook) Markdown() []string {
	var out []string
	for _, c := range nb.Cells {
		if c.Type() == "markdown" {
			out = append(out, c.Source())
		}
	}
	return out
}

func joinText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			str, _ := s.(string)
			b.WriteString(str)
		}
		return b.String()
	}
	return ""
}

func splitLines(s string) []any {
	var out []any
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	if out == nil {
		out = []any{}
	}
	return out
}
