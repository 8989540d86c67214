package data

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
)

// OBDDim is the context length of [OBDLog]'s feature map.
const OBDDim = 6

// OBDLog is a log of the Open Bandit Dataset (Saito, Aihara, Matsutani &
// Narita 2020, arXiv:2008.07146) collected by its uniformly random behaviour
// policy: files random/{all,men,women}/{campaign}.csv with columns
//
//	(index), timestamp, item_id, position, click, propensity_score,
//	user_feature_0..3, user-item_affinity_0..K−1
//
// and item_context.csv with columns (index), item_id, item_feature_0 (numeric),
// item_feature_1..3 (hashed categories). Arms are the K items; each row is
// one event (the logged item and its click; the position is ignored, since
// the logger drew items uniformly for every position).
//
// Every arm a of the row's user u gets the context z_a ∈ [0, 1]^6 (documented
// feature map, shared linear model as MT14 Algorithm 2):
//
//	z_a = [ 1,
//	        f0(a)                  item_feature_0 min-max scaled over the items,
//	        min(1, aff(u, a))      1 if the user clicked the item before,
//	        c1(a)                  1 if item_feature_1 is the items' most common level,
//	        c3(a)                  1 if item_feature_3 is the items' most common level,
//	        g(u)·f0(a) ]           g(u) = 1 if user_feature_0 is the rows' most common level.
//
// [LoadOBD] checks that every propensity_score equals 1/K, the condition
// under which ope.Replay is unbiased. [LoadOBDWith] with AnyPropensity
// reads logs of any logging policy, such as the Bernoulli Thompson Sampling
// logs bts/{men,women}, for the estimators of package ope that weight by the
// propensities (IPS, SNIPS, DR, PropensityReplay). A row's propensity is the
// probability the logger gave that item at that row's position; the
// position itself is ignored.
//
// The data are not part of this repository: the small sample ships with the
// Open Bandit Pipeline (github.com/st-tech/zr-obp, obd/random/{men,women}),
// the full data set is at https://research.zozo.com/data.html (CC BY 4.0).
type OBDLog struct {
	k      int
	f0     []float64 // per item
	c1, c3 []float64 // per item
	item   []int
	click  []float64
	prob   []float64
	g      []float64 // per row
	aff    []float64 // rows×K, min(1, affinity)
}

// LoadOBD reads an OBD campaign CSV (e.g. obd/random/men/men.csv) and the
// item_context.csv in the same folder. Bad files and bad rows give errors
// naming the file and line.
func LoadOBD(path string) (*OBDLog, error) {
	return LoadOBDWith(path, OBDOptions{})
}

// OBDOptions configures [LoadOBDWith].
type OBDOptions struct {
	// ItemPath is the item context file. Defaults to item_context.csv in the
	// log's folder.
	ItemPath string
	// AnyPropensity accepts any propensity_score in (0, 1] (a non-uniform
	// logger); without it every score must be 1/K.
	AnyPropensity bool
}

// LoadOBDWith reads an OBD campaign CSV with options.
func LoadOBDWith(path string, opt OBDOptions) (*OBDLog, error) {
	if opt.ItemPath == "" {
		opt.ItemPath = filepath.Join(filepath.Dir(path), "item_context.csv")
	}
	l := &OBDLog{}
	if err := l.readItems(opt.ItemPath); err != nil {
		return nil, err
	}
	if err := l.readLog(path, !opt.AnyPropensity); err != nil {
		return nil, err
	}
	return l, nil
}

// LoadOBDFiles is [LoadOBD] with the item context file named explicitly.
func LoadOBDFiles(logPath, itemPath string) (*OBDLog, error) {
	return LoadOBDWith(logPath, OBDOptions{ItemPath: itemPath})
}

// openCSV opens a CSV file with a header row and returns the column index of
// each named column. A leading UTF-8 byte order mark is skipped; blank names
// (a spreadsheet's trailing ",,", or pandas' unnamed index column) are
// columns without a name, which no loader reads; a name given twice is an
// error naming the file and both columns.
func openCSV(path string) (io.ReadCloser, *csv.Reader, map[string]int, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("data: %w", err)
	}
	cr, cols, err := headCSV(path, f)
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	return f, cr, cols, nil
}

func needCols(path string, cols map[string]int, names ...string) error {
	for _, n := range names {
		if _, ok := cols[n]; !ok {
			return fmt.Errorf("data: %s:1: missing column %q", path, n)
		}
	}
	return nil
}

