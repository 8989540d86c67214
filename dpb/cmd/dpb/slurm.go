package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

func init() {
	register("slurm", "print an sbatch script: a figure's shards as a job array plus the merge (dpb slurm -h)", runSlurm)
}

// slurmFlags are dpb slurm's own flags; every other flag is the figure's.
type slurmFlags struct {
	shards, cpus, memMB int
	store, out, dpb     string
	wall, partition     string
	account             string
}

// roundNanos is the measured wall time of one simulated round of one job
// (of RoundCost 1) on one core, per job list label or label prefix. Units:
// ss18-exp1, a LinUCB round at d = 32 (K = 1024; cost ∝ d³); ss18-exp2/3,
// one policy of a lockstep round (d = 5, K = 25); the others, one round of
// one policy. ss18 and mt14 come from the quiet-machine wall times of the
// README's figure table (AMD EPYC, 2 cores: Fig. 4 at n = 5·10⁶ × 10 runs in
// 145 s; a d = 64 round in 1.4 ms; mt14-fig1 in 18 s; Shuttle in 9 s); as17
// from one-worker runs on a busy machine (November 2026), divided by the
// 2.5× slowdown the ss18 runs showed there. Labels not listed use
// defaultRoundNanos.
var roundNanos = map[string]float64{
	"ss18-exp1": 175e3,
	"ss18-exp2": 750,
	"ss18-exp3": 750,
	"mt14-fig1": 150,
	"mt14-fig2": 750,
	"as17-":     220,
	// secure-regret: one policy-round, the mean of a simulated and a secure
	// round over its four default variants (thread CPU time of a -n 2e5
	// run: 80 µs per round for all 16 policies, on this host under load).
	"secure-regret": 5000,
}

const defaultRoundNanos = 5000

// nanosPerRound returns the cost of one unit round of the job list label.
func nanosPerRound(label string) float64 {
	if ns, ok := roundNanos[label]; ok {
		return ns
	}
	for prefix, ns := range roundNanos {
		if strings.HasSuffix(prefix, "-") && strings.HasPrefix(label, prefix) {
			return ns
		}
	}
	return defaultRoundNanos
}

// estimateSafety multiplies the estimated time to absorb a slower node and
// a busy filesystem; a shard that hits its limit is resumed by resubmitting.
const estimateSafety = 2

// slurmUsage is "dpb slurm -h".
const slurmSynopsis = `NAME [figure flags] -shards N -store DIR [-out DIR] [-time D-HH:MM:SS] [-mem MB] [-cpus C] [-partition P] [-account A] [-dpb PATH]`

const slurmDoc = `Prints a bash script that submits figure NAME's jobs to Slurm as an array of N
shards ("dpb reproduce NAME ... -store DIR -shard auto") and a merge job that
runs after all of them succeeded (--dependency=afterok) and writes the figure
into -out. Time and memory per shard are estimated from the figure's job
lists and measured per-round costs; -time and -mem override them. Run the
script again after a failure: finished jobs are in DIR and are not rerun.`

func runSlurm(args []string) error {
	if len(args) == 0 {
		return usagef("slurm: want a figure name: dpb slurm NAME [figure flags] -shards N -store DIR")
	}
	switch args[0] {
	case "-h", "--h", "-help", "--help":
		fmt.Fprintf(os.Stdout, "usage: dpb slurm %s\n\n%s\n", slurmSynopsis, slurmDoc)
		return flag.ErrHelp
	}
	if strings.HasPrefix(args[0], "-") {
		return usagef("slurm: the figure name comes first, then flags (dpb slurm NAME %s ...)", args[0])
	}
	name, rest := args[0], args[1:]
	sf, figArgs, err := parseSlurmFlags(rest)
	if err != nil {
		return err
	}
	if _, ok := figures[name]; !ok {
		return usagef("slurm: unknown figure %q (dpb reproduce -list)", name)
	}
	if err := ready(nil); err != nil {
		return err
	}
	lists, _, err := estimateJobs(name, figArgs)
	if err != nil {
		return err
	}
	if err := checkSlurmValues(sf, figArgs); err != nil {
		return err
	}
	if sf.dpb == "" {
		if sf.dpb, err = os.Executable(); err != nil {
			return err
		}
		if goRunBinary(sf.dpb) {
			return usagef("slurm: this dpb is go run's temporary binary %s, deleted when it exits: the script would run a missing file. Build one on the shared filesystem and use it: go build -o /shared/bin/dpb ./dpb/cmd/dpb && /shared/bin/dpb slurm ... (or pass -dpb PATH)", sf.dpb)
		}
	}
	for _, p := range []*string{&sf.store, &sf.out, &sf.dpb} {
		if *p, err = filepath.Abs(*p); err != nil {
			return err
		}
	}
	if err := checkSlurmValues(sf, nil); err != nil { // the absolute paths too
		return err
	}
	return writeSlurmScript(os.Stdout, name, figArgs, sf, lists, append([]string{"slurm", name}, rest...))
}

