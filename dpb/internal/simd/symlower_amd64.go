//go:build amd64 && !purego

package simd

// SymLowerLanes selects symLowerAVX512 for SymLower (tests switch it).
var SymLowerLanes = HasAVX512()

// SymLowerFrom is the smallest d at which the tree regularizer's unpacking
// copies rows and mirrors them (SymLower) instead of storing each entry
// twice: at d = 64 2.38 → 0.91 µs, at d = 16 −11 to −15 %, but at d = 5 the
// copies cost more than they save (26 → 44 ns). Intel family 6 model 207.
const SymLowerFrom = 16

// symLowerAVX512 mirrors the full 8×8 tiles of v's upper triangle into its
// lower triangle (symlower_amd64.s).
//
//go:noescape
func symLowerAVX512(v *float64, d int)

// SymLower sets v[i·d+j] = v[j·d+i] for j < i (d×d row-major v): the lower
// triangle from the upper. On AVX-512 the full 8×8 tiles go through
// symLowerAVX512, the rows from ⌊d/8⌋·8 on through the loop.
func SymLower(v []float64, d int) {
	_ = v[d*d-1]
	from := 1
	if SymLowerLanes && d >= 8 {
		symLowerAVX512(&v[0], d)
		from = d &^ 7
	}
	symLowerRows(v, d, from)
}
