package counter

import (
	"math/bits"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/noise"
)

// seqNoise draws 1, 2, 3, … (times the unit vector): it lets a test name
// every node draw and check which draws a release contains.
type seqNoise struct {
	n    int
	next float64
}

func (s *seqNoise) Dim() int { return s.n }
func (s *seqNoise) Sample(dst []float64) {
	s.next++
	for i := range dst {
		dst[i] = s.next * float64(i+1)
	}
}

func TestTreeSumZeroNoiseExact(t *testing.T) {
	for _, mode := range []ReleaseMode{Plain, Padded} {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 100, 1024, 1025} {
			ts, err := New(Config{Kind: Tree, Dim: 3, Horizon: n, Noise: noise.ZeroNoise{N: 3}, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, 3)
			got := make([]float64, 3)
			for r := 1; r <= n; r++ {
				z := []float64{float64(r), 0.5, -float64(r * r)}
				ts.Add(z)
				for j := range want {
					want[j] += z[j]
				}
				ts.SumTo(got)
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("%v n=%d t=%d: sum[%d] = %v, want %v", mode, n, r, j, got[j], want[j])
					}
				}
			}
		}
	}
}

// TestTreeSumNodes checks, against a direct construction of the dyadic
// decomposition, that the release at t holds exactly the draws of the nodes
// of the set bits of t (plus, padded, the first m − popcount(t) padding draws).
func TestTreeSumNodes(t *testing.T) {
	for _, mode := range []ReleaseMode{Plain, Padded} {
		const n = 300
		sn := &seqNoise{n: 2}
		c, err := New(Config{Kind: Tree, Dim: 2, Horizon: n, Noise: sn, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		ts := c.(*TreeSum)
		m := ts.Levels()
		npad := 0
		if mode == Padded {
			npad = m
		}
		got := make([]float64, 2)
		for r := 1; r <= n; r++ {
			ts.Add([]float64{0, 0})
			// The node of bit b of r was closed at round r with the bits below b
			// cleared; round s makes draw number npad + s.
			want := 0.0
			for b := 0; b < bits.Len(uint(r)); b++ {
				if r&(1<<b) != 0 {
					closed := r &^ (1<<b - 1)
					want += float64(npad + closed)
				}
			}
			if mode == Padded {
				k := m - bits.OnesCount(uint(r))
				want += float64(k * (k + 1) / 2) // padding draws 1..k
			}
			ts.NoiseTo(got)
			if got[0] != want || got[1] != 2*want {
				t.Fatalf("%v t=%d: noise %v, want %v", mode, r, got, want)
			}
			if nodes := ts.NodesInRelease(); mode == Padded && nodes != m || mode == Plain && nodes != bits.OnesCount(uint(r)) {
				t.Fatalf("%v t=%d: NodesInRelease = %d", mode, r, nodes)
			}
		}
	}
}

func TestTreeLevels(t *testing.T) {
	for _, c := range []struct{ n, m int }{{1, 1}, {2, 2}, {3, 3}, {4, 3}, {5, 4}, {1024, 11}, {1025, 12}, {50_000_000, 27}} {
		if got := TreeLevels(c.n); got != c.m {
			t.Errorf("TreeLevels(%d) = %d, want %d", c.n, got, c.m)
		}
	}
}

func TestTreeSumErrors(t *testing.T) {
	if _, err := New(Config{Kind: Tree, Dim: 0, Horizon: 10, Noise: noise.ZeroNoise{N: 0}, Mode: Plain}); err == nil {
		t.Error("dim 0 accepted")
	}
	if _, err := New(Config{Kind: Tree, Dim: 2, Horizon: 0, Noise: noise.ZeroNoise{N: 2}, Mode: Plain}); err == nil {
		t.Error("horizon 0 accepted")
	}
	if _, err := New(Config{Kind: Tree, Dim: 2, Horizon: 10, Noise: noise.ZeroNoise{N: 3}, Mode: Plain}); err == nil {
		t.Error("noise dimension mismatch accepted")
	}
	ts, _ := New(Config{Kind: Tree, Dim: 1, Horizon: 1, Noise: noise.ZeroNoise{N: 1}, Mode: Plain})
	ts.Add([]float64{1})
	defer func() {
		if recover() == nil {
			t.Error("Add past the horizon did not panic")
		}
	}()
	ts.Add([]float64{1})
}
