package harness

import (
	"bytes"
	"strings"
	"testing"
)

// TestReadCurvesCSVRoundTrip writes curve sets in the CLI's concatenated
// form, reads them back by prefix and writes them again: the bytes agree.
func TestReadCurvesCSVRoundTrip(t *testing.T) {
	a := &Curves{Names: []string{"NonPrivate", "Gaussian"}, X: []float64{10, 20, 30}, Reps: 7,
		Mean: [][]float64{{1, 2.5, 3.25}, {4, 5e6, 6.125}}, StdErr: [][]float64{{0.1, 0.2, 0.3}, {0.4, 0.5, 1.0 / 3}}}
	b := &Curves{Names: []string{"NonPrivate"}, X: []float64{5, 50}, Reps: 7,
		Mean: [][]float64{{7, 8}}, StdErr: [][]float64{{0, 0.01}}}
	var want bytes.Buffer
	for i, c := range []*Curves{a, b} {
		named := *c
		named.Names = nil
		for _, n := range c.Names {
			named.Names = append(named.Names, []string{"gap=0", "gap=0.1"}[i]+" "+n)
		}
		var part bytes.Buffer
		if err := named.WriteCSV(&part, "round"); err != nil {
			t.Fatal(err)
		}
		s := part.String()
		if i > 0 {
			s = s[strings.IndexByte(s, '\n')+1:]
		}
		want.WriteString(s)
	}
	parts, xName, err := ReadCurvesCSV(bytes.NewReader(want.Bytes()), []string{"gap=0", "gap=0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if xName != "round" || len(parts) != 2 {
		t.Fatalf("x %q, %d parts", xName, len(parts))
	}
	for i, c := range []*Curves{a, b} {
		var w1, w2 bytes.Buffer
		_ = c.WriteCSV(&w1, "round")
		_ = parts[i].WriteCSV(&w2, "round")
		if w1.String() != w2.String() {
			t.Errorf("part %d:\n%s\nwant\n%s", i, w2.String(), w1.String())
		}
	}
	one, _, err := ReadCurvesCSV(strings.NewReader("series,rho_min,mean,stderr,reps\nA,1,2,0,3\n"), nil)
	if err != nil || len(one) != 1 || one[0].Names[0] != "A" || one[0].Reps != 3 {
		t.Errorf("no prefixes: %+v, %v", one, err)
	}
}

func TestReadCurvesCSVErrors(t *testing.T) {
	const h = "series,round,mean,stderr,reps\n"
	for _, c := range []struct {
		in       string
		prefixes []string
		want     string
	}{
		{"", nil, "header"},
		{"a,b,c,d,e\n", nil, "want series"},
		{h, nil, "no rows"},
		{h + "A,1,NaN,0,3\n", nil, "line 2: mean \"NaN\" is not a finite number"},
		{h + "A,1,2,Inf,3\n", nil, "not a finite number"},
		{h + "A,1,2,0,x\n", nil, "reps \"x\""},
		{h + "A,1,2,0,3\nA,2,2,0,4\n", nil, "4 runs"},
		{h + "A,1,2,0,3\nA,2,2,0,3\nB,1,1,0,3\nB,3,1,0,3\n", nil, "line 5: series \"B\" at round = 3"},
		{h + "A,1,2,0,3\nA,2,2,0,3\nB,1,1,0,3\n", nil, "series \"B\" has 1 points"},
		{h + "A,1,2,0\n", nil, "wrong number of fields"},
		{h + "p A,1,2,0,3\n", []string{"p", "q"}, "no series with prefix \"q\""},
		{h + "r A,1,2,0,3\n", []string{"p"}, "none of the prefixes"},
	} {
		_, _, err := ReadCurvesCSV(strings.NewReader(c.in), c.prefixes)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.in, err, c.want)
		}
	}
}
