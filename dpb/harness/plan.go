package harness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Plan says where a run keeps its finished jobs and which of them it runs;
// [RunTrials] follows it. The zero Plan (or a nil *Plan) runs every job in
// memory, as without a store.
//
// With a Store, every finished job is saved as soon as it finishes and jobs
// already in the store are loaded instead of run, so re-running a killed run
// continues where it stopped. With a Shard, only the shard's jobs are run;
// with Merge, none is: the result is read from the store alone. After either,
// jobs that are not in the store are filled with NaN and listed by
// [Plan.Missing]: the caller must not publish such a result (the CLI writes
// no figure).
type Plan struct {
	// Store keeps finished jobs (nil: none).
	Store *Store
	// Shard selects a fixed part of every job list (zero: all jobs).
	Shard Shard
	// Merge runs no job: every job comes from the store.
	Merge bool
	// Estimate runs no job and reads no store: it records every job list's
	// size and cost (see [Plan.Lists]) for planning a cluster run or a
	// memory budget. Every job's values are then one shared row of NaN, so
	// an estimate allocates nothing in proportion to the jobs.
	Estimate bool
	// EstimateValues, with Estimate, ends the run with ErrEstimateOver as
	// soon as the job lists recorded hold more values (jobs × points) than
	// this (0: no bound), so that sizing a run far too large for a memory
	// budget does not walk its jobs.
	EstimateValues float64
	// Ctx cancels the run: no job starts after it is done, jobs in flight are
	// discarded (never half-saved) and RunTrials returns its error. Nil:
	// context.Background().
	Ctx context.Context
	// Progress, if non-nil, receives the progress bar of every job list run
	// under the plan whose TrialConfig names no Progress of its own (a
	// bar per list, prefixed with its label).
	Progress io.Writer

	mu                   sync.Mutex
	missing              []string
	ran, loaded, skipped int
	lists                []JobList
	values               float64
}

// ErrEstimateOver ends a run under an Estimate plan whose job lists hold
// more values than its EstimateValues.
var ErrEstimateOver = errors.New("harness: the job lists hold more values than the estimate's bound")

// JobList describes one job list a run under an Estimate plan would run.
type JobList struct {
	Label string
	Shape Shape
	// Rounds each job simulates (0 if the call site does not say) and the
	// cost of a round relative to the label's unit (see TrialConfig).
	Rounds    int
	RoundCost float64
}

// Lists returns the job lists recorded under an Estimate plan.
func (p *Plan) Lists() []JobList {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]JobList(nil), p.lists...)
}

func (p *Plan) ctx() context.Context {
	if p == nil || p.Ctx == nil {
		return context.Background()
	}
	return p.Ctx
}

// partial reports whether this plan may leave jobs of a list unrun.
func (p *Plan) partial() bool { return p != nil && (p.Merge || p.Shard.N > 0 || p.Estimate) }

func (p *Plan) note(ran, loaded, skipped int, missing []string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ran += ran
	p.loaded += loaded
	p.skipped += skipped
	p.missing = append(p.missing, missing...)
}

// Missing lists the jobs (as "DIR/rNNNNNN-sSSS" paths) that the runs under
// this plan needed but found neither run nor in the store.
func (p *Plan) Missing() []string {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.missing...)
}

