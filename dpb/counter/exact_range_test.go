package counter

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// secureUnit returns seeded secure discrete Gaussian noise of σ = 1 in one
// dimension (grid g = 2⁻²⁰) and its grid.
func secureUnit(t *testing.T, seed uint64) (*noise.SecureNoise, float64) {
	t.Helper()
	sAny, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{1}, Sensitivity: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := sAny.(*noise.SecureNoise)
	s.SetEntropy(noise.RandReader{R: rand.New(rand.NewPCG(56, seed))})
	return s, s.Grid()
}

// addRefused runs c.Add(z) and returns the panic's message ("" when Add
// accepted z).
func addRefused(c Counter, z []float64) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	c.Add(z)
	return ""
}

// Every node counter on secure noise refuses a record that would take a sum
// of rounded records to 2⁵³ grid steps, which the grid proof's exact
// arithmetic needs (grid.go), and accepts one that keeps it just below:
// (2⁵³ − 1)g is accepted and kept exactly, one more step is refused with
// the counter unchanged, in both signs, and so is a single record of 2⁵³g.
// Before the check, the exact sum rounded silently past 2⁵³g (issue 56).
func TestNodeCountersExactRange(t *testing.T) {
	for _, kind := range []Kind{Tree, TreePadded, Honaker, Smooth, Kary} {
		for _, sign := range []float64{1, -1} {
			nz, g := secureUnit(t, uint64(kind))
			c, err := New(Config{Kind: kind, Dim: 1, Horizon: 8, Noise: nz})
			if err != nil {
				t.Fatal(err)
			}
			below := sign * (0x1p53 - 1) * g
			if msg := addRefused(c, []float64{below}); msg != "" {
				t.Errorf("%v: (2⁵³ − 1) grid steps refused: %s", kind, msg)
				continue
			}
			if got := c.Exact()[0]; got != below {
				t.Errorf("%v: exact sum %v, want %v", kind, got, below)
			}
			msg := addRefused(c, []float64{sign * g})
			if !strings.Contains(msg, "2⁵³ grid steps") {
				t.Errorf("%v sign %v: a sum of 2⁵³ grid steps accepted (sum now %v, round %d), want a refusal", kind, sign, c.Exact()[0], c.Rounds())
				continue
			}
			if c.Rounds() != 1 || c.Exact()[0] != below {
				t.Errorf("%v: the refused record changed the counter: round %d, sum %v", kind, c.Rounds(), c.Exact()[0])
			}
			fresh, _ := New(Config{Kind: kind, Dim: 1, Horizon: 8, Noise: nz})
			if msg := addRefused(fresh, []float64{sign * 0x1p53 * g}); msg == "" {
				t.Errorf("%v: a record of 2⁵³ grid steps accepted", kind)
			}
			if msg := addRefused(fresh, []float64{math.NaN()}); msg == "" {
				t.Errorf("%v: NaN accepted on secure noise", kind)
			}
		}
	}
}

// Honaker's estimator also sums the records of each node it closes: with
// prefix sums in range, the node (3, 4] of records (2⁵³ − 1)g and g holds
// 2⁵³ grid steps and is refused at round 4 (the other counters, which sum
// prefixes only, accept the stream); with 0 in round 4 it is accepted.
func TestHonakerNodeDataExactRange(t *testing.T) {
	nz, g := secureUnit(t, 9)
	big := (0x1p53 - 1) * g
	for _, last := range []float64{0, g} {
		for _, kind := range []Kind{Honaker, Tree} {
			c, _ := New(Config{Kind: kind, Dim: 1, Horizon: 8, Noise: nz})
			var msg string
			for _, z := range []float64{-big, 0, big, last} {
				if msg = addRefused(c, []float64{z}); msg != "" {
					break
				}
			}
			refuse := kind == Honaker && last == g
			if (msg != "") != refuse {
				t.Errorf("%v, round 4 = %v grid steps: refused %q, want refused = %v", kind, last/g, msg, refuse)
			}
		}
	}
}

