package data

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// CSVLog is a logged bandit data set read from CSV in this schema:
//
//	header row, then one event per row; columns in any order:
//	action        the logged arm, an integer in [0, K)
//	reward        the reward observed, a finite number
//	propensity    the probability the logging policy gave the logged arm, in (0, 1]
//	x<name>...    shared context features: every column whose name starts
//	              with "x", in header order (d of them), finite numbers
//	a<j>_<name>   per-action features: feature <name> of arm j, for arms
//	              j = 0..K−1, every arm with the same names (p per arm),
//	              finite numbers
//	other columns are ignored (ids, timestamps)
//
// with d ≥ 1 or p ≥ 1. Without per-action columns, for example
//
//	action,reward,propensity,x0,x1,x2
//	2,1,0.25,0.3,-1.2,1
//
// K is CSVLogConfig.Arms, or 1 + the largest logged action, and the event's
// decision set gives arm a the feature vector with the context in block a
// and zeros elsewhere (dimension K·d): a linear policy over it is a separate
// linear model per arm, the "disjoint" model of Li, Chu, Langford &
// Schapire (2010). With per-action columns, for example
//
//	action,reward,propensity,xage,a0_price,a0_new,a1_price,a1_new
//	1,0,0.5,0.3,0.99,1,2.49,0
//
// K is the number of arm blocks (a0_…, a1_…: arms 0..K−1, all present), and
// arm a's feature vector is its p features followed by the d shared ones
// (dimension p + d): one linear model shared by the arms, LinUCB's and
// SS18's setting. Rows are validated on reading: a bad row is an error
// naming the file (or the name given to [ReadCSVLog]), line and column.
type CSVLog struct {
	k, d   int
	p      int       // per-action features per arm (0: the disjoint layout)
	ctx    []float64 // rows×d
	act    []float64 // rows×K×p, the per-action features
	action []int
	reward []float64
	prob   []float64
}

// CSVLogConfig configures [LoadCSVLog] and [ReadCSVLog].
type CSVLogConfig struct {
	// Arms is K. Defaults to 1 + the largest logged action (the number of
	// arm blocks with per-action columns, which Arms, if set, must equal).
	Arms int
	// MaxArms is the largest K accepted: an action id of MaxArms or more
	// (or Arms > MaxArms) is an error, since every round of an off-policy
	// evaluation holds K·K·d feature values (K·(p + d) with per-action
	// columns). Defaults to [DefaultMaxArms].
	MaxArms int
}

// DefaultMaxArms is the default of CSVLogConfig.MaxArms.
const DefaultMaxArms = 1000

// maxRoundValues bounds the feature values of one round of a [CSVLog]
// (2^25 float64s: 256 MB).
const maxRoundValues = 1 << 25

// LoadCSVLog reads the file at path as a log in the schema of [CSVLog].
func LoadCSVLog(path string, cfg CSVLogConfig) (*CSVLog, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	return ReadCSVLog(f, path, cfg)
}

// perActionCol parses a per-action column name a<j>_<name>.
func perActionCol(h string) (arm int, name string, ok bool) {
	if len(h) < 4 || h[0] != 'a' {
		return 0, "", false
	}
	i := 1
	for i < len(h) && h[i] >= '0' && h[i] <= '9' {
		i++
	}
	if i == 1 || i+1 >= len(h) || h[i] != '_' || i > 10 {
		return 0, "", false
	}
	j, err := strconv.Atoi(h[1:i])
	if err != nil || (h[1] == '0' && i > 2) {
		return 0, "", false
	}
	return j, h[i+1:], true
}

