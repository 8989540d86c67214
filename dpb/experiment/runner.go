package experiment

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/xmath"
	dpnoise "github.com/dpbandits/dpbandits/dpb/noise"
)

// TrialFunc runs one independent job and writes its recorded values into out
// (len = number of record points). Jobs must derive all randomness from their
// arguments (see [Stream] and [bandit.StreamID]) so results do not depend on which
// worker runs them or when.
type TrialFunc func(job Job, out []float64) error

// Job names one unit of work: repetition Rep of series Series.
type Job struct {
	Rep, Series int

	// tick counts the rounds the job reports through Advance (nil outside
	// RunTrials, and in jobs compared or stored: only the copy handed to
	// the trial function carries it).
	tick *jobTick
}

// Advance reports that the job has simulated rounds more rounds, so that
// RunTrials' progress bar moves within a job and not only when a job ends
// (it counts rounds against TrialConfig.Rounds per job). Trial functions
// call it every few thousand rounds or at their record points; it never
// changes a result. Outside RunTrials it does nothing.
func (j Job) Advance(rounds int) {
	t := j.tick
	if t == nil || rounds <= 0 {
		return
	}
	t.mine += int64(rounds)
	t.bar.rounds(t.all.Add(int64(rounds)))
}

// jobTick is one worker's round counter, reset for each job.
type jobTick struct {
	mine int64 // rounds the current job reported (only its worker touches it)
	all  *atomic.Int64
	bar  *progress
}

// TrialConfig configures [RunTrials].
type TrialConfig struct {
	// Reps is the number of independent repetitions. Required (>= 1).
	Reps int
	// Series is the number of series (algorithms) run per repetition. Required.
	Series int
	// Points is the number of values each job records. Required.
	Points int
	// Workers is the number of goroutines. Defaults to GOMAXPROCS.
	Workers int
	// Progress, if non-nil, receives a one-line progress bar (else the
	// plan's Progress, if any). With Rounds set, the bar counts the rounds
	// jobs report through [Job.Advance], so it moves within long jobs.
	Progress io.Writer
	// Plan, if non-nil, says where finished jobs are stored and which jobs
	// to run (see [Plan]). With a store, Label and Key are required.
	Plan *Plan
	// Label names the job list in the store (lower case, e.g. "ss18-exp2").
	Label string
	// Key is everything that determines the jobs' results besides the
	// shape (the configuration with its seed; not worker counts); the
	// store keys the list by its hash with [snap.StreamVersion].
	Key any
	// Rounds is how many rounds one job simulates and RoundCost the cost
	// of one round relative to the label's unit (0 means 1), for cost
	// estimates (see Plan.Estimate); neither changes results.
	Rounds    int
	RoundCost float64
}

// RunTrials runs Reps × Series jobs on Workers goroutines and returns
// out[series][rep][point]. The result is identical whatever the number of
// workers. The first error stops the remaining jobs and is returned.
//
// With cfg.Plan it follows the plan (see [Plan]): jobs in the plan's store
// are loaded instead of run, every finished job is saved at once under
// cfg.Label and cfg.Key, only the plan's shard is run, and a cancelled
// context stops the run. The trial function itself is untouched: a job runs
// exactly as without a store.
func RunTrials(cfg TrialConfig, trial TrialFunc) ([][][]float64, error) {
	if cfg.Reps < 1 || cfg.Series < 1 || cfg.Points < 0 {
		return nil, fmt.Errorf("dpb: bad trial shape reps=%d series=%d points=%d", cfg.Reps, cfg.Series, cfg.Points)
	}
	w := cfg.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	out := make([][][]float64, cfg.Series)
	for s := range out {
		out[s] = make([][]float64, cfg.Reps)
		for r := range out[s] {
			out[s][r] = make([]float64, cfg.Points)
		}
	}
	shape := Shape{Reps: cfg.Reps, Series: cfg.Series, Points: cfg.Points}
	todo, bin, err := cfg.Plan.prepare(cfg, shape, out)
	if err != nil {
		return nil, err
	}
	ctx := cfg.Plan.ctx()
	total := int64(len(todo))
	var next, done atomic.Int64
	var failed atomic.Bool
	var errMu sync.Mutex // workers may still fail after a cancelled run returned
	var firstErr error
	fail := func(job Job, err error) {
		errMu.Lock()
		if firstErr == nil {
			firstErr = fmt.Errorf("rep %d series %d: %w", job.Rep, job.Series, err)
		}
		errMu.Unlock()
		failed.Store(true)
	}
	// saveMu lets a cancelled run return only when no save is under way, and
	// stops every later one: a job is saved whole or not at all.
	var saveMu sync.Mutex
	stopped := false
	pw := cfg.Progress
	if pw == nil && cfg.Plan != nil {
		pw = cfg.Plan.Progress
	}
	if total == 0 {
		pw = nil // everything came from the store
	}
	bar := newProgress(pw, total, int64(cfg.Rounds), cfg.Label)
	var rounds atomic.Int64 // rounds reported by jobs (see Job.Advance)
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := &jobTick{all: &rounds, bar: bar}
			for !failed.Load() && ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= total {
					return
				}
				job := todo[i]
				tick.mine = 0
				tj := job
				tj.tick = tick
				if err := trial(tj, out[job.Series][job.Rep]); err != nil {
					fail(job, err)
					return
				}
				if bin != nil {
					var err error
					saveMu.Lock()
					if !stopped {
						err = bin.Save(job, out[job.Series][job.Rep])
					}
					saveMu.Unlock()
					if err != nil {
						fail(job, err)
						return
					}
				}
				if left := int64(cfg.Rounds) - tick.mine; left > 0 {
					rounds.Add(left) // the rounds the job did not report
				}
				bar.set(done.Add(1), rounds.Load())
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-ctx.Done():
		// Jobs in flight are discarded: their goroutines finish in the
		// background (a process that exits simply drops them) and save nothing.
		saveMu.Lock()
		stopped = true
		saveMu.Unlock()
	}
	bar.finish()
	cfg.Plan.note(int(done.Load()), 0, 0, nil)
	errMu.Lock()
	err = firstErr
	errMu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil && done.Load() < total {
		return nil, fmt.Errorf("interrupted after %d of %d jobs: %w", done.Load(), total, context.Cause(ctx))
	}
	return out, nil
}

