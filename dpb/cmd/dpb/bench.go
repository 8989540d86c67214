package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/dpbandits/dpbandits/dpb/harness"
	"github.com/dpbandits/dpbandits/dpb/internal/perf"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
	"github.com/dpbandits/dpbandits/dpb/noise"
	"github.com/dpbandits/dpbandits/dpb/ss18"
	"github.com/dpbandits/dpbandits/dpb/ss18fig"
)

func init() {
	register("bench", "time the SS18 bandit loop on one core", runBench)
}

func runBench(args []string) error {
	fs := newFlags("bench", "[flags]", "Times SS18's bandit loop (Choose + Update, with or without the Appendix D decision sets) on one core.")
	alg := fs.String("alg", "gaussian", "algorithm: nonprivate, gaussian, wishart, wishart-unshifted")
	d, k, rounds := new(int), new(int), new(int)
	countVar(fs, d, "d", 5, 2, maxBenchDim, "dimension d")
	countVar(fs, k, "K", 25, 1, maxBenchK, fmt.Sprintf("actions per round K (d·K at most %d)", maxBenchCells))
	countVar(fs, rounds, "rounds", 200000, 1, maxHorizon, "rounds to time")
	withEnv := fs.Bool("env", true, "include decision-set generation (SS18 Appendix D sets)")
	padded := fs.Bool("padded", true, "padded tree release mode (private variants)")
	seed := new(uint64)
	seedVar(fs, seed, "seed", 1, "seed (an exact integer)")
	asJSON := fs.Bool("json", false, "print JSON: the timing, the CPU, the kernel in use and the ratio to the bound (see -peak)")
	peak := fs.Bool("peak", false, "measure this core's FMA peak (scalar, AVX2, AVX-512) and normal-generation rate, and exit")
	kernel := fs.String("kernel", "", "LinUCB scoring kernel (default: the fastest this CPU supports; all give the same bits)")
	fig4 := fs.Bool("fig4", false, "time SS18 Fig. 4's job-round instead (one (d, K) = (5, 25) decision set, the four variants in lockstep, padded trees) and extrapolate the paper-scale run; -alg, -d, -K, -env and -padded do not apply")
	alone := fs.Bool("alone", false, "with -fig4: each variant chooses in turn (the previous release's loop) instead of all four in one pass (the lockstep driver, dpb/internal/lockstep); the same bits")
	chunks := fs.Bool("chunks", false, "also give every chunk's µs per round in order (about 100 chunks), wall time and, on Linux, the thread's CPU time: a run of slow chunks whose CPU time equals their wall time is the core running slower (another tenant's load on a shared host), not the process kept waiting")
	horizon := new(int)
	countVar(fs, horizon, "horizon", 50000000, 2, maxHorizon, "with -fig4: the trees' horizon n, at least -rounds (the paper's 5·10⁷ gives 27 levels)")
	if err := parseFigure(fs, args); err != nil {
		return err
	}
	if err := benchFlagsApply(fs, *fig4); err != nil {
		return err
	}
	if *kernel != "" {
		if err := simd.SetKernel(*kernel); err != nil {
			return usageError{fmt.Errorf("bench: invalid value %q for flag -kernel: %w", *kernel, err)}
		}
	}
	if *peak {
		if err := ready(nil); err != nil {
			return err
		}
		return printPeak(*asJSON)
	}
	if *fig4 {
		return benchFig4(*rounds, *horizon, !*alone, *seed, *asJSON, *chunks)
	}
	return benchLoop(benchLoopFlags{alg: *alg, d: *d, k: *k, rounds: *rounds, withEnv: *withEnv, padded: *padded, seed: *seed, asJSON: *asJSON, chunks: *chunks})
}

// benchLoopFlags are the flags of "dpb bench" without -fig4 or -peak.
type benchLoopFlags struct {
	alg                             string
	d, k, rounds                    int
	withEnv, padded, asJSON, chunks bool
	seed                            uint64
}

