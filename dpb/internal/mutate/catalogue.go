package mutate

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// Classes of defect: the score is reported for each.
const (
	// Privacy defects change what a mechanism releases or how it is
	// calibrated: a noise scale, a node, a sensitivity, a σ.
	Privacy = "privacy"
	// Algorithmic defects change what a learner does with the releases
	// (a radius, a rate, a shift, a bound, an environment) and leave the
	// privacy of the releases alone.
	Algorithmic = "algorithmic"
)

// Expectations a defect of a subset can carry (ci-expect).
const (
	ExpectCaught = "caught"
	ExpectMissed = "missed"
)

// Defect is one planted defect of the catalogue: in File, the Anchor text
// (which must occur exactly once) is replaced by Replace, a one-line change.
type Defect struct {
	ID       string `json:"id"`
	Class    string `json:"class"`    // Privacy or Algorithmic
	Category string `json:"category"` // e.g. "under-noise", "missing node", "radius"
	File     string `json:"file"`     // slash-separated, relative to the repository root
	Anchor   string `json:"anchor"`
	Replace  string `json:"replace"`
	Desc     string `json:"desc"`
	// Equivalent, when not empty, says why the defect cannot change
	// behaviour (or the law of what is released): it is run and listed,
	// not counted in the score.
	Equivalent string `json:"equivalent,omitempty"`
	// Subsets names the subsets the defect belongs to ("ci").
	Subsets []string `json:"subsets,omitempty"`
	// CIExpect is what the CI step requires of the defect: ExpectCaught
	// (a miss fails the step) or ExpectMissed (documented as missed).
	CIExpect string `json:"ci_expect,omitempty"`
	// Pins are tests of the mutated package that pin the mutated constant
	// (they restate it rather than compare with an independent
	// computation): their failures do not count. PinsWhy says why.
	Pins    []string `json:"pins,omitempty"`
	PinsWhy string   `json:"pins_why,omitempty"`
}

// Package returns the directory of the mutated file, the package whose
// tests run for an algorithmic defect ("./dpb/ss18").
func (d Defect) Package() string { return "./" + path.Dir(d.File) }

// InSubset reports whether the defect belongs to the named subset.
func (d Defect) InSubset(name string) bool { return slices.Contains(d.Subsets, name) }

// IsPin reports whether a failing test (a top-level name or a subtest
// path "TestX/sub") is one of the defect's pins or a subtest of one.
func (d Defect) IsPin(test string) bool {
	for _, p := range d.Pins {
		if test == p || strings.HasPrefix(test, p+"/") {
			return true
		}
	}
	return false
}

//go:embed catalogue.txt
var catalogueText string

// Catalogue returns the committed catalogue (catalogue.txt, embedded).
func Catalogue() ([]Defect, error) { return Parse(strings.NewReader(catalogueText)) }

