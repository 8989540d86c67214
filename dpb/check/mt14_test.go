package check

import (
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
)

func TestCheckMT14Short(t *testing.T) {
	vs, err := MT14(MT14Config{Seed: 3, Short: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 20 || !vs.OK() {
		t.Fatalf("%d verdicts, failed: %+v", len(vs), vs.Failed())
	}
	checkControlScores(t, vs)
	want := []string{"mt14-counter-query", "mt14-counter-query-bound", "mt14-counter-uniform", "mt14-counter-uniform-bound", "mt14-thm3-privacy", "mt14-alg2-privacy", "mt14-alg1-privacy-measured", "mt14-alg1-privacy-law", "mt14-alg2-privacy-measured", "mt14-alg2-privacy-law", "mt14-alg1-noise-scale", "mt14-alg1-release-law", "privmab-laplace-scale", "mt14-dpucb-index", "privmab-lazydpts-posterior", "mt14-gamma-relaxation", "mt14-gamma-relaxation-bound", "mt14-thm4-regret", "mt14-thm2-ucb1", "mt14-cor15-lower"}
	if got := vs.names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	for _, v := range vs {
		if !strings.Contains(v.Reference, "MT14") && !strings.Contains(v.Reference, "SS18") {
			t.Errorf("%s: reference %q names no statement", v.Name, v.Reference)
		}
	}
}

func TestCheckAS17Short(t *testing.T) {
	vs, err := AS17(AS17Config{Seed: 3, Short: true})
	if err != nil {
		t.Fatal(err)
	}
	// 17 of the paper's statements, the two measured TreeBasedAgg rows, the
	// three measured rows of each of the 7 counters (node noise variance and
	// law, node count), the Honaker and smooth counters' cost rows and the bound of as17.FTRLCounterBound on each of the
	// 5 continual counters that reach the short horizon (the square-root
	// counter stops below it), and the measured noise of DP-FTPL, private
	// EXP2 and DP-FTRL (Laplace and Gaussian) against the paper's scales,
	// and private EXP2's Algorithm 5 at Theorem 4.1's η and γ.
	if len(vs) != 52 || !vs.OK() {
		t.Fatalf("%d verdicts, failed: %+v", len(vs), vs.Failed())
	}
	checkControlScores(t, vs)
	want := []string{"as17-lemma3.3-upper", "as17-lemma3.3-lower", "as17-thm3.1-privacy-printed", "as17-thm3.1-privacy-corrected",
		"as17-lemma4.2-privacy-printed", "as17-lemma4.2-privacy-corrected", "as17-thm4.5-privacy-printed", "as17-thm4.5-privacy-corrected",
		"as17-treeagg-privacy-measured", "as17-treeagg-privacy-law",
		"as17-counter-tree-privacy-measured", "as17-counter-tree-privacy-law", "as17-counter-tree-nodes",
		"as17-counter-tree-padded-privacy-measured", "as17-counter-tree-padded-privacy-law", "as17-counter-tree-padded-nodes",
		"as17-counter-honaker-privacy-measured", "as17-counter-honaker-privacy-law", "as17-counter-honaker-nodes", "as17-counter-honaker-cost",
		"as17-counter-smooth-privacy-measured", "as17-counter-smooth-privacy-law", "as17-counter-smooth-nodes", "as17-counter-smooth-cost",
		"as17-counter-sqrt-privacy-measured", "as17-counter-sqrt-privacy-law", "as17-counter-sqrt-nodes",
		"as17-counter-blt-privacy-measured", "as17-counter-blt-privacy-law", "as17-counter-blt-nodes",
		"as17-counter-kary-privacy-measured", "as17-counter-kary-privacy-law", "as17-counter-kary-nodes",
		"as17-ftpl-noise-scale", "as17-exp2-noise-scale", "as17-ftrl-noise-scale", "as17-ftrl-gauss-noise-scale", "as17-exp2-mixture",
		"as17-lemma4.3-full", "as17-lemma4.3-bandit", "as17-cor3.2-experts", "as17-cor3.2-sphere", "as17-cor3.2-cube",
		"as17-thm3.5-ftpl", "as17-thm4.5-scrible-ball", "as17-thm4.5-scrible-cube", "as17-thm4.1-exp2",
		"as17-counter-bound-tree", "as17-counter-bound-tree-padded", "as17-counter-bound-honaker", "as17-counter-bound-smooth",
		"as17-counter-bound-blt"}
	if got := vs.names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	errata := 0
	for _, v := range vs {
		if v.Erratum {
			errata++
		}
		if strings.HasSuffix(v.Name, "-printed") != v.Erratum {
			t.Errorf("%s: erratum = %v (the printed forms, and only they, are errata)", v.Name, v.Erratum)
		}
	}
	if errata != 3 {
		t.Errorf("%d errata, want 3 (the printed λ of Thm 3.1, Lemma 4.2, Thm 4.5)", errata)
	}
}

// TestChecksCanFail: the noise-law check rejects MT14's plain tree (its
// releases carry popcount(t) ≤ m draws, too little noise at most t), and an
// expected-value cell beyond its bound by many standard errors fails.
func TestChecksCanFail(t *testing.T) {
	vs, _, _, err := checkNoiseLaw(bandit.Stream(4, 1), 1024, 0.05, 1000, counter.Plain)
	if err != nil {
		t.Fatal(err)
	}
	if vs[1].Pass {
		t.Errorf("plain tree passed the lower noise-law check: %+v", vs[1])
	}
	v := meanVerdict("x", "E[X] ≤ 1", "test", []meanCell{{label: "a", mean: 0.5, se: 0.1, bound: 1}, {label: "b", mean: 2, se: 0.1, bound: 1}}, "")
	if v.Pass || v.Failures != 1 || v.Tail != 2 {
		t.Errorf("mean verdict %+v", v)
	}
	v = meanVerdict("x", "E[X] ≥ 1", "test", []meanCell{{label: "a", mean: 1.2, se: 0.1, bound: 1, lower: true}}, "")
	if !v.Pass {
		t.Errorf("lower mean verdict %+v", v)
	}
}

// names lists the verdicts' names in order.
func (vs Verdicts) names() []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name)
	}
	return out
}
