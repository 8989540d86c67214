//go:build amd64 && !purego

package simd

import (
	"math"
	"strings"
	"testing"
)

// TestCPUFamilyModel checks the CPUID decoding against what every x86-64 CPU
// reports (a 12-byte vendor string, display family at least 6), the kernel
// selection rule built on it, and that CpuModel names family and model.
func TestCPUFamilyModel(t *testing.T) {
	vendor, family, model := cpuFamilyModel()
	if len(vendor) != 12 || family < 6 || model < 0 || model > 0xff {
		t.Fatalf("cpuFamilyModel() = %q, %d, %d", vendor, family, model)
	}
	half := vendor == "AuthenticAMD" && family == 0x19
	if zmmHalfWidth() != half {
		t.Fatalf("zmmHalfWidth() = %v for %s family %d", zmmHalfWidth(), vendor, family)
	}
	want := avx512SixteenFrom
	if half {
		want = math.MaxInt
	}
	if sixteenFrom != want {
		t.Fatalf("sixteenFrom = %d, want %d", sixteenFrom, want)
	}
	if m := CpuModel(); !strings.Contains(m, "(family ") {
		t.Fatalf("cpuModel() = %q: no family", m)
	}
	t.Logf("%s, %s family %d model %d, sixteen-action kernel from d = %d", CpuModel(), vendor, family, model, sixteenFrom)
}
