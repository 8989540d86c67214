package data

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/dpbandits/dpbandits/dpb/bandit"
)

func TestCSVLog(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "log.csv", "id,x0,action,reward,propensity,x1\n7,0.5,1,1,0.25,-2\n8,1.5,0,0,0.75,3\n")
	l, err := LoadCSVLog(p, CSVLogConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Arms() != 2 || l.ContextDim() != 2 || l.Dim() != 4 || l.Len() != 2 {
		t.Fatalf("arms %d, d %d, dim %d, len %d", l.Arms(), l.ContextDim(), l.Dim(), l.Len())
	}
	r := &bandit.Round{K: 2, Dim: 4, Actions: make([]float64, 8)}
	a, y, q := l.Event(r, 0)
	want := []float64{0.5, -2, 0, 0, 0, 0, 0.5, -2}
	for i, v := range want {
		if r.Actions[i] != v {
			t.Fatalf("event 0 features %v, want %v", r.Actions, want)
		}
	}
	if a != 1 || y != 1 || q != 0.25 {
		t.Errorf("event 0: %d %v %v", a, y, q)
	}
	if a, y, q := l.Event(r, 1); a != 0 || y != 0 || q != 0.75 || r.Actions[0] != 1.5 || r.Actions[4] != 0 || r.Actions[6] != 1.5 {
		t.Errorf("event 1: %d %v %v %v", a, y, q, r.Actions)
	}
	for _, c := range []struct{ text, msg string }{
		{"action,reward,propensity\n0,1,0.5\n", "no context columns"},
		{"action,reward,x0\n0,1,0.5\n", `missing column "propensity"`},
		{"action,reward,propensity,x0\n0,1,0,1\n", "propensity is 0"},
		{"action,reward,propensity,x0\n0,1,1.5,1\n", "propensity is 1.5"},
		{"action,reward,propensity,x0\n-1,1,0.5,1\n", "action is \"-1\""},
		{"action,reward,propensity,x0\n0,NaN,0.5,1\n", "reward is \"NaN\""},
		{"action,reward,propensity,x0\n0,1,0.5,inf\n", "x0 is \"inf\""},
		{"action,reward,propensity,x0\n", "no data rows"},
	} {
		_, err := LoadCSVLog(writeFile(t, dir, "bad.csv", c.text), CSVLogConfig{})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: err = %v, want %q", c.text, err, c.msg)
		}
	}
	if _, err := LoadCSVLog(writeFile(t, dir, "k.csv", "action,reward,propensity,x0\n3,1,0.5,1\n"), CSVLogConfig{Arms: 3}); err == nil || !strings.Contains(err.Error(), "[0, 3)") {
		t.Errorf("action beyond Arms: err = %v", err)
	}
}

// The Bernoulli-TS logs of OBD load with AnyPropensity and not without.
func TestOBDBTS(t *testing.T) {
	path := sharedData(t, "obd/bts/men/men.csv")
	if _, err := LoadOBD(path); err == nil || !strings.Contains(err.Error(), "uniformly random") {
		t.Errorf("uniform-only loader on BTS log: err = %v", err)
	}
	l, err := LoadOBDWith(path, OBDOptions{AnyPropensity: true})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 1.0, 0.0
	for i := 0; i < l.Len(); i++ {
		lo, hi = min(lo, l.Propensity(i)), max(hi, l.Propensity(i))
	}
	if l.Len() != 10000 || l.Arms() != 34 || !(lo < 1e-3 && hi > 0.5) {
		t.Errorf("BTS men: %d rows, %d arms, propensities [%v, %v]", l.Len(), l.Arms(), lo, hi)
	}
	t.Logf("BTS men: propensities in [%g, %g]", lo, hi)
}

// A header with a name given twice is an error naming the column; blank
// names (a spreadsheet's trailing ",,") are unnamed columns; a UTF-8 byte
// order mark is skipped (issue 40, item 1: both used to panic or fail).
func TestCSVLogHeader(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, msg string }{
		{"action,reward,propensity,x0,x0\n0,1,0.5,1,2\n", `column "x0" appears twice (columns 4 and 5)`},
		{"action,reward,action,propensity,x0\n0,1,0,0.5,1\n", `column "action" appears twice`},
	} {
		_, err := LoadCSVLog(writeFile(t, dir, "dup.csv", c.text), CSVLogConfig{})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: err = %v, want %q", c.text, err, c.msg)
		}
	}
	for _, text := range []string{
		"action,reward,propensity,x0,,\n1,1,0.5,3,,\n",
		",action,,reward,propensity,x0\n9,1,,1,0.5,3\n",
		"\ufeffaction,reward,propensity,x0\n1,1,0.5,3\n",
	} {
		l, err := LoadCSVLog(writeFile(t, dir, "ok.csv", text), CSVLogConfig{})
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if l.Arms() != 2 || l.ContextDim() != 1 || l.Context(0)[0] != 3 {
			t.Errorf("%q: arms %d, d %d, context %v", text, l.Arms(), l.ContextDim(), l.Context(0))
		}
	}
}