// Counts returns how many jobs the runs under this plan ran, loaded from the
// store, and left to other shards.
func (p *Plan) Counts() (ran, loaded, skipped int) {
	if p == nil {
		return 0, 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ran, p.loaded, p.skipped
}

// Shard is part I of N (0 ≤ I < N) of every job list; N = 0 means all jobs.
// Shard I of a list of J jobs is the contiguous block [⌊I·J/N⌋, ⌊(I+1)·J/N⌋)
// of the list in its fixed repetition-major order, so shards started at
// different times never skip or repeat a job and each gets whole repetitions
// (every series) as far as J allows, which balances their costs.
type Shard struct {
	I, N int
}

// Range returns the block [lo, hi) of a list of total jobs that the shard runs.
func (s Shard) Range(total int) (lo, hi int) {
	if s.N <= 0 {
		return 0, total
	}
	return mulDiv(s.I, total, s.N), mulDiv(s.I+1, total, s.N)
}

// mulDiv returns ⌊a·b/c⌋ for 0 <= a <= c and b >= 0, without overflow.
func mulDiv(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int(q)
}

// MaxShards is the largest N of a shard I/N.
const MaxShards = 1_000_000

func (s Shard) String() string {
	if s.N <= 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// ParseShard parses "I/N", "auto" (I and N from Slurm's SLURM_ARRAY_TASK_ID,
// less SLURM_ARRAY_TASK_MIN if set, and SLURM_ARRAY_TASK_COUNT) or "auto/N"
// (I from Kubernetes' JOB_COMPLETION_INDEX, else from Slurm's). getenv reads
// the environment (os.Getenv); it is called only for the "auto" forms.
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	bad := func(why string) (Shard, error) {
		return Shard{}, fmt.Errorf("shard %q: %s (want I/N with 0 <= I < N, auto, or auto/N)", s, why)
	}
	num := func(name, v string) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s is %q, not a non-negative integer", name, v)
		}
		return n, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	var sh Shard
	var err error
	if is == "auto" {
		if ok {
			if sh.N, err = num("N", ns); err != nil {
				return bad(err.Error())
			}
		} else {
			v := getenv("SLURM_ARRAY_TASK_COUNT")
			if v == "" {
				return bad("SLURM_ARRAY_TASK_COUNT is not set (not in a Slurm array job?); give auto/N")
			}
			if sh.N, err = num("SLURM_ARRAY_TASK_COUNT", v); err != nil {
				return bad(err.Error())
			}
		}
		name := "JOB_COMPLETION_INDEX"
		v := getenv(name)
		if v == "" || !ok {
			name, v = "SLURM_ARRAY_TASK_ID", getenv("SLURM_ARRAY_TASK_ID")
		}
		if v == "" {
			return bad("neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set")
		}
		if sh.I, err = num(name, v); err != nil {
			return bad(err.Error())
		}
		if name == "SLURM_ARRAY_TASK_ID" {
			if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
				min, err := num("SLURM_ARRAY_TASK_MIN", m)
				if err != nil {
					return bad(err.Error())
				}
				sh.I -= min
			}
		}
	} else {
		if !ok {
			return bad("no '/'")
		}
		if sh.I, err = num("I", is); err != nil {
			return bad(err.Error())
		}
		if sh.N, err = num("N", ns); err != nil {
			return bad(err.Error())
		}
	}
	if sh.N < 1 || sh.I < 0 || sh.I >= sh.N {
		return bad(fmt.Sprintf("I = %d, N = %d", sh.I, sh.N))
	}
	if sh.N > MaxShards {
		return bad(fmt.Sprintf("N = %d, more than %d shards", sh.N, MaxShards))
	}
	return sh, nil
}

// prepare opens the store bin of a job list, loads the jobs it holds into
// out, fills the jobs this plan leaves to others with NaN (noting them as
// missing) and returns the jobs to run, in job-list order.
func (p *Plan) prepare(cfg TrialConfig, shape Shape, out [][][]float64) ([]Job, *Bin, error) {
	label, key := cfg.Label, cfg.Key
	total := shape.Jobs()
	all := func() []Job {
		jobs := make([]Job, total)
		for i := range jobs {
			jobs[i] = shape.Job(i)
		}
		return jobs
	}
	if p != nil && p.Estimate {
		p.mu.Lock()
		p.lists = append(p.lists, JobList{Label: label, Shape: shape, Rounds: cfg.Rounds, RoundCost: cmp.Or(cfg.RoundCost, 1)})
		p.values += float64(shape.Jobs()) * float64(shape.Points)
		over := p.EstimateValues > 0 && p.values > p.EstimateValues
		p.mu.Unlock()
		if over {
			return nil, nil, ErrEstimateOver
		}
		return nil, nil, nil // out's rows are one shared row of NaN (RunTrials)
	}
	if p == nil || p.Store == nil {
		if p.partial() {
			return nil, nil, fmt.Errorf("harness: -shard and -merge need a store")
		}
		return all(), nil, nil
	}
	if label == "" {
		return nil, nil, fmt.Errorf("harness: a run with a store needs a label and a key (a RunTrials call site without them)")
	}
	var bin *Bin
	if p.Merge { // a merge reads: it creates no job list directory
		b, ok, err := p.Store.ExistingBin(label, key, shape)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			var missing []string
			for i := range total {
				j := shape.Job(i)
				missing = append(missing, filepath.Join(p.Store.Dir(), label+"-…", fmt.Sprintf("r%06d-s%03d", j.Rep, j.Series)))
				for k := range out[j.Series][j.Rep] {
					out[j.Series][j.Rep][k] = math.NaN()
				}
			}
			p.note(0, 0, len(missing), missing)
			return nil, nil, nil
		}
		bin = b
	} else {
		b, err := p.Store.Bin(label, key, shape)
		if err != nil {
			return nil, nil, err
		}
		bin = b
	}
	lo, hi := p.Shard.Range(total)
	if p.Merge {
		lo, hi = 0, 0
	}
	var todo []Job
	var missing []string
	loaded := 0
	for i := range total {
		j := shape.Job(i)
		ok, err := bin.Load(j, out[j.Series][j.Rep])
		if err != nil {
			return nil, nil, err
		}
		switch {
		case ok:
			loaded++
		case i >= lo && i < hi:
			todo = append(todo, j)
		default:
			missing = append(missing, bin.path(j))
			for k := range out[j.Series][j.Rep] {
				out[j.Series][j.Rep][k] = math.NaN()
			}
		}
	}
	p.note(0, loaded, len(missing), missing)
	return todo, bin, nil
}
