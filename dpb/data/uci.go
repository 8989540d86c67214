package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/param"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// Supervised is a classification data set: n rows of P numeric features and
// a class label each. [LoadShuttle] and [LoadMushroom] read the UCI files;
// [NewSupervisedLog] turns one into a bandit log.
type Supervised struct {
	Name     string
	Features []string  // P feature names
	X        []float64 // n×P, row-major
	Y        []int     // class index of each row, into Classes
	Classes  []string  // class names, sorted
}

// Rows returns n.
func (s *Supervised) Rows() int { return len(s.Y) }

// P returns the number of features.
func (s *Supervised) P() int { return len(s.Features) }

// LoadShuttle reads the Statlog (Shuttle) data set as a CSV file with a
// header line and ten columns: nine numeric features V1..V9 and the class
// name (UCI ML Repository, doi:10.24432/C5WS31; 58,000 rows, 7 classes,
// ≈ 80% "Rad.Flow"). Errors name the file and line. The UCI files
// (https://archive.ics.uci.edu/dataset/148) are space-separated without a
// header; convert them to this CSV form first. The data are not part of this
// repository.
func LoadShuttle(path string) (*Supervised, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: shuttle: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(skipBOM(f))
	cr.FieldsPerRecord = 10
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, csvErr(path, cr, err)
	}
	head = append([]string(nil), head...) // ReuseRecord overwrites it
	ds := &Supervised{Name: "shuttle", Features: head[:9]}
	var labels []string
	if err := eachRecord(path, cr, func(rec []string, line int) error {
		for j := 0; j < 9; j++ {
			v, err := parseFloat(rec[j])
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("data: %s:%d: column %s is %s, want a finite number", path, line, head[j], quoteField(rec[j]))
			}
			ds.X = append(ds.X, v)
		}
		if rec[9] == "" {
			return fmt.Errorf("data: %s:%d: empty class", path, line)
		}
		labels = append(labels, rec[9])
		return nil
	}); err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("data: %s: no data rows", path)
	}
	ds.Classes, ds.Y = indexLabels(labels)
	return ds, nil
}

// LoadMushroom reads the UCI Mushroom data set (agaricus-lepiota.data;
// doi:10.24432/C5959T): no header, 23 one-letter columns, the class (e/p)
// first, then 22 categorical attributes where "?" marks a missing value. Each
// attribute is one-hot encoded over the levels seen in the file ("?" being a
// level of its own), giving features named "attrJ=L". Errors name the file
// and line. Download: https://archive.ics.uci.edu/dataset/73 (not part of
// this repository).
func LoadMushroom(path string) (*Supervised, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: mushroom: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(skipBOM(f))
	cr.FieldsPerRecord = 23
	var rows [][]string
	if err := eachRecord(path, cr, func(rec []string, line int) error {
		for j, v := range rec {
			if len(v) != 1 {
				return fmt.Errorf("data: %s:%d: column %d is %s, want one letter", path, line, j+1, quoteField(v))
			}
		}
		if rec[0] != "e" && rec[0] != "p" {
			return fmt.Errorf("data: %s:%d: class %s, want e or p", path, line, quoteField(rec[0]))
		}
		rows = append(rows, rec)
		return nil
	}); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("data: %s: no data rows", path)
	}
	// Levels per attribute, sorted, and the one-hot column of each.
	type col struct{ attr, level string }
	var cols []col
	index := map[col]int{}
	for j := 1; j < 23; j++ {
		seen := map[string]bool{}
		for _, r := range rows {
			seen[r[j]] = true
		}
		lv := make([]string, 0, len(seen))
		for l := range seen {
			lv = append(lv, l)
		}
		sort.Strings(lv)
		for _, l := range lv {
			c := col{strconv.Itoa(j), l}
			index[c] = len(cols)
			cols = append(cols, c)
		}
	}
	ds := &Supervised{Name: "mushroom"}
	for _, c := range cols {
		ds.Features = append(ds.Features, "attr"+c.attr+"="+c.level)
	}
	p := len(cols)
	ds.X = make([]float64, len(rows)*p)
	labels := make([]string, len(rows))
	for i, r := range rows {
		labels[i] = r[0]
		for j := 1; j < 23; j++ {
			ds.X[i*p+index[col{strconv.Itoa(j), r[j]}]] = 1
		}
	}
	ds.Classes, ds.Y = indexLabels(labels)
	return ds, nil
}

