package course

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/check"
)

// Entry is one row of the paper-to-code index: a statement of a paper, the
// function that implements it, the verdicts that check it, and the notebook
// section that shows it.
type Entry struct {
	Paper     string   // "SS18", "MT14" or "AS17"
	Statement string   // the statement, as the paper numbers it
	Func      string   // pkg.Name or pkg.Type.Method, pkg a folder under dpb/
	Verdicts  []string // verdict names of dpb check (a trailing * matches a prefix)
	Notebook  string   // the notebook's name (notebooks/<Notebook>.ipynb)
	Section   string   // text of one of its markdown headings
}

// Papers are the tables of the index, in order, with their titles.
var Papers = []struct{ Key, Title string }{
	{"SS18", "Shariff & Sheffet (NeurIPS 2018), Differentially Private Contextual Linear Bandits"},
	{"MT14", "Mishra & Thakurta (2014), (Nearly) Optimal Differentially Private Stochastic Multi-Arm Bandits"},
	{"AS17", "Agarwal & Singh (ICML 2017), The Price of Differential Privacy for Online Learning"},
}

// Entries is the index: each statement the project implements and checks.
var Entries = []Entry{
	{"SS18", "Algorithm 1: LinUCB with changing regularizers", "ss18.NewLinUCB", []string{"thm5-NonPrivate"}, "ss18_regret_bounds", "Verdicts at one setting"},
	{"SS18", "Section 4: the tree-based mechanism (plain and padded releases)", "counter.NewTreeSum", []string{"wishart/padded/unshifted/ρ_min", "wishart/plain/unshifted/ρ_min"}, "00_start_here", "Start here"},
	{"SS18", "Claim 17: tails of χ²(d)", "check.ChiSquareTails", []string{"claim17-upper", "claim17-lower"}, "ss18_regularizers", "Claims 17–20, the"},
	{"SS18", "Claim 18: singular values of a Gaussian matrix", "check.SS18Facts", []string{"claim18"}, "ss18_regularizers", "Claims 17–20, the"},
	{"SS18", "Claim 20 and Lemma 22", "check.SS18Facts", []string{"claim20", "lemma22-potential", "lemma22-trace-det"}, "ss18_regularizers", "Claims 17–20, the"},
	{"SS18", "Section 4.1: Wishart degrees of freedom k", "ss18.Setting.WishartK", []string{"wishart-k-printed", "wishart-k-authors"}, "ss18_privacy", "Verdicts at the paper's setting"},
	{"SS18", "Section 4.2: Gaussian node noise σ_noise", "ss18.Setting.GaussianSigma", []string{"gaussian-privacy-zcdp", "gaussian-privacy-exact", "gaussian-sensitivity-printed"}, "ss18_privacy", "Verdicts at the paper's setting"},
	{"SS18", "Proposition 9: the Wishart regularizer's bounds and shift (Eq. 4)", "ss18.Setting.WishartBounds", []string{"wishart/padded/shifted/ρ_min", "wishart/padded/shifted/γ"}, "ss18_regularizers", "Propositions 9 and 11, per round"},
	{"SS18", "Proposition 11: the Gaussian regularizer's bounds (shift 2Υ)", "ss18.Setting.GaussianBounds", []string{"gaussian/padded/printed Υ/ρ_min", "upsilon-printed", "upsilon-corrected"}, "ss18_regularizers", "Propositions 9 and 11, per round"},
	{"SS18", "Proposition 4: confidence sets, β_t and β̄_t", "ss18.BetaBar", []string{"prop4-Gaussian-closed", "prop4-Gaussian-logdet", "prop4-Wishart-closed-plain"}, "ss18_confidence", "Verdicts: padded tree"},
	{"SS18", "Theorem 5: regret bound", "ss18.Theorem5Bound", []string{"thm5-*"}, "ss18_regret_bounds", "Regret over time beside Theorem 5"},
	{"SS18", "Theorem 6: gap-dependent regret bound", "ss18.Theorem6Bound", []string{"thm6-*"}, "ss18_regret_bounds", "Over the dimension"},
	{"SS18", "Claim 13: standard DP costs regret n/4", "env.NewRandomizedResponse", []string{"claim13-standard-dp", "claim13-joint-dp"}, "ss18_lower_bounds", "Claim 13: verdicts"},
	{"SS18", "Claim 14 / Corollary 15: the price of privacy for K arms", "ss18.PrivateMABLowerBound", []string{"claim14-pulls", "cor15-regret"}, "ss18_lower_bounds", "Claim 14 and Corollary 15"},
	{"SS18", "Appendix D: the environment and Figure 1", "env.NewLinearEnv", nil, "ss18_fig1_setting", "Figure 1"},
	{"SS18", "Appendix D.2: Figure 4", "ss18fig.Experiment2", nil, "ss18_fig4_private", "Figure 4"},
	{"SS18", "Appendix D.3: Figure 5 (regret against the shift)", "ss18.Setting.GaussianBoundsShift", nil, "ss18_fig5_shift", "Figure 5"},
	{"MT14", "Section 2.1: the tree counter's error bound", "mt14.TreeCounterScale", []string{"mt14-counter-query", "mt14-counter-query-bound", "mt14-counter-uniform", "mt14-counter-uniform-bound"}, "00_start_here", "A check that cannot fail tells nothing"},
	{"MT14", "Algorithm 1 and Theorem 3: DP-UCB is ε-DP", "mt14.NewDPUCB", []string{"mt14-thm3-privacy", "mt14-alg1-privacy-measured", "mt14-alg1-privacy-law"}, "private_mab", "The MT14 and AS17 verdict tables"},
	{"MT14", "Algorithm 1, line 10: DP-UCB's index and the relaxation Γ", "mt14.Index", []string{"mt14-gamma-relaxation", "mt14-gamma-relaxation-bound"}, "mt14_fig1", "Coding exercises"},
	{"MT14", "Theorem 4: DP-UCB's regret", "mt14.Theorem4Bound", []string{"mt14-thm4-regret"}, "mt14_bounds", "DP-UCB's regret against MT14 Theorem 4"},
	{"MT14", "Theorem 2 (Auer et al.): UCB1's regret", "mt14.UCB1Bound", []string{"mt14-thm2-ucb1"}, "mt14_bounds", "DP-UCB's regret against MT14 Theorem 4"},
	{"MT14", "Algorithm 2: private contextual UCB, ε₀ per entry", "mt14.NewContextualUCB", []string{"mt14-alg2-privacy", "mt14-alg2-privacy-measured"}, "mt14_fig2", "MT14 Figure 2"},
	{"MT14", "Section 5.2: delayed feedback", "mt14.DelayedRounds", nil, "mt14_fig2", "Coding exercises"},
	{"MT14", "SS18 Corollary 15 against DP-UCB", "ss18.PrivateMABLowerBound", []string{"mt14-cor15-lower"}, "mt14_bounds", "DP-UCB's regret against MT14 Theorem 4"},
	{"AS17", "Algorithm 2 and Lemma 3.3: TreeBasedAgg (m Laplace draws per release)", "counter.NewTreeSum", []string{"as17-lemma3.3-upper", "as17-lemma3.3-lower", "as17-treeagg-privacy-measured"}, "00_start_here", "A check that cannot fail tells nothing"},
	{"AS17", "Algorithm 1 and Theorem 3.1: DP-FTRL's privacy (noise scale λ)", "as17.FTRLLambda", []string{"as17-thm3.1-privacy-printed", "as17-thm3.1-privacy-corrected"}, "as17_table1", "AS17 Table 1"},
	{"AS17", "Corollary 3.2: DP-FTRL on experts, sphere and cube", "as17.FTRLArgminTo", []string{"as17-cor3.2-experts", "as17-cor3.2-sphere", "as17-cor3.2-cube"}, "as17_table1", "Coding exercises"},
	{"AS17", "Theorem 3.4: D_Lap, the width of the noise", "as17.DecisionSet.Width", nil, "as17_lemma43", "Coding exercises"},
	{"AS17", "Theorem 3.5: DP-FTPL", "as17.NewFTPL", []string{"as17-thm3.5-ftpl"}, "as17_table1", "AS17 Table 1"},
	{"AS17", "Lemma 4.2: Algorithm 4's reduction is ε-DP", "as17.NewPrivateBandit", []string{"as17-lemma4.2-privacy-printed", "as17-lemma4.2-privacy-corrected"}, "as17_table2", "AS17 Table 2"},
	{"AS17", "Lemma 4.3: regret on noisy losses equals regret on true losses", "check.Lemma43", []string{"as17-lemma4.3-full", "as17-lemma4.3-bandit"}, "as17_lemma43", "AS17 Lemma 4.3"},
	{"AS17", "Theorem 4.1: private EXP2 (η, γ)", "as17.Exp2Params", []string{"as17-thm4.1-exp2"}, "as17_table2", "Coding exercises"},
	{"AS17", "Theorem 4.5: private SCRiBLE", "as17.Theorem45Bound", []string{"as17-thm4.5-scrible-ball", "as17-thm4.5-scrible-cube", "as17-thm4.5-privacy-printed"}, "as17_table2", "AS17 Table 2"},
	{"AS17", "Theorem 3.4 on any counter (beyond the paper)", "as17.NewFTRLCounterBound", []string{"as17-counter-bound-*"}, "beyond_less_noise", "Step 4: AS17's DP-FTRL on the counters"},
}

