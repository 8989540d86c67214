//go:build amd64 && !purego

package simd

//go:generate go run -C _asm ./kernel -out ../kernel_amd64.s
//go:generate go run -C _asm ./lanes -out ../kernel_lanes_amd64.s

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// kernelsAvailable lists the scoring kernels this CPU and OS support, the
// fastest first: AVX-512 (F and VL, with the OS saving ZMM state), AVX2 with
// FMA, the Go loop.
func kernelsAvailable() []KernelID {
	ks := []KernelID{kernelGo}
	if HasAVX2FMA() {
		ks = append([]KernelID{kernelAVX2}, ks...)
		if HasAVX512() {
			ks = append([]KernelID{kernelAVX512}, ks...)
		}
	}
	return ks
}

// KernelsRunnable is kernelsAvailable: the kernels tests compare.
func KernelsRunnable() []KernelID { return kernelsAvailable() }

// ScoreBlocksWith writes scores[k] = ⟨z, M x_k⟩ + β‖M x_k‖ for the first
// 4·nblk actions of x (each d floats, contiguous) with kernel k, which must
// be one of kernelsAvailable. Pairs of blocks go through the eight-action
// kernels (AVX2: when d >= avx2EightFrom), an odd last block through the
// four-action AVX2 kernel; every path
// has the summation order of ScoreBlocksGo.
func ScoreBlocksWith(k KernelID, mt []float64, dp int, zp []float64, d int, x []float64, nblk int, beta float64, scores []float64) {
	if nblk == 0 {
		return
	}
	if len(mt) < dp*dp || len(zp) < dp || len(x) < 4*nblk*d || len(scores) < 4*nblk || d > dp {
		panic(param.BadDim)
	}
	n8 := nblk / 2
	switch k {
	case kernelAVX512:
		if d >= lanesFrom && d <= lanesMaxDim {
			// Whole passes of 16 actions one per lane, as many as
			// lanesScoreBlocks gives; the rest below.
			if lanes := lanesScoreBlocks(d, nblk, len(x), addr(x)); lanes > 0 {
				scoreLanesAVX512(&mt[0], dp, &zp[0], d, &x[0], lanes/4, beta, &scores[0])
				x, scores, nblk = x[4*lanes*d:], scores[4*lanes:], nblk-lanes
				if nblk == 0 {
					return
				}
			}
			n8 = nblk / 2
		}
		if n8 > 0 {
			scoreBlocks8AVX512(&mt[0], dp, &zp[0], d, &x[0], n8, beta, &scores[0])
		}
	case kernelAVX2:
		if d < avx2EightFrom { // the lane sums in memory cost more than the chains gain
			scoreBlocksAVX2(&mt[0], dp, &zp[0], d, &x[0], nblk, beta, &scores[0])
			return
		}
		if n8 > 0 {
			scoreBlocks8AVX2(&mt[0], dp, &zp[0], d, &x[0], n8, beta, &scores[0])
		}
	default:
		ScoreBlocksGo(mt, dp, zp, d, x, nblk, beta, scores)
		return
	}
	if nblk%2 == 1 {
		scoreBlocksAVX2(&mt[0], dp, &zp[0], d, &x[8*n8*d], 1, beta, &scores[8*n8])
	}
}

// lanesMaxDim is the largest d the one-action-per-lane kernel takes (its
// frame holds 16 actions of up to 128 coordinates, transposed).
const lanesMaxDim = 128

// lanesFrom is the smallest d at which the AVX-512 kernel scores K >= 16
// actions one per lane (scoreLanesAVX512) rather than eight rows of M per
// register, or never (MaxInt) on a CPU whose AVX-512 runs on 256-bit units
// (zmmHalfWidth), where one FMA a cycle leaves the load ports time for the
// rows-in-lanes kernels' broadcast per FMA, or without BMI2 (its masks come
// from BZHI).
var lanesFrom = func() int {
	if zmmHalfWidth() || !HasBMI12() {
		return math.MaxInt
	}
	return 8
}()

// zmmHalfWidth reports a CPU known to execute 512-bit FMAs on 256-bit units
// (two passes each), so that its AVX-512 FMA peak is its AVX2 one: AMD
// family 25 (0x19), whose AVX-512 models are Zen 4 (family 26, Zen 5, has
// full-width units). Others answer false. No feature flag tells the two
// apart, so this is the one choice that reads the vendor and family.
func zmmHalfWidth() bool {
	vendor, family, _ := cpuFamilyModel()
	return vendor == "AuthenticAMD" && family == 0x19
}

// cpuFamilyModel returns the CPU's vendor string and its display family and
// model (CPUID leaf 1, with the extended fields as Intel and AMD define them).
func cpuFamilyModel() (vendor string, family, model int) {
	_, b, c, d := cpuid(0, 0)
	v := appendRegs(nil, b, d, c)
	a, _, _, _ := cpuid(1, 0)
	family, model = int(a>>8&0xf), int(a>>4&0xf)
	if family == 0xf {
		family += int(a >> 20 & 0xff)
	}
	if family == 0x6 || family >= 0xf {
		model += int(a>>16&0xf) << 4
	}
	return string(v), family, model
}

