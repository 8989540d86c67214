package check

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// secureMode matches a secure noise mode named in Go source (noise.Secure,
// noise.SecureSeeded; not noise.SecureGrid or noise.SecureNoise).
var secureMode = regexp.MustCompile(`\bnoise\.Secure(Seeded)?\b`)

// namesSecure reports whether Go source names a secure noise mode.
func namesSecure(src string) bool { return secureMode.MatchString(src) }

// TestChecksRunSimulatedNoise holds the package to [Noise] and [SecureNoise]:
// no check names a secure mode but noise.go, which declares SecureNoise, so
// that the JSON's record of the two modes is complete (an unset Noise is
// caught by dpb/internal/crosstest's TestExperimentsNameTheirNoise).
// Control: the scan finds the mode in a config line that names it.
func TestChecksRunSimulatedNoise(t *testing.T) {
	if !namesSecure("cfg := as17.FTRLConfig{Noise: noise."+"SecureSeeded}") || !namesSecure("Noise: noise."+"Secure}") {
		t.Fatal("control: the scan misses a config that names a secure mode")
	}
	if namesSecure("g := noise." + "SecureGrid(x)") {
		t.Fatal("control: the scan takes a secure sampler's helper for a mode")
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "noise.go" {
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