// Verdicts runs the checks of the three papers at their short sizes (seed
// 1) and returns every verdict: the registry the index names verdicts from.
func Verdicts() (check.Verdicts, error) {
	var all check.Verdicts
	ss, err := check.SS18(check.SS18Config{Seed: 1, Short: true})
	if err != nil {
		return nil, err
	}
	mt, err := check.MT14(check.MT14Config{Seed: 1, Short: true})
	if err != nil {
		return nil, err
	}
	as, err := check.AS17(check.AS17Config{Seed: 1, Short: true})
	if err != nil {
		return nil, err
	}
	all = append(all, ss...)
	all = append(all, mt...)
	return append(all, as...), nil
}

// decls maps pkg.Name and pkg.Type.Method of every package under dpb/ to
// the file (relative to root) that declares it.
func decls(root string) (map[string]string, error) {
	out := map[string]string{}
	fs := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join(root, "dpb"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fs, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		pkg := filepath.Base(filepath.Dir(path))
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				name := decl.Name.Name
				if decl.Recv != nil && len(decl.Recv.List) > 0 {
					name = recvName(decl.Recv.List[0].Type) + "." + name
				}
				out[pkg+"."+name] = filepath.ToSlash(rel)
			case *ast.GenDecl:
				for _, s := range decl.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						out[pkg+"."+ts.Name.Name] = filepath.ToSlash(rel)
					}
				}
			}
		}
		return nil
	})
	return out, err
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// headings returns the markdown headings of a notebook.
func headings(path string) ([]string, error) {
	nb, err := Read(path)
	if err != nil {
		return nil, err
	}
	var hs []string
	for _, md := range nb.Markdown() {
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "#") {
				hs = append(hs, strings.TrimSpace(strings.TrimLeft(l, "#")))
			}
		}
	}
	return hs, nil
}