// progress draws "[#####     ] 12/30 jobs, 41 %, 00:14 elapsed, ~00:20 left".
// With rounds per job known (perJob > 0) the fraction counts rounds, so the
// bar moves while jobs run; otherwise it counts finished jobs.
type progress struct {
	w      io.Writer
	total  int64
	perJob int64
	label  string
	start  time.Time
	mu     sync.Mutex
	last   time.Time
	done   int64 // finished jobs
	ran    int64 // rounds reported
}

func newProgress(w io.Writer, total, perJob int64, label string) *progress {
	return &progress{w: w, total: total, perJob: perJob, label: label, start: time.Now()}
}

// set records done finished jobs and ran rounds, and redraws.
func (p *progress) set(done, ran int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.ran = max(p.done, done), max(p.ran, ran)
	p.draw(done == p.total)
}

// rounds records ran rounds reported, and redraws.
func (p *progress) rounds(ran int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ran = max(p.ran, ran)
	p.draw(false)
}

// fraction is the share of the work done, in [done/total, 1].
func (p *progress) fraction() float64 {
	f := float64(p.done) / float64(p.total)
	if p.perJob > 0 {
		f = max(f, float64(p.ran)/(float64(p.total)*float64(p.perJob)))
	}
	return min(f, 1)
}

// draw redraws the bar, at most every 200 ms unless force.
func (p *progress) draw(force bool) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	f := p.fraction()
	fill := int(width * f)
	bar := make([]byte, width)
	for i := range bar {
		if i < fill {
			bar[i] = '#'
		} else {
			bar[i] = ' '
		}
	}
	el := now.Sub(p.start)
	left := time.Duration(0)
	if f > 0 {
		left = time.Duration(float64(el) * (1 - f) / f)
	}
	label := ""
	if p.label != "" {
		label = p.label + " "
	}
	fmt.Fprintf(p.w, "\r%s[%s] %d/%d jobs, %.0f %%, %s elapsed, ~%s left ", label, bar, p.done, p.total, 100*f, el.Round(time.Second), left.Round(time.Second))
}

// finish ends the bar's line; later set calls (workers of a cancelled run
// that finish after it) draw nothing.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil {
		fmt.Fprintln(p.w)
		p.w = nil
	}
}

// Curves summarises out[series][rep][point] as means and standard errors.
type Curves struct {
	Names  []string    `json:"names"`
	X      []float64   `json:"x"` // the record points (rounds, or a swept parameter)
	Mean   [][]float64 `json:"mean"`
	StdErr [][]float64 `json:"stderr"`
	Reps   int         `json:"reps"`
}

