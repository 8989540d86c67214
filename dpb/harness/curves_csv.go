package harness

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadCurvesCSV reads back a figure's CSV table, the format of
// [Curves.WriteCSV] (header series,x,mean,stderr,reps; one row per series and
// point), so that a notebook can show a committed long run without running
// it again. With prefixes, the table is the concatenation that the CLI
// writes for several curve sets (series "<prefix> <name>", e.g. "gap=0.1
// Gaussian"): part i holds the series whose names start with prefixes[i] and
// a space, with the prefix removed. It returns the parts, in the order of
// prefixes (one part when prefixes is empty), and the x column's name.
//
// Every part must give every series the same x values and every row the same
// number of runs; a missing part, a row of no part, a non-finite or
// unparsable number, or a ragged table is an error naming the line.
func ReadCurvesCSV(r io.Reader, prefixes []string) ([]*Curves, string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 5
	head, err := cr.Read()
	if err != nil {
		return nil, "", fmt.Errorf("curves csv: header: %w", err)
	}
	if head[0] != "series" || head[2] != "mean" || head[3] != "stderr" || head[4] != "reps" {
		return nil, "", fmt.Errorf("curves csv: header %q, want series,<x>,mean,stderr,reps", strings.Join(head, ","))
	}
	np := max(len(prefixes), 1)
	parts := make([]*Curves, np)
	index := make([]map[string]int, np) // series name -> index in parts[p]
	for p := range parts {
		parts[p] = &Curves{Reps: -1}
		index[p] = map[string]int{}
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("curves csv: %w", err)
		}
		p, name := 0, rec[0]
		if len(prefixes) > 0 {
			p = -1
			for i, pre := range prefixes {
				if rest, ok := strings.CutPrefix(rec[0], pre+" "); ok {
					p, name = i, rest
					break
				}
			}
			if p < 0 {
				return nil, "", fmt.Errorf("curves csv: line %d: series %q has none of the prefixes %q", line, rec[0], prefixes)
			}
		}
		var v [3]float64
		for i := range v {
			v[i], err = strconv.ParseFloat(rec[1+i], 64)
			if err != nil || math.IsInf(v[i], 0) || math.IsNaN(v[i]) {
				return nil, "", fmt.Errorf("curves csv: line %d: %s %q is not a finite number", line, head[1+i], rec[1+i])
			}
		}
		reps, err := strconv.Atoi(rec[4])
		if err != nil || reps < 0 {
			return nil, "", fmt.Errorf("curves csv: line %d: reps %q is not a count", line, rec[4])
		}
		c := parts[p]
		if c.Reps >= 0 && reps != c.Reps {
			return nil, "", fmt.Errorf("curves csv: line %d: %d runs, earlier rows of the part have %d", line, reps, c.Reps)
		}
		c.Reps = reps
		s, ok := index[p][name]
		if !ok {
			s = len(c.Names)
			index[p][name] = s
			c.Names = append(c.Names, name)
			c.Mean = append(c.Mean, nil)
			c.StdErr = append(c.StdErr, nil)
		}
		k := len(c.Mean[s])
		switch {
		case s == 0:
			c.X = append(c.X, v[0])
		case k >= len(c.X) || c.X[k] != v[0]:
			return nil, "", fmt.Errorf("curves csv: line %d: series %q at %s = %s, not the first series' x values", line, rec[0], head[1], rec[1])
		}
		c.Mean[s] = append(c.Mean[s], v[1])
		c.StdErr[s] = append(c.StdErr[s], v[2])
	}
	for p, c := range parts {
		if len(c.Names) == 0 {
			if len(prefixes) > 0 {
				return nil, "", fmt.Errorf("curves csv: no series with prefix %q", prefixes[p])
			}
			return nil, "", fmt.Errorf("curves csv: no rows")
		}
		for s, m := range c.Mean {
			if len(m) != len(c.X) {
				return nil, "", fmt.Errorf("curves csv: series %q has %d points, the first series %d", c.Names[s], len(m), len(c.X))
			}
		}
	}
	return parts, head[1], nil
}
