package main

import (
	"encoding/json"
	"flag"
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
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	alg := fs.String("alg", "gaussian", "algorithm: nonprivate, gaussian, wishart, wishart-unshifted")
	d := fs.Int("d", 5, "dimension d")
	k := fs.Int("K", 25, "actions per round K")
	rounds := fs.Int("rounds", 200000, "rounds to time")
	withEnv := fs.Bool("env", true, "include decision-set generation (SS18 Appendix D sets)")
	padded := fs.Bool("padded", true, "padded tree release mode (private variants)")
	seed := fs.Uint64("seed", 1, "seed")
	asJSON := fs.Bool("json", false, "print JSON {us_per_round, allocs_per_round}")
	fs.SetOutput(os.Stderr)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil
		}
		return err
	}
	a, err := dpb.ParseSS18Alg(*alg)
	if err != nil {
		return err
	}
	if *rounds < 1 {
		return fmt.Errorf("rounds is %d, must be >= 1", *rounds)
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
