package main

import (
	"math"
	"os"
	"slices"

	"github.com/dpbandits/dpbandits/dpb/audit"
	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

// The memory the commands' flags size, part by part (see memEstimate).
// Live bytes: the collector's headroom is added by memEstimate.total. The
// coefficients come from the allocations in the code they name and were
// checked against peak RSS (the table in docs/cli.md).

// exp1Memory is SS18 Experiment 1's (ss18-fig2, -fig3): each worker's job
// holds a decision set of K = d² actions in R^d (d³ values, and the
// environment's working copy), at the largest d of -dims.
func exp1Memory(dims []int, scale harness.Scale, workers int) memEstimate {
	d := 32 // Experiment 1's default dims: 7 log-spaced in [4, 32]
	switch {
	case len(dims) > 0:
		d = slices.Max(dims)
	case scale == harness.ScalePaper:
		d = 64
	case scale == harness.ScaleQuick:
		d = 8
	}
	fd := float64(d)
	return memEstimate{runsPart(workers, "", 1), {"each worker's decision set of d² actions in R^d, d the largest of -dims", "-dims, -workers",
		workersOf(workers) * 10 * fd * fd * fd}}
}

// as17Memory is the AS17 figures': each worker's job enumerates up to 2^N
// actions of N values (EXP2, the cube) and, for the exact square-root
// counter, keeps its T·N noise draws (T up to sqrtN).
func as17Memory(workers, dim, sqrtN int) memEstimate {
	n := float64(dim)
	return memEstimate{runsPart(workers, "", 1), {"each worker's 2^N actions of N values (-dim N) and square-root counter draws", "-dim, -sqrtn, -workers",
		workersOf(workers) * 8 * (float64(1.5*math.Exp2(n)*n) + float64(float64(sqrtN)*n))}}
}

// auditMemory is dpb audit's: each audit keeps the scores of its runs on
// both inputs (16 bytes a run), sorts copies of the selection half to pick
// the region (16 more), and runs its negative control the same way while
// its own scores are kept (48 bytes a run in all); a categorical audit also
// counts the labels of the selection half in a map (about 100 bytes a
// distinct label, at most one a run). Audits run one after the other: the
// largest counts.
func auditMemory(names []string, trials int, short bool, workers int) memEstimate {
	ms := audit.All()
	if len(names) > 0 {
		ms = ms[:0:0]
		for _, n := range names {
			if m, err := audit.Lookup(n); err == nil {
				ms = append(ms, m)
			}
		}
	}
	var worst float64
	for _, m := range ms {
		n := trials
		if n == 0 {
			n = m.Trials
			if short {
				n = m.ShortTrials
			}
		}
		per := 48.0
		if m.Categorical {
			per += 100
		}
		worst = max(worst, per*float64(n))
	}
	return memEstimate{runsPart(workers, "", 1), {"each audit's scores on both inputs, the region's sorted copies and its control's scores (48 bytes a run)", "-trials", worst}}
}

// checkMemoryParts is dpb check's, for the papers run. SS18: the tree
// checks keep, at n ≤ check.TreeDenseMaxN, 36 ratios a round of every run
// (4 trees × 9 bounds; the trees run twice unless -trees) and, per bound,
// every round's ratios of all runs and three values a round; the counter
// checks keep fewer (21 a round), after them. Above TreeDenseMaxN (-trees) a run keeps its per-run summary. The
// Monte-Carlo checks keep up to six arrays of -trials values; the policy
// checks hold, per worker, a decision set of d² actions in R^d. MT14 and
// AS17: their counter and noise-law checks keep a few values a trial.
func checkMemoryParts(papers []string, d, n, reps, trials, policyN, workers int, short, trees, mineig bool) memEstimate {
	def := func(v, long, quick int) float64 {
		switch {
		case v > 0:
			return float64(v)
		case short:
			return float64(quick)
		}
		return float64(long)
	}
	var est memEstimate
	for _, p := range papers {
		switch p {
		case "ss18":
			fd, fn, fr := def(d, 5, 5), def(n, 1024, 128), def(reps, 100, 20)
			ft := def(trials, 20000, 2000)
			if mineig {
				fr = def(reps, 10, 10)
			}
			est = append(est, memPart{"each worker's decision set of d² actions in R^d and its trees", "-d, -workers", workersOf(workers) * (float64(10*fd*fd*fd) + perRunBytes)})
			switch {
			case mineig:
			case fn <= check.TreeDenseMaxN:
				// Without -trees the trees run twice (the printed k, then the
				// tight k): the first run's ratios can still be in the heap
				// when the second's are allocated (measured: a peak of 2.9
				// times one run's ratios above the process).
				runs := 2.0
				if trees {
					runs = 1
				}
				est = append(est, memPart{"the tree checks' ratios of every round of every run (36 values a round a run, twice without -trees, and each bound's rounds sorted)", "-n × -reps",
					float64(8*fn*fr*(float64(36*runs)+2)) + float64(8*36*3*fn)})
			default:
				est = append(est, memPart{"the tree checks' per-run summaries", "-reps", 8 * fr * 36 * (3 + check.TreeSampleRounds)})
			}
			if !trees && !mineig {
				est = append(est, memPart{"the Monte-Carlo checks' draws (six arrays of -trials values)", "-trials", 48 * ft})
			}
		case "mt14":
			est = append(est, memPart{"the counter checks' trees (a few values a trial)", "-trials", 64 * def(trials, 2000, 300)},
				memPart{"the regret runs", "-reps", 1024 * def(reps, 20, 6)})
		case "as17":
			est = append(est, memPart{"the noise-law checks' trees (a few values a trial)", "-trials", 64 * def(trials, 4000, 1000)},
				memPart{"the regret runs", "-reps", 1024 * def(reps, 10, 4)})
		}
	}
	return est
}

// dataMemory is a figure's on a data file (a path under dir): the parsed
// log (a generous 16 bytes a byte of the file) and, per worker, a delay
// buffer of up to min(delay, rows) observations of up to 2 kB (a decision
// set of K·d values), rows at most a twentieth of the file's bytes. A
// missing file is left to the figure to report.
func dataMemory(dir, rel string, workers, delay int) memEstimate {
	path, err := data.Locate(dir, rel)
	if err != nil {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	size := float64(fi.Size())
	est := memEstimate{{"the data file " + rel + " parsed", "-data", 16 * size}}
	if workers >= 0 && delay > 0 {
		est = append(est, memPart{"each worker's delay buffer (min(-delays, rows) decision sets)", "-delays, -workers",
			workersOf(workers) * 2048 * min(float64(delay), size/20)})
	}
	return est
}
