package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// namesSecure reports whether Go source names a secure noise mode.
func namesSecure(src string) bool { return strings.Contains(src, "Noise"+"Secure") }

// TestChecksRunSimulatedNoise holds the package to [Noise]: no check names a
// secure mode (an unset Noise is caught by dpb/internal/crosstest's
// TestExperimentsNameTheirNoise). Control: the scan finds the mode in a
// config line that names it.
func TestChecksRunSimulatedNoise(t *testing.T) {
	if !namesSecure("cfg := as17.FTRLConfig{Noise: dpnoise." + "Noise" + "SecureSeeded}") {
		t.Fatal("control: the scan misses a config that names a secure mode")
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if namesSecure(string(b)) {
			t.Errorf("%s names a secure noise mode, but dpb check's JSON records Noise = %v", f, Noise)
		}
	}
}
