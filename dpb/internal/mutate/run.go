package mutate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Outcome statuses.
const (
	StatusCaught      = "caught"
	StatusMissed      = "MISSED"
	StatusBuildFailed = "BUILD FAILED"
	StatusError       = "ERROR"
)

// Instruments that can catch a defect (Outcome.CaughtBy).
const (
	ByCheck = "check"
	ByAudit = "audit"
	ByTests = "tests"
)

// Config configures [Run].
type Config struct {
	// Root is the repository whose tracked files are copied. Required.
	Root string
	// Jobs is the number of defects run at once (default 2).
	Jobs int
	// Workers is the -workers of `dpb check` and `dpb audit` (default 2).
	Workers int
	// Check runs `dpb check all -short` on every defect (the instrument
	// measured; off only to triage tests quickly).
	Check bool
	// Audit runs `dpb audit -short` on a defect the check suite misses
	// (unless it only adds noise: [AddsNoiseOnly]).
	Audit bool
	// Tests runs `go test -short` of the mutated package for an
	// algorithmic defect.
	Tests bool
	// Keep leaves the scratch copies in place (their paths are logged).
	Keep bool
	// Timeout bounds each command (build, check, audit, tests); default 20
	// minutes. A command that times out counts as a detection, marked so.
	Timeout time.Duration
	// Log receives one line per finished defect (nil: discarded).
	Log io.Writer
}

// Outcome is what the instruments made of one defect.
type Outcome struct {
	Defect
	Status   string   `json:"status"`
	CaughtBy []string `json:"caught_by,omitempty"`
	// Verdicts are the check verdicts that passed on the baseline and
	// fail (pass false, not vacuous) on the mutant.
	Verdicts []string `json:"verdicts,omitempty"`
	// Weakened are verdicts that passed on the baseline and are vacuous
	// on the mutant (their control no longer caught): not a detection.
	Weakened []string `json:"weakened,omitempty"`
	CheckRun bool     `json:"check_run"`
	// CheckFailure is set when the check command produced no verdicts (a
	// crash, an error, a timeout): a detection by the check.
	CheckFailure string `json:"check_failure,omitempty"`
	AuditRun     bool   `json:"audit_run,omitempty"`
	// AuditSkipped marks a defect the checks miss that only adds noise
	// ([AddsNoiseOnly]): the audit is not run on it.
	AuditSkipped bool `json:"audit_skipped,omitempty"`
	// AuditRows are the audit rows that turned into a violation.
	AuditRows    []string `json:"audit_rows,omitempty"`
	AuditFailure string   `json:"audit_failure,omitempty"`
	TestsRun     bool     `json:"tests_run,omitempty"`
	// Tests are the failing tests that count (not pins, passing on the
	// baseline); PinFailures the failing pins, which do not count.
	Tests        []string `json:"tests,omitempty"`
	PinFailures  []string `json:"pin_failures,omitempty"`
	TestsFailure string   `json:"tests_failure,omitempty"`
	Error        string   `json:"error,omitempty"`
	Seconds      float64  `json:"seconds"`
}

// Caught reports whether an instrument caught the defect.
func (o Outcome) Caught() bool { return o.Status == StatusCaught }

// verdict is the part of a check verdict the comparison reads.
type verdict struct {
	Name    string `json:"name"`
	Pass    bool   `json:"pass"`
	Vacuous bool   `json:"vacuous"`
}

type auditRow struct {
	Name    string `json:"name"`
	Verdict string `json:"verdict"`
}

const violation = "VIOLATION"

// testResult is a `go test -json` run of one package: the failing leaf
// tests (a failing test none of whose subtests failed), or failure, the
// reason the package failed without a failing test.
type testResult struct {
	failed  []string
	failure string
	build   bool // the test binary did not build
}

type runner struct {
	cfg   Config
	gocmd string
	files []string

	baseDir, baseBin string
	baseCheck        map[string]verdict

	auditOnce sync.Once
	baseAudit map[string]auditRow
	auditErr  error

	testMu    sync.Mutex
	baseTests map[string]*baseTest
}

type baseTest struct {
	once sync.Once
	res  testResult
	err  error
}