// A sum of node draws of 2⁵² grid steps or more is refused too (a sum of two
// of them, the padded tree's cum + pad, must stay exact); 2⁵² − 1 steps is
// accepted. The draws are planted by a replayed gridded noise.
func TestNodeCountersNoiseExactRange(t *testing.T) {
	const g = 0x1p-20
	for _, kind := range []Kind{Tree, TreePadded, Honaker, Smooth, Kary} {
		for _, steps := range []float64{0x1p52 - 1, 0x1p52} {
			draws := make([][]float64, 64)
			for i := range draws {
				draws[i] = []float64{0}
			}
			nz := &griddedReplay{replayNoise{g: g, draws: draws}}
			c, err := New(Config{Kind: kind, Dim: 1, Horizon: 8, Noise: nz})
			if err != nil {
				t.Fatal(err)
			}
			nz.draws[nz.i] = []float64{-steps * g} // the next draw
			msg := addRefused(c, []float64{0.5})
			if refuse := steps >= 0x1p52; (msg != "") != refuse {
				t.Errorf("%v: a draw of %v grid steps: refused %q, want refused = %v", kind, steps, msg, refuse)
			}
		}
	}
}

// The square-root and BLT counters bound their sums at construction: the
// data bound B over the horizon must keep every measurement below 2⁵¹ grid
// steps (toeplitz_secure.go). At the largest accepted B (found by
// bisection) a stream of records B keeps its exact sum exactly (n·⌊B⌉_g),
// and the next float above B is refused with an error that says why.
func TestToeplitzCountersExactRange(t *testing.T) {
	const n, sigma = 4, 1.0
	g := noise.SecureGrid(sigma)
	for _, kind := range []Kind{Sqrt, BLT} {
		ok := func(b float64) error {
			_, err := ToeplitzSlack(kind, 1, n, DataBound{Entry: b}, g)
			return err
		}
		lo, hi := g, 0x1p60*g
		if ok(lo) != nil || ok(hi) == nil {
			t.Fatalf("%v: no edge between %v and %v", kind, lo, hi)
		}
		for math.Nextafter(lo, hi) < hi {
			mid := lo + (hi-lo)/2
			if mid == lo || mid == hi {
				mid = math.Nextafter(lo, hi)
			}
			if ok(mid) == nil {
				lo = mid
			} else {
				hi = mid
			}
		}
		if err := ok(hi); err == nil || !strings.Contains(err.Error(), "2^51 grid steps") {
			t.Errorf("%v: above the edge: %v, want the 2^51 refusal", kind, err)
		}
		slack, _ := ToeplitzSlack(kind, 1, n, DataBound{Entry: lo}, g)
		nzAny, err := noise.New(noise.Config{Law: noise.GaussianLaw, Mode: noise.Secure, Sigmas: []float64{sigma}, Sensitivity: 1, Slack: slack}, nil)
		if err != nil {
			t.Fatal(err)
		}
		nz := nzAny.(*noise.SecureNoise)
		nz.SetEntropy(noise.RandReader{R: rand.New(rand.NewPCG(56, 3))})
		c, err := New(Config{Kind: kind, Dim: 1, Horizon: n, Noise: nz, Bound: DataBound{Entry: lo}})
		if err != nil {
			t.Fatalf("%v at the edge B = %v: %v", kind, lo, err)
		}
		if _, err := New(Config{Kind: kind, Dim: 1, Horizon: n, Noise: nz, Bound: DataBound{Entry: hi}}); err == nil {
			t.Errorf("%v: B = %v above the edge accepted", kind, hi)
		}
		w := math.RoundToEven(lo/g) * g
		for range n {
			c.Add([]float64{lo})
		}
		if got := c.Exact()[0]; got != n*w {
			t.Errorf("%v at the edge: exact sum %v, want %v", kind, got, n*w)
		}
		t.Logf("%v: edge B = %v = %.6g grid steps (n = %d)", kind, lo, lo/g, n)
	}
}
