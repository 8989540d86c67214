//go:build amd64 && !purego

package dpb

// invRowAVX selects invRowAVX2 for invRow (tests switch it).
var invRowAVX = hasAVX2FMA()

// invRowAVX2 is invRowGo in AVX2 assembly (invrow_amd64.s): each dot product
// in one four-lane register whose lanes are linalg.Dot's four chains, the
// products and sums rounded separately, the tail and the final sums in
// Dot's order (the same bits: TestInvRowSameBits).
//
//go:noescape
func invRowAVX2(li *float64, mt *float64, dp, i int, nmii float64)

// invRow writes row i ≥ 1 of the inverse factor (see invRowGo), through the
// AVX2 routine when the CPU has it: faster at every row length, d = 5's rows
// of one to four entries included (BenchmarkLinUCBPrepare at d = 5: 247 ->
// 208 ns, −16 %, AMD EPYC family 25).
func invRow(li, mt []float64, dp, i int, mii float64) {
	if invRowAVX {
		_ = li[i-1]
		_ = mt[(i-1)*dp+i]
		invRowAVX2(&li[0], &mt[0], dp, i, -mii)
		return
	}
	invRowGo(li, mt, dp, i, mii)
}

// invLanes selects invRowLanesAVX512 for inverseFactorTo from d =
// invLanesFrom on (tests switch it).
var invLanes = hasAVX2FMA() && hasAVX512() && hasBMI12()

// invLanesFrom is the smallest d at which inverseFactorTo computes its rows
// eight columns a vector (invRowLanesAVX512) instead of one dot product at
// a time (invRowAVX2).
const invLanesFrom = 16

// invMasks[v][m] holds the lane masks of step m of invRowLanesAVX512's
// masked steps when v = n0 − KA steps are left (the lanes' dot products
// have n0 − l elements, and the first KA, a multiple of four, are done):
// lane l has element KA + m when m < v − l (mask 0); it is in a full group
// of four when its group ends by its length, m < 4⌊m/4⌋ + 4 ≤ v − l (mask
// 1); in its tail otherwise (mask 2).
var invMasks = func() (t [11][10][4]uint8) {
	for v := range 11 {
		for m := range 10 {
			for l := range 8 {
				valid := m < v-l
				group := m/4*4+4 <= v-l
				if valid {
					t[v][m][0] |= 1 << l
				}
				if group {
					t[v][m][1] |= 1 << l
				}
				if valid && !group {
					t[v][m][2] |= 1 << l
				}
			}
		}
	}
	return t
}()

// invRowLanesAVX512 is invRowGo for row i ≥ 1 with eight columns per
// vector, reading M by subdiagonal from diag (diag[k·dp+j] = M_{j+k, j})
// and writing the row into both mt and diag (invrow_amd64.s).
//
//go:noescape
func invRowLanesAVX512(li, mt, diag *float64, dp, i int, nmii float64)

// zFromFactorAVX512 is inverseFactorTo's z = M u loop, eight rows per
// vector, with its operations in its order (invrow_amd64.s); zp[:d] zero on
// entry.
//
//go:noescape
func zFromFactorAVX512(zp, mt, u *float64, d, dp int)

// inverseFactorLanes writes rows 1…d−1 of M (the diagonal already in mt)
// and z = M u as inverseFactorTo's Go loops would, eight columns (rows of z)
// a vector: invRowLanesAVX512 with diag (at least d·dp floats) as its copy of
// M by subdiagonal, then zFromFactorAVX512. It reports whether it did: only
// on AVX-512 CPUs and for d >= invLanesFrom.
func inverseFactorLanes(mt, zp, l, u, diag []float64, d, dp int) bool {
	if !invLanes || d < invLanesFrom || len(diag) < d*dp {
		return false
	}
	_, _, _, _ = l[d*d-1], mt[(d-1)*dp+d-1], zp[d-1], u[d-1]
	for j := range d {
		diag[j] = mt[j*dp+j]
	}
	for i := 1; i < d; i++ {
		invRowLanesAVX512(&l[i*d], &mt[0], &diag[0], dp, i, -mt[i*dp+i])
	}
	clear(zp[:d])
	zFromFactorAVX512(&zp[0], &mt[0], &u[0], d, dp)
	return true
}
