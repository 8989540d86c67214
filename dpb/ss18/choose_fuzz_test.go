package ss18

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
)

// FuzzChooseLockstep scores decision sets whose coordinates are arbitrary
// finite Float64 bit patterns from the fuzzer (subnormals, ±0, values that
// overflow the scores) with chooseLockstep and with each policy's Choose,
// and requires the same actions and the same bits in every score: five ridge
// LinUCB policies of dimension d ≤ 8 (a group of four, then of one) with a
// few observations each, K = 1…70. Non-finite coordinates are replaced by 0:
// on them the kernels may legitimately differ (linucb_kernel.go).
func FuzzChooseLockstep(f *testing.F) {
	f.Add(uint8(5), uint8(25), uint64(1), []byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xbf, 0xe0, 0, 0, 0, 0, 0, 0})
	f.Add(uint8(2), uint8(4), uint64(7), []byte{0x7f, 0xef, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Add(uint8(7), uint8(13), uint64(3), []byte{0x80, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, dd, kk uint8, seed uint64, raw []byte) {
		d, k := 1+int(dd)%simd.LockMaxDim, 1+int(kk)%70
		rng := bandit.Stream(seed, 1)
		pols := make([]bandit.Policy, 5)
		for i := range pols {
			pols[i] = ridgeLinUCB(t, d, 100, 1+i+int(seed%5), rng)
		}
		r := &bandit.Round{T: 1, Dim: d, K: k, Actions: make([]float64, k*d)}
		for i := range r.Actions {
			if len(raw) >= 8 {
				o := 8 * (i % (len(raw) / 8))
				v := math.Float64frombits(binary.BigEndian.Uint64(raw[o : o+8]))
				if math.IsNaN(v) || math.IsInf(v, 0) {
					v = 0
				}
				r.Actions[i] = v * float64(1+i%3)
				if math.IsInf(r.Actions[i], 0) {
					r.Actions[i] = v
				}
			} else {
				r.Actions[i] = rng.NormFloat64()
			}
		}
		arms := make([]int, len(pols))
		chooseLockstep(pols, r, arms)
		got := make([][]float64, len(pols))
		for i, pol := range pols {
			got[i] = append([]float64(nil), pol.(*LinUCB).f.scores[:k]...)
		}
		for i, pol := range pols {
			if a := pol.Choose(r); a != arms[i] {
				t.Fatalf("d %d, K %d, policy %d: action %d (lockstep), %d (Choose)", d, k, i, arms[i], a)
			}
			for j, v := range pol.(*LinUCB).f.scores[:k] {
				if math.Float64bits(v) != math.Float64bits(got[i][j]) {
					t.Fatalf("d %d, K %d, policy %d: score %d is %v (lockstep), %v (Choose)", d, k, i, j, got[i][j], v)
				}
			}
		}
	})
}
