package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// CSVLog is a logged bandit data set read from a CSV file in this schema:
//
//	header row, then one event per row; columns in any order:
//	action        the logged arm, an integer in [0, K)
//	reward        the reward observed, a finite number
//	propensity    the probability the logging policy gave the logged arm, in (0, 1]
//	x<name>...    context features: every column whose name starts with "x",
//	              in header order (d of them, d >= 1), finite numbers
//	other columns are ignored (ids, timestamps)
//
// for example
//
//	action,reward,propensity,x0,x1,x2
//	2,1,0.25,0.3,-1.2,1
//
// K is CSVLogConfig.Arms, or 1 + the largest logged action. The event's
// decision set gives arm a the feature vector with the context in block a
// and zeros elsewhere (dimension K·d): a linear policy over it is a separate
// linear model per arm, the "disjoint" model of Li, Chu, Langford &
// Schapire (2010). Rows are validated on reading: a bad row is an error
// naming the file, line and column.
type CSVLog struct {
	k, d   int
	ctx    []float64 // rows×d
	action []int
	reward []float64
	prob   []float64
}

var _ ope.Log = (*CSVLog)(nil)

// CSVLogConfig configures [LoadCSVLog].
type CSVLogConfig struct {
	// Arms is K. Defaults to 1 + the largest logged action.
	Arms int
	// MaxArms is the largest K accepted: an action id of MaxArms or more
	// (or Arms > MaxArms) is an error, since every round of an off-policy
	// evaluation holds K·K·d feature values. Defaults to [DefaultMaxArms].
	MaxArms int
}

// DefaultMaxArms is the default of CSVLogConfig.MaxArms.
const DefaultMaxArms = 1000

// maxRoundValues bounds K·K·d, the feature values of one round of a
// [CSVLog] (2^25 float64s: 256 MB).
const maxRoundValues = 1 << 25

// LoadCSVLog reads a log in the schema of [CSVLog].
func LoadCSVLog(path string, cfg CSVLogConfig) (*CSVLog, error) {
	f, cr, cols, err := openCSV(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
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
	for i, name := range head {
		if strings.HasPrefix(name, "x") {
			xs = append(xs, i)
		}
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("dpb: %s:1: no context columns (names starting with \"x\")", path)
	}
	if cfg.MaxArms < 0 {
		return nil, fmt.Errorf("dpb: max arms is %d, must be >= 1 (or 0 for %d)", cfg.MaxArms, DefaultMaxArms)
	}
	if cfg.MaxArms == 0 {
		cfg.MaxArms = DefaultMaxArms
	}
	if cfg.Arms < 0 || cfg.Arms > cfg.MaxArms {
		return nil, fmt.Errorf("dpb: arms is %d, must be in [1, %d] (max arms) or 0 for the largest action + 1", cfg.Arms, cfg.MaxArms)
	}
	limit := cfg.Arms // actions are in [0, limit)
	if limit == 0 {
		limit = cfg.MaxArms
	}
	l := &CSVLog{d: len(xs)}
	num := func(rec []string, line, col int) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[col]), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("dpb: %s:%d: %s is %s, want a finite number", path, line, head[col], quoteField(rec[col]))
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
			return fmt.Errorf("dpb: %s:%d: action is %s, want an integer in [0, %d)%s", path, line, quoteField(rec[cols["action"]]), limit, why)
		}
		y, err := num(rec, line, cols["reward"])
		if err != nil {
			return err
		}
		p, err := num(rec, line, cols["propensity"])
		if err != nil {
			return err
		}
		if !(p > 0 && p <= 1) {
			return fmt.Errorf("dpb: %s:%d: propensity is %v, want (0, 1]", path, line, p)
		}
		for _, c := range xs {
			v, err := num(rec, line, c)
			if err != nil {
				return err
			}
			l.ctx = append(l.ctx, v)
		}
		l.action, l.reward, l.prob = append(l.action, a), append(l.reward, y), append(l.prob, p)
		maxA = max(maxA, a)
		return nil
	}); err != nil {
		return nil, err
	}
	if len(l.action) == 0 {
		return nil, fmt.Errorf("dpb: %s: no data rows", path)
	}
	l.k = cfg.Arms
	if l.k == 0 {
		l.k = maxA + 1
	}
	if l.k*l.k > maxRoundValues/l.d {
		return nil, fmt.Errorf("dpb: %s: %d arms and %d context columns give K·K·d = %d feature values a round, more than %d", path, l.k, l.d, l.k*l.k*l.d, maxRoundValues)
	}
	return l, nil
}

// Arms returns K.
func (l *CSVLog) Arms() int { return l.k }

// Dim returns K·d, the dimension of the disjoint arm features.
func (l *CSVLog) Dim() int { return l.k * l.d }

// ContextDim returns d, the number of context columns.
func (l *CSVLog) ContextDim() int { return l.d }

// Len returns the number of events.
func (l *CSVLog) Len() int { return len(l.action) }

// Context returns event i's context (a view; do not modify).
func (l *CSVLog) Context(i int) []float64 { return l.ctx[i*l.d : (i+1)*l.d] }

// Event fills r with event i's disjoint arm features and returns the logged
// action, reward and propensity.
func (l *CSVLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	k, d := l.k, l.d
	if r.K != k || r.Dim != k*d || len(r.Actions) != k*k*d {
		panic(param.BadDim)
	}
	clear(r.Actions)
	x := l.Context(i)
	for a := 0; a < k; a++ {
		copy(r.Actions[a*k*d+a*d:], x)
	}
	return l.action[i], l.reward[i], l.prob[i]
}