// appendRegs appends the bytes of CPUID registers to b, each little-endian:
// how CPUID spells its vendor and brand strings.
func appendRegs(b []byte, regs ...uint32) []byte {
	for _, r := range regs {
		b = append(b, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	return b
}

// lanesScoreBlocks returns how many of nblk blocks of four actions (d
// floats each) scoreLanesAVX512 scores when x, whose first float is at byte
// address base, holds n ≥ 4·nblk·d floats: its whole passes of four blocks
// (16 actions), less the last pass when its last action's masked load would
// reach a page x does not reach (loadPassesEnd). The blocks left go to the
// eight-action kernels. A pure function of the layout, so that
// TestScoreRoutingPageEnds checks it on every layout.
//
// The kernel loads each action's whole blocks of eight coordinates
// unmasked (inside the action) and, when 8 ∤ d, its last d mod 8 with one
// masked 64-byte load from coordinate 8⌊d/8⌋ (kernel_lanes_amd64.s,
// trans8), which reaches at most 7 floats past the action. Those loads end
// later action by action, so the last action's is the one that can leave x;
// when the last pass is withheld, its 16 actions (at least 16 floats) follow
// the new last action in x, so one pass is all that is ever withheld.
func lanesScoreBlocks(d, nblk, n int, base uintptr) int {
	lanes := nblk &^ 3
	if lanes > 0 && d%8 != 0 && loadPassesEnd(base+8*uintptr((4*lanes-1)*d+d&^7), base+8*uintptr(n)-1) {
		lanes -= 4 // the last pass through the eight-action kernel
	}
	return lanes
}

// loadPassesEnd reports whether a 64-byte vector load from byte address
// from reaches past last, the last byte of the data, into a page the data
// does not reach. Masked, such a load faults nothing, but where that page is
// not mapped in it takes a microcode assist every time
// (BenchmarkScoreAtPageEnd and BenchmarkNormaliseAtPageEnd in dpb/ss18
// measure it), so the kernels whose last action's or vector's masked tail
// would do it leave that pass to another kernel (lanesScoreBlocks,
// lanesNormPasses, which TestScoreRoutingPageEnds and
// TestNormaliseRoutingPageEnds check on every layout, without a clock). A
// 4 KiB page is assumed; larger pages only make the answer cautious.
func loadPassesEnd(from, last uintptr) bool {
	end := from + 63
	return end > last && end>>12 != last>>12
}

// addr is the byte address of x's first float.
func addr(x []float64) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(x))) }

// avx2EightFrom is the smallest d at which the eight-action AVX2 kernel beats
// the four-action one (BenchmarkScoreKernel on an AMD EPYC: 8% slower at
// D = 16, 11% faster at d = 24, 28% at d = 64).
const avx2EightFrom = 20

// scoreBlocksAVX2 is ScoreBlocksGo in AVX2/FMA assembly, four actions at a
// time (kernel_amd64.s).
//
//go:noescape
func scoreBlocksAVX2(mt *float64, dp int, zp *float64, d int, x *float64, nblk int, beta float64, scores *float64)

// scoreBlocks8AVX2 is ScoreBlocksGo in AVX2/FMA assembly for n8 blocks of
// eight actions (kernel_amd64.s).
//
//go:noescape
func scoreBlocks8AVX2(mt *float64, dp int, zp *float64, d int, x *float64, n8 int, beta float64, scores *float64)

// scoreBlocks8AVX512 is ScoreBlocksGo in AVX-512 assembly for n8 blocks of
// eight actions (kernel_amd64.s).
//
//go:noescape
func scoreBlocks8AVX512(mt *float64, dp int, zp *float64, d int, x *float64, n8 int, beta float64, scores *float64)

// transposePerm holds the permutation indices of the assembly's 8×8
// transposition (_asm/internal/transpose): lanes (0,1,8,9,4,5,12,13) and
// (2,3,10,11,6,7,14,15), then (0,1,2,3,8,9,10,11) and (4,5,6,7,12,13,14,15),
// where index 8 and up picks VPERMT2PD's second table.
var transposePerm = [32]int64{
	0, 1, 8, 9, 4, 5, 12, 13,
	2, 3, 10, 11, 6, 7, 14, 15,
	0, 1, 2, 3, 8, 9, 10, 11,
	4, 5, 6, 7, 12, 13, 14, 15,
}

// iota8 holds the lane numbers 0…7 (score4SmallAVX512's indices).
var iota8 = [8]int64{0, 1, 2, 3, 4, 5, 6, 7}

// negInfBits is −∞ (score4SmallAVX512's empty lanes).
var negInfBits uint64 = 0xfff0000000000000

// scoreLanesAVX512 is ScoreBlocksGo in AVX-512 assembly for n16 passes of
// 16 actions, one action per lane (kernel_lanes_amd64.s); d <= lanesMaxDim.
//
//go:noescape
func scoreLanesAVX512(mt *float64, dp int, zp *float64, d int, x *float64, n16 int, beta float64, scores *float64)

// cpuid executes CPUID (kernel_amd64.s). The feature flags come from
// golang.org/x/sys/cpu; this is only for what that package does not report:
// the vendor and family that zmmHalfWidth needs and the brand string of
// CpuModel.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// HasAVX2FMA reports AVX2 and FMA with the OS saving the YMM state
// (golang.org/x/sys/cpu checks XCR0).
func HasAVX2FMA() bool { return cpu.X86.HasAVX2 && cpu.X86.HasFMA }

// HasAVX512 reports the AVX-512 subset the assembly uses — F, VL, DQ
// (KMOVB, VCVTQQ2PD) and BW (KMOVQ), which every AVX-512 CPU since Skylake-SP
// and Zen 4 has — with the OS saving the opmask and all 32 ZMM registers
// (golang.org/x/sys/cpu checks XCR0).
func HasAVX512() bool {
	x := &cpu.X86
	return x.HasAVX512F && x.HasAVX512VL && x.HasAVX512DQ && x.HasAVX512BW
}

// HasBMI12 reports BMI1 (BEXTR) and BMI2 (BZHI, MULX).
func HasBMI12() bool { return cpu.X86.HasBMI1 && cpu.X86.HasBMI2 }
