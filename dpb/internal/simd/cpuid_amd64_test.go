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
	want := 8
	if half || !HasBMI12() {
		want = math.MaxInt
	}
	if lanesFrom != want {
		t.Fatalf("lanesFrom = %d, want %d", lanesFrom, want)
	}
	if m := CpuModel(); !strings.Contains(m, "(family ") {
		t.Fatalf("cpuModel() = %q: no family", m)
	}
	t.Logf("%s, %s family %d model %d, one-action-per-lane kernel from d = %d", CpuModel(), vendor, family, model, lanesFrom)
}
