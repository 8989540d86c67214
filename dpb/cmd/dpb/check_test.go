package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/check"
	"github.com/dpbandits/dpbandits/dpb/harness"
)

// fakeChecks replaces the checks runCheck calls by stubs that record the
// config they were given and return one passing verdict and one erratum
// named after the check, so that the command's tests check its wiring (flags
// into the config, shards and merge, text and JSON, exit status) without
// running the checks again: dpb/check's tests run them (TestCheckSS18Short,
// TestCheckMT14Short, TestCheckAS17Short and the sharded merges).
type fakeChecks struct {
	calls []string
	cfgs  map[string]any
	fail  string // a check whose stub returns an unexpected failure
}

func useFakeChecks(t *testing.T) *fakeChecks {
	t.Helper()
	f := &fakeChecks{cfgs: map[string]any{}}
	saved := []any{checkSS18, checkSS18Trees, checkSS18Scaled, checkSS18Prop4, checkMT14, checkAS17, checkMinEig}
	t.Cleanup(func() {
		checkSS18 = saved[0].(func(check.SS18Config) (check.Verdicts, error))
		checkSS18Trees = saved[1].(func(check.SS18Config) (check.Verdicts, error))
		checkSS18Scaled = saved[2].(func(check.SS18Config) (check.Verdicts, error))
		checkSS18Prop4 = saved[3].(func(check.SS18Config) (check.Verdicts, error))
		checkMT14 = saved[4].(func(check.MT14Config) (check.Verdicts, error))
		checkAS17 = saved[5].(func(check.AS17Config) (check.Verdicts, error))
		checkMinEig = saved[6].(func(check.MinEigCoverageConfig) (check.Verdicts, error))
	})
	verdicts := func(name string) check.Verdicts {
		ok := check.Verdict{Name: name + "-ok", Reference: "stub", Trials: 10, Pass: true, Slack: 0.5}
		bad := check.Verdict{Name: name + "-printed", Reference: "stub", Trials: 10, Failures: 10, Erratum: true}
		vs := check.Verdicts{ok, bad}
		if f.fail == name {
			vs = append(vs, check.Verdict{Name: name + "-broken", Reference: "stub", Trials: 10, Failures: 10})
		}
		return vs
	}
	ss18 := func(name string) func(check.SS18Config) (check.Verdicts, error) {
		return func(c check.SS18Config) (check.Verdicts, error) {
			f.calls = append(f.calls, name)
			f.cfgs[name] = c
			return verdicts(name), nil
		}
	}
	checkSS18, checkSS18Trees, checkSS18Scaled, checkSS18Prop4 = ss18("ss18"), ss18("ss18-trees"), ss18("ss18-scaled"), ss18("ss18-prop4")
	checkMT14 = func(c check.MT14Config) (check.Verdicts, error) {
		f.calls = append(f.calls, "mt14")
		f.cfgs["mt14"] = c
		return verdicts("mt14"), nil
	}
	checkAS17 = func(c check.AS17Config) (check.Verdicts, error) {
		f.calls = append(f.calls, "as17")
		f.cfgs["as17"] = c
		return verdicts("as17"), nil
	}
	checkMinEig = func(c check.MinEigCoverageConfig) (check.Verdicts, error) {
		f.calls = append(f.calls, "mineig")
		f.cfgs["mineig"] = c
		return verdicts("mineig"), nil
	}
	return f
}

