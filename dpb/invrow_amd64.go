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

// invLanes selects invPanelsAVX512 for inverseFactorTo from d =
// invLanesFrom on (tests switch it).
var invLanes = hasAVX2FMA() && hasAVX512() && hasBMI12()

// invLanesFrom is the smallest d at which inverseFactorTo computes its rows
// eight columns a vector (invPanelsAVX512) instead of one dot product at a
// time (invRowAVX2).
const invLanesFrom = 16

// invPanelsAVX512 writes the rows of M below its diagonal eight columns (a
// panel) at a time, row by row, with the panel's rows in r, one load a step
// and no scatter (invpanel_amd64.s). It returns 0, having written nothing,
// when an entry of l is not finite.
//
//go:noescape
func invPanelsAVX512(l, mt, r *float64, d, dp int) (ok int)

// invPanelScratch is the length of invPanelsAVX512's r: the rows j0…d−1 of
// each panel j0 = 8p < d, and seven more rows that the last transposition
// reads (and ignores). d·dp floats hold it from d = 16 on.
func invPanelScratch(d int) int {
	p := (d + 7) / 8
	return 8 * (p*d - 4*p*(p-1) + 7)
}

// zFromFactorAVX512 is inverseFactorTo's z = M u loop, eight rows per
// vector, with its operations in its order (invrow_amd64.s); zp[:d] zero on
// entry.
//
//go:noescape
func zFromFactorAVX512(zp, mt, u *float64, d, dp int)

// inverseFactorLanes writes rows 1…d−1 of M (the diagonal already in mt)
// and z = M u as inverseFactorTo's Go loops would, eight columns (rows of z)
// a vector: invPanelsAVX512 with scratch (at least invPanelScratch(d)
// floats) for the panels' rows, then zFromFactorAVX512. It reports whether
// it did: only on AVX-512 CPUs, for d >= invLanesFrom and a finite factor.
func inverseFactorLanes(mt, zp, l, u, scratch []float64, d, dp int) bool {
	if !invLanes || d < invLanesFrom || len(scratch) < invPanelScratch(d) {
		return false
	}
	_, _, _, _ = l[d*d-1], mt[(d-1)*dp+d-1], zp[d-1], u[d-1]
	if invPanelsAVX512(&l[0], &mt[0], &scratch[0], d, dp) == 0 {
		return false // a factor that is not finite: the rows one by one
	}
	clear(zp[:d])
	zFromFactorAVX512(&zp[0], &mt[0], &u[0], d, dp)
	return true
}
