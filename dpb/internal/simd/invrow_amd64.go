//go:build amd64 && !purego

package simd

// InvRowAVX selects InvRowAVX2 for InvRow (tests switch it).
var InvRowAVX = HasAVX2FMA()

// InvRowAVX2 is InvRowGo in AVX2 assembly (invrow_amd64.s): each dot product
// in one four-lane register whose lanes are linalg.Dot's four chains, the
// products and sums rounded separately, the tail and the final sums in
// Dot's order (the same bits: TestInvRowSameBits).
//
//go:noescape
func InvRowAVX2(li *float64, mt *float64, dp, i int, nmii float64)

// InvRow writes row i ≥ 1 of the inverse factor (see InvRowGo), through the
// AVX2 routine when the CPU has it: faster at every row length, d = 5's rows
// of one to four entries included (BenchmarkLinUCBPrepare at d = 5: 247 ->
// 208 ns, −16 %, AMD EPYC family 25).
func InvRow(li, mt []float64, dp, i int, mii float64) {
	if InvRowAVX {
		_ = li[i-1]
		_ = mt[(i-1)*dp+i]
		InvRowAVX2(&li[0], &mt[0], dp, i, -mii)
		return
	}
	InvRowGo(li, mt, dp, i, mii)
}

// InvLanes selects InvPanelsAVX512 for InverseFactorTo from d =
// invLanesFrom on (tests switch it).
var InvLanes = HasAVX2FMA() && HasAVX512() && HasBMI12()

// invLanesFrom is the smallest d at which InverseFactorTo computes its rows
// eight columns a vector (InvPanelsAVX512) instead of one dot product at a
// time (InvRowAVX2).
const invLanesFrom = 16

// InvPanelsAVX512 writes the rows of M below its diagonal eight columns (a
// panel) at a time, row by row, with the panel's rows in r, one load a step
// and no scatter (invpanel_amd64.s). It returns 0, having written nothing,
// when an entry of l is not finite.
//
//go:noescape
func InvPanelsAVX512(l, mt, r *float64, d, dp int) (ok int)

// InvPanelScratch is the length of InvPanelsAVX512's r: the rows j0…d−1 of
// each panel j0 = 8p < d, and seven more rows that the last transposition
// reads (and ignores). d·dp floats hold it from d = 16 on.
func InvPanelScratch(d int) int {
	p := (d + 7) / 8
	return 8 * (p*d - 4*p*(p-1) + 7)
}

// ZFromFactorAVX512 is InverseFactorTo's z = M u loop, eight rows per
// vector, with its operations in its order (invrow_amd64.s); zp[:d] zero on
// entry.
//
//go:noescape
func ZFromFactorAVX512(zp, mt, u *float64, d, dp int)

// inverseFactorLanes writes rows 1…d−1 of M (the diagonal already in mt)
// and z = M u as InverseFactorTo's Go loops would, eight columns (rows of z)
// a vector: InvPanelsAVX512 with scratch (at least InvPanelScratch(d)
// floats) for the panels' rows, then ZFromFactorAVX512. It reports whether
// it did: only on AVX-512 CPUs, for d >= invLanesFrom and a finite factor.
func inverseFactorLanes(mt, zp, l, u, scratch []float64, d, dp int) bool {
	if !InvLanes || d < invLanesFrom || len(scratch) < InvPanelScratch(d) {
		return false
	}
	_, _, _, _ = l[d*d-1], mt[(d-1)*dp+d-1], zp[d-1], u[d-1]
	if InvPanelsAVX512(&l[0], &mt[0], &scratch[0], d, dp) == 0 {
		return false // a factor that is not finite: the rows one by one
	}
	clear(zp[:d])
	ZFromFactorAVX512(&zp[0], &mt[0], &u[0], d, dp)
	return true
}
