//go:build amd64 && !purego

package ss18

import (
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/testkit"
)

// TestSymLowerSameBits mirrors the upper triangle of d×d matrices (d =
// 1…70) whose lower triangle holds other values, with and without the
// AVX-512 tiles, and requires every entry to be the upper triangle's, bit for
// bit (NaNs and signed zeros included), the upper triangle and the diagonal
// untouched.
func TestSymLowerSameBits(t *testing.T) {
	rng := bandit.Stream(1, 13)
	old := simd.SymLowerLanes
	defer func() { simd.SymLowerLanes = old }()
	for d := 1; d <= 70; d++ {
		src := make([]float64, d*d)
		for i := range src {
			switch rng.IntN(8) {
			case 0:
				src[i] = math.Copysign(0, -1)
			case 1:
				src[i] = math.Float64frombits(0x7ff8_0000_0000_0001 + uint64(i))
			default:
				src[i] = rng.NormFloat64()
			}
		}
		for _, lanes := range []bool{false, old} {
			simd.SymLowerLanes = lanes
			v := append([]float64(nil), src...)
			simd.SymLower(v, d)
			for i := range d {
				for j := range d {
					want := src[i*d+j]
					if j < i {
						want = src[j*d+i]
					}
					if math.Float64bits(v[i*d+j]) != math.Float64bits(want) {
						t.Fatalf("d=%d lanes=%v: v[%d][%d] = %v, want %v", d, lanes, i, j, v[i*d+j], want)
					}
				}
			}
		}
	}
}

// TestUnpackSplitSameBits unpacks the same packed statistics with and
// without the mirrored lower triangle (SymLower) at d = 1…70: V and ũ must
// be the same bits.
func TestUnpackSplitSameBits(t *testing.T) {
	if !simd.SymLowerLanes {
		t.Skip("no AVX-512")
	}
	rng := bandit.Stream(1, 14)
	defer func() { simd.SymLowerLanes = true }()
	for d := 1; d <= 70; d++ {
		r := &TreeRegularizer{d: d, diag: rng.NormFloat64(), buf: make([]float64, simd.PackedLen(d+1))}
		for i := range r.buf {
			r.buf[i] = rng.NormFloat64()
		}
		var vs, us [2][]float64
		for k, lanes := range []bool{false, true} {
			simd.SymLowerLanes = lanes
			vs[k], us[k] = make([]float64, d*d), make([]float64, d)
			r.unpack(vs[k], us[k])
		}
		if p := testkit.FirstDiff(vs[1], vs[0]); p >= 0 {
			t.Fatalf("d=%d: V entry %d is %v mirrored, %v stored twice", d, p, vs[1][p], vs[0][p])
		}
		if p := testkit.FirstDiff(us[1], us[0]); p >= 0 {
			t.Fatalf("d=%d: ũ entry %d differs", d, p)
		}
	}
}
