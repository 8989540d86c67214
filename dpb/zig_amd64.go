//go:build amd64 && !purego

package dpb

import "math"

// The ziggurat's fast path, zigFastGo, has three assembly versions with the
// same words, operations and bits (TestZigFastSameBits): zigFastScalar, one
// draw at a time with BMI2's MULX; zigFastAVX512, eight lanes a pass with
// table gathers; and zigFastAVX512Loads, eight lanes with one 16-byte table
// load a lane.
//
// zigScalar, zigAVX512 and zigLoads select them in zigFast (tests switch
// them). On AMD family 25 (Zen 4, zmmHalfWidth), whose eight-lane gathers
// are slow, normalsTo of 125 draws takes 290 ns with the gathers, 231 with
// the loads and 245 with the scalar loop, against 320 with the Go loop
// (BenchmarkZigKernel); the other AVX-512 CPUs the project has measured
// (Zen 5, Intel Xeon) keep the gathers the kernel was tuned with there.
var (
	zigScalar = hasAVX2FMA() && hasBMI2()
	zigAVX512 = hasAVX2FMA() && hasAVX512()
	zigLoads  = zmmHalfWidth()
)

// zigWK holds zigW[i] and zigK[i] side by side (the bound as a quadword), so
// that the assembly reads a layer's entry with one 16-byte load, or two
// loads from one base.
var zigWK [zigN][2]uint64

func init() {
	for i := range zigWK {
		zigWK[i] = [2]uint64{math.Float64bits(zigW[i]), uint64(zigK[i])}
	}
}

// zigFastScalar is zigFastGo in assembly (zig_amd64.s).
//
//go:noescape
func zigFastScalar(dst []float64, s uint64) (n int, next, u uint64)

// zigFastAVX512 is zigFastGo with eight draws per pass (zig_amd64.s).
//
//go:noescape
func zigFastAVX512(dst []float64, s uint64) (n int, next, u uint64)

// zigFastAVX512Loads is zigFastAVX512 with table loads instead of gathers.
//
//go:noescape
func zigFastAVX512Loads(dst []float64, s uint64) (n int, next, u uint64)

// zigFast is zigFastGo, through an eight-lane kernel when the CPU has
// AVX-512 and dst holds at least 16 draws, otherwise through the scalar one.
// Shorter runs stay scalar: a caller that reads a few draws back right away
// (the band sampler's redraws of d = 5 normals) waits for the kernel's vector
// stores, which a scalar load cannot take from the store buffer; with the
// threshold the (5, 25) Gaussian round is about 1.5 % faster than with none
// and than with 8 or 32 (AMD EPYC, interleaved runs; 8 also slows the
// Wishart round).
func zigFast(dst []float64, s uint64) (n int, next, u uint64) {
	if zigAVX512 && len(dst) >= 16 {
		if zigLoads {
			return zigFastAVX512Loads(dst, s)
		}
		return zigFastAVX512(dst, s)
	}
	if zigScalar {
		return zigFastScalar(dst, s)
	}
	return zigFastGo(dst, s)
}

// hasBMI2 reports BMI2 (MULX), CPUID leaf 7, EBX bit 8.
func hasBMI2() bool {
	if maxID, _, _, _ := cpuid(0, 0); maxID < 7 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<8) != 0
}
