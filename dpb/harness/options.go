package harness

import "io"

// RunOptions say how an experiment runs, not what it computes: every
// experiment's configuration (and every check suite's) embeds them. They
// are left out of the configuration's JSON, and so out of figure metadata
// and store keys, since no result depends on them.
type RunOptions struct {
	// Workers is the number of goroutines (0: GOMAXPROCS). Results do not
	// depend on it.
	Workers int `json:"-"`
	// Progress, if non-nil, receives a one-line progress bar (else the
	// plan's Progress, if any).
	Progress io.Writer `json:"-"`
	// Plan, if non-nil, says where finished jobs are stored and which jobs
	// to run (see [Plan]).
	Plan *Plan `json:"-"`
}
