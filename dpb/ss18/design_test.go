package ss18

import (
	"fmt"
	"go/parser"
	"go/token"
	"math"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/counter"
	dpenv "github.com/dpbandits/dpbandits/dpb/env"
	"github.com/dpbandits/dpbandits/dpb/internal/linalg"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// The design of issue 58: Algorithm 1 reads plainly in algorithm1.go and
// linucb.go, the fast path stays behind linucb_fast.go, and the paper's API
// (go doc) shows none of it. Each check below runs once on this package and
// once on a control that must fail it, so that a check that cannot fail is
// caught.

// lockstepLines returns the lines of `go doc -all` of the package in dir
// that name Lockstep.
func lockstepLines(t *testing.T, dir string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run go doc")
	}
	out, err := exec.Command(goBin, "doc", "-all", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("go doc -all %s: %v\n%s", dir, err, out)
	}
	var hits []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "Lockstep") {
			hits = append(hits, strings.TrimSpace(l))
		}
	}
	return hits
}

// TestDocNamesNoLockstep: `go doc -all ./dpb/ss18` (every exported name and
// doc comment) names no Lockstep; the control, ../ss18fig, which exports
// RegretLockstep and TimeLockstep, must be caught by the same check.
func TestDocNamesNoLockstep(t *testing.T) {
	if hits := lockstepLines(t, "."); len(hits) != 0 {
		t.Errorf("go doc ./dpb/ss18 names Lockstep on %d lines: %q", len(hits), hits)
	}
	if hits := lockstepLines(t, "../ss18fig"); len(hits) == 0 {
		t.Error("control: go doc ../ss18fig names no Lockstep either: the check cannot fail")
	}
}

