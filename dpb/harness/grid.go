package harness

import (
	"math"

	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
)

// LogGrid returns about k rounds in [1, n], log-spaced, increasing, distinct,
// ending at n.
func LogGrid(n, k int) []int {
	if n < 1 {
		return nil
	}
	var g []int
	for i := 0; i < k; i++ {
		t := int(math.Round(xmath.Pow(float64(n), float64(i+1)/float64(k))))
		if t < 1 {
			t = 1
		}
		if len(g) == 0 || t > g[len(g)-1] {
			g = append(g, t)
		}
	}
	if g[len(g)-1] != n {
		g = append(g, n)
	}
	return g
}

// LinGrid returns the rounds step, 2·step, …, n (and n if step does not divide it).
func LinGrid(n, step int) []int {
	var g []int
	for t := step; t <= n; t += step {
		g = append(g, t)
	}
	if len(g) == 0 || g[len(g)-1] != n {
		g = append(g, n)
	}
	return g
}

// LogDims returns k distinct integers log-spaced in [lo, hi] (SS18
// Experiment 1 uses 17 in [4, 64]); fewer if rounding merges some.
func LogDims(lo, hi, k int) []int {
	if k < 2 || lo >= hi {
		return []int{lo}
	}
	var ds []int
	for i := range k {
		d := int(math.Round(float64(lo) * xmath.Pow(float64(hi)/float64(lo), float64(i)/float64(k-1))))
		if len(ds) == 0 || d > ds[len(ds)-1] {
			ds = append(ds, d)
		}
	}
	return ds
}

// HorizonGrid returns lo, lo·f, lo·f², … up to hi, ending at hi.
func HorizonGrid(lo, hi, f int) []int {
	var g []int
	for t := lo; t < hi; t *= f {
		g = append(g, t)
	}
	return append(g, hi)
}

// SubSeed derives the seed of horizon index h from seed (a fixed odd-constant mix).
func SubSeed(seed uint64, h int) uint64 {
	return seed ^ (uint64(h+1) * 0x9E3779B97F4A7C15)
}