// TestCheckMinEigCommand: check ss18 -mineig runs only the RadiusMinEig
// coverage check, with -d, -policyn (2000 under -short when unset), -reps,
// -seed and -workers in its config, and refuses -trees and other papers.
func TestCheckMinEigCommand(t *testing.T) {
	f := useFakeChecks(t)
	var b bytes.Buffer
	args := []string{"ss18", "-mineig", "-json", "-seed", "3", "-d", "4", "-policyn", "5000", "-reps", "7", "-workers", "1"}
	if err := runCheck(&b, args); err != nil {
		t.Fatalf("dpb check %v: %v\n%s", args, err, b.String())
	}
	got := f.cfgs["mineig"].(check.MinEigCoverageConfig)
	want := check.MinEigCoverageConfig{D: 4, N: 5000, Reps: 7, Seed: 3, RunOptions: harness.RunOptions{Workers: 1}}
	got.Plan = nil
	if !reflect.DeepEqual(got, want) || strings.Join(f.calls, ",") != "mineig" {
		t.Errorf("calls %v with config %+v, want mineig with %+v", f.calls, got, want)
	}
	var out checkJSON
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b.String())
	}
	if out.Config["k"] != 25.0 || out.Config["n"] != 5000.0 {
		t.Errorf("config %v does not record the resolved K and n", out.Config)
	}
	f.calls = nil
	if err := runCheck(io.Discard, []string{"ss18", "-mineig", "-short"}); err != nil {
		t.Fatal(err)
	}
	if n := f.cfgs["mineig"].(check.MinEigCoverageConfig).N; n != 2000 {
		t.Errorf("-short without -policyn: n = %d, want 2000", n)
	}
	for _, bad := range [][]string{{"ss18", "-mineig", "-trees"}, {"mt14", "-mineig"}, {"all", "-mineig"}} {
		if err := runCheck(io.Discard, bad); err == nil {
			t.Errorf("dpb check %v accepted", bad)
		}
	}
}

type checkJSON struct {
	Config   map[string]any `json:"config"`
	Verdicts []struct {
		Name    string `json:"name"`
		Pass    bool   `json:"pass"`
		Erratum bool   `json:"erratum"`
	} `json:"verdicts"`
}

// TestCheckSS18Command: the flags reach the check's config, -json prints
// the config and the verdicts in snake_case, the text table prints each
// verdict, and errata do not fail the command.
func TestCheckSS18Command(t *testing.T) {
	f := useFakeChecks(t)
	var b bytes.Buffer
	args := []string{"ss18", "-short", "-json", "-seed", "9", "-d", "4", "-n", "300", "-reps", "5", "-trials", "700", "-policyn", "150", "-workers", "1"}
	if err := runCheck(&b, args); err != nil {
		t.Fatalf("dpb check %v: %v\n%s", args, err, b.String())
	}
	want := check.SS18Config{Seed: 9, Short: true, D: 4, N: 300, Reps: 5, Trials: 700, RunOptions: harness.RunOptions{Workers: 1}, PolicyN: 150}
	got := f.cfgs["ss18"].(check.SS18Config)
	got.Plan = nil
	if got != want || strings.Join(f.calls, ",") != "ss18" {
		t.Errorf("calls %v with config %+v, want ss18 with %+v", f.calls, got, want)
	}
	var out checkJSON
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b.String())
	}
	if len(out.Verdicts) != 2 || out.Verdicts[0].Name != "ss18-ok" || !out.Verdicts[1].Erratum {
		t.Errorf("verdicts %+v", out.Verdicts)
	}
	if out.Config["policy_n"] != 150.0 || out.Config["seed"] != 9.0 {
		t.Errorf("config %v does not record -policyn and -seed", out.Config)
	}
	b.Reset()
	if err := runCheck(&b, []string{"ss18", "-short"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"ss18-ok", "ss18-printed"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text table lacks %s:\n%s", s, b.String())
		}
	}
	if err := runCheck(&b, []string{"ss17"}); err == nil {
		t.Error("unknown paper accepted")
	}
	if err := runCheck(&b, []string{"mt14", "-trees"}); err == nil {
		t.Error("-trees accepted for mt14")
	}
	if err := runCheck(&b, []string{"ss18", "-n", "100000"}); err == nil || !strings.Contains(err.Error(), "-trees") {
		t.Errorf("-n above the dense limit without -trees: err = %v", err)
	}
	f.fail = "ss18"
	if err := runCheck(io.Discard, []string{"ss18", "-short"}); err == nil || !strings.Contains(err.Error(), check.FailedMarker) {
		t.Errorf("an unexpected failure: err = %v, want %s", err, check.FailedMarker)
	}
}