// importsOf returns the import paths of one Go file of this package.
func importsOf(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var ps []string
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func importsSimd(ps []string) bool {
	for _, p := range ps {
		if strings.HasSuffix(p, "/internal/simd") {
			return true
		}
	}
	return false
}

// TestPlainFilesImportNoSimd: the Algorithm 1 reference (algorithm1.go) and
// the policy (linucb.go) import no internal/simd; the control,
// linucb_fast.go, does, and must be caught.
func TestPlainFilesImportNoSimd(t *testing.T) {
	for _, f := range []string{"algorithm1.go", "linucb.go"} {
		if importsSimd(importsOf(t, f)) {
			t.Errorf("%s imports internal/simd", f)
		}
	}
	if !importsSimd(importsOf(t, "linucb_fast.go")) {
		t.Error("control: linucb_fast.go imports no internal/simd: the check cannot fail")
	}
}

// maxLinUCBFields is the most fields LinUCB may have (issue 58: it had 30,
// mostly kernel scratch, which lives in factors now).
const maxLinUCBFields = 12

// TestLinUCBFields: LinUCB has at most maxLinUCBFields fields; the control,
// factors (the kernels' state and scratch), has more and must be caught.
func TestLinUCBFields(t *testing.T) {
	if n := reflect.TypeOf(LinUCB{}).NumField(); n > maxLinUCBFields {
		t.Errorf("LinUCB has %d fields, at most %d", n, maxLinUCBFields)
	}
	if n := reflect.TypeOf(factors{}).NumField(); n <= maxLinUCBFields {
		t.Errorf("control: factors has %d fields, not above %d: the check cannot fail", n, maxLinUCBFields)
	}
}

// refMismatch is what compareWithReference found in one run.
type refMismatch struct {
	rounds      int // policy-rounds compared
	sameArm     int // of them, rounds where both chose the same arm
	armBeyond   int // rounds where the fast path's arm scores, by the reference, below the reference's best by more than the tolerance
	betaBeyond  int // rounds where β_t differs by more than the tolerance
	thetaBeyond int // rounds where θ̃_t differs by more than the tolerance
	logDetDiff  int // rounds where ln det V_t differs in any bit
	notPD       int // rounds whose V_t was jittered (both sides)
	first       string
}

func (m *refMismatch) fail(format string, args ...any) {
	if m.first == "" {
		m.first = fmt.Sprintf(format, args...)
	}
}

// u is the unit roundoff of float64.
const unitRoundoff = 0x1p-53

// compareWithReference runs every variant in algs at dimension d for n
// rounds on one linear environment, the fast path (odd rounds: all policies
// through chooseLockstep, the lockstep factorisation and scoring; even
// rounds: each policy's Choose, its own prepare and kernels) against
// algorithm1 on an identical regularizer (the same seed), both updated with
// the fast path's arm and the reward. plant multiplies the fast path's β_t by
// 0.7 after it is prepared and before it scores: the negative control.
//
// Tolerances. ln det V_t and the factor L have the same bits on both sides
// (the same Cholesky, which every kernel reproduces), so ln det must match
// exactly. β_t is the same formula with its constant terms summed in
// another order: relative 1e-12 (a few ulps; the control moves it by 0.3).
// θ̃_t and the scores are computed from the same L by different triangular
// routines (solves here, M = L⁻¹ there), each with a backward error of
// order d·u per triangular stage (Higham 2002, Thms. 8.5, 14.x), so their
// difference is below c·d·u·κ times the size of the terms, with
// κ = ‖L‖²_F ‖L⁻¹‖²_F ≥ κ₂(V_t); c = 16 is twice the first-order constant
// of two stages on each side. For θ̃: 16·d·u·κ·‖L⁻¹‖²_F‖ũ‖; for the score of
// x: 16·d·u·κ·(‖L⁻¹‖²_F‖ũ‖‖x‖ + β‖L⁻¹‖_F‖x‖). These are bounds, not
// statistics: no false failures (the runs are seeded and deterministic).
func compareWithReference(t *testing.T, d, n int, algs []Alg, mode counter.ReleaseMode, radius RadiusForm, plant bool) refMismatch {
	t.Helper()
	s := Setting{D: d, N: n, Epsilon: 1, Delta: 0.1, Lt2: 2}
	var fast []*LinUCB
	var pols []bandit.Policy
	var refs []*algorithm1
	for i, a := range algs {
		cfg := PolicyConfig{Alg: a, Setting: s, Mode: mode, Noise: noise.Simulated, Radius: radius}
		p, err := NewPolicy(cfg, bandit.Stream(58, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		twin, err := NewPolicy(cfg, bandit.Stream(58, uint64(i))) // the same regularizer, for the reference
		if err != nil {
			t.Fatal(err)
		}
		ref, err := newAlgorithm1(twin.cfg)
		if err != nil {
			t.Fatal(err)
		}
		fast, pols, refs = append(fast, p), append(pols, p), append(refs, ref)
	}
	env, err := dpenv.NewLinearEnv(dpenv.LinearEnvConfig{Dim: d, K: 12, Gap: 0.1}, bandit.Stream(58, 1000+uint64(d)))
	if err != nil {
		t.Fatal(err)
	}
	r := bandit.NewRound(env)
	arms := make([]int, len(pols))
	var m refMismatch
	tol := 16 * float64(d) * unitRoundoff
	for tt := 1; tt <= n; tt++ {
		env.Next(r, tt)
		prepareLockstep(pols)
		if plant {
			for _, p := range fast {
				p.beta *= 0.7
			}
		}
		if tt%2 == 1 {
			chooseLockstep(pols, r, arms)
		} else {
			for i, p := range fast {
				arms[i] = p.Choose(r)
			}
		}
		for i, p := range fast {
			ref := refs[i]
			rd := ref.round()
			m.rounds++
			if rd.jitter != 0 {
				m.notPD++
			}
			if math.Float64bits(rd.logDet) != math.Float64bits(p.LogDetV()) {
				m.logDetDiff++
				m.fail("%v d=%d t=%d: ln det V_t %v (fast), %v (reference)", algs[i], d, tt, p.LogDetV(), rd.logDet)
			}
			if math.Abs(p.Radius()-rd.beta) > 1e-12*rd.beta {
				m.betaBeyond++
				m.fail("%v d=%d t=%d: β_t %v (fast), %v (reference)", algs[i], d, tt, p.Radius(), rd.beta)
			}
			// κ = ‖L‖²_F ‖L⁻¹‖²_F from the reference's factor.
			var lf, mf, un float64
			for j := 0; j < d; j++ {
				for k := 0; k <= j; k++ {
					lf += rd.l[j*d+k] * rd.l[j*d+k]
				}
				e := make([]float64, d)
				e[j] = 1
				linalg.ForwardSolve(rd.l, d, e) // column j of L⁻¹
				for _, v := range e {
					mf += v * v
				}
			}
			uu := make([]float64, d*d)
			ut := make([]float64, d)
			ref.cfg.Regularizer.StatsTo(uu, ut)
			for _, v := range ut {
				un += v * v
			}
			kappa, invF, uNorm := lf*mf, math.Sqrt(mf), math.Sqrt(un)
			th := p.ThetaTo(nil)
			var dth float64
			for j := range th {
				dth += (th[j] - rd.theta[j]) * (th[j] - rd.theta[j])
			}
			if math.Sqrt(dth) > tol*kappa*mf*uNorm {
				m.thetaBeyond++
				m.fail("%v d=%d t=%d: ‖θ̃ fast − θ̃ reference‖ = %v above %v", algs[i], d, tt, math.Sqrt(dth), tol*kappa*mf*uNorm)
			}
			sc := ref.scores(rd, r)
			best := 0
			for k, v := range sc {
				if v > sc[best] {
					best = k
				}
			}
			scoreTol := func(k int) float64 {
				var xn float64
				for _, v := range r.Action(k) {
					xn += v * v
				}
				xn = math.Sqrt(xn)
				return tol * kappa * (mf*uNorm*xn + rd.beta*invF*xn)
			}
			a := arms[i]
			if a == best {
				m.sameArm++
			} else if sc[best]-sc[a] > scoreTol(best)+scoreTol(a) {
				m.armBeyond++
				m.fail("%v d=%d t=%d: fast path plays %d, whose UCB %v is below the reference's best (%d: %v) beyond the tolerance", algs[i], d, tt, a, sc[a], best, sc[best])
			}
			y := env.Reward(r, a)
			p.Update(r, a, y)
			if err := ref.Update(r, a, y); err != nil {
				t.Fatalf("%v d=%d t=%d: reference refused the observation: %v", algs[i], d, tt, err)
			}
			if p.Err() != nil {
				t.Fatalf("%v d=%d t=%d: %v", algs[i], d, tt, p.Err())
			}
		}
	}
	return m
}

// refAlgs is every regularizer NewPolicy builds (each variant of Alg but
// the RadiusMinEig ones, which share their base's regularizer).
func refAlgs() []Alg {
	var as []Alg
	for a := NonPrivate; a <= GaussianBLTRound; a++ {
		as = append(as, a)
	}
	return as
}

// TestReferenceMatchesFastPath: for every regularizer (the twelve
// regularizers of NewPolicy's variants: ridge, the Wishart and Gaussian
// trees, the exactly calibrated Gaussian counters, the per-round bounds),
// at d = 2, 5 (the written-out d = 5 kernels), 9 and 17 (the panel
// Cholesky), in padded and plain release modes (plain: V_t not positive
// definite now and then, the jitter), and in both forms of β_t, the fast
// path plays Algorithm 1 as algorithm1.go states it: the same ln det V_t,
// bit for bit, the same β_t, θ̃_t within its conditioning tolerance, and an
// arm whose UCB is the reference's best within the scores' tolerance
// (compareWithReference says why those tolerances). The control plants
// β_t × 0.7 in the fast path only (a radius multiplied wrongly in the
// kernels), which the comparison must catch, by the arms played as well as
// by β_t.
func TestReferenceMatchesFastPath(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 60
	}
	type run struct {
		d      int
		mode   counter.ReleaseMode
		radius RadiusForm
	}
	runs := []run{
		{2, counter.Padded, RadiusLogDet}, {5, counter.Padded, RadiusLogDet}, {9, counter.Padded, RadiusLogDet},
		{17, counter.Padded, RadiusLogDet}, {5, counter.Plain, RadiusLogDet}, {5, counter.Padded, RadiusClosedForm},
	}
	var total refMismatch
	for _, c := range runs {
		m := compareWithReference(t, c.d, n, refAlgs(), c.mode, c.radius, false)
		if m.armBeyond+m.betaBeyond+m.thetaBeyond+m.logDetDiff != 0 {
			t.Errorf("d=%d %v %v: the fast path departs from the reference in %d arms, %d β_t, %d θ̃_t, %d ln det of %d rounds; first: %s",
				c.d, c.mode, c.radius, m.armBeyond, m.betaBeyond, m.thetaBeyond, m.logDetDiff, m.rounds, m.first)
		}
		total.rounds += m.rounds
		total.sameArm += m.sameArm
		total.notPD += m.notPD
	}
	if total.notPD == 0 {
		t.Error("no V_t needed jitter: the not-positive-definite path went untested")
	}
	t.Logf("%d policy-rounds: the same arm in %d, %d jittered V_t", total.rounds, total.sameArm, total.notPD)

	// The control: β_t × 0.7 in the fast path, at d = 5 and 9.
	for _, d := range []int{5, 9} {
		m := compareWithReference(t, d, n, refAlgs(), counter.Padded, RadiusLogDet, true)
		if m.betaBeyond == 0 || m.armBeyond == 0 {
			t.Errorf("control d=%d: β_t × 0.7 in the fast path caught in %d β_t and %d arms of %d rounds: the comparison must catch it in both", d, m.betaBeyond, m.armBeyond, m.rounds)
		}
		t.Logf("control d=%d, β_t × 0.7: caught in %d of %d rounds by β_t, %d by the arm played", d, m.betaBeyond, m.rounds, m.armBeyond)
	}
}

// TestAlgorithm1BadConfig: the reference validates as NewLinUCB does and
// refuses the RadiusMinEig radius.
func TestAlgorithm1BadConfig(t *testing.T) {
	reg, err := NewRegularizer(RegularizerConfig{Kind: RegRidge, Setting: Setting{D: 3}, Lambda: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []LinUCBConfig{
		{Dim: 0, Horizon: 10, Regularizer: reg},
		{Dim: 3, Horizon: 10},
		{Dim: 3, Horizon: 10, Regularizer: reg, Sigma: math.NaN()},
		{Dim: 3, Horizon: 10, Regularizer: reg, Radius: RadiusMinEig},
	} {
		if _, err := newAlgorithm1(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
