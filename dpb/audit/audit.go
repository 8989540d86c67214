// Package audit measures the privacy of dpb's mechanisms empirically: it runs
// a mechanism many times on two neighbouring inputs D and D′, applies a
// distinguishing test, and turns the test's error rates into a lower bound on
// the ε the mechanism really has, at the δ it claims.
//
// The method is the standard one of DP auditing (Jagielski, Ullman & Oprea
// 2020; Nasr et al., "Tight auditing of differentially private machine
// learning", USENIX Security 2023; the estimators of tensorflow/privacy's
// privacy_tests and google/differential-privacy's stochastic testers): if a
// mechanism M is (ε, δ)-DP then for every output set R
//
//	P[M(D′) ∈ R] ≤ e^ε P[M(D) ∈ R] + δ   and   P[M(D) ∉ R] ≤ e^ε P[M(D′) ∉ R] + δ,
//
// so ε ≥ ln((P[M(D′) ∈ R] − δ)/P[M(D) ∈ R]) and the same with the roles of D,
// D′ and R, Rᶜ swapped. The probabilities are replaced by Clopper–Pearson
// bounds: the numerator's lower and the denominator's upper bound, each at
// one-sided level 97.5 %, so that the reported bound holds with probability at
// least 95 % (union bound). The region R = {score ≥ threshold} is chosen on a
// held-out half of the runs (the selection half) and the bound is computed on
// the other half only, so the selection cannot inflate it. Where the
// likelihood ratio of the two output laws is computable the score is that
// ratio (the Neyman–Pearson test, optimal for every threshold); otherwise it
// is a statistic argued in the mechanism's doc comment, or, for outputs with
// a small discrete support, the likelihood ratio estimated from the selection
// half's histogram ([Mechanism.Categorical]).
//
// Runs are parallel and deterministic: run i on input s draws from
// bandit.Stream(seed, s<<40|i), so a seed reproduces every score whatever the
// number of workers.
//
// A lower bound above the claimed ε means the mechanism is not as private as
// claimed (at confidence 95 %): [Result.Verdict] is "VIOLATION". The one
// exception is a declared demonstration ([Mechanism.Demonstration]) — the
// floating-point attack on the default (simulation) sampler, which is
// expected to exceed the claim and is the reason dpb has a secure mode.
package audit

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Mechanism is one auditable mechanism with its worst-case neighbouring pair.
type Mechanism struct {
	// Name identifies the audit (e.g. "laplace-tree-plain").
	Name string
	// Mechanism says what is run, with the paper and result it comes from.
	Mechanism string
	// Neighbours describes D (input 0) and D′ (input 1).
	Neighbours string
	// Test describes the distinguishing statistic.
	Test string
	// Epsilon and Delta are the claimed guarantee: ε > 0, δ ∈ [0, 1) (δ = 0
	// is pure DP).
	Epsilon, Delta float64
	// Trials and ShortTrials are the default numbers of runs on each input
	// (the full audit and the -short one).
	Trials, ShortTrials int
	// Demonstration marks an audit expected to exceed the claim (an attack
	// shown on purpose); it never fails the table.
	Demonstration bool
	// Categorical says the score is a label of a discrete output (e.g. an
	// encoded arm sequence): the region is then a set of labels, ranked by
	// their likelihood ratio estimated on the selection half.
	Categorical bool
	// NoSecureSampler notes a mechanism that has no secure-mode sampler.
	NoSecureSampler bool
	// Note is a remark carried into the result.
	Note string
	// Control, when set, returns the row's negative control: the same
	// mechanism with a planted privacy defect of the kind the row exists to
	// catch (noise under-scaled by √2, or by 2 with short, the coarser
	// defect that -short's fewer runs can show), run on the same pair with
	// the same test and runs. Its ε lower bound must exceed the claimed ε;
	// a row whose control is not caught has no power and is reported as
	// "no power", not as a pass.
	Control func(short bool) *Mechanism
	// New returns a fresh trial function; each worker calls it once and then
	// calls the trial with its own generators, so the trial may keep scratch
	// space. The trial runs the mechanism once on input which (0 = D,
	// 1 = D′) with randomness from rng only and returns the test statistic of
	// the release; larger values must point to D′ (or be labels if Categorical).
	New func() func(rng *rand.Rand, which int) float64
}

// describe appends ", secure sampler" to a mechanism's description in
// secure mode.
func describe(desc string, nm noise.Mode) string {
	switch nm {
	case noise.Secure:
		return desc + ", secure sampler"
	case noise.SecureSeeded:
		return desc + ", secure sampler (seeded bits)"
	}
	return desc
}

