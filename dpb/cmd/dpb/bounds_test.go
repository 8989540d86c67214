package main

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestBoundsJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := runBounds(&buf, []string{"--json", "--d", "5", "--n", "5e7", "--eps", "1", "--delta", "0.1", "--Lt2", "2"}); err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, buf.String())
	}
	keys := func(m map[string]json.RawMessage) []string {
		var k []string
		for key := range m {
			k = append(k, key)
		}
		slices.Sort(k)
		return k
	}
	if got, want := keys(raw), []string{"calibrated", "gaussian", "m", "wishart"}; !slices.Equal(got, want) {
		t.Errorf("top-level keys %v, want %v", got, want)
	}
	var wish, gauss map[string]json.RawMessage
	if err := json.Unmarshal(raw["wishart"], &wish); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw["gaussian"], &gauss); err != nil {
		t.Fatal(err)
	}
	wantW := []string{"beta_bar_n", "gamma", "gamma_shifted", "k", "rho_max", "rho_max_shifted", "rho_min", "rho_min_shifted", "shift"}
	if got := keys(wish); !slices.Equal(got, wantW) {
		t.Errorf("wishart keys %v, want %v", got, wantW)
	}
	wantG := []string{"beta_bar_n", "gamma", "rho_max", "rho_min", "shift", "sigma_noise", "upsilon"}
	if got := keys(gauss); !slices.Equal(got, wantG) {
		t.Errorf("gaussian keys %v, want %v", got, wantG)
	}

	var v struct {
		M       int
		Wishart struct {
			K     int
			Shift float64
		}
		Gaussian struct {
			Upsilon  float64
			BetaBarN float64 `json:"beta_bar_n"`
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	// Hand-computed from the printed formulas (see dpb/ss18/bounds_test.go).
	if v.M != 27 || v.Wishart.K != 139115 {
		t.Errorf("m = %d, k = %d; want 27, 139115", v.M, v.Wishart.K)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"shift", v.Wishart.Shift, 7258941.313422963},
		{"upsilon", v.Gaussian.Upsilon, 91545.47281826376},
		{"gaussian beta_bar_n", v.Gaussian.BetaBarN, 560.1126399389942},
	} {
		if math.Abs(c.got-c.want) > 1e-9*c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestBoundsTableAndErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := runBounds(&buf, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"139115", "239278", "Claim 20", "corrected"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	for _, args := range [][]string{
		{"--n", "2.5"}, {"--n", "0"}, {"--eps", "0"}, {"--delta", "1"}, {"--d", "0"},
		{"--Lt2", "-1"}, {"--alpha", "2"}, {"--bogus"}, {"extra"},
	} {
		if err := runBounds(&bytes.Buffer{}, args); err == nil {
			t.Errorf("runBounds(%q) accepted", args)
		}
	}
}
