package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

// runCtx is cancelled by SIGINT or SIGTERM while "dpb reproduce" runs (see
// runReproduce); experiments stop at it and say how to resume.
var runCtx = context.Background()

// runCmdline is the command line being run, for the resume hint.
var runCmdline []string

// jobFlags are the flags of every reproducible figure that say where its
// finished jobs live and which it runs (see harness.Plan).
type jobFlags struct {
	store, shard string
	merge        bool
}

func (j *jobFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&j.store, "store", "", "job store directory: finished jobs are saved there and not run again (resume)")
	fs.StringVar(&j.shard, "shard", "", "run only shard I/N of the jobs into -store and write no figure; auto: from Slurm's array variables; auto/N: from JOB_COMPLETION_INDEX or Slurm's")
	fs.BoolVar(&j.merge, "merge", false, "run no job: write the figure from -store alone (fails listing missing jobs)")
}

// jobPlan is the plan of one figure's run.
type jobPlan struct {
	*harness.Plan
	name string
}

// plan builds the figure's plan from the flags; environment variables are
// read only for -shard auto.
func (j *jobFlags) plan(name string) (*jobPlan, error) {
	if runEstimate != nil {
		return &jobPlan{Plan: runEstimate, name: name}, nil
	}
	p := &harness.Plan{Ctx: runCtx, Merge: j.merge}
	if j.store != "" {
		open := harness.OpenStore
		if j.merge && j.shard == "" {
			open = harness.ExistingStore // a merge reads; it creates no store
		}
		st, err := open(j.store)
		if err != nil {
			return nil, err
		}
		p.Store = st
	}
	if j.shard != "" {
		sh, err := harness.ParseShard(j.shard, os.Getenv)
		if err != nil {
			return nil, usageError{fmt.Errorf("-shard: %w", err)}
		}
		p.Shard = sh
	}
	if (j.merge || j.shard != "") && p.Store == nil {
		return nil, usagef("-shard and -merge need -store DIR")
	}
	if j.merge && j.shard != "" {
		return nil, usagef("-merge and -shard exclude each other: run the shards, then merge")
	}
	return &jobPlan{Plan: p, name: name}, nil
}

// run waits for ready(est), builds the figure's plan from the flags and runs
// the experiment under it; stop reports, as [jobPlan.done], that the figure
// must not be written (with the error to return, if any).
func (j *jobFlags) run(name string, est memEstimate, exp func(*harness.Plan) error) (stop bool, err error) {
	if err := ready(est); err != nil {
		return true, err
	}
	plan, err := j.plan(name)
	if err != nil {
		return true, err
	}
	return plan.done(exp(plan.Plan))
}

// done reports whether the figure must stop after its experiment returned
// err, and with which error: on any error; after a shard (its jobs are in the
// store; the figure is the merge's to write); and after a merge that found
// jobs missing (an error naming them). Otherwise the figure is written.
func (p *jobPlan) done(err error) (bool, error) {
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return true, p.interrupted(err)
		}
		return true, err
	}
	if p.Estimate {
		return true, nil
	}
	ran, loaded, skipped := p.Counts()
	if p.Shard.N > 0 {
		fmt.Fprintf(os.Stderr, "%s: shard %v: %d jobs run, %d already in %s, %d left to other shards; -merge writes the result\n",
			p.name, p.Shard, ran, loaded, p.Store.Dir(), skipped)
		return true, nil
	}
	if miss := p.Missing(); len(miss) > 0 {
		const show = 20
		list := miss
		if len(list) > show {
			list = list[:show]
		}
		more := ""
		if len(miss) > show {
			more = fmt.Sprintf("\n  … and %d more", len(miss)-show)
		}
		return true, missingJobsError{fmt.Errorf("%s: -merge: %d of %d jobs missing from %s (run their shards first):\n  %s%s",
			p.name, len(miss), len(miss)+loaded, p.Store.Dir(), strings.Join(list, "\n  "), more)}
	}
	if p.Store != nil {
		fmt.Fprintf(os.Stderr, "%s: %d jobs run, %d read from %s\n", p.name, ran, loaded, p.Store.Dir())
	}
	return false, nil
}

// missingJobsError is a merge's report of missing jobs: a group of figures
// merges the others before failing, so that one run lists every missing job.
type missingJobsError struct{ error }

func (e missingJobsError) Unwrap() error { return e.error }

func (p *jobPlan) interrupted(err error) error {
	cmd := "dpb " + strings.Join(runCmdline, " ")
	if p.Store == nil {
		return fmt.Errorf("%s: %w\nnothing was saved: add -store DIR to make the run resumable", p.name, err)
	}
	ran, _, _ := p.Counts()
	return fmt.Errorf("%s: %w\n%d finished jobs are saved in %s; resume with the same command:\n  %s", p.name, err, ran, p.Store.Dir(), cmd)
}