// Line ends: lone carriage returns (classic Mac OS, some exports) end
// lines as \n and \r\n do; the file used to read as one header row, whose
// fields then clashed as a column given twice. A chunked reader splits the
// input between a \r and its \n.
func TestCSVLogLoneCR(t *testing.T) {
	want := "action,reward,propensity,x0\n0,1,0.5,0.25\n1,0,0.5,0.75\n"
	for _, text := range []string{
		want,
		strings.ReplaceAll(want, "\n", "\r"),
		strings.ReplaceAll(want, "\n", "\r\n"),
		strings.TrimSuffix(strings.ReplaceAll(want, "\n", "\r"), "\r"),
	} {
		l, err := ReadCSVLog(iotest.OneByteReader(strings.NewReader(text)), "cr.csv", CSVLogConfig{})
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if l.Len() != 2 || l.Arms() != 2 || l.Context(0)[0] != 0.25 || l.Context(1)[0] != 0.75 {
			t.Errorf("%q: %d events, %d arms, contexts %v %v", text, l.Len(), l.Arms(), l.Context(0), l.Context(min(1, l.Len()-1)))
		}
	}
}

// Numbers are decimal: strconv.ParseFloat reads "1_0" as 10 and "0x1p-2"
// as 0.25, which a data file never means; such a field is an error naming
// its line and column.
func TestCSVLogStrictNumbers(t *testing.T) {
	for _, c := range []struct{ text, msg string }{
		{"action,reward,propensity,x0\n0,1,0.5,1_0\n", `x0 is "1_0", want a finite number`},
		{"action,reward,propensity,x0\n0,1_0,0.5,1\n", `reward is "1_0", want a finite number`},
		{"action,reward,propensity,x0\n0,1,0x1p-1,1\n", `propensity is "0x1p-1", want a finite number`},
		{"action,reward,propensity,x0\n1_0,1,0.5,1\n", `action is "1_0", want an integer`},
	} {
		_, err := ReadCSVLog(strings.NewReader(c.text), "num.csv", CSVLogConfig{})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: err = %v, want %q", c.text, err, c.msg)
		}
	}
}

// An error quotes a bounded prefix of a long field (issue 40, Low).
func TestCSVLogLongField(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("9", 1<<20) + "z"
	_, err := LoadCSVLog(writeFile(t, dir, "long.csv", "action,reward,propensity,x0\n0,"+long+",0.5,1\n"), CSVLogConfig{})
	if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "1048577 bytes") {
		t.Errorf("err has %d bytes: %.300v", len(err.Error()), err)
	}
}

// K is bounded: an action id beyond MaxArms is refused before any round is
// allocated (issue 40, item 5: action 100000 made K = 100001, MaxInt64
// overflowed K).
func TestCSVLogMaxArms(t *testing.T) {
	dir := t.TempDir()
	for _, a := range []string{"100000", "9223372036854775807", "1000"} {
		_, err := LoadCSVLog(writeFile(t, dir, "big.csv", "action,reward,propensity,x0\n"+a+",1,0.5,1\n"), CSVLogConfig{})
		if err == nil || !strings.Contains(err.Error(), "want an integer in [0, 1000)") || !strings.Contains(err.Error(), "MaxArms") {
			t.Errorf("action %s: err = %v", a, err)
		}
	}
	p := writeFile(t, dir, "ok.csv", "action,reward,propensity,x0\n999,1,0.5,1\n")
	if l, err := LoadCSVLog(p, CSVLogConfig{}); err != nil || l.Arms() != 1000 {
		t.Errorf("action 999: %v", err)
	}
	if _, err := LoadCSVLog(p, CSVLogConfig{MaxArms: 10}); err == nil || !strings.Contains(err.Error(), "[0, 10)") {
		t.Errorf("MaxArms 10: err = %v", err)
	}
	for _, c := range []CSVLogConfig{{MaxArms: -1}, {Arms: 11, MaxArms: 10}, {Arms: -2}} {
		if _, err := LoadCSVLog(p, c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// A CSV log in the disjoint layout refills a decision set with its K
// context blocks (ope.Refiller), giving what a fresh Event gives: an Event
// writes K·K·d values, which made OPE on a wide log (K = 1000, d = 33) write
// 33 million values an event.
func TestCSVLogRefill(t *testing.T) {
	var b strings.Builder
	b.WriteString("action,reward,propensity,x0,x1,x2\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,%d,0.25,%d,%g,%d\n", i%4, i%2, i, 0.5*float64(i), -i)
	}
	l, err := ReadCSVLog(strings.NewReader(b.String()), "wide.csv", CSVLogConfig{})
	if err != nil {
		t.Fatal(err)
	}
	rf, ok := any(l).(interface {
		Refill(r *bandit.Round, i, prev int) (int, float64, float64)
	})
	if !ok {
		t.Fatal("CSVLog has no Refill: every event writes all K·K·d values")
	}
	k, dim := l.Arms(), l.Dim()
	r := &bandit.Round{K: k, Dim: dim, Actions: make([]float64, k*dim)}
	fresh := &bandit.Round{K: k, Dim: dim, Actions: make([]float64, k*dim)}
	for i := 0; i < l.Len(); i++ { // from a new round (prev −1: all zeros), then event by event
		a, y, p := rf.Refill(r, i, i-1)
		a2, y2, p2 := l.Event(fresh, i)
		if a != a2 || y != y2 || p != p2 || !slices.Equal(r.Actions, fresh.Actions) {
			t.Fatalf("event %d: Refill gives (%d, %v, %v) and a decision set that differs from Event's", i, a, y, p)
		}
	}
}