// Options sets the size and seed of an audit.
type Options struct {
	// Trials is the number of runs on each input. 0 means the mechanism's
	// default (its ShortTrials with Short); negative is an error.
	Trials int
	// Short selects the mechanism's short default when Trials is 0.
	Short bool
	// Seed seeds the runs.
	Seed uint64
	// Workers is the number of goroutines (0 means GOMAXPROCS).
	Workers int
	// CryptoBits makes RunNamed build the secure rows on crypto/rand bits
	// (noise.Secure: those rows then differ from run to run); by
	// default they draw from each run's seeded stream
	// (noise.SecureSeeded: the same laws, reproducible).
	CryptoBits bool
}

// Result is the outcome of one audit.
type Result struct {
	Name       string  `json:"name"`
	Mechanism  string  `json:"mechanism"`
	Neighbours string  `json:"neighbours"`
	Test       string  `json:"test"`
	Epsilon    float64 `json:"epsilon"` // claimed
	Delta      float64 `json:"delta"`   // claimed
	Trials     int     `json:"trials"`  // runs on each input (half select, half evaluate)
	Seed       uint64  `json:"seed"`
	// Region describes the chosen rejection region.
	Region string `json:"region"`
	// In0 and In1 count the evaluation half's runs on D and D′ whose
	// output fell in the region that points to D′ (out of Eval each).
	In0  int `json:"in_region_d"`
	In1  int `json:"in_region_d_prime"`
	Eval int `json:"eval_runs"`
	// Lower is the empirical ε lower bound (95 % Clopper–Pearson);
	// Estimate is the same expression with the observed frequencies and
	// Upper with the opposite Clopper–Pearson ends (the interval
	// [Lower, Upper] holds the region's ε with 95 % confidence).
	Lower    float64 `json:"eps_lower"`
	Estimate Num     `json:"eps_estimate"`
	Upper    Num     `json:"eps_upper"`
	// Tightness is Lower / Epsilon.
	Tightness     float64 `json:"tightness"`
	Demonstration bool    `json:"demonstration,omitempty"`
	// Categorical says the statistic is an output label.
	Categorical bool `json:"categorical,omitempty"`
	// Verdict is "ok" (Lower <= Epsilon, and the control, if any, caught),
	// "no power" (Lower <= Epsilon but the control not caught: the row shows
	// nothing), "inconclusive" (too few runs for any count to exceed ε),
	// "VIOLATION", or for a declared demonstration "attack shown" /
	// "attack not shown".
	Verdict string `json:"verdict"`
	// Note carries remarks (e.g. no secure sampler).
	Note string `json:"note,omitempty"`
	// Control is the outcome of the row's negative control (nil for a
	// row without one).
	Control *ControlResult `json:"control,omitempty"`
}

// ControlResult is the outcome of a row's negative control ([Mechanism.Control]):
// the planted defect, audited like the row, and whether its ε lower bound
// lies above the row's claimed ε (caught).
type ControlResult struct {
	Mechanism string  `json:"mechanism"`
	Region    string  `json:"region"`
	In0       int     `json:"in_region_d"`
	In1       int     `json:"in_region_d_prime"`
	Eval      int     `json:"eval_runs"`
	Lower     float64 `json:"eps_lower"`
	Estimate  Num     `json:"eps_estimate"`
	// OverClaim is Lower / the row's claimed ε: above 1 when caught.
	OverClaim float64 `json:"over_claim"`
	Caught    bool    `json:"caught"`
}

// PowerShown reports whether the row has a negative control and it was
// caught.
func (r Result) PowerShown() bool { return r.Control != nil && r.Control.Caught }

// Failed reports whether the result breaks a guarantee: a lower bound above
// the claim on anything but a declared demonstration.
func (r Result) Failed() bool { return r.Verdict == "VIOLATION" }

// Num is a Float64 that encodes ±Inf as the JSON strings "+Inf" and "-Inf".
type Num float64

// MarshalJSON implements json.Marshaler.
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	}
	return fmt.Appendf(nil, "%g", f), nil
}

// Confidence is the joint confidence level of every bound the auditor reports.
const Confidence = 0.95

// ErrUnknown is returned (wrapped) for an unknown mechanism name.
var ErrUnknown = errors.New("audit: unknown mechanism")

// Validate checks the mechanism's declared guarantee and fields.
func (m *Mechanism) Validate() error {
	if m.Name == "" {
		return errors.New("audit: mechanism has no name")
	}
	if m.New == nil {
		return fmt.Errorf("audit: mechanism %q has no trial function", m.Name)
	}
	if !(m.Epsilon > 0) || math.IsInf(m.Epsilon, 0) {
		return fmt.Errorf("audit: mechanism %q: claimed epsilon is %v, must be finite and > 0", m.Name, m.Epsilon)
	}
	return CheckDelta(m.Delta)
}

