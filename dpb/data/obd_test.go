package data

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/testutil"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// sharedData returns the data file rel under Dir() ($DPB_DATA, the user
// data directory, or shared/data beside the repository), skipping the test
// when it is absent.
func sharedData(t testing.TB, rel string) string {
	t.Helper()
	p, err := Locate(Dir(), rel)
	if err != nil {
		t.Skipf("no data: %v", err)
	}
	return p
}

func TestOBDRealPropensityUniform(t *testing.T) {
	for _, c := range []struct {
		campaign string
		k        int
	}{{"men", 34}, {"women", 46}} {
		l, err := LoadOBD(sharedData(t, "obd/random/"+c.campaign+"/"+c.campaign+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if l.Arms() != c.k || l.Len() != 10000 || l.Dim() != OBDDim {
			t.Fatalf("%s: %d arms, %d rows, dim %d; want %d, 10000, %d", c.campaign, l.Arms(), l.Len(), l.Dim(), c.k, OBDDim)
		}
		r := &bandit.Round{K: l.Arms(), Dim: l.Dim(), Actions: make([]float64, l.Arms()*l.Dim())}
		counts := make([]int, l.Arms())
		for i := 0; i < l.Len(); i++ {
			if p := l.Propensity(i); math.Abs(p*float64(c.k)-1) > 1e-12 {
				t.Fatalf("%s row %d: propensity %v, want 1/%d", c.campaign, i, p, c.k)
			}
			a, y, _ := l.Event(r, i)
			counts[a]++
			if y != 0 && y != 1 {
				t.Fatalf("row %d: click %v", i, y)
			}
			for _, v := range r.Actions {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("%s row %d: context entry %v outside [0, 1]", c.campaign, i, v)
				}
			}
		}
		// The logged items should look uniform too: χ² goodness of fit with
		// K−1 degrees of freedom; reject only beyond the 1 − 1e-5 quantile
		// (Wilson–Hilferty approximation).
		n := float64(l.Len())
		e := n / float64(c.k)
		var chi2 float64
		for _, o := range counts {
			chi2 += (float64(o) - e) * (float64(o) - e) / e
		}
		df := float64(c.k - 1)
		q := df * math.Pow(1-2/(9*df)+testutil.Z5*math.Sqrt(2/(9*df)), 3)
		if chi2 > q {
			t.Errorf("%s: logged items not uniform: χ² = %.1f > %.1f (df %v)", c.campaign, chi2, q, df)
		}
		u := ope.UniformValue(l, 0)
		if u.Reward != 46 {
			t.Errorf("%s: %v clicks, the data README says 46", c.campaign, u.Reward)
		}
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOBDBadFiles(t *testing.T) {
	dir := t.TempDir()
	items := ",item_id,item_feature_0,item_feature_1,item_feature_2,item_feature_3\n0,0,0.5,a,b,c\n1,1,-0.5,a,b,d\n"
	head := ",timestamp,item_id,position,click,propensity_score,user_feature_0,user_feature_1,user_feature_2,user_feature_3,user-item_affinity_0,user-item_affinity_1\n"
	good := "0,ts,1,1,0,0.5,u,v,w,x,0.0,1.0\n"
	writeFile(t, dir, "item_context.csv", items)
	for _, tc := range []struct {
		name, text, want string
	}{
		{"ok", head + good + good, ""},
		{"propensity", head + good + "1,ts,0,2,1,0.25,u,v,w,x,0,0\n", "log.csv:3: propensity_score is \"0.25\", want 1/2"},
		{"propensity-nan", head + good + "1,ts,0,2,1,NaN,u,v,w,x,0,0\n", "log.csv:3: propensity_score is \"NaN\", want 1/2"},
		{"propensity-inf", head + good + "1,ts,0,2,1,+Inf,u,v,w,x,0,0\n", "log.csv:3: propensity_score is \"+Inf\", want 1/2"},
		{"click", head + good + good + "2,ts,0,2,yes,0.5,u,v,w,x,0,0\n", "log.csv:4: click is \"yes\""},
		{"item", head + "0,ts,7,1,0,0.5,u,v,w,x,0,0\n", "log.csv:2: item_id is \"7\""},
		{"affinity", head + "0,ts,0,1,0,0.5,u,v,w,x,-1,0\n", "log.csv:2: user-item_affinity_0 is \"-1\""},
		{"fields", head + good + "0,ts,0,1\n", "log.csv:3: wrong number of fields"},
		{"column", strings.Replace(head, "propensity_score", "prob", 1) + good, "log.csv:1: missing column \"propensity_score\""},
		{"affcols", strings.Replace(head, ",user-item_affinity_1", "", 1) + "0,ts,1,1,0,0.5,u,v,w,x,0.0\n", "missing column \"user-item_affinity_1\""},
		{"empty", "", "log.csv: empty file"},
		{"norows", head, "log.csv: no data rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, "log.csv", tc.text)
			l, err := LoadOBD(p)
			if tc.want == "" {
				if err != nil || l.Len() != 2 || l.Arms() != 2 {
					t.Fatalf("good file: %v", err)
				}
				r := &bandit.Round{K: 2, Dim: OBDDim, Actions: make([]float64, 2*OBDDim)}
				a, y, pr := l.Event(r, 0)
				// Item 1: f0 scaled to 0, affinity 1, c1 = 1, c3: tie "c"/"d" → "c" (item 0).
				want := []float64{1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0}
				for i := range want {
					if r.Actions[i] != want[i] {
						t.Fatalf("contexts %v, want %v", r.Actions, want)
					}
				}
				if a != 1 || y != 0 || pr != 0.5 {
					t.Fatalf("event (%d, %v, %v)", a, y, pr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := LoadOBD(filepath.Join(dir, "nope.csv")); err == nil || !strings.Contains(err.Error(), "nope.csv") {
		t.Errorf("missing file: %v", err)
	}
	bad := writeFile(t, dir, "items2.csv", ",item_id,item_feature_0,item_feature_1,item_feature_2,item_feature_3\n0,0,x,a,b,c\n")
	if _, err := LoadOBDFiles(filepath.Join(dir, "log.csv"), bad); err == nil || !strings.Contains(err.Error(), "items2.csv:2: item_feature_0 is \"x\"") {
		t.Errorf("bad item file: %v", err)
	}
}
