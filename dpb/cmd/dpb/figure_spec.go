package main

import (
	"flag"
	"path/filepath"
	"time"

	"github.com/dpbandits/dpbandits/dpb/figspec"
	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/atomicfile"
)

// figureSpec is one reproducible figure: "dpb reproduce NAME" runs it,
// "dpb slurm NAME" shards it and "dpb reproduce NAME -merge" writes it from a
// job store. Its name, paper, summary and outputs are figspec's (importable
// by notebooks); figureTable joins them with the run functions.
type figureSpec struct {
	figspec.Spec
	// run parses the figure's flags from args and writes its outputs under
	// out; most figures are phased (figurePhases).
	run func(name, out string, args []string) error
}

// figures indexes figureTable by name (filled in init: the table's run
// functions read it back for their flags' summary).
var figures = map[string]figureSpec{}

func init() {
	for _, f := range figureTable() {
		if _, dup := figures[f.Name]; dup {
			panic("dpb: figure listed twice: " + f.Name)
		}
		run := f.run
		f.run = func(name, out string, args []string) error {
			// Record the files the figure writes into out, for its JSON's
			// list (writeMeta).
			defer atomicfile.Record(out)()
			return run(name, out, args)
		}
		figures[f.Name] = f
	}
}

// figureRun is a figure once its flags are parsed and checked: the parts
// every figure's run shares (memory, plan, experiment, outputs), which
// figurePhases drives in that order.
type figureRun struct {
	jobs   *jobFlags   // -store, -shard, -merge
	memory memEstimate // what the flags make the run hold, for ready
	// experiment runs the figure's jobs under the plan.
	experiment func(*harness.Plan) error
	// write plots and saves the outputs under base (out/NAME) and the
	// figure's JSON, wall the experiment's seconds.
	write func(base string, wall float64) error
}

// figurePhases returns a figure's run function from define, which defines
// the figure's flags on fs and returns the function that checks their
// values after parsing and returns the figure's run. The glue every figure
// shares is here: flags, parsing, ready (memory; a dry run stops there),
// the plan, the experiment under it (a shard or an estimate stops there),
// then the outputs.
func figurePhases(define func(name string, fs *flag.FlagSet) func() (*figureRun, error)) func(name, out string, args []string) error {
	return func(name, out string, args []string) error {
		fs := figureFlags(name)
		check := define(name, fs)
		if err := parseFigure(fs, args); err != nil {
			return err
		}
		r, err := check()
		if err != nil {
			return err
		}
		start := time.Now()
		if stop, err := r.jobs.run(name, r.memory, r.experiment); stop {
			return err
		}
		return r.write(filepath.Join(out, name), time.Since(start).Seconds())
	}
}