// Parse reads a catalogue: blocks of "key: value" lines separated by blank
// lines; a line starting with # is a comment. Keys: id, class, category,
// file, anchor, replace, desc (required), equivalent, subset, ci-expect,
// pins and pins-why (optional). A value is the rest of the line after the
// colon, without surrounding spaces; subset and pins are comma-separated
// lists. It fails on an unknown or repeated key, a missing field, a
// repeated id, an unknown class or expectation, a file path that is not
// relative and clean, and a replacement equal to its anchor.
func Parse(r io.Reader) ([]Defect, error) {
	var out []Defect
	seen := map[string]bool{}
	block := map[string]string{}
	start := 0
	flush := func() error {
		if len(block) == 0 {
			return nil
		}
		d, err := defectOf(block)
		if err != nil {
			return fmt.Errorf("catalogue: block at line %d: %w", start, err)
		}
		if seen[d.ID] {
			return fmt.Errorf("catalogue: block at line %d: id %q repeated", start, d.ID)
		}
		seen[d.ID] = true
		out = append(out, d)
		clear(block)
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
			continue
		case strings.TrimSpace(line) == "":
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("catalogue: line %d: want \"key: value\", got %q", n, line)
		}
		k = strings.TrimSpace(k)
		if !slices.Contains(keys, k) {
			return nil, fmt.Errorf("catalogue: line %d: unknown key %q", n, k)
		}
		if _, dup := block[k]; dup {
			return nil, fmt.Errorf("catalogue: line %d: key %q repeated in a block", n, k)
		}
		if len(block) == 0 {
			start = n
		}
		block[k] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

var keys = []string{"id", "class", "category", "file", "anchor", "replace", "desc", "equivalent", "subset", "ci-expect", "pins", "pins-why"}

func defectOf(b map[string]string) (Defect, error) {
	for _, k := range []string{"id", "class", "category", "file", "anchor", "replace", "desc"} {
		if b[k] == "" {
			return Defect{}, fmt.Errorf("field %q missing or empty", k)
		}
	}
	d := Defect{
		ID: b["id"], Class: b["class"], Category: b["category"], File: b["file"],
		Anchor: b["anchor"], Replace: b["replace"], Desc: b["desc"],
		Equivalent: b["equivalent"], CIExpect: b["ci-expect"], PinsWhy: b["pins-why"],
		Subsets: list(b["subset"]), Pins: list(b["pins"]),
	}
	switch {
	case strings.ContainsAny(d.ID, " \t,"):
		return d, fmt.Errorf("id %q has a space or a comma", d.ID)
	case d.Class != Privacy && d.Class != Algorithmic:
		return d, fmt.Errorf("%s: class %q, want %s or %s", d.ID, d.Class, Privacy, Algorithmic)
	case path.IsAbs(d.File) || path.Clean(d.File) != d.File || strings.HasPrefix(d.File, "../") || !strings.HasSuffix(d.File, ".go"):
		return d, fmt.Errorf("%s: file %q must be a clean relative path to a .go file", d.ID, d.File)
	case d.Anchor == d.Replace:
		return d, fmt.Errorf("%s: the replacement equals the anchor", d.ID)
	case d.CIExpect != "" && d.CIExpect != ExpectCaught && d.CIExpect != ExpectMissed:
		return d, fmt.Errorf("%s: ci-expect %q, want %s or %s", d.ID, d.CIExpect, ExpectCaught, ExpectMissed)
	case d.CIExpect != "" && !d.InSubset("ci"):
		return d, fmt.Errorf("%s: ci-expect set outside the ci subset", d.ID)
	case len(d.Pins) > 0 && d.PinsWhy == "":
		return d, fmt.Errorf("%s: pins without pins-why", d.ID)
	}
	return d, nil
}

func list(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Select returns the defects whose id is in only (when not empty) and that
// belong to subset (when not empty). An id of only that names no defect is
// an error.
func Select(all []Defect, only []string, subset string) ([]Defect, error) {
	for _, id := range only {
		if !slices.ContainsFunc(all, func(d Defect) bool { return d.ID == id }) {
			return nil, fmt.Errorf("no defect %q in the catalogue", id)
		}
	}
	var out []Defect
	for _, d := range all {
		if len(only) > 0 && !slices.Contains(only, d.ID) {
			continue
		}
		if subset != "" && !d.InSubset(subset) {
			continue
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no defect selected (only %v, subset %q)", only, subset)
	}
	return out, nil
}

// Apply returns src with the defect's anchor replaced. The anchor must
// occur exactly once: not found, or found more than once, is an error
// (the catalogue entry is stale or ambiguous).
func Apply(src []byte, d Defect) ([]byte, error) {
	s := string(src)
	switch n := strings.Count(s, d.Anchor); n {
	case 1:
		return []byte(strings.Replace(s, d.Anchor, d.Replace, 1)), nil
	case 0:
		return nil, fmt.Errorf("%s: anchor %q not found in %s", d.ID, d.Anchor, d.File)
	default:
		return nil, fmt.Errorf("%s: anchor %q found %d times in %s, must be exactly once", d.ID, d.Anchor, n, d.File)
	}
}