// Summarise computes per-series, per-point mean and standard error of the
// mean over repetitions (see [MeanStdErr]).
func Summarise(names []string, x []float64, out [][][]float64) *Curves {
	c := &Curves{Names: names, X: x}
	for _, series := range out {
		reps := len(series)
		c.Reps = reps
		np := 0
		if reps > 0 {
			np = len(series[0])
		}
		mean := make([]float64, np)
		se := make([]float64, np)
		col := make([]float64, reps)
		for k := 0; k < np; k++ {
			for r, rep := range series {
				col[r] = rep[k]
			}
			mean[k], se[k] = MeanStdErr(col)
		}
		c.Mean = append(c.Mean, mean)
		c.StdErr = append(c.StdErr, se)
	}
	return c
}

// MeanStdErr returns the mean of x and the standard error of the mean, the
// sample standard deviation over √len(x) (0 for fewer than two values).
func MeanStdErr(x []float64) (mean, stderr float64) {
	if len(x) == 0 {
		return math.NaN(), 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	mean = s / float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		d := v - mean
		ss += float64(d * d)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
}

// WriteCSV writes one row per (series, point): series,x,mean,stderr,reps.
func (c *Curves) WriteCSV(w io.Writer, xName string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"series", xName, "mean", "stderr", "reps"}); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
	for s, name := range c.Names {
		for k, x := range c.X {
			if err := cw.Write([]string{name, f(x), f(c.Mean[s][k]), f(c.StdErr[s][k]), strconv.Itoa(c.Reps)}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Meta is the metadata written beside every result: enough to rerun it.
type Meta struct {
	Name    string `json:"name"`
	Seed    uint64 `json:"seed"`
	Reps    int    `json:"reps"`
	Horizon int    `json:"horizon,omitempty"`
	Config  any    `json:"config"`
	// Noise names the noise modes the figure's mechanisms sampled from, as
	// noise.NoiseMode prints them ("simulated", "secure-seeded"), or
	// NoNoise for a figure that samples no privacy noise (non-private
	// policies, exact computations).
	Noise []string `json:"noise"`
	// Version is the semantic version of the code (dpb.Version) and Code
	// the commit the binary was built from ("+dirty" for a tree with
	// uncommitted changes, "unknown" for an unstamped build).
	Version string `json:"version"`
	Code    string `json:"code_version"`
	Go      string `json:"go_version"`
	// Stream is snap.StreamVersion of the code that produced the figure: the
	// same seed, flags and stream version give the same numbers.
	Stream int `json:"stream_version"`
	// Files lists the other files of the figure's set (CSV, SVG, PNG, …,
	// in the JSON's directory) with the SHA-256 of each as written. The JSON
	// is written last, so a set whose files all match its JSON's list is
	// one run's; a run killed mid-set leaves files that do not match
	// ([VerifyFigureSet]).
	Files []FileSum `json:"files,omitempty"`
}

// SimulationNoise is the noise mode of the experiments that measure regret
// on floating-point noise (SS18 Experiments 2 and 3, MT14, AS17, the
// private MAB family): seeded and reproducible, set explicitly in every
// mechanism's configuration so that no library default decides it, and
// recorded in each figure's metadata.
const SimulationNoise = dpnoise.NoiseSimulated

// NoNoise is [Meta.Noise]'s entry for a figure that samples no privacy
// noise.
const NoNoise = "none"

// FileSum is a file's name (relative to its figure JSON's directory) and
// the hex SHA-256 of its content.
type FileSum struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// SumFiles returns the FileSum of each path, named relative to dir.
func SumFiles(dir string, paths []string) ([]FileSum, error) {
	var out []FileSum
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		out = append(out, FileSum{Name: filepath.ToSlash(rel), SHA256: hex.EncodeToString(sum[:])})
	}
	return out, nil
}

// VerifyFigureSet checks the figure set described by the figure JSON at
// path: every file it lists exists beside it with the SHA-256 it records.
// It returns an error naming each file that differs or is missing (a run
// killed while writing the set, or a file edited since), and an error when
// the JSON lists no files (written before figure JSONs listed their sets).
func VerifyFigureSet(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var m struct {
		Files []FileSum `json:"files"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(m.Files) == 0 {
		return fmt.Errorf("%s lists no files (written before figure JSONs listed their sets)", path)
	}
	dir := filepath.Dir(path)
	var bad []string
	for _, f := range m.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		b, err := os.ReadFile(p)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", f.Name, err))
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 {
			bad = append(bad, fmt.Sprintf("%s: SHA-256 %x, the JSON records %s (from another run, or edited)", f.Name, sum, f.SHA256))
		}
	}
	if bad != nil {
		return fmt.Errorf("%s: the figure set is mixed: %s", path, strings.Join(bad, "; "))
	}
	return nil
}

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// PolicyFactory builds a fresh policy for one repetition from its own stream.
type PolicyFactory struct {
	Name string
	New  func(rng *rand.Rand) (bandit.Policy, error)
}

// BanditExperiment runs policies against an environment and records the
// cumulative pseudo-regret R̂_t at the rounds in Record.
type BanditExperiment struct {
	// Horizon n. Required.
	Horizon int
	// Reps is the number of independent repetitions. Required.
	Reps int
	// Seed of the experiment: repetition rep's environment uses
	// Stream(Seed, StreamID(rep, 0)) and policy p uses Stream(Seed, StreamID(rep, 1+p)),
	// so all policies of a repetition face the same decision sets and reward
	// noise (common random numbers).
	Seed uint64
	// NewEnv builds one repetition's environment. Required.
	NewEnv func(rng *rand.Rand) (bandit.Environment, error)
	// Policies to compare. Required.
	Policies []PolicyFactory
	// Record lists the rounds (increasing, in [1, Horizon]) after which the
	// cumulative pseudo-regret is recorded. Defaults to LogGrid(Horizon, 50).
	Record []int
	// Workers and Progress as in TrialConfig.
	Workers  int
	Progress io.Writer
	// Plan, Label and Key as in TrialConfig: Key must determine NewEnv and
	// Policies (they are functions the store cannot see).
	Plan  *Plan
	Label string
	Key   any
}

// Run runs the experiment and returns regret curves over Record.
func (e *BanditExperiment) Run() (*Curves, error) {
	if e.Horizon < 1 {
		return nil, fmt.Errorf("dpb: horizon is %d, must be >= 1", e.Horizon)
	}
	if e.Reps < 1 {
		return nil, fmt.Errorf("dpb: reps is %d, must be >= 1", e.Reps)
	}
	if e.NewEnv == nil || len(e.Policies) == 0 {
		return nil, fmt.Errorf("dpb: experiment needs an environment and at least one policy")
	}
	rec := e.Record
	if rec == nil {
		rec = LogGrid(e.Horizon, 50)
	}
	for i, t := range rec {
		if t < 1 || t > e.Horizon || (i > 0 && t <= rec[i-1]) {
			return nil, fmt.Errorf("dpb: record points must increase within [1, %d]; got %d at %d", e.Horizon, t, i)
		}
	}
	names := make([]string, len(e.Policies))
	for i, p := range e.Policies {
		names[i] = p.Name
	}
	out, err := RunTrials(TrialConfig{Reps: e.Reps, Series: len(e.Policies), Points: len(rec), Workers: e.Workers, Progress: e.Progress,
		Plan: e.Plan, Label: e.Label, Key: struct {
			Key     any
			Horizon int
			Record  []int
			Seed    uint64
		}{e.Key, e.Horizon, rec, e.Seed}, Rounds: e.Horizon},
		func(job Job, out []float64) error {
			env, err := e.NewEnv(bandit.Stream(e.Seed, bandit.StreamID(job.Rep, 0)))
			if err != nil {
				return err
			}
			pol, err := e.Policies[job.Series].New(bandit.Stream(e.Seed, bandit.StreamID(job.Rep, 1+job.Series)))
			if err != nil {
				return err
			}
			bandit.RegretCurveTick(env, pol, e.Horizon, rec, out, job.Advance)
			if pe, ok := pol.(interface{ Err() error }); ok && pe.Err() != nil {
				// A policy that rejected data (e.g. outside the privacy bound)
				// stopped learning: the run is not the experiment asked for.
				return fmt.Errorf("%s: %w", e.Policies[job.Series].Name, pe.Err())
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	x := make([]float64, len(rec))
	for i, t := range rec {
		x[i] = float64(t)
	}
	return Summarise(names, x, out), nil
}

// LogGrid returns about k rounds in [1, n], log-spaced, increasing, distinct,
// ending at n.
func LogGrid(n, k int) []int {
	if n < 1 {
		return nil
	}
	var g []int
	for i := 0; i < k; i++ {
		t := int(math.Round(xmath.Pow(float64(n), float64(i+1)/float64(k))))
		if t < 1 {
			t = 1
		}
		if len(g) == 0 || t > g[len(g)-1] {
			g = append(g, t)
		}
	}
	if g[len(g)-1] != n {
		g = append(g, n)
	}
	return g
}

// LinGrid returns the rounds step, 2·step, …, n (and n if step does not divide it).
func LinGrid(n, step int) []int {
	var g []int
	for t := step; t <= n; t += step {
		g = append(g, t)
	}
	if len(g) == 0 || g[len(g)-1] != n {
		g = append(g, n)
	}
	return g
}
