//go:build amd64 && !purego

package simd

//go:generate go run -C _asm ./peak -out ../peak_amd64.s

import (
	"fmt"
	"strings"
)

// Work per iteration of the assembly peak loops (peak_amd64.s): 12 YMM
// chains × 4 lanes and 24 ZMM chains × 8 lanes, 2 flops per lane.
const (
	FmaPeak256Flops = 12 * 4 * 2
	FmaPeak512Flops = 24 * 8 * 2
)

// FmaPeak256 runs n iterations of 12 independent VFMADD231PD YMM chains.
//
//go:noescape
func FmaPeak256(n int)

// FmaPeak512 runs n iterations of 24 independent VFMADD231PD ZMM chains.
//
//go:noescape
func FmaPeak512(n int)

func HasFMA256() bool { return HasAVX2FMA() }
func HasFMA512() bool { return HasAVX2FMA() && HasAVX512() }

// CpuModel returns the CPU's brand string (CPUID 0x80000002–4), as lscpu's
// "Model name", with its family and model numbers, which tell apart CPUs
// that a hypervisor names alike ("AMD EPYC" is Zen 4 in family 25 and Zen 5
// in family 26).
func CpuModel() string {
	_, family, model := cpuFamilyModel()
	return fmt.Sprintf("%s (family %d, model %d)", cpuBrand(), family, model)
}

// cpuBrand returns the CPU's brand string, or "amd64" when CPUID has none.
func cpuBrand() string {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000004 {
		return "amd64"
	}
	var b []byte
	for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
		a, bx, c, d := cpuid(leaf, 0)
		b = appendRegs(b, a, bx, c, d)
	}
	return strings.TrimSpace(strings.TrimRight(string(b), "\x00"))
}