// ReadCSVLog reads a log in the schema of [CSVLog] from rd (a file, a
// network stream, a string); name labels its errors ("data: name:line: …").
func ReadCSVLog(rd io.Reader, name string, cfg CSVLogConfig) (*CSVLog, error) {
	path := name
	cr, cols, err := headCSV(path, rd)
	if err != nil {
		return nil, err
	}
	if err := needCols(path, cols, "action", "reward", "propensity"); err != nil {
		return nil, err
	}
	// head[i] is column i's name ("" for a blank one); the columns can
	// outnumber the names (blank ones are not in cols).
	width := 0
	for _, i := range cols {
		width = max(width, i+1)
	}
	head := make([]string, width)
	for name, i := range cols {
		head[i] = name
	}
	var xs []int
	arms := map[int][]string{} // per-action feature names of each arm, in header order
	armCols := map[int][]int{}
	for i, name := range head {
		if j, f, ok := perActionCol(name); ok {
			arms[j], armCols[j] = append(arms[j], f), append(armCols[j], i)
			continue
		}
		if strings.HasPrefix(name, "x") {
			xs = append(xs, i)
		}
	}
	var pcols []int // the per-action columns, arm by arm
	p := 0
	if len(arms) > 0 {
		p = len(arms[0])
		for j := range len(arms) {
			names, ok := arms[j]
			if !ok {
				return nil, fmt.Errorf("data: %s:1: per-action columns for %d arms, but none for arm %d (arms are a0_… to a%d_…)", path, len(arms), j, len(arms)-1)
			}
			if !slices.Equal(names, arms[0]) {
				return nil, fmt.Errorf("data: %s:1: arm %d's per-action features are %q, arm 0's %q: every arm needs the same, in the same order", path, j, names, arms[0])
			}
			pcols = append(pcols, armCols[j]...)
		}
	}
	if len(xs) == 0 && p == 0 {
		return nil, fmt.Errorf("data: %s:1: no context columns (names starting with \"x\") and no per-action columns (a<arm>_<name>)", path)
	}
	if cfg.MaxArms < 0 {
		return nil, fmt.Errorf("data: max arms is %d, must be >= 1 (or 0 for %d)", cfg.MaxArms, DefaultMaxArms)
	}
	if cfg.MaxArms == 0 {
		cfg.MaxArms = DefaultMaxArms
	}
	if cfg.Arms < 0 || cfg.Arms > cfg.MaxArms {
		return nil, fmt.Errorf("data: arms is %d, must be in [1, %d] (max arms) or 0 for the largest action + 1", cfg.Arms, cfg.MaxArms)
	}
	if p > 0 {
		if len(arms) > cfg.MaxArms {
			return nil, fmt.Errorf("data: %s:1: per-action columns for %d arms, more than max arms %d", path, len(arms), cfg.MaxArms)
		}
		if cfg.Arms != 0 && cfg.Arms != len(arms) {
			return nil, fmt.Errorf("data: %s:1: per-action columns for %d arms, CSVLogConfig.Arms is %d", path, len(arms), cfg.Arms)
		}
		cfg.Arms = len(arms)
	}
	limit := cfg.Arms // actions are in [0, limit)
	if limit == 0 {
		limit = cfg.MaxArms
	}
	l := &CSVLog{d: len(xs), p: p}
	num := func(rec []string, line, col int) (float64, error) {
		v, err := parseFloat(strings.TrimSpace(rec[col]))
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("data: %s:%d: %s is %s, want a finite number", path, line, head[col], quoteField(rec[col]))
		}
		return v, nil
	}
	maxA := -1
	if err := eachRecord(path, cr, func(rec []string, line int) error {
		a, err := strconv.Atoi(strings.TrimSpace(rec[cols["action"]]))
		if err != nil || a < 0 || a >= limit {
			why := ""
			if cfg.Arms == 0 && err == nil && a >= limit {
				why = " (raise CSVLogConfig.MaxArms for more arms)"
			}
			return fmt.Errorf("data: %s:%d: action is %s, want an integer in [0, %d)%s", path, line, quoteField(rec[cols["action"]]), limit, why)
		}
		y, err := num(rec, line, cols["reward"])
		if err != nil {
			return err
		}
		pr, err := num(rec, line, cols["propensity"])
		if err != nil {
			return err
		}
		if !(pr > 0 && pr <= 1) {
			return fmt.Errorf("data: %s:%d: propensity is %v, want (0, 1]", path, line, pr)
		}
		for _, c := range xs {
			v, err := num(rec, line, c)
			if err != nil {
				return err
			}
			l.ctx = append(l.ctx, v)
		}
		for _, c := range pcols {
			v, err := num(rec, line, c)
			if err != nil {
				return err
			}
			l.act = append(l.act, v)
		}
		l.action, l.reward, l.prob = append(l.action, a), append(l.reward, y), append(l.prob, pr)
		maxA = max(maxA, a)
		return nil
	}); err != nil {
		return nil, err
	}
	if len(l.action) == 0 {
		return nil, fmt.Errorf("data: %s: no data rows", path)
	}
	l.k = cfg.Arms
	if l.k == 0 {
		l.k = maxA + 1
	}
	if l.p == 0 && l.k*l.k > maxRoundValues/l.d {
		return nil, fmt.Errorf("data: %s: %d arms and %d context columns give K·K·d = %d feature values a round, more than %d", path, l.k, l.d, l.k*l.k*l.d, maxRoundValues)
	}
	return l, nil
}

