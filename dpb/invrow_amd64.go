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
