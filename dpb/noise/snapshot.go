package noise

import (
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// noiseState is the part of a node noise that is not the shared *rand.Rand:
// the symmetrised Gaussian's and the Wishart's own generators.
func AppendNoiseState(e *snap.Enc, n Noise) {
	switch g := n.(type) {
	case *SymGaussianNoise:
		e.U64(g.f.S)
	case *WishartNoise:
		e.U64(g.f.S)
	}
}

func ReadNoiseState(d *snap.Dec, n Noise) {
	switch g := n.(type) {
	case *SymGaussianNoise:
		g.f.S = d.U64()
	case *WishartNoise:
		g.f.S = d.U64()
	}
}