func matchVerdicts(pattern string, vs check.Verdicts) check.Verdicts {
	var out check.Verdicts
	for _, v := range vs {
		if p, ok := strings.CutSuffix(pattern, "*"); ok && strings.HasPrefix(v.Name, p) || v.Name == pattern {
			out = append(out, v)
		}
	}
	return out
}

// Index renders the paper-to-code index (docs/paper-to-code.md) of entries
// from the repository at root and the verdicts vs. It fails, naming each, on
// a function, a verdict, a notebook or a section that does not exist.
func Index(root string, entries []Entry, vs check.Verdicts) ([]byte, error) {
	where, err := decls(root)
	if err != nil {
		return nil, err
	}
	var errs []string
	var b bytes.Buffer
	b.WriteString(`# Paper to code

Each statement of the three papers that the project implements: the function that implements it (its file), the
verdicts of ` + "`dpb check`" + ` that test it (their status at ` + "`dpb check all -short`" + `, seed 1: PASS, VACUOUS — the statement
held but its negative control was not caught —, FAIL (erratum) — documented, with the corrected form beside it —,
or the kind of evidence: arithmetic, identity, no power), and the notebook section that shows it. [docs/checks.md](checks.md)
explains the verdicts; each notebook's first cell links here.

Generated by ` + "`dpb course -index docs/paper-to-code.md`" + ` from the table in ` + "`dpb/course/index.go`" + `, the code and the check
registry; ` + "`go test ./dpb/course`" + ` fails when a named function, verdict, notebook or section is missing, or when
regenerating changes this file.
`)
	for _, p := range Papers {
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n\n| statement | function | check verdicts | notebook section |\n|---|---|---|---|\n", p.Key, p.Title)
		for _, e := range entries {
			if e.Paper != p.Key {
				continue
			}
			file, ok := where[e.Func]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s %q: function %s is not declared under dpb/", e.Paper, e.Statement, e.Func))
			}
			var cells []string
			for _, name := range e.Verdicts {
				m := matchVerdicts(name, vs)
				if len(m) == 0 {
					errs = append(errs, fmt.Sprintf("%s %q: no verdict %s in dpb check", e.Paper, e.Statement, name))
					continue
				}
				status := map[string]int{}
				var keys []string
				for _, v := range m {
					s := v.Status()
					if s == "PASS" && v.Kind != "" {
						s = "PASS (" + v.Kind + ")"
					}
					if status[s] == 0 {
						keys = append(keys, s)
					}
					status[s]++
				}
				sort.Strings(keys)
				var parts []string
				for _, k := range keys {
					if len(m) > 1 {
						parts = append(parts, fmt.Sprintf("%d %s", status[k], k))
					} else {
						parts = append(parts, k)
					}
				}
				cells = append(cells, fmt.Sprintf("`%s` %s", name, strings.Join(parts, ", ")))
			}
			verdicts := strings.Join(cells, "; ")
			if verdicts == "" {
				verdicts = "— (a figure, not a check)"
			}
			nbPath := filepath.Join(root, "notebooks", e.Notebook+".ipynb")
			hs, err := headings(nbPath)
			section := ""
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s %q: notebook %s: %v", e.Paper, e.Statement, e.Notebook, err))
			} else {
				for _, h := range hs {
					if strings.Contains(h, e.Section) {
						section = h
						break
					}
				}
				if section == "" {
					errs = append(errs, fmt.Sprintf("%s %q: notebook %s has no heading containing %q", e.Paper, e.Statement, e.Notebook, e.Section))
				}
			}
			fmt.Fprintf(&b, "| %s | [`%s`](../%s) | %s | [`%s`](../notebooks/%s.ipynb): %s |\n",
				e.Statement, e.Func, file, verdicts, e.Notebook, e.Notebook, strings.ReplaceAll(section, "|", `\|`))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("course: paper-to-code index: %s", strings.Join(errs, "; "))
	}
	return b.Bytes(), nil
}