// Run plants every defect in its own scratch copy of cfg.Root and runs the
// instruments on it, cfg.Jobs defects at a time, after a baseline run on an
// unmutated copy. It fails before building anything if an anchor does not
// occur exactly once. Build failures and errors are outcomes, not errors:
// the caller decides (see [Report.Problems]).
func Run(ctx context.Context, cfg Config, ds []Defect) (*Report, error) {
	t0 := time.Now()
	if cfg.Jobs < 1 {
		cfg.Jobs = 2
	}
	if cfg.Workers < 1 {
		cfg.Workers = 2
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Minute
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, err
	}
	cfg.Root = root
	if err := CheckAnchors(root, ds); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, gocmd: goCommand(), baseTests: map[string]*baseTest{}}
	if r.files, err = TrackedFiles(root); err != nil {
		return nil, err
	}
	rep := newReport(ctx, r, cfg)
	if err := r.baseline(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if !cfg.Keep {
			os.RemoveAll(r.baseDir)
		}
	}()
	rep.BaselineVerdicts = len(r.baseCheck)
	for _, v := range r.baseCheck {
		if v.Pass {
			rep.BaselinePassing++
		}
	}
	fmt.Fprintf(cfg.Log, "baseline: %d verdicts, %d passing (%s)\n", rep.BaselineVerdicts, rep.BaselinePassing, since(t0))

	out := make([]Outcome, len(ds))
	idx := make(chan int)
	var wg sync.WaitGroup
	var logMu sync.Mutex
	done := 0
	for range cfg.Jobs {
		wg.Go(func() {
			for i := range idx {
				out[i] = r.one(ctx, ds[i])
				logMu.Lock()
				done++
				fmt.Fprintf(cfg.Log, "[%d/%d] %s\n", done, len(ds), out[i].line())
				logMu.Unlock()
			}
		})
	}
	for i := range ds {
		if ctx.Err() != nil {
			break
		}
		idx <- i
	}
	close(idx)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.baseAudit != nil {
		rep.BaselineAuditRows = len(r.baseAudit)
	}
	rep.Outcomes = out
	rep.Score = ScoreOf(out)
	rep.Seconds = time.Since(t0).Seconds()
	return rep, nil
}

func since(t time.Time) string { return time.Since(t).Round(time.Second).String() }

// goCommand returns the go command: the one on PATH, else GOROOT's.
func goCommand() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	if gr := os.Getenv("GOROOT"); gr != "" {
		return filepath.Join(gr, "bin", "go")
	}
	return "go"
}

// baseline builds and checks an unmutated copy: the reference every
// mutant is compared with.
func (r *runner) baseline(ctx context.Context) error {
	dir, err := NewScratch(r.cfg.Root, r.files)
	if err != nil {
		return err
	}
	r.baseDir = dir
	if r.cfg.Keep {
		fmt.Fprintf(r.cfg.Log, "baseline copy: %s\n", dir)
	}
	if r.baseBin, err = r.build(ctx, dir); err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	if !r.cfg.Check {
		return nil
	}
	vs, fail := r.check(ctx, dir, r.baseBin)
	if fail != "" {
		return fmt.Errorf("baseline: dpb check gave no verdicts: %s", fail)
	}
	r.baseCheck = vs
	return nil
}

// audit returns the baseline's audit rows (run once, on first need).
func (r *runner) auditBase(ctx context.Context) (map[string]auditRow, error) {
	r.auditOnce.Do(func() {
		rows, fail := r.audit(ctx, r.baseDir, r.baseBin)
		if fail != "" {
			r.auditErr = fmt.Errorf("baseline: dpb audit gave no rows: %s", fail)
			return
		}
		r.baseAudit = rows
	})
	return r.baseAudit, r.auditErr
}

// testBase returns the baseline's test result of pkg (run once).
func (r *runner) testBase(ctx context.Context, pkg string) (testResult, error) {
	r.testMu.Lock()
	b := r.baseTests[pkg]
	if b == nil {
		b = &baseTest{}
		r.baseTests[pkg] = b
	}
	r.testMu.Unlock()
	b.once.Do(func() {
		b.res = r.goTest(ctx, r.baseDir, pkg)
		if b.res.failure != "" {
			b.err = fmt.Errorf("baseline: go test %s: %s", pkg, b.res.failure)
		}
	})
	return b.res, b.err
}

