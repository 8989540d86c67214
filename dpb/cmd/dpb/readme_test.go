package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestREADMEFigureTableMatchesMetadata: every figure committed in figures/
// (its NAME.json) has a row in the figure table of docs/figures.md (the
// README links to it), and that row states
// the horizon and the number of runs the metadata records (n written as
// 5·10⁶, 10⁵, 2²⁰, 58,000 or 5000000; "N runs", "one round" for a single
// round, "exact" for a computation without runs).
func TestREADMEFigureTableMatchesMetadata(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "docs", "figures.md"))
	if err != nil {
		t.Skip("docs/figures.md not found")
	}
	rows := figureRows(string(readme))
	metas, _ := filepath.Glob(filepath.Join(root, "figures", "*.json"))
	if len(metas) == 0 {
		t.Skip("no figures/*.json")
	}
	for _, path := range metas {
		var m struct {
			Name    string `json:"name"`
			Reps    int    `json:"reps"`
			Horizon int    `json:"horizon"`
		}
		b, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(b, &m) != nil {
			t.Errorf("%s: unreadable metadata", path)
			continue
		}
		if m.Name == "" {
			continue // not a figure's metadata (a notebook's data file)
		}
		row, ok := rows[m.Name]
		if !ok {
			t.Errorf("%s: no row in the figure table of docs/figures.md", m.Name)
			continue
		}
		nums := numbersIn(row)
		if m.Horizon == 1 && strings.Contains(row, "one round") {
			continue
		}
		if !nums[float64(m.Horizon)] {
			t.Errorf("%s: the README row does not state the horizon %d of figures/%s.json:\n%s", m.Name, m.Horizon, m.Name, row)
		}
		switch {
		case m.Reps == 0:
			if !strings.Contains(row, "exact") {
				t.Errorf("%s: 0 runs in the metadata, the README row does not say exact", m.Name)
			}
		case !strings.Contains(row, strconv.Itoa(m.Reps)+" runs"):
			t.Errorf("%s: the README row does not state the %d runs of figures/%s.json:\n%s", m.Name, m.Reps, m.Name, row)
		}
	}
}

// figureRows maps each figure name of the "## Figures" table (docs/figures.md) to its
// "what" and "scale" cells (not the command, whose flags could state a scale
// the committed figure does not have); "as above" borrows the previous row, "-k10" completes the name
// before it (mt14-fig1-k5, -k10).
func figureRows(readme string) map[string]string {
	rows := map[string]string{}
	sec := readme
	if i := strings.Index(sec, "\n## Figures"); i >= 0 {
		sec = sec[i+1:]
		if j := strings.Index(sec[3:], "\n## "); j >= 0 {
			sec = sec[:j+3]
		}
	}
	name := regexp.MustCompile("`([a-z0-9-]+)`")
	prev := ""
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			continue
		}
		first := cells[1]
		text := cells[2] + "|" + cells[3] // what and scale, not the command
		if strings.TrimSpace(cells[3]) == "as above" {
			text += " " + prev
		}
		last := ""
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			n := m[1]
			if strings.HasPrefix(n, "-") && last != "" {
				n = last[:strings.LastIndex(last, "-")] + n
			}
			rows[n] = text
			last = n
		}
		prev = text
	}
	return rows
}

// numbersIn returns the numbers a README row writes: 5·10⁶, 10⁵, 2²⁰,
// 256·4ᵏ's 256, 58,000, 5000000.
func numbersIn(s string) map[float64]bool {
	sup := strings.NewReplacer("⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9")
	out := map[float64]bool{}
	re := regexp.MustCompile(`(\d[\d,]*)(?:·(\d+)([⁰¹²³⁴⁵⁶⁷⁸⁹]+))?([⁰¹²³⁴⁵⁶⁷⁸⁹]+)?`)
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		base, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		if err != nil {
			continue
		}
		switch {
		case m[2] != "": // a·b^e
			b, _ := strconv.ParseFloat(m[2], 64)
			e, _ := strconv.Atoi(sup.Replace(m[3]))
			out[base*pow(b, e)] = true
		case m[4] != "": // b^e
			e, _ := strconv.Atoi(sup.Replace(m[4]))
			out[pow(base, e)] = true
		default:
			out[base] = true
		}
	}
	return out
}

func pow(b float64, e int) float64 {
	v := 1.0
	for range e {
		v *= b
	}
	return v
}
