package main

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestFinalsCompanion: "reproduce mt14-fig1-k5" writes the companion
// figure of final regret and its table, which the JSON lists; the table
// holds one row per (variant, run), and each variant's rows average to the
// mean curve's last point (NAME.csv, written to 10 digits). A table written
// from other runs, another record point or another variant's finals fails.
func TestFinalsCompanion(t *testing.T) {
	dir := t.TempDir()
	const runs = 3
	var b bytes.Buffer
	if code := runMain([]string{"reproduce", "mt14-fig1-k5", "-short", "-n", "3e3", "-runs", strconv.Itoa(runs), "-out", dir}, &b); code != 0 {
		t.Fatalf("reproduce: exit %d: %s", code, b.String())
	}
	read := func(name string) [][]string {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows[1:]
	}
	last := map[string]float64{} // series → mean at the last round
	lastX := map[string]float64{}
	for _, r := range read("mt14-fig1-k5.csv") {
		x, _ := strconv.ParseFloat(r[1], 64)
		if x >= lastX[r[0]] {
			lastX[r[0]] = x
			last[r[0]], _ = strconv.ParseFloat(r[2], 64)
		}
	}
	sum, n := map[string]float64{}, map[string]int{}
	for _, r := range read("mt14-fig1-k5-finals.csv") {
		if r[0] != "k=5" || r[2] != strconv.Itoa(n[r[1]]) {
			t.Fatalf("row %v: want setting k=5 and run %d", r, n[r[1]])
		}
		v, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		sum[r[1]] += v
		n[r[1]]++
	}
	if len(n) != len(last) {
		t.Fatalf("finals of %d variants, the curves have %d", len(n), len(last))
	}
	for s, m := range last {
		if n[s] != runs {
			t.Errorf("%s: %d runs in the finals, want %d", s, n[s], runs)
		}
		if got := sum[s] / float64(n[s]); math.Abs(got-m) > 1e-9*math.Max(1, math.Abs(m)) {
			t.Errorf("%s: the finals average %v, the curve's last point %v", s, got, m)
		}
	}
	meta, err := os.ReadFile(filepath.Join(dir, "mt14-fig1-k5.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"mt14-fig1-k5-finals.svg", "mt14-fig1-k5-finals.png", "mt14-fig1-k5-finals.csv"} {
		if !bytes.Contains(meta, []byte(`"`+f+`"`)) {
			t.Errorf("the JSON does not list %s", f)
		}
	}
}
