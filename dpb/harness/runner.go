package harness

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
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
	// RunOptions: the workers, the progress bar (with Rounds set, it counts
	// the rounds jobs report through [Job.Advance], so it moves within long
	// jobs) and the plan (with a store, Label and Key are required).
	RunOptions
	// Label names the job list in the store (lower case, e.g. "ss18-exp2").
	Label string
	// Key is everything that determines the jobs' results besides the
	// shape (the configuration with its seed; not worker counts); the
	// store keys the list by its hash with the stream version (dpb.StreamVersion).
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
		return nil, fmt.Errorf("harness: bad trial shape reps=%d series=%d points=%d", cfg.Reps, cfg.Series, cfg.Points)
	}
	w := cfg.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	out := make([][][]float64, cfg.Series)
	if cfg.Plan != nil && cfg.Plan.Estimate {
		// An estimate runs no job: every job shares one row of NaN (and
		// every series one list of rows), so that sizing a paper-scale run
		// (the CLI's memory budget, a cluster's plan) allocates little in
		// proportion to its jobs.
		nan := make([]float64, cfg.Points)
		for k := range nan {
			nan[k] = math.NaN()
		}
		rows := make([][]float64, cfg.Reps)
		for r := range rows {
			rows[r] = nan
		}
		for s := range out {
			out[s] = rows
		}
	}
	for s := range out {
		if out[s] != nil {
			continue
		}
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
