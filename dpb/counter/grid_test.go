package counter

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// replayNoise plays back a fixed list of draws; with g > 0 it is Gridded.
type replayNoise struct {
	g     float64
	draws [][]float64
	i     int
}

func (r *replayNoise) Dim() int { return len(r.draws[0]) }
func (r *replayNoise) Sample(dst []float64) {
	copy(dst, r.draws[r.i])
	r.i++
}

type griddedReplay struct{ replayNoise }

func (r *griddedReplay) Grid() float64 { return r.g }

// recordNoise records the draws of a noise.
type recordNoise struct {
	noise.Noise
	draws [][]float64
}

func (r *recordNoise) Sample(dst []float64) {
	r.Noise.Sample(dst)
	r.draws = append(r.draws, append([]float64(nil), dst...))
}

type griddedRecord struct{ recordNoise }

func (r *griddedRecord) Grid() float64 { return r.Noise.(noise.Gridded).Grid() }

// dyadicSchedule returns, for the draws of a binary-tree counter in order,
// the rounds (lo, hi] of each draw's node: round t draws the nodes of
// levels lo..tz(t) (Honaker: every level from 0; TreeSum: level tz(t) only).
func dyadicSchedule(n int, allLevels bool) [][2]int {
	var s [][2]int
	for t := 1; t <= n; t++ {
		top := bits.TrailingZeros(uint(t))
		from := top
		if allLevels {
			from = 0
		}
		for i := from; i <= top; i++ {
			s = append(s, [2]int{t - 1<<i, t})
		}
	}
	return s
}

// TestGridReleaseIsPostProcessing checks the post-processing step of the
// grid wrapper (counter_grid.go) for the tree and Honaker counters: two
// different streams z, z′ whose draws are shifted so that every node value
// y = (rounded node sum) + draw is the same must give bit-identical
// releases in secure mode, whatever the data. The negative control runs the
// same pair on non-gridded (simulated-mode) replays of the same draws: the
// releases there are S_t + noise in floating point and differ in their low
// bits — what the float attack reads.
func TestGridReleaseIsPostProcessing(t *testing.T) {
	const n, dim = 200, 3
	rng := rand.New(rand.NewPCG(38, 1))
	z, z2 := make([][]float64, n), make([][]float64, n)
	for s := range z {
		z[s], z2[s] = make([]float64, dim), make([]float64, dim)
		for j := range dim {
			z[s][j], z2[s][j] = 2*rng.Float64()-1, 2*rng.Float64()-1
		}
	}
	for _, c := range []struct {
		name string
		all  bool
		mk   func(noise.Noise) (Counter, error)
	}{
		{"tree", false, func(nz noise.Noise) (Counter, error) {
			return New(Config{Kind: Tree, Dim: dim, Horizon: n, Noise: nz, Mode: Plain})
		}},
		{"honaker", true, func(nz noise.Noise) (Counter, error) {
			return New(Config{Kind: Honaker, Dim: dim, Horizon: n, Noise: nz})
		}},
	} {
		secAny, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{3, 3, 3}, Sensitivity: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sec := secAny.(*noise.SecureNoise)
		sec.SetEntropy(noise.RandReader{R: rand.New(rand.NewPCG(38, 2))})
		g := sec.Grid()
		rec := &griddedRecord{recordNoise{Noise: sec}}
		c1, err := c.mk(rec)
		if err != nil {
			t.Fatal(err)
		}
		sched := dyadicSchedule(n, c.all)
		// draws for z′: d′ = d + Σ_{s∈node} (⌊z_s⌉ − ⌊z′_s⌉), exact on the grid.
		shift := func(k int, src [][]float64) []float64 {
			d := append([]float64(nil), src[k]...)
			for s := sched[k][0]; s < sched[k][1]; s++ {
				for j := range d {
					d[j] += math.RoundToEven(z[s][j]/g)*g - math.RoundToEven(z2[s][j]/g)*g
				}
			}
			return d
		}
		rel1, rel2 := make([][]float64, n), make([][]float64, n)
		for s := range n {
			c1.Add(z[s])
			rel1[s] = c1.SumTo(nil)
		}
		if len(rec.draws) != len(sched) {
			t.Fatalf("%s: %d draws, schedule has %d", c.name, len(rec.draws), len(sched))
		}
		var d2 [][]float64
		for k := range rec.draws {
			d2 = append(d2, shift(k, rec.draws))
		}
		run := func(nz noise.Noise) int {
			c2, err := c.mk(nz)
			if err != nil {
				t.Fatal(err)
			}
			diffs := 0
			for s := range n {
				c2.Add(z2[s])
				rel2[s] = c2.SumTo(rel2[s])
				for j := range dim {
					if rel2[s][j] != rel1[s][j] {
						diffs++
					}
				}
			}
			return diffs
		}
		if d := run(&griddedReplay{replayNoise{g: g, draws: d2}}); d != 0 {
			t.Errorf("%s secure: %d release entries differ between streams with equal node values", c.name, d)
		}
		// Negative control: the same draws, not gridded (the simulated path).
		if d := run(&replayNoise{draws: d2}); d == 0 {
			t.Errorf("%s simulated control: every release equal; the test cannot fail", c.name)
		}
	}
}

// TestGridReleasesOnGrid checks that every secure release of the tree,
// padded tree, k-ary and smooth counters (integer combinations of node
// values) is an exact multiple of the grid and that NoiseTo + Exact is
// SumTo; the negative control is the same counters on simulated Gaussian
// noise, whose releases are not. (Honaker's releases are non-integer
// combinations: TestGridReleaseIsPostProcessing covers them.)
func TestGridReleasesOnGrid(t *testing.T) {
	const n, dim = 300, 2
	for _, kind := range []Kind{Tree, TreePadded, Smooth, Kary} {
		for _, secure := range []bool{true, false} {
			rng := rand.New(rand.NewPCG(38, uint64(kind)))
			var nz noise.Noise
			g := 0.0
			if secure {
				sAny, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{2, 2}, Sensitivity: 1}, nil)
				if err != nil {
					t.Fatal(err)
				}
				s := sAny.(*noise.SecureNoise)
				s.SetEntropy(noise.RandReader{R: rng})
				nz, g = s, s.Grid()
			} else {
				nz, _ = noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Simulated, Dim: dim, Sigma: 2}, rng)
				sAny, _ := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{2, 2}, Sensitivity: 1}, nil)
				s, _ := sAny.(*noise.SecureNoise) // nil on error
				g = s.Grid()
			}
			c, err := New(Config{Kind: kind, Dim: dim, Horizon: n, Noise: nz})
			if err != nil {
				t.Fatalf("%v secure=%v: %v", kind, secure, err)
			}
			rel, nse := make([]float64, dim), make([]float64, dim)
			off := 0
			for range n {
				c.Add([]float64{rng.Float64(), -rng.Float64()})
				c.SumTo(rel)
				c.NoiseTo(nse)
				for j := range rel {
					if k := rel[j] / g; k != math.Trunc(k) {
						off++
					}
					if secure && rel[j] != c.Exact()[j]+nse[j] {
						t.Fatalf("%v: SumTo %v != Exact + NoiseTo %v", kind, rel[j], c.Exact()[j]+nse[j])
					}
				}
			}
			if secure && off != 0 {
				t.Errorf("%v secure: %d release entries off the grid %g", kind, off, g)
			}
			if !secure && off == 0 {
				t.Errorf("%v simulated control: every release on the grid; the test cannot fail", kind)
			}
		}
	}
}