func (l *OBDLog) readItems(path string) error {
	f, cr, cols, err := openCSV(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := needCols(path, cols, "item_id", "item_feature_0", "item_feature_1", "item_feature_3"); err != nil {
		return err
	}
	type item struct {
		f0     float64
		c1, c3 string
	}
	items := map[int]item{}
	if err := eachRecord(path, cr, func(rec []string, line int) error {
		id, err := strconv.Atoi(rec[cols["item_id"]])
		if err != nil || id < 0 {
			return fmt.Errorf("data: %s:%d: item_id is %s, want an integer >= 0", path, line, quoteField(rec[cols["item_id"]]))
		}
		if _, dup := items[id]; dup {
			return fmt.Errorf("data: %s:%d: item_id %d listed twice", path, line, id)
		}
		f0, err := parseFloat(rec[cols["item_feature_0"]])
		if err != nil || math.IsNaN(f0) || math.IsInf(f0, 0) {
			return fmt.Errorf("data: %s:%d: item_feature_0 is %s, want a finite number", path, line, quoteField(rec[cols["item_feature_0"]]))
		}
		items[id] = item{f0, rec[cols["item_feature_1"]], rec[cols["item_feature_3"]]}
		return nil
	}); err != nil {
		return err
	}
	k := len(items)
	if k == 0 {
		return fmt.Errorf("data: %s: no items", path)
	}
	for id := range items {
		if id >= k {
			return fmt.Errorf("data: %s: item ids must be 0..%d, found %d", path, k-1, id)
		}
	}
	l.k = k
	l.f0, l.c1, l.c3 = make([]float64, k), make([]float64, k), make([]float64, k)
	lo, hi := math.Inf(1), math.Inf(-1)
	n1, n3 := map[string]int{}, map[string]int{}
	for _, it := range items {
		lo, hi = math.Min(lo, it.f0), math.Max(hi, it.f0)
		n1[it.c1]++
		n3[it.c3]++
	}
	m1, m3 := mostCommon(n1), mostCommon(n3)
	for id, it := range items {
		if hi > lo {
			l.f0[id] = (it.f0 - lo) / (hi - lo)
		}
		if it.c1 == m1 {
			l.c1[id] = 1
		}
		if it.c3 == m3 {
			l.c3[id] = 1
		}
	}
	return nil
}

// mostCommon returns the most frequent key (ties: the smallest key).
func mostCommon(n map[string]int) string {
	best, bc := "", -1
	for s, c := range n {
		if c > bc || (c == bc && s < best) {
			best, bc = s, c
		}
	}
	return best
}

func (l *OBDLog) readLog(path string, uniform bool) error {
	f, cr, cols, err := openCSV(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := needCols(path, cols, "item_id", "click", "propensity_score", "user_feature_0"); err != nil {
		return err
	}
	affCol := make([]int, l.k)
	for a := range affCol {
		name := "user-item_affinity_" + strconv.Itoa(a)
		c, ok := cols[name]
		if !ok {
			return fmt.Errorf("data: %s:1: missing column %q (the item context lists %d items)", path, name, l.k)
		}
		affCol[a] = c
	}
	if _, extra := cols["user-item_affinity_"+strconv.Itoa(l.k)]; extra {
		return fmt.Errorf("data: %s:1: more affinity columns than the %d items of the item context", path, l.k)
	}
	want := 1 / float64(l.k)
	var u0 []string
	u0n := map[string]int{}
	if err := eachRecord(path, cr, func(rec []string, line int) error {
		id, err := strconv.Atoi(rec[cols["item_id"]])
		if err != nil || id < 0 || id >= l.k {
			return fmt.Errorf("data: %s:%d: item_id is %s, want an integer in [0, %d)", path, line, quoteField(rec[cols["item_id"]]), l.k)
		}
		c := rec[cols["click"]]
		if c != "0" && c != "1" {
			return fmt.Errorf("data: %s:%d: click is %s, want 0 or 1", path, line, quoteField(c))
		}
		p, err := parseFloat(rec[cols["propensity_score"]])
		if !uniform {
			if err != nil || !(p > 0 && p <= 1) {
				return fmt.Errorf("data: %s:%d: propensity_score is %s, want a probability in (0, 1]", path, line, quoteField(rec[cols["propensity_score"]]))
			}
		} else if err != nil || !(math.Abs(p-want) <= 1e-9*want) { // NaN fails too
			return fmt.Errorf("data: %s:%d: propensity_score is %s, want 1/%d = %.6g: the log must come from the uniformly random policy", path, line, quoteField(rec[cols["propensity_score"]]), l.k, want)
		}
		for a, ci := range affCol {
			v, err := parseFloat(rec[ci])
			if err != nil || !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("data: %s:%d: user-item_affinity_%d is %s, want a finite number >= 0", path, line, a, quoteField(rec[ci]))
			}
			l.aff = append(l.aff, math.Min(1, v))
		}
		l.item = append(l.item, id)
		l.click = append(l.click, float64(c[0]-'0'))
		l.prob = append(l.prob, p)
		s := rec[cols["user_feature_0"]]
		u0 = append(u0, s)
		u0n[s]++
		return nil
	}); err != nil {
		return err
	}
	if len(l.item) == 0 {
		return fmt.Errorf("data: %s: no data rows", path)
	}
	top := mostCommon(u0n)
	l.g = make([]float64, len(u0))
	for i, s := range u0 {
		if s == top {
			l.g[i] = 1
		}
	}
	return nil
}

// Arms returns K, the number of items.
func (l *OBDLog) Arms() int { return l.k }

// Dim returns [OBDDim].
func (l *OBDLog) Dim() int { return OBDDim }

// Len returns the number of rows.
func (l *OBDLog) Len() int { return len(l.item) }

// Propensity returns row i's propensity_score.
func (l *OBDLog) Propensity(i int) float64 { return l.prob[i] }

// Event fills r with row i's contexts (the feature map of [OBDLog]) and
// returns the logged item, the click and the propensity score.
func (l *OBDLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	const d = OBDDim
	if r.K != l.k || r.Dim != d || len(r.Actions) != l.k*d {
		panic(param.BadDim)
	}
	aff := l.aff[i*l.k : (i+1)*l.k]
	g := l.g[i]
	for a := 0; a < l.k; a++ {
		z := r.Actions[a*d : (a+1)*d]
		z[0], z[1], z[2], z[3], z[4], z[5] = 1, l.f0[a], aff[a], l.c1[a], l.c3[a], g*l.f0[a]
	}
	return l.item[i], l.click[i], l.prob[i]
}