// one runs the instruments on defect d.
func (r *runner) one(ctx context.Context, d Defect) (o Outcome) {
	t0 := time.Now()
	o = Outcome{Defect: d}
	defer func() { o.Seconds = time.Since(t0).Round(time.Second).Seconds() }()
	fail := func(err error) Outcome {
		o.Status, o.Error = StatusError, err.Error()
		return o
	}
	dir, err := NewScratch(r.cfg.Root, r.files)
	if err != nil {
		return fail(err)
	}
	if r.cfg.Keep {
		fmt.Fprintf(r.cfg.Log, "%s: scratch copy %s\n", d.ID, dir)
	} else {
		defer os.RemoveAll(dir)
	}
	if err := Plant(dir, d); err != nil {
		return fail(err)
	}
	bin, err := r.build(ctx, dir)
	if err != nil {
		o.Status, o.Error = StatusBuildFailed, err.Error()
		return o
	}

	if r.cfg.Check {
		o.CheckRun = true
		vs, cfail := r.check(ctx, dir, bin)
		if cfail != "" {
			o.CheckFailure = cfail
		} else {
			o.Verdicts, o.Weakened = compareVerdicts(r.baseCheck, vs)
		}
		if cfail != "" || len(o.Verdicts) > 0 {
			o.CaughtBy = append(o.CaughtBy, ByCheck)
		}
	}

	if len(o.CaughtBy) == 0 && r.cfg.Audit && AddsNoiseOnly(d) {
		o.AuditSkipped = true
	}
	if len(o.CaughtBy) == 0 && r.cfg.Audit && !o.AuditSkipped {
		base, err := r.auditBase(ctx)
		if err != nil {
			return fail(err)
		}
		o.AuditRun = true
		rows, afail := r.audit(ctx, dir, bin)
		if afail != "" {
			o.AuditFailure = afail
		} else {
			o.AuditRows = compareAudit(base, rows)
		}
		if afail != "" || len(o.AuditRows) > 0 {
			o.CaughtBy = append(o.CaughtBy, ByAudit)
		}
	}

	if d.Class == Algorithmic && r.cfg.Tests {
		pkg := d.Package()
		base, err := r.testBase(ctx, pkg)
		if err != nil {
			return fail(err)
		}
		o.TestsRun = true
		res := r.goTest(ctx, dir, pkg)
		switch {
		case res.build:
			return fail(fmt.Errorf("go test %s: %s", pkg, res.failure))
		case res.failure != "":
			o.TestsFailure = res.failure
		}
		for _, t := range res.failed {
			switch {
			case slices.Contains(base.failed, t):
			case d.IsPin(t):
				o.PinFailures = append(o.PinFailures, t)
			default:
				o.Tests = append(o.Tests, t)
			}
		}
		if o.TestsFailure != "" || len(o.Tests) > 0 {
			o.CaughtBy = append(o.CaughtBy, ByTests)
		}
	}
	o.Status = StatusMissed
	if len(o.CaughtBy) > 0 {
		o.Status = StatusCaught
	}
	return o
}

// AddsNoiseOnly reports whether the defect's category only adds noise to a
// calibrated mechanism ("over-noise", "extra node"): its releases are a
// post-processing of the calibrated ones (independent noise added), so they
// are at least as private, and no audit can show a violation (an audit row
// would flip only by a false positive of its 95 % bounds). The audit is not
// run on such defects.
func AddsNoiseOnly(d Defect) bool { return d.Category == "over-noise" || d.Category == "extra node" }

// compareVerdicts returns the verdicts that passed on the baseline and fail
// (not vacuous) on the mutant, and those that passed and are now vacuous.
// A verdict missing from the mutant's run is neither.
func compareVerdicts(base, mut map[string]verdict) (caught, weakened []string) {
	for name, b := range base {
		m, ok := mut[name]
		if !ok || !b.Pass || m.Pass {
			continue
		}
		if m.Vacuous {
			weakened = append(weakened, name)
		} else {
			caught = append(caught, name)
		}
	}
	slices.Sort(caught)
	slices.Sort(weakened)
	return caught, weakened
}