// TestCheckAllCommand: "check all" runs the three papers in order, each
// with its flags, and prints one table per paper (one JSON object with a
// config per paper).
func TestCheckAllCommand(t *testing.T) {
	f := useFakeChecks(t)
	var b bytes.Buffer
	if err := runCheck(&b, []string{"all", "-short", "-reps", "3", "-trials", "100", "-seed", "4"}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.calls, ",") != "ss18,mt14,as17" {
		t.Errorf("calls %v", f.calls)
	}
	if c := f.cfgs["mt14"].(check.MT14Config); !reflect.DeepEqual(c, check.MT14Config{Seed: 4, Short: true, Reps: 3, Trials: 100}) {
		t.Errorf("mt14 config %+v", c)
	}
	if c := f.cfgs["as17"].(check.AS17Config); !reflect.DeepEqual(c, check.AS17Config{Seed: 4, Short: true, Reps: 3, Trials: 100}) {
		t.Errorf("as17 config %+v", c)
	}
	for _, s := range []string{"== ss18", "== mt14", "== as17", "as17-printed"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, b.String())
		}
	}
	b.Reset()
	if err := runCheck(&b, []string{"all", "-json"}); err != nil {
		t.Fatal(err)
	}
	var out checkJSON
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Verdicts) != 6 || out.Config["mt14"] == nil || out.Config["as17"] == nil || out.Config["ss18"] == nil {
		t.Errorf("JSON of check all: %d verdicts, config %v", len(out.Verdicts), out.Config)
	}
	f.fail = "as17"
	if err := runCheck(io.Discard, []string{"all"}); err == nil {
		t.Error("a failure in as17 did not fail check all")
	}
}

// TestCheckShardRouting: a shard of check ss18 runs the checks that grow
// with n (Scaled and Prop4, or Trees with -trees) into the store under the
// shard's plan and prints nothing; -merge runs the full check under a merge
// plan.
func TestCheckShardRouting(t *testing.T) {
	f := useFakeChecks(t)
	S := filepath.Join(t.TempDir(), "S")
	var b bytes.Buffer
	if err := runCheck(&b, []string{"ss18", "-store", S, "-shard", "1/3"}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.calls, ",") != "ss18-scaled,ss18-prop4" || b.Len() != 0 {
		t.Errorf("a shard called %v and printed %q", f.calls, b.String())
	}
	if p := f.cfgs["ss18-prop4"].(check.SS18Config).Plan; p == nil || p.Store == nil || p.Shard.I != 1 || p.Shard.N != 3 {
		t.Errorf("the shard's plan %+v", p)
	}
	f.calls = nil
	if err := runCheck(&b, []string{"ss18", "-trees", "-store", S, "-shard", "0/3"}); err != nil || strings.Join(f.calls, ",") != "ss18-trees" {
		t.Errorf("-trees shard: calls %v, err %v", f.calls, err)
	}
	f.calls = nil
	if err := runCheck(&b, []string{"ss18", "-store", S, "-merge"}); err != nil {
		t.Fatal(err)
	}
	if p := f.cfgs["ss18"].(check.SS18Config).Plan; strings.Join(f.calls, ",") != "ss18" || p == nil || !p.Merge {
		t.Errorf("-merge: calls %v, plan %+v", f.calls, p)
	}
	if !strings.Contains(b.String(), "ss18-ok") {
		t.Errorf("-merge printed no verdicts:\n%s", b.String())
	}
	for _, args := range [][]string{{"ss18", "-shard", "0/2"}, {"ss18", "-merge"}, {"ss18", "-store", S, "-merge", "-shard", "0/2"}, {"as17", "-store", S}} {
		if err := runCheck(io.Discard, args); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	checkSS18 = func(check.SS18Config) (check.Verdicts, error) { return nil, errors.New("boom") }
	if err := runCheck(io.Discard, []string{"ss18"}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a check's error: err = %v", err)
	}
}
