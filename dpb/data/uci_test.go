package data

import (
	"math"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
)

func TestShuttleLog(t *testing.T) {
	ds, err := LoadShuttle(sharedData(t, "uci/shuttle.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if ds.Rows() != 58000 || ds.P() != 9 || len(ds.Classes) != 7 {
		t.Fatalf("shuttle: %d rows, %d features, %d classes", ds.Rows(), ds.P(), len(ds.Classes))
	}
	l, err := NewSupervisedLog(ds, SupervisedLogConfig{Dim: 6}, bandit.Stream(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	checkSupervisedLog(t, l, ds)
}

func TestMushroomLog(t *testing.T) {
	ds, err := LoadMushroom(sharedData(t, "uci/agaricus-lepiota.data"))
	if err != nil {
		t.Fatal(err)
	}
	if ds.Rows() != 8124 || len(ds.Classes) != 2 {
		t.Fatalf("mushroom: %d rows, %d classes", ds.Rows(), len(ds.Classes))
	}
	l, err := NewSupervisedLog(ds, SupervisedLogConfig{Dim: 6}, bandit.Stream(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	checkSupervisedLog(t, l, ds)
}

// checkSupervisedLog: contexts in [0, 1] with a leading 1; reward = 1 iff
// the logged arm is the label; propensity 1/K; logged arms uniform (each
// arm's count within z5 binomial standard deviations, false-failure
// probability ≈ 1e-5 per arm).
func checkSupervisedLog(t *testing.T, l *SupervisedLog, ds *Supervised) {
	t.Helper()
	k := l.Arms()
	if k != len(ds.Classes) || l.Len() != ds.Rows() {
		t.Fatalf("log has %d arms %d events", k, l.Len())
	}
	r := &bandit.Round{K: k, Dim: l.Dim(), Actions: make([]float64, k*l.Dim())}
	counts := make([]int, k)
	for i := 0; i < l.Len(); i++ {
		a, y, p := l.Event(r, i)
		counts[a]++
		if (y == 1) != (a == l.Label(i)) || (y != 0 && y != 1) {
			t.Fatalf("event %d: arm %d label %d reward %v", i, a, l.Label(i), y)
		}
		if p != 1/float64(k) {
			t.Fatalf("event %d: probability %v", i, p)
		}
		if r.Actions[0] != 1 {
			t.Fatalf("event %d: context does not start with 1: %v", i, r.Actions[:l.Dim()])
		}
		for _, v := range r.Actions {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("event %d: context entry %v outside [0, 1]", i, v)
			}
		}
	}
	n, q := float64(l.Len()), 1/float64(k)
	for a, c := range counts {
		if tol := testutil.Z5 * math.Sqrt(n*q*(1-q)); math.Abs(float64(c)-n*q) > tol {
			t.Errorf("arm %d logged %d times, want %v ± %v", a, c, n*q, tol)
		}
	}
}

func TestUCIBadFiles(t *testing.T) {
	dir := t.TempDir()
	head := "\"V1\",\"V2\",\"V3\",\"V4\",\"V5\",\"V6\",\"V7\",\"V8\",\"V9\",\"Class\"\n"
	row := "50,21,77,0,28,0,27,48,22,\"High\"\n"
	for _, tc := range []struct{ name, text, want string }{
		{"number", head + row + "50,x,77,0,28,0,27,48,22,\"High\"\n", "shuttle.csv:3: column V2 is \"x\""},
		{"fields", head + row + row + "1,2,3\n", "shuttle.csv:4: wrong number of fields"},
		{"class", head + "50,21,77,0,28,0,27,48,22,\n", "shuttle.csv:2: empty class"},
		{"empty", "", "shuttle.csv: empty file"},
		{"norows", head, "shuttle.csv: no data rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadShuttle(writeFile(t, dir, "shuttle.csv", tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	mrow := "p,x,s,n,t,p,f,c,n,k,e,e,s,s,w,w,p,w,o,p,k,s,u\n"
	for _, tc := range []struct{ name, text, want string }{
		{"class", mrow + "q" + mrow[1:], "m.data:2: class \"q\""},
		{"letter", mrow + strings.Replace(mrow, ",x,", ",xx,", 1), "m.data:2: column 2 is \"xx\""},
		{"fields", mrow + "p,x\n", "m.data:2: wrong number of fields"},
	} {
		t.Run("mushroom-"+tc.name, func(t *testing.T) {
			_, err := LoadMushroom(writeFile(t, dir, "m.data", tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	ds, err := LoadShuttle(writeFile(t, dir, "ok.csv", head+row+row))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSupervisedLog(ds, SupervisedLogConfig{Dim: 11}, bandit.Stream(1, 1)); err == nil || !strings.Contains(err.Error(), "dim is 11") {
		t.Errorf("dim 11 on 9 features: %v", err)
	}
}

// The Shuttle and Mushroom loaders skip a UTF-8 byte order mark (issue 40, Low).
func TestLoadersSkipBOM(t *testing.T) {
	dir := t.TempDir()
	sh, err := LoadShuttle(writeFile(t, dir, "s.csv", "\ufeff"+fuzzShuttle))
	if err != nil || sh.Features[0] != "V1" {
		t.Errorf("shuttle with BOM: %v", err)
	}
	row := "e" + strings.Repeat(",x", 22) + "\n"
	if _, err := LoadMushroom(writeFile(t, dir, "m.data", "\ufeff"+row+"p"+row[1:])); err != nil {
		t.Errorf("mushroom with BOM: %v", err)
	}
}
