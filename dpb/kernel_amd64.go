//go:build amd64 && !purego

package dpb

// useAVX2 is true when the CPU and OS support AVX2 and FMA.
var useAVX2 = hasAVX2FMA()

func quadTile4(mt []float64, dp int, zp []float64, d int, x []float64, ldx int, q, s *[4]float64) {
	if useAVX2 {
		if len(mt) < dp*dp || len(zp) < dp || len(x) < 3*ldx+d || d > dp {
			panic(badDim)
		}
		quadTile4AVX2(&mt[0], dp, &zp[0], d, &x[0], ldx, q, s)
		return
	}
	quadTile4Go(mt, dp, zp, d, x, ldx, q, s)
}

// quadTile4AVX2 is quadTile4Go in AVX2/FMA assembly (kernel_amd64.s).
//
//go:noescape
func quadTile4AVX2(mt *float64, dp int, zp *float64, d int, x *float64, ldx int, q, s *[4]float64)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

func hasAVX2FMA() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&fma == 0 || ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state enabled by the OS
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0 // AVX2
}

// kernelName reports the scoring kernel in use.
func kernelName() string {
	if useAVX2 {
		return "avx2"
	}
	return "go"
}
