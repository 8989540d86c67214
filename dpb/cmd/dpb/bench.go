package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"

	"github.com/dpbandits/dpbandits/dpb"

	"github.com/dpbandits/dpbandits/dpb/experiment"
)

func init() {
	register("bench", "time the SS18 bandit loop on one core", runBench)
}

func runBench(args []string) error {
	fs := newFlags("bench", "[flags]", "Times SS18's bandit loop (Choose + Update, with or without the Appendix D decision sets) on one core.")
	alg := fs.String("alg", "gaussian", "algorithm: nonprivate, gaussian, wishart, wishart-unshifted")
	d, k, rounds := new(int), new(int), new(int)
	countVar(fs, d, "d", 5, 1, maxBenchDim, "dimension d")
	countVar(fs, k, "K", 25, 1, maxBenchK, fmt.Sprintf("actions per round K (d·K at most %d)", maxBenchCells))
	countVar(fs, rounds, "rounds", 200000, 1, maxHorizon, "rounds to time")
	withEnv := fs.Bool("env", true, "include decision-set generation (SS18 Appendix D sets)")
	padded := fs.Bool("padded", true, "padded tree release mode (private variants)")
	seed := fs.Uint64("seed", 1, "seed (an exact integer)")
	asJSON := fs.Bool("json", false, "print JSON {us_per_round, allocs_per_round}")
	if err := parseFigure(fs, args); err != nil {
		return err
	}
	a, err := dpb.ParseSS18Alg(*alg)
	if err != nil {
		return usageError{fmt.Errorf("bench: invalid value %q for flag -alg: %w", *alg, err)}
	}
	if *d**k > maxBenchCells {
		return usagef("bench: -d %d × -K %d = %d numbers per decision set, at most %d", *d, *k, *d**k, maxBenchCells)
	}
	if err := ready(); err != nil {
		return err
	}
	env, err := dpb.NewLinearEnv(dpb.LinearEnvConfig{Dim: *d, K: *k, Gap: 0.1}, dpb.Stream(*seed, dpb.StreamID(0, 0)))
	if err != nil {
		return err
	}
	mode := dpb.Plain
	if *padded {
		mode = dpb.Padded
	}
	// The tree is sized for the timed rounds plus the replay pool.
	n := *rounds + 64
	pol, err := dpb.NewSS18Policy(dpb.SS18PolicyConfig{
		Alg:     a,
		Setting: dpb.SS18Setting{D: *d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2},
		Mode:    mode,
	}, dpb.Stream(*seed, dpb.StreamID(0, 1)))
	if err != nil {
		return err
	}
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	res := experiment.TimeLoop(env, pol, *rounds, *withEnv)
	if err := pol.Err(); err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	fmt.Printf("%v d=%d K=%d env=%v: %.3f µs/round, %.3f allocs/round over %d rounds (1 core)\n",
		a, *d, *k, *withEnv, res.MicrosPerRound, res.AllocsPerRound, *rounds)
	return nil
}