// benchLoop times one SS18 variant's bandit loop on one core and prints
// the timing (text or JSON beside the machine's bounds).
func benchLoop(f benchLoopFlags) error {
	a, err := ss18.ParseAlg(f.alg)
	if err != nil {
		return usageError{fmt.Errorf("bench: invalid value %q for flag -alg: %w", f.alg, err)}
	}
	if f.d*f.k > maxBenchCells {
		return usagef("bench: -d %d × -K %d = %d numbers per decision set, at most %d", f.d, f.k, f.d*f.k, maxBenchCells)
	}
	// The decision set (and the environment's copy), the policy's d² state
	// and its trees, and the timing's chunks.
	if err := ready(memEstimate{{"the decision set of -K actions in R^d, the policy's state and its trees", "-d, -K", 8 * (float64(3*float64(f.d)*float64(f.k)) + float64(64*float64(f.d)*float64(f.d)))}}); err != nil {
		return err
	}
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	cfg := ss18fig.TimingConfig{Alg: a, D: f.d, K: f.k, Rounds: f.rounds, Env: f.withEnv, Padded: f.padded, Seed: f.seed}
	if f.asJSON {
		cfg.PairedChunks = benchPairedChunks
	}
	tm, err := ss18fig.Time(cfg)
	if err != nil {
		return err
	}
	if !f.chunks {
		tm.ChunkMicros, tm.ChunkCPUMicros = nil, nil
	}
	res, w := tm.LoopTiming, tm.RoundWork
	if f.asJSON {
		old := runtime.GOMAXPROCS(1)
		p := perf.MeasurePeak(50 * time.Millisecond)
		runtime.GOMAXPROCS(old)
		r := newBenchReport(a, f.d, f.k, f.withEnv, res, w, p)
		r.PairedRatio = tm.Paired
		return json.NewEncoder(os.Stdout).Encode(r)
	}
	fmt.Printf("%v d=%d K=%d env=%v: %.3f µs/round (fastest 1%% chunk %.3f), %.3f allocs/round over %d rounds (1 core, kernel %s)\n",
		a, f.d, f.k, f.withEnv, res.MicrosPerRound, res.BestMicrosPerRound, res.AllocsPerRound, f.rounds, simd.Kernel())
	printChunks(res)
	return nil
}

// benchReport is dpb bench -json: the timing beside the bounds that the
// machine's measured Peak puts on it. bound_us = max(flop_bound_us,
// normal_bound_us) is a lower bound on µs per round: the scoring's useful
// flops at the widest FMA unit's peak, and the round's standard normals at
// the fastest generator's rate (wyrand + ziggurat); ratio_to_bound =
// best_us_per_round / bound_us (the fastest chunk: see LoopTiming). The
// paired_ratio fields are the step's ratio to the flop bound with the chunk
// and the peak taken at one moment (harness.PairedRatio): 30 chunks of
// the rounds' 1 % after the timed rounds, each between two peak
// measurements.
type benchReport struct {
	harness.LoopTiming
	Alg           string `json:"alg"`
	D             int    `json:"d"`
	K             int    `json:"k"`
	Env           bool   `json:"env"`
	CPU           string `json:"cpu"`
	Kernel        string `json:"kernel"`
	Noise         string `json:"noise"`
	StreamVersion int    `json:"stream_version"`
	harness.RoundWork
	FMAPeakGFlops float64 `json:"fma_peak_gflops"`
	NormalNs      float64 `json:"normal_ns"`
	FlopBoundUs   float64 `json:"flop_bound_us"`
	NormalBoundUs float64 `json:"normal_bound_us"`
	BoundUs       float64 `json:"bound_us"`
	RatioToBound  float64 `json:"ratio_to_bound"`
	harness.PairedRatio
}

// benchPairedChunks is the number of paired chunks dpb bench -json times
// (ss18fig.TimingConfig.PairedChunks).
const benchPairedChunks = 30

func newBenchReport(a ss18.Alg, d, k int, env bool, res harness.LoopTiming, w harness.RoundWork, p perf.Peak) benchReport {
	r := benchReport{
		LoopTiming: res, Alg: a.String(), D: d, K: k, Env: env,
		CPU: p.CPU, Kernel: simd.Kernel(), Noise: noise.Simulated.String(), StreamVersion: snap.StreamVersion,
		RoundWork: w, FMAPeakGFlops: p.FMAGFlops(), NormalNs: p.NormalNs,
	}
	r.FlopBoundUs, r.NormalBoundUs, r.BoundUs = w.FlopMicros(p), w.NormalMicros(p), w.BoundMicros(p)
	if r.BoundUs > 0 {
		r.RatioToBound = res.BestMicrosPerRound / r.BoundUs
	}
	return r
}

// printPeak measures and prints this core's Peak (dpb bench -peak).
func printPeak(asJSON bool) error {
	old := runtime.GOMAXPROCS(1)
	p := perf.MeasurePeak(300 * time.Millisecond)
	runtime.GOMAXPROCS(old)
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(p)
	}
	fmt.Printf("CPU %s, scoring kernel %s (supported: %s)\n", p.CPU, p.Kernel, strings.Join(p.Kernels, ", "))
	fmt.Printf("FMA peak on one core: AVX-512 %.1f, AVX2 %.1f, scalar %.1f GFLOP/s (0: not supported)\n",
		p.FMAAVX512GFlops, p.FMAAVX2GFlops, p.FMAScalarGFlops)
	fmt.Printf("standard normals: %.2f ns (wyrand + ziggurat), %.2f ns (ChaCha8 NormFloat64)\n", p.NormalNs, p.ChaCha8NormalNs)
	return nil
}