func indexLabels(labels []string) ([]string, []int) {
	set := map[string]int{}
	for _, l := range labels {
		set[l] = 0
	}
	classes := make([]string, 0, len(set))
	for l := range set {
		classes = append(classes, l)
	}
	sort.Strings(classes)
	for i, c := range classes {
		set[c] = i
	}
	y := make([]int, len(labels))
	for i, l := range labels {
		y[i] = set[l]
	}
	return classes, y
}

// eachRecord reads cr to the end, calling fn with each record and its line
// number; it stops at the first error, a read error reported by csvErr.
func eachRecord(path string, cr *csv.Reader, fn func(rec []string, line int) error) error {
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvErr(path, cr, err)
		}
		line, _ := cr.FieldPos(0)
		if err := fn(rec, line); err != nil {
			return err
		}
	}
}

// csvErr names the file and line of a CSV error.
func csvErr(path string, cr *csv.Reader, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("data: %s:%d: %v", path, pe.Line, pe.Err)
	}
	if err == io.EOF {
		return fmt.Errorf("data: %s: empty file", path)
	}
	line, _ := cr.FieldPos(0)
	return fmt.Errorf("data: %s:%d: %w", path, line, err)
}

// SupervisedLogConfig configures [NewSupervisedLog].
type SupervisedLogConfig struct {
	// Dim is d, the context length: a constant 1 followed by the first d−1
	// principal components of the standardised features, each min-max scaled
	// to [0, 1] over the data set. Required (2 <= Dim <= P+1).
	Dim int
	// KeepOrder keeps the file's row order. Defaults to false: rows are
	// shuffled with the log's generator (UCI files are often sorted).
	KeepOrder bool
	// MaxEvents keeps only the first MaxEvents rows (after shuffling).
	// Defaults to 0: all rows.
	MaxEvents int
}

// SupervisedLog is a bandit log made from a classification data set by the
// supervised-to-bandit conversion (Beygelzimer & Langford 2009; Dudík et al.
// 2011): arms are the classes, choosing the true class earns reward 1 and any
// other class 0, and a simulated logger picks the arm uniformly at random
// (probability 1/K), so [Replay] is unbiased on it. Every arm's action vector
// is the row's context (K copies), which suits per-arm (disjoint) models.
type SupervisedLog struct {
	name   string
	k, d   int
	ctx    []float64 // n×d
	label  []int
	logged []int
}