// parseSlurmFlags parses slurm's own flags out of args and returns them
// with the figure's flags, refusing the figure flags the script sets.
func parseSlurmFlags(args []string) (slurmFlags, []string, error) {
	sf := slurmFlags{out: "figures", cpus: 1}
	fs := newFlags("slurm", slurmSynopsis, slurmDoc)
	countVar(fs, &sf.shards, "shards", 0, 0, maxShards, "number of shards (array tasks)")
	fs.StringVar(&sf.store, "store", "", "job store directory on a filesystem every node sees")
	fs.StringVar(&sf.out, "out", sf.out, "where the merge job writes the figure")
	countVar(fs, &sf.cpus, "cpus", sf.cpus, 1, maxWorkers, "CPUs per shard (its -workers)")
	countVar(fs, &sf.memMB, "mem", 0, 0, maxSlurmMemMB, "memory per job in MB, 0: estimated")
	fs.StringVar(&sf.wall, "time", "", "time limit per shard, Slurm syntax (default: estimated)")
	fs.StringVar(&sf.partition, "partition", "", "partition (default: the cluster's)")
	fs.StringVar(&sf.account, "account", "", "account to charge")
	fs.StringVar(&sf.dpb, "dpb", "", "path of the dpb binary on the nodes (default: this one)")
	own, figArgs := splitFlags(fs, args)
	pos, err := parseArgs(fs, own)
	if err != nil {
		return sf, nil, err
	}
	if err := noArgs(fs, pos); err != nil {
		return sf, nil, err
	}
	if sf.shards < 1 {
		return sf, nil, usagef("slurm: -shards N (>= 1) is required")
	}
	if sf.store == "" {
		return sf, nil, usagef("slurm: -store DIR is required (a directory every node sees)")
	}
	for _, a := range figArgs {
		for _, bad := range []string{"store", "shard", "merge", "out", "workers"} {
			if a == "-"+bad || a == "--"+bad || strings.HasPrefix(a, "-"+bad+"=") || strings.HasPrefix(a, "--"+bad+"=") {
				return sf, nil, usagef("slurm: %s is set by the script; leave it out", a)
			}
		}
	}
	return sf, figArgs, nil
}

// slurmTimeOK matches Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M and
// D-H:M:S.
var slurmTimeOK = regexp.MustCompile(`^([0-9]{1,7}|[0-9]{1,7}:[0-9]{1,2}|[0-9]{1,7}:[0-9]{1,2}:[0-9]{1,2}|[0-9]{1,5}-[0-9]{1,2}(:[0-9]{1,2}(:[0-9]{1,2})?)?)$`)

// slurmNameOK matches a partition or account name (Slurm allows a
// comma-separated list of partitions).
var slurmNameOK = regexp.MustCompile(`^[A-Za-z0-9_.+-]+(,[A-Za-z0-9_.+-]+)*$`)