// benchFlagsApply rejects flags set for the mode they do not apply to: -alg,
// -d, -K, -env and -padded with -fig4, -alone and -horizon without it.
func benchFlagsApply(fs *flag.FlagSet, fig4 bool) error {
	var bad error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "alg", "d", "K", "env", "padded":
			if fig4 && bad == nil {
				bad = usagef("bench: -%s does not apply with -fig4 (the job-round is (5, 25), all four variants, padded trees)", f.Name)
			}
		case "alone", "horizon":
			if !fig4 && bad == nil {
				bad = usagef("bench: -%s applies only with -fig4", f.Name)
			}
		}
	})
	return bad
}

// fig4Report is dpb bench -fig4 -json: the job-round's timing and the
// paper-scale run it implies at that rate (paper_job_rounds ×
// us_per_round, the mean, on one core; two workers on a 2-core host
// contend, so a measured run is the test of the target).
type fig4Report struct {
	harness.LoopTiming
	Together       bool    `json:"together"`
	Horizon        int     `json:"horizon"`
	CPU            string  `json:"cpu"`
	Kernel         string  `json:"kernel"`
	StreamVersion  int     `json:"stream_version"`
	PaperJobRounds int     `json:"paper_job_rounds"`
	PaperCoreHours float64 `json:"paper_core_hours"`
	PaperMinutes2  float64 `json:"paper_minutes_on_2_cores"`
}

// benchFig4 times SS18 Fig. 4's job-round on one core (ss18fig.TimeLockstep).
func benchFig4(rounds, horizon int, together bool, seed uint64, asJSON, chunks bool) error {
	if horizon < rounds {
		return usagef("bench: -horizon %d is below -rounds %d", horizon, rounds)
	}
	pc := ss18fig.Exp2Config{}
	pc.ApplyScale(harness.ScalePaper)
	jr, err := pc.JobRounds()
	if err != nil {
		return err
	}
	if err := ready(nil); err != nil {
		return err
	}
	old := runtime.GOMAXPROCS(1)
	tm, err := ss18fig.TimeLockstep(ss18fig.LockstepTimingConfig{Rounds: rounds, Horizon: horizon, Together: together, Seed: seed})
	cpu := perf.CPUModel()
	runtime.GOMAXPROCS(old)
	if err != nil {
		return err
	}
	if !chunks {
		tm.ChunkMicros, tm.ChunkCPUMicros = nil, nil
	}
	r := fig4Report{LoopTiming: tm.LoopTiming, Together: together, Horizon: horizon, CPU: cpu, Kernel: simd.Kernel(),
		StreamVersion: snap.StreamVersion, PaperJobRounds: jr}
	r.PaperCoreHours = float64(jr) * tm.MicrosPerRound / 1e6 / 3600
	r.PaperMinutes2 = r.PaperCoreHours * 60 / 2
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(r)
	}
	how := "together (the lockstep driver, dpb/internal/lockstep)"
	if !together {
		how = "one by one"
	}
	fmt.Printf("SS18 Fig. 4 job-round, four variants choosing %s: %.3f µs (fastest 1%% chunk %.3f), %.3f allocs over %d rounds (1 core of %s, kernel %s)\n",
		how, tm.MicrosPerRound, tm.BestMicrosPerRound, tm.AllocsPerRound, rounds, cpu, simd.Kernel())
	fmt.Printf("paper scale (%.3g job-rounds) at this rate: %.2f core-hours, %.0f minutes on 2 cores\n", float64(jr), r.PaperCoreHours, r.PaperMinutes2)
	printChunks(tm.LoopTiming)
	return nil
}

// printChunks prints dpb bench -chunks's lines (nothing without -chunks):
// each chunk's wall µs per round in order, its thread CPU µs where read,
// and how many chunks ran within 10 % of the fastest.
func printChunks(lt harness.LoopTiming) {
	if len(lt.ChunkMicros) == 0 {
		return
	}
	line := func(name string, v []float64) {
		var b strings.Builder
		for i, x := range v {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%.3g", x)
		}
		fmt.Printf("chunks, %s µs a round in order: %s\n", name, b.String())
	}
	line("wall", lt.ChunkMicros)
	if len(lt.ChunkCPUMicros) == len(lt.ChunkMicros) {
		line("thread CPU", lt.ChunkCPUMicros)
	}
	fmt.Printf("%d of %d chunks within 10 %% of the fastest\n", lt.ChunksWithin(1.1), len(lt.ChunkMicros))
}
