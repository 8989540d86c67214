package mutate

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const good = `# a comment
id:       a
class:    privacy
category: under-noise
file:     dpb/noise/noise.go
anchor:   x := 1
replace:  x := 2
desc:     one
subset:   ci, other
ci-expect: caught

id:       b
class:    algorithmic
category: rate
file:     dpb/x/y.go
anchor:   y
replace:  z
desc:     two
pins:     TestA, TestB/sub
pins-why: they restate it
equivalent: nothing reads it
`

func TestParse(t *testing.T) {
	ds, err := Parse(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Fatalf("%d defects, want 2", len(ds))
	}
	a, b := ds[0], ds[1]
	if a.ID != "a" || a.Anchor != "x := 1" || a.Replace != "x := 2" || !a.InSubset("ci") || !a.InSubset("other") || a.CIExpect != ExpectCaught {
		t.Errorf("a = %+v", a)
	}
	if b.Package() != "./dpb/x" || b.Equivalent == "" || !b.IsPin("TestA") || !b.IsPin("TestB/sub/x") || b.IsPin("TestB") || b.IsPin("TestAB") {
		t.Errorf("b = %+v", b)
	}
}

func TestParseRejects(t *testing.T) {
	block := "id: a\nclass: privacy\ncategory: c\nfile: f.go\nanchor: x\nreplace: y\ndesc: d\n"
	for name, text := range map[string]string{
		"unknown key":       block + "colour: red\n",
		"repeated key":      block + "desc: again\n",
		"missing field":     strings.Replace(block, "desc: d\n", "", 1),
		"repeated id":       block + "\n" + block,
		"bad class":         strings.Replace(block, "privacy", "other", 1),
		"no-op":             strings.Replace(block, "replace: y", "replace: x", 1),
		"absolute file":     strings.Replace(block, "f.go", "/f.go", 1),
		"unclean file":      strings.Replace(block, "f.go", "a/../f.go", 1),
		"not go":            strings.Replace(block, "f.go", "f.txt", 1),
		"expect outside ci": block + "ci-expect: caught\n",
		"bad expect":        block + "subset: ci\nci-expect: maybe\n",
		"pins without why":  block + "pins: TestX\n",
		"no colon":          block + "just words\n",
	} {
		if _, err := Parse(strings.NewReader(text)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// TestApply: the anchor must occur exactly once.
func TestApply(t *testing.T) {
	d := Defect{ID: "d", File: "f.go", Anchor: "b * x", Replace: "0.97 * b * x"}
	got, err := Apply([]byte("y := b * x\n"), d)
	if err != nil || string(got) != "y := 0.97 * b * x\n" {
		t.Errorf("once: %q, %v", got, err)
	}
	if _, err := Apply([]byte("y := b*x\n"), d); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("not found: %v", err)
	}
	if _, err := Apply([]byte("y := b * x\nz := b * x\n"), d); err == nil || !strings.Contains(err.Error(), "2 times") {
		t.Errorf("twice: %v", err)
	}
}

func TestSelect(t *testing.T) {
	ds, _ := Parse(strings.NewReader(good))
	if s, err := Select(ds, nil, "ci"); err != nil || len(s) != 1 || s[0].ID != "a" {
		t.Errorf("subset ci: %v, %v", s, err)
	}
	if s, err := Select(ds, []string{"b"}, ""); err != nil || len(s) != 1 || s[0].ID != "b" {
		t.Errorf("only b: %v, %v", s, err)
	}
	if _, err := Select(ds, []string{"nope"}, ""); err == nil {
		t.Error("an unknown id is selected")
	}
	if _, err := Select(ds, []string{"b"}, "ci"); err == nil {
		t.Error("an empty selection is not an error")
	}
}

// TestCatalogue: the committed catalogue parses, covers both classes with
// at least 40 countable defects, and every anchor occurs exactly once in
// the tree as it is now (a stale anchor fails here before the tool runs).
func TestCatalogue(t *testing.T) {
	ds, err := Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, d := range ds {
		if d.Equivalent == "" {
			count[d.Class]++
		}
	}
	if count[Privacy]+count[Algorithmic] < 40 || count[Privacy] == 0 || count[Algorithmic] == 0 {
		t.Errorf("countable defects by class: %v, want at least 40 and both classes", count)
	}
	if err := CheckAnchors(filepath.Join("..", "..", ".."), ds); err != nil {
		t.Error(err)
	}
	ci, err := Select(ds, nil, "ci")
	if err != nil {
		t.Fatal(err)
	}
	var caught, missed int
	for _, d := range ci {
		switch d.CIExpect {
		case ExpectCaught:
			caught++
		case ExpectMissed:
			missed++
		}
	}
	if caught == 0 || missed == 0 {
		t.Errorf("the ci subset has %d defects expected caught and %d expected missed, want some of each", caught, missed)
	}
}

// fixtureRepo copies testdata/fixture into a fresh git repository and
// returns its root.
func fixtureRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=fixture", "-c", "user.email=fixture@example.invalid", "commit", "-q", "-m", "fixture"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

// treeHash hashes every file under root but .git.
func treeHash(t *testing.T, root string) [32]byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h.Write([]byte(p))
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}

// TestScratch: the copy is outside the tree, holds the tracked files, and
// planting a defect in it leaves the tree as it was.
func TestScratch(t *testing.T) {
	root := fixtureRepo(t)
	before := treeHash(t, root)
	files, err := TrackedFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(files, "calc/calc.go") || slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, ".git/") }) {
		t.Fatalf("tracked files %v", files)
	}
	dir, err := NewScratch(root, files)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if within(dir, root) || !within(filepath.Join(root, "calc"), root) {
		t.Fatalf("scratch %s inside the tree %s (or within is wrong)", dir, root)
	}
	ds, err := Parse(strings.NewReader("id: x\nclass: privacy\ncategory: c\nfile: calc/calc.go\nanchor: return 2 * x\nreplace: return 3 * x\ndesc: d\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Plant(dir, ds[0]); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "calc", "calc.go"))
	orig, _ := os.ReadFile(filepath.Join(root, "calc", "calc.go"))
	if !strings.Contains(string(got), "return 3 * x") || strings.Contains(string(orig), "return 3 * x") {
		t.Error("the defect is not in the copy, or it is in the tree")
	}
	if treeHash(t, root) != before {
		t.Error("the tree changed")
	}
	if out, err := exec.Command("git", "-C", root, "status", "--porcelain").Output(); err != nil || len(out) > 0 {
		t.Errorf("git status of the tree: %q, %v", out, err)
	}
	// A temporary directory inside the tree is refused.
	t.Setenv("TMPDIR", filepath.Join(root, "calc"))
	if d, err := NewScratch(root, files); err == nil {
		os.RemoveAll(d)
		t.Error("a scratch directory inside the tree was accepted")
	}
}

// TestRunFixture runs the tool on the fixture module, whose catalogue has
// one defect per path: caught by the check, by the check crashing, by the
// audit only, by a test, by a pin only (missed), not buildable, equivalent,
// and adding noise only (missed, the audit not run). The tree is untouched.
func TestRunFixture(t *testing.T) {
	root := fixtureRepo(t)
	before := treeHash(t, root)
	f, err := os.Open(filepath.Join(root, "catalogue.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Parse(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Root: root, Jobs: 2, Check: true, Audit: true, Tests: true}, ds)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Outcome{}
	for _, o := range rep.Outcomes {
		by[o.ID] = o
	}
	want := map[string]struct {
		status   string
		caughtBy []string
	}{
		"fx-check":      {StatusCaught, []string{ByCheck}},
		"fx-crash":      {StatusCaught, []string{ByCheck}},
		"fx-audit":      {StatusCaught, []string{ByAudit}},
		"fx-test":       {StatusCaught, []string{ByTests}},
		"fx-pin":        {StatusMissed, nil},
		"fx-build":      {StatusBuildFailed, nil},
		"fx-equivalent": {StatusMissed, nil},
		"fx-over":       {StatusMissed, nil},
	}
	for id, w := range want {
		o := by[id]
		if o.Status != w.status || !slices.Equal(o.CaughtBy, w.caughtBy) {
			t.Errorf("%s: %s by %v, want %s by %v (%+v)", id, o.Status, o.CaughtBy, w.status, w.caughtBy, o)
		}
	}
	if o := by["fx-check"]; !slices.Equal(o.Verdicts, []string{"double"}) || o.AuditRun {
		t.Errorf("fx-check: verdicts %v, audit run %v", o.Verdicts, o.AuditRun)
	}
	if o := by["fx-crash"]; o.CheckFailure == "" {
		t.Errorf("fx-crash: no check failure recorded: %+v", o)
	}
	if o := by["fx-audit"]; !slices.Equal(o.AuditRows, []string{"row"}) || o.TestsRun {
		t.Errorf("fx-audit: rows %v, tests run %v", o.AuditRows, o.TestsRun)
	}
	if o := by["fx-test"]; !slices.Equal(o.Tests, []string{"TestStep"}) {
		t.Errorf("fx-test: tests %v", o.Tests)
	}
	if o := by["fx-over"]; !o.AuditSkipped || o.AuditRun {
		t.Errorf("fx-over: the audit was not skipped: %+v", o)
	}
	if o := by["fx-pin"]; !slices.Equal(o.PinFailures, []string{"TestRatePin"}) || len(o.Tests) > 0 || !o.AuditRun || !o.TestsRun {
		t.Errorf("fx-pin: %+v", o)
	}
	s := rep.Score
	if s.Privacy != (Tally{Total: 4, Caught: 3, ByCheck: 2, ByAudit: 1}) {
		t.Errorf("privacy tally %+v", s.Privacy)
	}
	if s.Algorithmic != (Tally{Total: 2, Caught: 1, ByTests: 1, TestsOnly: 1, Equivalent: 1, NotRun: 1}) {
		t.Errorf("algorithmic tally %+v", s.Algorithmic)
	}
	if p := rep.Problems(); len(p) != 1 || !strings.Contains(p[0], "fx-build") {
		t.Errorf("problems %v, want the build failure only", p)
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"privacy **3/4 (75 %)**", "algorithmic **1/2 (50 %)**", "| `fx-pin` |", "**MISSED** (check, audit, tests); only pins fail: `TestRatePin`", "**BUILD FAILED**"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("markdown lacks %q:\n%s", s, md.String())
		}
	}
	if treeHash(t, root) != before {
		t.Error("the tree changed")
	}
}

func TestParseTestJSON(t *testing.T) {
	out := `{"Action":"run","Test":"TestA"}
{"Action":"run","Test":"TestA/x"}
{"Action":"fail","Test":"TestA/x"}
{"Action":"fail","Test":"TestA"}
{"Action":"fail","Test":"TestB"}
{"Action":"pass","Test":"TestC"}
{"Action":"fail"}
`
	r := parseTestJSON([]byte(out))
	if !slices.Equal(r.failed, []string{"TestA/x", "TestB"}) || r.failure != "" || r.build {
		t.Errorf("%+v", r)
	}
	r = parseTestJSON([]byte(`{"Action":"output","Output":"panic: boom\n"}
{"Action":"fail"}
`))
	if len(r.failed) != 0 || !strings.Contains(r.failure, "panic: boom") || r.build {
		t.Errorf("%+v", r)
	}
	r = parseTestJSON([]byte(`{"Action":"build-output","Output":"x.go:1: undefined: y\n"}
{"Action":"build-fail"}
`))
	if !r.build || !strings.Contains(r.failure, "undefined: y") {
		t.Errorf("%+v", r)
	}
}
