//go:build amd64 && !purego

package dpb

// prep4AVX2 selects cholInv4AVX2 for PrepareLockstep (tests switch it).
var prep4AVX2 = hasAVX2FMA()

// cholInv4AVX2 prepares four policies' factors in vector lanes
// (prepare4_amd64.s): lanes holds &v, &u, &mt, &zp of each; bit b of bad
// flags lane b's V_t as not positive definite.
//
//go:noescape
func cholInv4AVX2(lanes *[16]*float64, s []float64, d, dp int) (bad int)

// cholInv5x4AVX2 is cholInv4AVX2 at d = 5, dp = 8, written out
// (prepare5x4_amd64.s, from internal/asmgen/prepare5x4.py): prepareFactors5
// in the four lanes.
//
//go:noescape
func cholInv5x4AVX2(lanes *[16]*float64, s *[prep5x4Scratch]float64) (bad int)

// prep5x4Scratch is cholInv5x4AVX2's scratch: 35 slots of four lanes (V's
// and M's lower triangles, ũ).
const prep5x4Scratch = 140

// prepare4 prepares the four policies of ps (dimension d ≤ prep4MaxDim,
// statistics already in v and u) in the lanes of cholInv4AVX2 (of
// cholInv5x4AVX2 at d = 5), or one by one without AVX2.
func prepare4(ps *[4]*LinUCB, d int) {
	if !prep4AVX2 {
		for _, p := range ps {
			prepareFactors(p)
		}
		return
	}
	var lanes [16]*float64
	for b, p := range ps {
		_, _, _ = p.v[d*d-1], p.mt[(d-1)*p.dp+d-1], p.zp[d-1]
		lanes[b], lanes[4+b], lanes[8+b], lanes[12+b] = &p.v[0], &p.u[0], &p.mt[0], &p.zp[0]
		if p.dp != ps[0].dp {
			panic("dpb: prepare4: policies of one dimension with different strides")
		}
	}
	var bad int
	if d == 5 && ps[0].dp == 8 {
		bad = cholInv5x4AVX2(&lanes, (*[prep5x4Scratch]float64)(ps[0].lanes[:prep5x4Scratch]))
	} else {
		bad = cholInv4AVX2(&lanes, ps[0].lanes[:2*d*d*4+2*d*4], d, ps[0].dp)
	}
	for b, p := range ps {
		if bad&(1<<b) != 0 {
			p.factorFailed() // as prepare: the jittered factor, M and z
		}
	}
}