// NewSupervisedLog converts ds into a uniformly logged bandit log, drawing
// the row order and the logged arms from rng.
func NewSupervisedLog(ds *Supervised, cfg SupervisedLogConfig, rng *rand.Rand) (*SupervisedLog, error) {
	if rng == nil {
		panic(param.NilRand)
	}
	n, p := ds.Rows(), ds.P()
	if n == 0 || len(ds.X) != n*p {
		return nil, fmt.Errorf("data: data set %q has %d rows and %d values for %d features", ds.Name, n, len(ds.X), p)
	}
	if cfg.Dim < 2 || cfg.Dim > p+1 {
		return nil, fmt.Errorf("data: dim is %d, must be in [2, %d] for %s", cfg.Dim, p+1, ds.Name)
	}
	if n < 2 || n < cfg.Dim {
		return nil, fmt.Errorf("data: data set %q has %d rows, need at least max(2, dim = %d) for its %d principal components", ds.Name, n, cfg.Dim, cfg.Dim-1)
	}
	for i, v := range ds.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("data: data set %q: row %d, feature %d is %v, want a finite number", ds.Name, i/p, i%p, v)
		}
	}
	if cfg.MaxEvents < 0 {
		return nil, fmt.Errorf("data: max events is %d, must be >= 0", cfg.MaxEvents)
	}
	ctx, err := pcaContexts(ds, cfg.Dim)
	if err != nil {
		return nil, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if !cfg.KeepOrder {
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	if cfg.MaxEvents > 0 && cfg.MaxEvents < n {
		order = order[:cfg.MaxEvents]
	}
	d, k := cfg.Dim, len(ds.Classes)
	lg := &SupervisedLog{name: ds.Name, k: k, d: d, ctx: make([]float64, len(order)*d),
		label: make([]int, len(order)), logged: make([]int, len(order))}
	for i, o := range order {
		copy(lg.ctx[i*d:(i+1)*d], ctx[o*d:(o+1)*d])
		lg.label[i] = ds.Y[o]
		lg.logged[i] = rng.IntN(k)
	}
	return lg, nil
}

// pcaContexts returns n×d contexts [1, pc_1, …, pc_{d−1}], components of the
// standardised features scaled to [0, 1].
func pcaContexts(ds *Supervised, d int) ([]float64, error) {
	n, p := ds.Rows(), ds.P()
	z := mat.NewDense(n, p, nil)
	for j := 0; j < p; j++ {
		var s, ss float64
		for i := 0; i < n; i++ {
			s += ds.X[i*p+j]
		}
		mu := s / float64(n)
		for i := 0; i < n; i++ {
			v := ds.X[i*p+j] - mu
			ss += float64(v * v)
		}
		sd := math.Sqrt(ss / float64(n))
		for i := 0; i < n; i++ {
			v := 0.0
			if sd > 0 {
				v = (ds.X[i*p+j] - mu) / sd
			}
			z.Set(i, j, v)
		}
	}
	var pc stat.PC
	if !pc.PrincipalComponents(z, nil) {
		return nil, fmt.Errorf("data: principal components of %s failed", ds.Name)
	}
	var vecs mat.Dense
	pc.VectorsTo(&vecs)
	q := d - 1
	if _, c := vecs.Dims(); c < q {
		return nil, fmt.Errorf("data: %s gives %d principal components, dim %d needs %d", ds.Name, c, d, q)
	}
	var proj mat.Dense
	proj.Mul(z, vecs.Slice(0, p, 0, q))
	out := make([]float64, n*d)
	for j := 0; j < q; j++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := 0; i < n; i++ {
			lo, hi = math.Min(lo, proj.At(i, j)), math.Max(hi, proj.At(i, j))
		}
		for i := 0; i < n; i++ {
			v := 0.5
			if hi > lo {
				v = (proj.At(i, j) - lo) / (hi - lo)
			}
			out[i*d+1+j] = math.Min(1, math.Max(0, v))
		}
	}
	for i := 0; i < n; i++ {
		out[i*d] = 1
	}
	return out, nil
}

// Name returns the data set's name.
func (l *SupervisedLog) Name() string { return l.name }

// Arms returns K, the number of classes.
func (l *SupervisedLog) Arms() int { return l.k }

// Dim returns d.
func (l *SupervisedLog) Dim() int { return l.d }

// Len returns the number of events.
func (l *SupervisedLog) Len() int { return len(l.label) }

// Label returns event i's true class (for checks; a policy never sees it).
func (l *SupervisedLog) Label(i int) int { return l.label[i] }

// Event fills r with K copies of event i's context and returns the logged
// arm, reward 1 if it is the true class (else 0), and probability 1/K.
func (l *SupervisedLog) Event(r *bandit.Round, i int) (int, float64, float64) {
	if r.K != l.k || r.Dim != l.d || len(r.Actions) != l.k*l.d {
		panic(param.BadDim)
	}
	x := l.ctx[i*l.d : (i+1)*l.d]
	for a := 0; a < l.k; a++ {
		copy(r.Actions[a*l.d:(a+1)*l.d], x)
	}
	a := l.logged[i]
	var rew float64
	if a == l.label[i] {
		rew = 1
	}
	return a, rew, 1 / float64(l.k)
}

// openFile opens a data file for the loaders (the fuzz tests serve inputs
// from memory through it).
var openFile = func(path string) (io.ReadCloser, error) { return os.Open(path) }
