//go:build amd64 && !purego

package simd

//go:generate go run -C _asm ./normalise -out ../normalise_amd64.s

// NormAVX512 selects normaliseBlocksAVX512 and normaliseLanesAVX512 for
// NormaliseBlocks (tests switch it); NormLanes says whether the CPU has the
// BMI2 (BZHI) that the second one needs (tests switch it too).
var (
	NormAVX512 = HasAVX2FMA() && HasAVX512()
	NormLanes  = HasAVX2FMA() && HasBMI12()
)

// normTables drives normaliseBlocksAVX512 for one d ≤ 8 (the layout is the
// assembly's: d at 0, idx at 8, mask at 520, exp at 584).
type normTables struct {
	d    int
	idx  [8][8]int64 // idx[i][k] = (d·k+i) mod 8: lane of component i of vector k
	mask [8][8]uint8 // bit k of mask[i][j]: component i of vector k is in register j
	exp  [8][8]int64 // exp[j][l] = (8j+l)/d: the vector of lane l of register j
}

var normTab = func() (t [9]normTables) {
	for d := 1; d <= 8; d++ {
		tb := &t[d]
		tb.d = d
		for i := range d {
			for k := range 8 {
				f := d*k + i
				tb.idx[i][k] = int64(f % 8)
				tb.mask[i][f/8] |= 1 << k
			}
		}
		for j := range d {
			for l := range 8 {
				tb.exp[j][l] = int64((8*j + l) / d)
			}
		}
	}
	return t
}()

// normaliseBlocksAVX512 is NormaliseBlocksGo for k vectors of dimension
// tab.d, eight per pass (normalise_amd64.s); k must be a multiple of 8.
//
//go:noescape
func normaliseBlocksAVX512(acts, theta, means []float64, tab *normTables, k int)

// normaliseLanesAVX512 is NormaliseBlocksGo for 32·n32 vectors of any
// dimension d, one vector per lane (normalise_amd64.s).
//
//go:noescape
func normaliseLanesAVX512(acts, theta, means []float64, d, n32 int)

// NormaliseBlocks sets means[a] = NormaliseTo(acts[a·d:(a+1)·d], theta) for
// a < len(means) on AVX-512 eight vectors per pass when d ≤ 8
// (normaliseBlocksAVX512, the vectors' components permuted into lanes) and
// 32 per pass, one per lane, when d > 8 (normaliseLanesAVX512, 8×8 blocks
// transposed); the rest in Go. The same bits: TestNormaliseBlocksSameBits.
func NormaliseBlocks(acts, theta, means []float64, d int) {
	k := len(means)
	acts, theta = acts[:k*d], theta[:d]
	done := 0
	switch {
	case NormAVX512 && d <= 8:
		// Whole passes only (the kernel has no partial pass): a last pass
		// under masks would load registers past the last vector, and where
		// the buffer ends near a page whose memory is not yet mapped in,
		// every such load takes a microcode assist (the whole (5, 25) round
		// 2.5–3× slower on AMD EPYC Zen 5, decided by where the allocator
		// put the buffer).
		done = k &^ 7
		normaliseBlocksAVX512(acts, theta, means, &normTab[d], done)
	case NormAVX512 && NormLanes:
		n32 := lanesNormPasses(d, k, addr(acts))
		if n32 > 0 {
			normaliseLanesAVX512(acts, theta, means, d, n32)
		}
		done = 32 * n32
	}
	NormaliseBlocksGo(acts[done*d:], theta, means[done:], d)
}

// lanesNormPasses returns how many passes of 32 vectors normaliseLanesAVX512
// takes of k vectors of d floats whose first float is at byte address base:
// k/32, less the last pass when its last vector's masked tail would reach a
// page the k·d floats do not reach (loadPassesEnd); NormaliseBlocks leaves
// the vectors after them to the Go loop. A pure function of the layout, so
// that TestNormaliseRoutingPageEnds checks it on every layout.
//
// The kernel loads each vector eight coordinates at a time from its start,
// 64 bytes each (normalise_amd64.s: transpose.Block's loads under the mask
// of the coordinates below d, then lscale8's and lscaletail's loads and
// stores at the same addresses), so only its last block, from coordinate
// 8⌊d/8⌋ under a mask when 8 ∤ d, reaches past the vector, by at most 7
// floats. Those tails end later vector by vector, so the last vector's is
// the one that can leave the set; when the last pass is withheld, its 32
// vectors (at least 32 floats) follow the new last vector, so one pass is
// all that is ever withheld.
func lanesNormPasses(d, k int, base uintptr) int {
	n32 := k / 32
	if n32 > 0 && d%8 != 0 && loadPassesEnd(base+8*uintptr((32*n32-1)*d+d&^7), base+8*uintptr(k*d)-1) {
		n32-- // the last pass in Go, as the rest
	}
	return n32
}