// checkSlurmValues refuses any value written into the script that could
// change its meaning: control characters (a newline would start a command
// of its own) in every value, a -time that is not one of Slurm's formats
// (or is zero), and a -partition or -account that is not a plain name.
func checkSlurmValues(sf slurmFlags, figArgs []string) error {
	for _, v := range []struct{ flag, val string }{{"-store", sf.store}, {"-out", sf.out}, {"-dpb", sf.dpb}, {"-partition", sf.partition}, {"-account", sf.account}, {"-time", sf.wall}} {
		if i := strings.IndexFunc(v.val, isControl); i >= 0 {
			return usagef("slurm: %s holds the control character %q at byte %d: refused, since it would be written into the script", v.flag, v.val[i:i+1], i)
		}
	}
	for _, a := range figArgs {
		if i := strings.IndexFunc(a, isControl); i >= 0 {
			return usagef("slurm: the figure argument %q holds the control character %q: refused, since it would be written into the script", a, a[i:i+1])
		}
		if !utf8.ValidString(a) {
			return usagef("slurm: the figure argument %q is not UTF-8", a)
		}
	}
	for _, v := range []string{sf.store, sf.out, sf.dpb} {
		if !utf8.ValidString(v) {
			return usagef("slurm: the path %q is not UTF-8", v)
		}
	}
	if strings.Contains(sf.store, `\`) {
		// sbatch's --output pattern under the store: a backslash there turns
		// off every replacement symbol, so all shards would log to one file.
		return usagef("slurm: -store %q holds a backslash, which sbatch's --output pattern (DIR/slurm-logs/%%x-%%A_%%a.out) cannot hold", sf.store)
	}
	if sf.wall != "" {
		if !slurmTimeOK.MatchString(sf.wall) || strings.Trim(sf.wall, "0:-") == "" {
			return usagef("slurm: -time %q: want a positive Slurm time limit: MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS", sf.wall)
		}
	}
	for _, v := range []struct{ flag, val string }{{"-partition", sf.partition}, {"-account", sf.account}} {
		if v.val != "" && !slurmNameOK.MatchString(v.val) {
			return usagef("slurm: %s %q: want letters, digits, '_', '.', '+' and '-' (partitions: a comma-separated list)", v.flag, v.val)
		}
	}
	return nil
}

// isControl reports the characters refused in the script's values: the C0
// and C1 controls and DEL (newline, carriage return, tab, NUL, ESC, …).
func isControl(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }

// goRunBinary reports whether path is a binary that go run built in a
// temporary directory (…/go-build…/b001/exe/NAME), deleted when it exits.
func goRunBinary(path string) bool {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "exe" {
		return false
	}
	for _, part := range strings.Split(filepath.ToSlash(dir), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	return false
}

// splitFlags separates the flags fs defines (with their values) from the rest.
func splitFlags(fs *flag.FlagSet, args []string) (own, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		n := strings.TrimLeft(a, "-")
		n, _, hasVal := strings.Cut(n, "=")
		if f := fs.Lookup(n); f != nil && strings.HasPrefix(a, "-") {
			own = append(own, a)
			if !hasVal && i+1 < len(args) {
				own = append(own, args[i+1])
				i++
			}
			continue
		}
		rest = append(rest, a)
	}
	return own, rest
}

// estimateJobs runs the figure under an Estimate plan: it runs no job and
// writes nothing, and returns the job lists the figure would run and the
// memory parts it declared to ready (its jobs' state and what else its
// flags size; see figureMemory).
func estimateJobs(name string, args []string) ([]harness.JobList, memEstimate, error) {
	return estimateJobsUpTo(name, args, 0)
}

// estimateJobsUpTo is estimateJobs that stops recording job lists once
// they hold more than values values (0: no bound): enough to refuse a run
// far above the memory budget without walking its jobs.
func estimateJobsUpTo(name string, args []string, values float64) ([]harness.JobList, memEstimate, error) {
	tmp, err := os.MkdirTemp("", "dpb-slurm-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	runEstimate, estimateParts = &harness.Plan{Estimate: true, EstimateValues: values}, nil
	defer func() { runEstimate, estimateParts = nil, nil }()
	if err := figures[name].run(name, tmp, args); err != nil && !errors.Is(err, harness.ErrEstimateOver) {
		return nil, nil, err
	}
	return runEstimate.Lists(), estimateParts, nil
}

// runEstimate, when set, replaces every figure's plan (see estimateJobs),
// and estimateParts collects the memory parts the figure gives ready.
var (
	runEstimate   *harness.Plan
	estimateParts memEstimate
)

// shardCost returns the estimated seconds of the slowest shard on cpus
// workers and the values of its largest job list (for memory).
func shardCost(lists []harness.JobList, shards, cpus int) (secs float64, values int) {
	for i := range shards {
		var s float64
		for _, l := range lists {
			lo, hi := harness.Shard{I: i, N: shards}.Range(l.Shape.Jobs())
			ns := nanosPerRound(l.Label) * l.RoundCost
			jobs := hi - lo
			// Workers take jobs one at a time: the shard's time is its
			// number of job waves times one job.
			waves := (jobs + cpus - 1) / cpus
			s += float64(waves) * float64(max(l.Rounds, 1)) * ns / 1e9
			values = max(values, l.Shape.Jobs()*l.Shape.Points)
		}
		secs = max(secs, s)
	}
	return secs, values
}

// slurmTime formats seconds as Slurm's D-HH:MM:SS, rounded up to minutes.
func slurmTime(secs float64) string {
	m := int(math.Ceil(secs / 60))
	return fmt.Sprintf("%d-%02d:%02d:00", m/(24*60), m/60%24, m%60)
}

func writeSlurmScript(w io.Writer, name string, figArgs []string, sf slurmFlags, lists []harness.JobList, cmdline []string) error {
	secs, wall, mem := shardLimits(lists, sf)
	jobs, rounds := 0, 0.0
	for _, l := range lists {
		jobs += l.Shape.Jobs()
		rounds += float64(l.Shape.Jobs()) * float64(l.Rounds) * l.RoundCost
	}
	q := shellQuoteAll
	opts := fmt.Sprintf("#SBATCH --time=%s\n#SBATCH --mem=%dM\n#SBATCH --cpus-per-task=%d\n", wall, mem, sf.cpus)
	logs := filepath.Join(sf.store, "slurm-logs")
	// Every value from the command line goes on sbatch's command line or the
	// exec line, shell-quoted (checkSlurmValues has refused control
	// characters, so no value spans lines or ends a here-document).
	extra := extraOpts(sf)
	fig := q(figArgs)
	if fig != "" {
		fig = " " + fig
	}
	dpb, store := shellQuote(sf.dpb), shellQuote(sf.store)
	_, err := fmt.Fprintf(w, `#!/bin/bash
# Generated by: dpb %s
# %d jobs in %d job lists (%.3g job-rounds of unit cost), %d shards; estimated %.0f s for the slowest shard
# on %d CPU(s) (measured per-round costs; requested with a safety factor).
# Run again after a failure: finished jobs are in the store and are skipped.
set -euo pipefail
mkdir -p %s
shards=$(sbatch --parsable%s --output=%s <<'DPB_SHARDS'
#!/bin/bash
#SBATCH --job-name=dpb-%s
#SBATCH --array=0-%d
%sexec %s reproduce %s%s -store %s -shard auto -workers "${SLURM_CPUS_PER_TASK:-1}"
DPB_SHARDS
)
shards=${shards%%%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$shards" --kill-on-invalid-dep=yes%s --output=%s <<'DPB_MERGE'
#!/bin/bash
#SBATCH --job-name=dpb-%s-merge
#SBATCH --time=0-00:30:00
#SBATCH --mem=%dM
#SBATCH --cpus-per-task=1
exec %s reproduce %s%s -store %s -merge -out %s
DPB_MERGE
)
merge=${merge%%%%;*}
echo "dpb: shards: array job $shards; merge: job $merge (runs after every shard succeeded; cancelled if one fails)"
`, q(cmdline), jobs, len(lists), rounds, sf.shards, secs, sf.cpus,
		shellQuote(logs), extra, shellQuote(sbatchLiteral(logs)+"/%x-%A_%a.out"), name, sf.shards-1, opts, dpb, shellQuote(name), fig, store,
		extra, shellQuote(sbatchLiteral(logs)+"/%x-%j.out"), name, mem, dpb, shellQuote(name), fig, store, shellQuote(sf.out))
	return err
}

// shardLimits returns the estimated seconds of the slowest shard and the
// time and memory (MB) limits of a shard: -time and -mem, or estimated.
func shardLimits(lists []harness.JobList, sf slurmFlags) (secs float64, wall string, mem int) {
	secs, values := shardCost(lists, sf.shards, sf.cpus)
	wall = sf.wall
	if wall == "" {
		// Five minutes for start-up, loading the store and writing.
		wall = slurmTime(secs*estimateSafety + 300)
	}
	mem = sf.memMB
	if mem == 0 {
		// The process, plus every value of the largest job list held
		// twice (results and summaries), rounded up to 100 MB.
		mem = 100 * int(math.Ceil((200+float64(values)*16/1e6)/100))
	}
	return secs, wall, mem
}

// shellQuoteAll quotes each of args for bash and joins them with spaces.
func shellQuoteAll(args []string) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = shellQuote(a)
	}
	return strings.Join(s, " ")
}

// sbatchLiteral escapes s for sbatch's filename patterns (--output), in
// which % starts a replacement symbol (%j, %A, …) and %% is a literal %: a
// store path "runs/100%" would otherwise name other files.
func sbatchLiteral(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// extraOpts returns sbatch's -partition and -account options, shell-quoted
// (each with a leading space), or "".
func extraOpts(sf slurmFlags) string {
	s := ""
	if sf.partition != "" {
		s += " " + shellQuote("--partition="+sf.partition)
	}
	if sf.account != "" {
		s += " " + shellQuote("--account="+sf.account)
	}
	return s
}

// shellQuote quotes s for bash when it holds anything but safe characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./,:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
