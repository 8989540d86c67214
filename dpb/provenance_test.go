package dpb

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFiguresProvenance parses every JSON in figures/ and requires that it
// names a commit of this repository that produced it:
//
//   - a run's JSON records its semantic version and a clean commit
//     (code_version: 40 hex digits, no "+dirty", never "unknown") that exists
//     in the repository;
//   - a file whose run was not repeated from a clean tree carries
//     "code_version_note": "committed-by": its code_version is then the
//     commit that committed the file, which must hold it (git cat-file -e
//     COMMIT:figures/NAME), and run_code_version keeps what the run itself
//     recorded ("unknown", a "-dirty" commit, or "none").
//
// It skips when the source is not a git checkout (a module download, an
// exported tree) or a shallow one, where old commits are absent.
func TestFiguresProvenance(t *testing.T) {
	git := func(args ...string) error {
		return exec.Command("git", append([]string{"-C", ".."}, args...)...).Run()
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: provenance not checked")
	}
	out, err := exec.Command("git", "-C", "..", "rev-parse", "--is-shallow-repository").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): provenance not checked", err)
	}
	if strings.TrimSpace(string(out)) == "true" {
		t.Skip("a shallow clone holds no old commits: provenance not checked")
	}
	paths, err := filepath.Glob("../figures/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no JSON in figures/")
	}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkProvenance("figures/"+filepath.Base(p), raw, git); err != nil {
			t.Error(err)
		}
	}
}

// TestFiguresProvenanceControl is the negative control: an unstamped, a
// dirty, an unknown or a short commit, a missing version, a commit that is
// not in the repository, an unknown note and a "committed-by" commit that
// does not hold the file are each refused, and the two good forms pass.
func TestFiguresProvenanceControl(t *testing.T) {
	const good = "0123456789abcdef0123456789abcdef01234567"
	fakeGit := func(args ...string) error { // knows one commit, which holds figures/a.json
		switch strings.Join(args, " ") {
		case "cat-file -e " + good + "^{commit}", "cat-file -e " + good + ":figures/a.json":
			return nil
		}
		return fmt.Errorf("git %v: not found", args)
	}
	for _, c := range []struct {
		json string
		ok   bool
	}{
		{`{"version": "0.1.0", "code_version": "` + good + `"}`, true},
		{`{"code_version": "` + good + `", "code_version_note": "committed-by", "run_code_version": "unknown"}`, true},
		{`{"version": "0.1.0", "code_version": "unknown"}`, false},
		{`{"version": "0.1.0", "code_version": "` + good + `+dirty"}`, false},
		{`{"version": "0.1.0", "code_version": "565d595-dirty"}`, false},
		{`{"version": "0.1.0", "code_version": "0123456"}`, false},
		{`{"code_version": "` + good + `"}`, false},
		{`{"version": "0.1.0"}`, false},
		{`{"version": "0.1.0", "code_version": "` + strings.Repeat("f", 40) + `"}`, false},
		{`{"code_version": "` + good + `", "code_version_note": "trust-me", "run_code_version": "unknown"}`, false},
		{`{"code_version": "` + good + `", "code_version_note": "committed-by"}`, false},
		{`not json`, false},
	} {
		err := checkProvenance("figures/a.json", []byte(c.json), fakeGit)
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok = %v", c.json, err, c.ok)
		}
	}
	if err := checkProvenance("figures/b.json", []byte(`{"code_version": "`+good+`", "code_version_note": "committed-by", "run_code_version": "none"}`), fakeGit); err == nil {
		t.Error("committed-by a commit that does not hold the file: accepted")
	}
}

var fullCommit = regexp.MustCompile(`^[0-9a-f]{40}$`)

// checkProvenance checks one figure JSON (raw, at path rel in the
// repository); git runs a git command in the repository.
func checkProvenance(rel string, raw []byte, git func(args ...string) error) error {
	var m struct {
		Version *string `json:"version"`
		Code    *string `json:"code_version"`
		Note    *string `json:"code_version_note"`
		Run     *string `json:"run_code_version"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %v", rel, err)
	}
	if m.Code == nil {
		return fmt.Errorf("%s records no code_version", rel)
	}
	code := *m.Code
	if !fullCommit.MatchString(code) {
		return fmt.Errorf("%s: code_version %q is not a clean commit (40 hex digits): rerun it with a binary built by go build -buildvcs=true in a clean git clone, or mark it committed-by (docs/integrity.md)", rel, code)
	}
	if err := git("cat-file", "-e", code+"^{commit}"); err != nil {
		return fmt.Errorf("%s: code_version %s is not a commit of this repository", rel, code)
	}
	switch {
	case m.Note == nil:
		if m.Version == nil || *m.Version == "" {
			return fmt.Errorf("%s records code_version %s but no version", rel, code)
		}
	case *m.Note == "committed-by":
		if m.Run == nil {
			return fmt.Errorf("%s is committed-by %s but keeps no run_code_version (what the run recorded)", rel, code)
		}
		if err := git("cat-file", "-e", code+":"+rel); err != nil {
			return fmt.Errorf("%s is marked committed-by %s, but that commit holds no %s", rel, code, rel)
		}
	default:
		return fmt.Errorf("%s: unknown code_version_note %q (want committed-by)", rel, *m.Note)
	}
	return nil
}
