//go:build amd64 && !purego

package simd

// BartlettLanesOK selects BartlettLanesTo for WishartNoise.Sample (tests
// switch it).
var BartlettLanesOK = HasAVX512() && HasBMI12()

// BartlettLanesFrom is the smallest n whose Bartlett product goes through
// the AVX-512 kernel (n = 6, d = 5, has bartlett6To). The product alone,
// the previous kernel (32 lanes of one row a pass; copy of A included)
// against the loop, Intel family 6 model 207: n = 7 level (≈ 170 ns each),
// n = 8 115–120 against 150–210 ns, n = 12 210–300 against 415–535 ns.
// BartlettSlotsAVX512, which takes four vectors of eight a pass in row
// order, is faster again at every n tested (the product alone, alternated
// call by call: 0.52 at n = 17, 0.68 at n = 33, 0.81 at n = 65, 4.85 ->
// 3.91 µs).
const BartlettLanesFrom = 8

// BartlettColStride returns the row stride of BartlettLanesTo's copy of A
// by columns: n + 7 rounded up to 8, so that a vector of eight lanes from
// any column j0 < n stays in its row (the lanes from n on are zero).
func BartlettColStride(n int) int { return (n + 14) &^ 7 }

// BartlettSlotsAVX512 is BartlettProductTo for n ≥ 1, eight entries of a
// row of W a vector and four vectors a pass in row order, from col, A by
// columns with its diagonal (col[l·np + j] = A_jl for j ≥ l, zero for j ≥ n;
// bartlett_amd64.s, written by dpb/internal/asmgen/bartlett.py).
//
//go:noescape
func BartlettSlotsAVX512(dst, col *float64, n, np int, s float64)

// BartlettColLen is the length of the copy of A by columns that
// BartlettLanesTo needs for an n×n draw, 0 when it is not used.
func BartlettColLen(n int) int {
	if n < BartlettLanesFrom {
		return 0
	}
	return n * BartlettColStride(n)
}

// BartlettLanesTo is BartlettProductTo (the same bits) through
// BartlettSlotsAVX512, with col (at least n·BartlettColStride(n) floats,
// zero beyond A's lower triangle and never written there) as A's copy by
// columns. It reports whether it did: on AVX-512 CPUs, for n >=
// BartlettLanesFrom.
func BartlettLanesTo(dst, off, diag, col []float64, s float64) bool {
	n := len(diag)
	np := BartlettColStride(n)
	if !BartlettLanesOK || n < BartlettLanesFrom || len(col) < n*np {
		return false
	}
	_, _ = dst[PackedLen(n)-1], off[n*(n-1)/2-1]
	BartlettColumnsAVX512(&col[0], &off[0], &diag[0], n, np)
	BartlettSlotsAVX512(&dst[0], &col[0], n, np, s)
	return true
}

// BartlettColumnsAVX512 is BartlettColumns for n ≥ 2 in 8×8 blocks, each
// transposed in registers (bartlettcols_amd64.s).
//
//go:noescape
func BartlettColumnsAVX512(col, off, diag *float64, n, np int)

// BartlettColumns writes A by columns into col (row stride np): col[l·np +
// j] = A_jl for j > l from off (A below the diagonal by rows), A_ll from
// diag. Nothing else of col is written. Column by column, so that the
// stores run along col and the loads, off's (j, l) at j(j−1)/2 + l, hop
// through off, which stays in L1 (row by row, each store went to another
// line of col: 2.3 µs of the 12 µs draw at n = 65).
func BartlettColumns(col, off, diag []float64, np int) {
	n := len(diag)
	for l := 0; l < n; l++ {
		c := col[l*np : l*np+n]
		c[l] = diag[l]
		k := (l+1)*l/2 + l // (l+1, l)
		for j := l + 1; j < n; j++ {
			c[j] = off[k]
			k += j // (j+1, l)
		}
	}
}
