package harness

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

// Curves summarises out[series][rep][point] as means and standard errors.
type Curves struct {
	Names  []string    `json:"names"`
	X      []float64   `json:"x"` // the record points (rounds, or a swept parameter)
	Mean   [][]float64 `json:"mean"`
	StdErr [][]float64 `json:"stderr"`
	Reps   int         `json:"reps"`
}

// Summarise computes per-series, per-point mean and standard error of the
// mean over repetitions (see [MeanStdErr]).
func Summarise(names []string, x []float64, out [][][]float64) *Curves {
	c := &Curves{Names: names, X: x}
	for _, series := range out {
		reps := len(series)
		c.Reps = reps
		np := 0
		if reps > 0 {
			np = len(series[0])
		}
		mean := make([]float64, np)
		se := make([]float64, np)
		col := make([]float64, reps)
		for k := 0; k < np; k++ {
			for r, rep := range series {
				col[r] = rep[k]
			}
			mean[k], se[k] = MeanStdErr(col)
		}
		c.Mean = append(c.Mean, mean)
		c.StdErr = append(c.StdErr, se)
	}
	return c
}

// MeanStdErr returns the mean of x and the standard error of the mean, the
// sample standard deviation over √len(x) (0 for fewer than two values).
func MeanStdErr(x []float64) (mean, stderr float64) {
	if len(x) == 0 {
		return math.NaN(), 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	mean = s / float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		d := v - mean
		ss += float64(d * d)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
}

// WriteCSV writes one row per (series, point): series,x,mean,stderr,reps.
func (c *Curves) WriteCSV(w io.Writer, xName string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"series", xName, "mean", "stderr", "reps"}); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
	for s, name := range c.Names {
		for k, x := range c.X {
			if err := cw.Write([]string{name, f(x), f(c.Mean[s][k]), f(c.StdErr[s][k]), strconv.Itoa(c.Reps)}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