// CheckDelta returns an error unless δ ∈ [0, 1) (δ = 0 is pure DP).
func CheckDelta(delta float64) error {
	if !(delta >= 0 && delta < 1) {
		return fmt.Errorf("audit: delta is %v, must be in [0, 1) (0 is pure DP)", delta)
	}
	return nil
}

// Run audits m. It validates the options and the mechanism, runs
// opt.Trials runs on each input, picks the region on the first half and
// bounds ε on the second.
func Run(m *Mechanism, opt Options) (Result, error) {
	r, _, err := RunScores(m, opt)
	return r, err
}

// Scores are the statistics of an audit's evaluation half, for plots:
// D[i] and DPrime[i] are run i's score on D and on D′, and In reports
// whether a score lies in the chosen region (the one that points to D′).
type Scores struct {
	D, DPrime []float64
	In        func(score float64) bool
}

// RunScores is [Run] that also returns the evaluation half's scores.
func RunScores(m *Mechanism, opt Options) (Result, Scores, error) {
	if err := m.Validate(); err != nil {
		return Result{}, Scores{}, err
	}
	n := opt.Trials
	if n == 0 {
		n = m.Trials
		if opt.Short {
			n = m.ShortTrials
		}
	}
	if n <= 0 {
		return Result{}, Scores{}, fmt.Errorf("audit: %s: trials is %d, must be > 0", m.Name, n)
	}
	if n < 2 {
		return Result{}, Scores{}, fmt.Errorf("audit: %s: trials is %d, must be >= 2 (half select, half evaluate)", m.Name, n)
	}
	if opt.Workers < 0 {
		return Result{}, Scores{}, fmt.Errorf("audit: workers is %d, must be >= 0", opt.Workers)
	}
	scores := [2][]float64{make([]float64, n), make([]float64, n)}
	runAll(m, opt, scores)
	half := n / 2
	sel := [2][]float64{scores[0][:half], scores[1][:half]}
	ev := [2][]float64{scores[0][half:], scores[1][half:]}
	in := regionFor(m, sel)
	res := Result{
		Name: m.Name, Mechanism: m.Mechanism, Neighbours: m.Neighbours, Test: m.Test,
		Epsilon: m.Epsilon, Delta: m.Delta, Trials: n, Seed: opt.Seed,
		Demonstration: m.Demonstration, Categorical: m.Categorical, Region: in.String(),
	}
	res.Eval = len(ev[0])
	for _, s := range ev[0] {
		if in.contains(s) {
			res.In0++
		}
	}
	for _, s := range ev[1] {
		if in.contains(s) {
			res.In1++
		}
	}
	b := Bounds(res.In0, res.In1, res.Eval, m.Delta)
	res.Lower, res.Estimate, res.Upper = b.Lower, Num(b.Estimate), Num(b.Upper)
	res.Tightness = res.Lower / m.Epsilon
	over := !(res.Lower <= m.Epsilon)
	// powerless: even the most lopsided counts of this many evaluation
	// trials would not put the lower bound above ε (e.g. -trials 2).
	powerless := !(Bounds(0, res.Eval, res.Eval, m.Delta).Lower > m.Epsilon) && !(Bounds(res.Eval, 0, res.Eval, m.Delta).Lower > m.Epsilon)
	switch {
	case m.Demonstration && over:
		res.Verdict = "attack shown"
	case m.Demonstration:
		res.Verdict = "attack not shown"
	case over:
		res.Verdict = "VIOLATION"
	case powerless:
		res.Verdict = "inconclusive"
	default:
		res.Verdict = "ok"
	}
	if m.Control != nil {
		c := m.Control(opt.Short)
		if c.Epsilon != m.Epsilon || c.Delta != m.Delta || c.Categorical != m.Categorical {
			return Result{}, Scores{}, fmt.Errorf("audit: %s: the control must keep the claim and the test", m.Name)
		}
		c.Trials, c.ShortTrials = m.Trials, m.ShortTrials
		cr, _, err := RunScores(c, opt)
		if err != nil {
			return Result{}, Scores{}, fmt.Errorf("audit: %s control: %w", m.Name, err)
		}
		caught := cr.Lower > m.Epsilon
		res.Control = &ControlResult{
			Mechanism: c.Mechanism, Region: cr.Region, In0: cr.In0, In1: cr.In1, Eval: cr.Eval,
			Lower: cr.Lower, Estimate: cr.Estimate, OverClaim: cr.Lower / m.Epsilon, Caught: caught,
		}
		if !caught && res.Verdict == "ok" {
			res.Verdict = "no power"
		}
	}
	res.Note = m.Note
	if m.NoSecureSampler {
		res.Note = strings.TrimPrefix(res.Note+"; no secure sampler exists for this noise", "; ")
	}
	return res, Scores{D: ev[0], DPrime: ev[1], In: in.contains}, nil
}