// compareAudit returns the rows that are violations on the mutant and were
// not on the baseline.
func compareAudit(base, mut map[string]auditRow) []string {
	var out []string
	for name, m := range mut {
		if b, ok := base[name]; ok && m.Verdict == violation && b.Verdict != violation {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// build builds dpb in dir and returns the binary's path. -trimpath makes
// the compiled packages independent of the copy's directory, so the shared
// build cache serves every package the defect does not touch (without it
// every copy recompiles the whole module).
func (r *runner) build(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "dpb-mutant.bin")
	_, stderr, err := r.command(ctx, dir, r.gocmd, "build", "-trimpath", "-buildvcs=false", "-o", bin, "./dpb/cmd/dpb")
	if err != nil {
		return "", fmt.Errorf("go build: %v: %s", err, lastLines(stderr, 6))
	}
	return bin, nil
}

// check runs `dpb check all -short -json` and returns its verdicts by name,
// or why it gave none.
func (r *runner) check(ctx context.Context, dir, bin string) (map[string]verdict, string) {
	stdout, stderr, err := r.command(ctx, dir, bin, "check", "all", "-short", "-json", "-workers", fmt.Sprint(r.cfg.Workers))
	var doc struct {
		Verdicts []verdict `json:"verdicts"`
	}
	if jerr := json.Unmarshal(stdout, &doc); jerr != nil || len(doc.Verdicts) == 0 {
		return nil, failureOf(err, jerr, stderr)
	}
	m := make(map[string]verdict, len(doc.Verdicts))
	for _, v := range doc.Verdicts {
		m[v.Name] = v
	}
	return m, ""
}

// audit runs `dpb audit -short -json` and returns its rows by name, or why
// it gave none.
func (r *runner) audit(ctx context.Context, dir, bin string) (map[string]auditRow, string) {
	stdout, stderr, err := r.command(ctx, dir, bin, "audit", "-short", "-json", "-workers", fmt.Sprint(r.cfg.Workers))
	var doc struct {
		Results []auditRow `json:"results"`
	}
	if jerr := json.Unmarshal(stdout, &doc); jerr != nil || len(doc.Results) == 0 {
		return nil, failureOf(err, jerr, stderr)
	}
	m := make(map[string]auditRow, len(doc.Results))
	for _, a := range doc.Results {
		m[a.Name] = a
	}
	return m, ""
}

func failureOf(runErr, jsonErr error, stderr []byte) string {
	var parts []string
	if runErr != nil {
		parts = append(parts, runErr.Error())
	}
	if jsonErr != nil {
		parts = append(parts, "no JSON ("+jsonErr.Error()+")")
	}
	if s := lastLines(stderr, 3); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no output"
	}
	return strings.Join(parts, ": ")
}

// goTest runs `go test -short -json` on pkg in dir.
func (r *runner) goTest(ctx context.Context, dir, pkg string) testResult {
	stdout, stderr, err := r.command(ctx, dir, r.gocmd, "test", "-trimpath", "-short", "-json", "-timeout", "15m", pkg)
	res := parseTestJSON(stdout)
	if res.failure == "" && err != nil && len(res.failed) == 0 {
		res.failure = failureOf(err, nil, stderr)
		if bytes.Contains(stderr, []byte("[build failed]")) || bytes.Contains(stderr, []byte("setup failed")) {
			res.build = true
		}
	}
	return res
}

// testEvent is a line of `go test -json`.
type testEvent struct {
	Action string
	Test   string
	Output string
}

// parseTestJSON reads `go test -json` output: the failing leaf tests, and a
// failure when the package failed with no failing test (a build failure, a
// panic outside a test).
func parseTestJSON(b []byte) testResult {
	var res testResult
	var failed []string
	pkgFailed := false
	var outs []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var e testEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch {
		case e.Action == "build-fail":
			res.build = true
		case e.Action == "build-output":
			outs = append(outs, strings.TrimRight(e.Output, "\n"))
		case e.Action == "fail" && e.Test != "":
			failed = append(failed, e.Test)
		case e.Action == "fail":
			pkgFailed = true
		case e.Action == "output" && e.Test == "":
			outs = append(outs, strings.TrimRight(e.Output, "\n"))
		}
	}
	for _, t := range failed {
		leaf := !slices.ContainsFunc(failed, func(u string) bool { return strings.HasPrefix(u, t+"/") })
		if leaf && !slices.Contains(res.failed, t) {
			res.failed = append(res.failed, t)
		}
	}
	slices.Sort(res.failed)
	if (pkgFailed || res.build) && len(res.failed) == 0 {
		if len(outs) > 4 {
			outs = outs[len(outs)-4:]
		}
		res.failure = "package failed with no failing test: " + strings.Join(outs, " | ")
		if res.build {
			res.failure = "test build failed: " + strings.Join(outs, " | ")
		}
	}
	return res
}

// command runs name with args in dir (a new process group, killed whole on
// timeout or cancellation) and returns its output.
func (r *runner) command(ctx context.Context, dir, name string, args ...string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	ownGroup(cmd)
	err = cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %v", r.cfg.Timeout)
	}
	return so.Bytes(), se.Bytes(), err
}

// lastLines returns the last n non-empty lines of b, joined by " | ".
func lastLines(b []byte, n int) string {
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