// headCSV reads the header row of the CSV in rd: the reader positioned at
// the first data row and the column of each name.
func headCSV(path string, rd io.Reader) (*csv.Reader, map[string]int, error) {
	cr := csv.NewReader(skipBOM(rd))
	head, err := cr.Read()
	if err != nil {
		return nil, nil, csvErr(path, cr, err)
	}
	cols := map[string]int{}
	for i, h := range head {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if j, dup := cols[h]; dup {
			return nil, nil, fmt.Errorf("data: %s:1: column %s appears twice (columns %d and %d)", path, quoteField(h), j+1, i+1)
		}
		cols[h] = i
	}
	return cr, cols, nil
}

// Arms returns K.
func (l *CSVLog) Arms() int { return l.k }

// Dim returns the dimension of an arm's feature vector: K·d in the
// disjoint layout, p + d with per-action features.
func (l *CSVLog) Dim() int {
	if l.p > 0 {
		return l.p + l.d
	}
	return l.k * l.d
}

// ContextDim returns d, the number of shared context columns.
func (l *CSVLog) ContextDim() int { return l.d }

// ActionDim returns p, the number of per-action features of each arm (0 in
// the disjoint layout).
func (l *CSVLog) ActionDim() int { return l.p }

// Len returns the number of events.
func (l *CSVLog) Len() int { return len(l.action) }

// Context returns event i's shared context (a view; do not modify).
func (l *CSVLog) Context(i int) []float64 { return l.ctx[i*l.d : (i+1)*l.d] }

// Refill fills r with event i's decision set when r holds event prev's as
// Event or Refill wrote it, or all zeros for prev = −1 (ope.Refiller): in
// the disjoint layout only the K context blocks change, K·d values where
// Event writes K·K·d (and a new round's other pages are never touched);
// with per-action columns it is Event.
func (l *CSVLog) Refill(r *bandit.Round, i, prev int) (int, float64, float64) {
	k, d := l.k, l.d
	if l.p > 0 || prev < -1 || prev >= len(l.action) {
		return l.Event(r, i)
	}
	if r.K != k || r.Dim != l.Dim() || len(r.Actions) != k*l.Dim() {
		panic(param.BadDim)
	}
	x := l.Context(i)
	for a := 0; a < k; a++ {
		copy(r.Actions[a*k*d+a*d:a*k*d+(a+1)*d], x)
	}
	return l.action[i], l.reward[i], l.prob[i]
}

// Event fills r with event i's decision set (see [CSVLog] for the two
// layouts) and returns the logged action, reward and propensity.
func (l *CSVLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	k, d, p := l.k, l.d, l.p
	if r.K != k || r.Dim != l.Dim() || len(r.Actions) != k*l.Dim() {
		panic(param.BadDim)
	}
	x := l.Context(i)
	if p > 0 {
		z := l.act[i*k*p : (i+1)*k*p]
		for a := 0; a < k; a++ {
			v := r.Actions[a*(p+d) : (a+1)*(p+d)]
			copy(v, z[a*p:(a+1)*p])
			copy(v[p:], x)
		}
		return l.action[i], l.reward[i], l.prob[i]
	}
	clear(r.Actions)
	for a := 0; a < k; a++ {
		copy(r.Actions[a*k*d+a*d:], x)
	}
	return l.action[i], l.reward[i], l.prob[i]
}
