package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// figuresDir is the repository's figures/ folder, seen from this package.
const figuresDir = "../../../figures"

// dpb verify figures/*.json (the CI step) exits 0: every committed figure
// set, check JSON and audit JSON verifies by its own kind's rule and its
// content hash (issue 56, item 6).
func TestVerifyCommittedFigures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(figuresDir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no figure JSONs (%v)", err)
	}
	var out, stderr bytes.Buffer
	if code := runMainTo(append([]string{"verify"}, paths...), &out, &stderr); code != 0 {
		t.Errorf("dpb verify figures/*.json: exit %d\n%s%s", code, out.String(), stderr.String())
	}
}

// runMainTo is runMain with the command's standard output captured too.
func runMainTo(args []string, stdout, stderr *bytes.Buffer) int {
	old := os.Stdout
	r, w, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	os.Stdout = w
	done := make(chan struct{})
	go func() { stdout.ReadFrom(r); close(done) }()
	code := runMain(args, stderr)
	w.Close()
	<-done
	os.Stdout = old
	return code
}

// copyFigure copies figures/NAME and the files its JSON lists into dir.
func copyFigure(t *testing.T, dir, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(figuresDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Files []struct{ Name string } `json:"files"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		b, err := os.ReadFile(filepath.Join(figuresDir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f.Name), b, 0o644)
	}
	p := filepath.Join(dir, name)
	os.WriteFile(p, raw, 0o644)
	return p
}

// One value edited in a committed JSON of each kind (a figure set's
// reps, an audit row's ε estimate, a check verdict's slack) is caught by
// dpb verify, though the edit keeps the JSON valid and the figure's files
// unchanged; the unedited copies verify.
func TestVerifyCatchesEditedValue(t *testing.T) {
	for _, c := range []struct{ name, from, to string }{
		{"ss18-fig3.json", `"reps": 5,`, `"reps": 6,`},
		{"ss18-fig4.json", `"reps": 35,`, `"reps": 36,`},
		{"privacy_audit_full.json", `"eps_estimate": 1.0039114606399024`, `"eps_estimate": 1.1039114606399024`},
		{"ss18-check-trees-n5e7.json", `"slack": 0.`, `"slack": 0.0`},
	} {
		dir := t.TempDir()
		p := copyFigure(t, dir, c.name)
		var out, stderr bytes.Buffer
		if code := runMainTo([]string{"verify", p}, &out, &stderr); code != 0 {
			t.Errorf("%s unedited: exit %d\n%s%s", c.name, code, out.String(), stderr.String())
			continue
		}
		raw, _ := os.ReadFile(p)
		edited := strings.Replace(string(raw), c.from, c.to, 1)
		if edited == string(raw) {
			t.Fatalf("%s: %q not found", c.name, c.from)
		}
		os.WriteFile(p, []byte(edited), 0o644)
		out.Reset()
		stderr.Reset()
		if code := runMainTo([]string{"verify", p}, &out, &stderr); code != 1 || !strings.Contains(out.String(), "FAILED") {
			t.Errorf("%s with %s → %s: exit %d, want 1 and FAILED\n%s", c.name, c.from, c.to, code, out.String())
		}
	}
}

// sealForTest writes m as a figure JSON with its content hash computed
// here, independently of the code under test: SHA-256 of the object
// without content_sha256, re-encoded by encoding/json (sorted keys, no
// spaces).
func sealForTest(t *testing.T, path string, m map[string]any) {
	t.Helper()
	delete(m, "content_sha256")
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	m["content_sha256"] = hex.EncodeToString(sum[:])
	b, _ = json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A figure JSON may name only files inside its folder: "../", an absolute
// path and a symbolic link out of the folder are refused, each with a
// correct SHA-256 of the file it reaches (a JSON that hashed any path it
// names would print ok and read /etc/passwd); a file inside passes.
func TestVerifyConfinesPaths(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "fig")
	os.Mkdir(dir, 0o755)
	secret := filepath.Join(top, "secret.csv")
	os.WriteFile(secret, []byte("outside\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "in.csv"), []byte("inside\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(dir, "link.csv")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	sum := func(b string) string { s := sha256.Sum256([]byte(b)); return hex.EncodeToString(s[:]) }
	for _, c := range []struct {
		name, content string
		ok            bool
	}{
		{"in.csv", "inside\n", true},
		{"../secret.csv", "outside\n", false},
		{secret, "outside\n", false},
		{"link.csv", "outside\n", false},
		{"sub/../../secret.csv", "outside\n", false},
	} {
		p := filepath.Join(dir, "f.json")
		sealForTest(t, p, map[string]any{"name": "f", "noise": []string{"none"},
			"files": []map[string]string{{"name": c.name, "sha256": sum(c.content)}}})
		var out, stderr bytes.Buffer
		code := runMainTo([]string{"verify", p}, &out, &stderr)
		if (code == 0) != c.ok {
			t.Errorf("a JSON listing %q: exit %d, want ok = %v\n%s", c.name, code, c.ok, out.String())
		}
	}
}

// A check or audit JSON is verified by its own kind's rule, not only by its
// hash: each edit below is resealed with a matching content hash, and is
// still refused (an audit row's ε lower bound that its counts do not give,
// a control marked not caught that was, a summary that does not count the
// rows, a check verdict that failed, a summary that does not count the
// verdicts); the resealed unedited copies verify.
func TestVerifyKindRules(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(m map[string]any)
	}{
		{"privacy_audit_full.json", nil},
		{"privacy_audit_full.json", func(m map[string]any) { row(m, "results", 0)["eps_lower"] = 0.5 }},
		{"privacy_audit_full.json", func(m map[string]any) {
			for i := range m["results"].([]any) {
				if c, ok := row(m, "results", i)["control"].(map[string]any); ok {
					c["caught"] = false
					return
				}
			}
			panic("no row with a control")
		}},
		{"privacy_audit_full.json", func(m map[string]any) { m["summary"].(map[string]any)["violations"] = 1.0 }},
		{"ss18-check-trees-n5e7.json", nil},
		{"ss18-check-trees-n5e7.json", func(m map[string]any) {
			for i := range m["verdicts"].([]any) {
				if v := row(m, "verdicts", i); v["pass"] == true && v["erratum"] == nil {
					v["pass"] = false
					return
				}
			}
			panic("no passing verdict")
		}},
		{"privacy_audit.json", func(m map[string]any) { row(m, "results", 1)["verdict"] = "VIOLATION" }},
	} {
		raw, err := os.ReadFile(filepath.Join(figuresDir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if c.edit != nil {
			c.edit(m)
		}
		p := filepath.Join(t.TempDir(), c.name)
		sealForTest(t, p, m)
		var out, stderr bytes.Buffer
		code := runMainTo([]string{"verify", p}, &out, &stderr)
		if want := map[bool]int{true: 0, false: 1}[c.edit == nil]; code != want {
			t.Errorf("%s (edited: %v): exit %d, want %d\n%s", c.name, c.edit != nil, code, want, out.String())
		}
	}
}

// row returns m[key][i] as an object.
func row(m map[string]any, key string, i int) map[string]any {
	return m[key].([]any)[i].(map[string]any)
}
