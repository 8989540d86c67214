package data

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

func TestNewSupervisedLogBadInputs(t *testing.T) {
	mk := func(n, p int, fill func(i, j int) float64) *Supervised {
		ds := &Supervised{Name: "toy", Classes: []string{"a", "b"}}
		for j := 0; j < p; j++ {
			ds.Features = append(ds.Features, "f")
		}
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				ds.X = append(ds.X, fill(i, j))
			}
			ds.Y = append(ds.Y, i%2)
		}
		return ds
	}
	smooth := func(i, j int) float64 { return float64((i+1)*(j+2)%7) + 0.1*float64(i*j) }
	for _, c := range []struct {
		name string
		ds   *Supervised
		dim  int
		want string
	}{
		// Fewer rows than dimensions: gonum's PCA used to panic here.
		{"rows<dim", mk(3, 9, smooth), 6, `has 3 rows, need at least max(2, dim = 6)`},
		{"one row", mk(1, 9, smooth), 2, `has 1 rows, need at least max(2, dim = 2)`},
		{"nan", mk(20, 4, func(i, j int) float64 {
			if i == 7 && j == 2 {
				return math.NaN()
			}
			return smooth(i, j)
		}), 3, "row 7, feature 2 is NaN, want a finite number"},
		{"inf", mk(20, 4, func(i, j int) float64 {
			if i == 3 {
				return math.Inf(-1)
			}
			return smooth(i, j)
		}), 3, "row 3, feature 0 is -Inf"},
		{"dim", mk(20, 4, smooth), 6, "dim is 6, must be in [2, 5]"},
	} {
		_, err := NewSupervisedLog(c.ds, SupervisedLogConfig{Dim: c.dim}, bandit.Stream(1, 1))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := NewSupervisedLog(mk(6, 9, smooth), SupervisedLogConfig{Dim: 6}, bandit.Stream(1, 1)); err != nil {
		t.Errorf("6 rows, dim 6: %v", err)
	}
}
