package dpb

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// TestFacadeVersions: Version and StreamVersion, written out so that the
// façade's documentation shows their values, are the internal constants
// the rest of the module reads (internal/snap): change both together.
func TestFacadeVersions(t *testing.T) {
	if Version != snap.Version {
		t.Errorf("dpb.Version is %q, internal/snap.Version %q: change both together", Version, snap.Version)
	}
	if StreamVersion != snap.StreamVersion {
		t.Errorf("dpb.StreamVersion is %d, internal/snap.StreamVersion %d: change both together", StreamVersion, snap.StreamVersion)
	}
}

// TestVersionMatchesCitation: Version is a semantic version and CITATION.cff
// gives the same one. It fails if either is edited alone.
func TestVersionMatchesCitation(t *testing.T) {
	if !semver.MatchString(Version) {
		t.Fatalf("Version %q is not a semantic version MAJOR.MINOR.PATCH[-PRE]", Version)
	}
	raw, err := os.ReadFile("../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	got, err := citationVersion(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got != Version {
		t.Fatalf("CITATION.cff gives version %q, dpb.Version is %q: change both together", got, Version)
	}
}

// TestCitationVersionControl is the negative control: a CITATION.cff with
// another version, or none, is caught.
func TestCitationVersionControl(t *testing.T) {
	if v, err := citationVersion("title: x\nversion: \"9.9.9\"\n"); err != nil || v == Version {
		t.Fatalf("citationVersion = %q, %v: want 9.9.9", v, err)
	}
	if _, err := citationVersion("title: x\n"); err == nil {
		t.Fatal("a CITATION.cff without a version was accepted")
	}
	if semver.MatchString("0.1") || semver.MatchString("v0.1.0") {
		t.Fatal("the semantic-version pattern accepts a non-version")
	}
}

var semver = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

// citationVersion returns the top-level "version:" of a CITATION.cff.
func citationVersion(cff string) (string, error) {
	for _, line := range strings.Split(cff, "\n") {
		if v, ok := strings.CutPrefix(line, "version:"); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`), nil
		}
	}
	return "", os.ErrNotExist
}