// runAll fills scores[s][i] with the statistic of run i on input s.
func runAll(m *Mechanism, opt Options, scores [2][]float64) {
	n := len(scores[0])
	w := opt.Workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	const chunk = 256
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			trial := m.New()
			for start := range jobs {
				for s := range 2 {
					for i := start; i < min(start+chunk, n); i++ {
						rng := bandit.Stream(opt.Seed, uint64(s)<<40|uint64(i))
						scores[s][i] = trial(rng, s)
					}
				}
			}
		}()
	}
	for start := 0; start < n; start += chunk {
		jobs <- start
	}
	close(jobs)
	wg.Wait()
}

// region is the set of scores that point to D′: either {score ≥ thr} (or
// {score ≤ thr} when flipped), or a set of labels.
type region struct {
	thr     float64
	below   bool
	labels  map[float64]bool
	nlabels int
}

func (r region) contains(s float64) bool {
	if r.labels != nil {
		return r.labels[s]
	}
	if r.below {
		return s <= r.thr
	}
	return s >= r.thr
}

func (r region) String() string {
	switch {
	case r.labels != nil:
		return fmt.Sprintf("%d output labels most likely under D′", r.nlabels)
	case r.below:
		return fmt.Sprintf("score <= %.6g", r.thr)
	}
	return fmt.Sprintf("score >= %.6g", r.thr)
}

// regionFor chooses the region maximising the ε lower bound on the
// selection half.
func regionFor(m *Mechanism, sel [2][]float64) region {
	if m.Categorical {
		return labelRegion(m, sel)
	}
	n := len(sel[0])
	// Candidate thresholds: up to 512 quantiles of the pooled scores.
	pool := append(append([]float64(nil), sel[0]...), sel[1]...)
	sort.Float64s(pool)
	s0 := append([]float64(nil), sel[0]...)
	s1 := append([]float64(nil), sel[1]...)
	sort.Float64s(s0)
	sort.Float64s(s1)
	const maxCand = 512
	step := max(1, len(pool)/maxCand)
	best, bestR := math.Inf(-1), region{thr: math.Inf(1)}
	for k := 0; k < len(pool); k += step {
		for _, thr := range []float64{pool[k], pool[min(k+step-1, len(pool)-1)]} {
			// ≥ thr
			in0 := n - sort.SearchFloat64s(s0, thr)
			in1 := n - sort.SearchFloat64s(s1, thr)
			if v := Bounds(in0, in1, n, m.Delta).Lower; v > best {
				best, bestR = v, region{thr: thr}
			}
			// ≤ thr: count of values <= thr
			le0 := upperIndex(s0, thr)
			le1 := upperIndex(s1, thr)
			if v := Bounds(le0, le1, n, m.Delta).Lower; v > best {
				best, bestR = v, region{thr: thr, below: true}
			}
		}
	}
	return bestR
}

// upperIndex returns the number of entries of the sorted s that are <= x.
func upperIndex(s []float64, x float64) int {
	return sort.Search(len(s), func(i int) bool { return s[i] > x })
}

// labelRegion ranks the labels by their estimated likelihood ratio (with
// add-one smoothing) and takes the prefix that maximises the bound.
func labelRegion(m *Mechanism, sel [2][]float64) region {
	n := len(sel[0])
	type cnt struct {
		label  float64
		c0, c1 int
	}
	idx := map[float64]int{}
	var cs []cnt
	for s := range 2 {
		for _, v := range sel[s] {
			k, ok := idx[v]
			if !ok {
				k = len(cs)
				idx[v] = k
				cs = append(cs, cnt{label: v})
			}
			if s == 0 {
				cs[k].c0++
			} else {
				cs[k].c1++
			}
		}
	}
	best := func(ratio func(c cnt) float64) (float64, int) {
		sort.SliceStable(cs, func(i, j int) bool {
			ri, rj := ratio(cs[i]), ratio(cs[j])
			if ri != rj {
				return ri > rj
			}
			return cs[i].label < cs[j].label
		})
		bv, bj := math.Inf(-1), 0
		in0, in1 := 0, 0
		for j, c := range cs {
			in0 += c.c0
			in1 += c.c1
			if v := Bounds(in0, in1, n, m.Delta).Lower; v > bv {
				bv, bj = v, j+1
			}
		}
		return bv, bj
	}
	_, j1 := best(func(c cnt) float64 { return float64(c.c1+1) / float64(c.c0+1) })
	r := region{labels: map[float64]bool{}, nlabels: j1}
	for _, c := range cs[:j1] {
		r.labels[c.label] = true
	}
	return r
}
