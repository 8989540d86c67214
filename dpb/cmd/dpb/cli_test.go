package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// TestCLIConvention runs command lines in-process and checks the exit status
// (0 success or -h, 1 failure, 2 usage error) and the one-prefix message.
func TestCLIConvention(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		msg  string // substring of stderr ("" for none)
	}{
		{nil, 2, "usage: dpb COMMAND"},
		{[]string{"-h"}, 0, ""},
		{[]string{"help"}, 0, ""},
		{[]string{"help", "bounds"}, 0, ""},
		{[]string{"help", "nope"}, 2, `help: unknown command "nope"`},
		{[]string{"nope"}, 2, `unknown command "nope"`},
		{[]string{"bounds", "-eps", "1e200"}, 2, "-eps 1e+200 is above 1e+06"}, // issue 40, Low
		{[]string{"reproduce", "as17-table1", "-short", "-minn", "1", "-out", out}, 2, "1 is outside [3,"},             // issue 40, Low
		{[]string{"reproduce", "ss18-fig3", "-short", "-dims", "4", "-out", out}, 2, "at least 2 distinct dimensions"}, // issue 40, Low
		{[]string{"help", "-h"}, 0, ""}, // issue 40, Low
		{[]string{"reproduc"}, 2, `unknown command "reproduc"; did you mean "reproduce"?`}, // issue 40, Low
		{[]string{"help", "stor"}, 2, `unknown command "stor"; did you mean "store"?`},     // issue 40, Low
		{[]string{"audit", "nope"}, 2, "unknown"},                                          // issue 40, Low
		{[]string{"audit", "-list", "extra"}, 2, "-list takes no names"},                   // issue 40, Low
		{[]string{"bounds", "-h"}, 0, ""},
		{[]string{"bounds", "--help"}, 0, ""},
		{[]string{"bench", "-h"}, 0, ""},
		{[]string{"check", "-h"}, 0, ""},
		{[]string{"data", "-h"}, 0, ""},
		{[]string{"reproduce", "-h"}, 0, ""},
		{[]string{"reproduce", "-list"}, 0, ""},
		{[]string{"reproduce", "ss18-fig4", "-h"}, 0, ""},
		{[]string{"reproduce"}, 2, "want a figure name"},
		{[]string{"reproduce", "nope"}, 2, `unknown figure "nope"`},
		{[]string{"reproduce", "-n", "5", "ss18-fig1"}, 2, "the figure name comes first"},
		{[]string{"bounds", "extra"}, 2, `bounds: unexpected argument "extra"`},
		{[]string{"bounds", "-nope"}, 2, "flag provided but not defined: -nope"},
		{[]string{"bounds", "-n", "2.5"}, 2, `invalid value "2.5" for flag -n: 2.5 is not an integer`},
		{[]string{"bounds", "-n", "-5"}, 2, `-5 is outside [1, 100000000]`},
		{[]string{"bounds", "-n", "1e10"}, 2, `1e10 is outside [1, 100000000]`},
		{[]string{"bounds", "-eps", "1e-8"}, 2, "above 2^53"},
		{[]string{"bounds", "-eps", "NaN"}, 2, "epsilon"},
		{[]string{"bounds", "-n=2e4", "--d", "3", "-Lt2=2", "-json"}, 0, ""},
		{[]string{"check", "ss18", "-n", "1e18"}, 2, `1e18 is outside [0, 100000000]`},
		{[]string{"check", "ss18", "-d", "1e6"}, 2, "1e6 is outside [0, 64]"},
		{[]string{"reproduce", "ss18-fig2", "-dims", "4,8,2.5"}, 2, "2.5 is not an integer"},
		{[]string{"reproduce", "mt14-fig1-k5", "-eps", "0"}, 2, `entry "0", want a number in [1e-06, 1e+06]`},
		{[]string{"check", "nope"}, 2, `unknown paper "nope"`},
		{[]string{"check", "mt14", "-store", out}, 2, "supported by check ss18 only"},
		{[]string{"store"}, 2, "want a directory"},
		{[]string{"store", out, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"store", "-h"}, 0, ""},
		{[]string{"reproduce", "mt14-fig2-obd", "-n", "500", "-out", out}, 2, "the OBD log is replayed whole"}, // issue 40, item 12
		{[]string{"reproduce", "mt14-fig2-obd-bts", "-n", "500", "-out", out}, 2, "the OBD logs are replayed whole"},
		{[]string{"check"}, 2, "want a paper"},
		{[]string{"check", "ss18", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"bench", "-d", "1e6"}, 2, "1e6 is outside [2, 128]"},
		{[]string{"bench", "-d", "128", "-K", "65536"}, 2, "numbers per decision set, at most"},
		{[]string{"bench", "-alg", "nope"}, 2, "unknown SS18 algorithm"},
		{[]string{"bench", "-rounds", "-1"}, 2, "-1 is outside [1,"},
		{[]string{"reproduce", "as17-table1", "-short", "-minn", "0"}, 2, "0 is outside [3,"},
		{[]string{"reproduce", "as17-table1", "-short", "-n", "256", "-minn", "1024"}, 2, "below -minn"},
		{[]string{"reproduce", "as17-table1", "-dim", "1000000"}, 2, "-dim: 1000000 is outside [2, 16]"},
		{[]string{"reproduce", "as17-table1", "-eps", "1,NaN"}, 2, `entry "NaN", want a number in`},
		{[]string{"reproduce", "as17-table1", "-epsn", "-1"}, 2, "-1 is outside [0,"},
		{[]string{"reproduce", "ss18-fig2", "-dims", "1000000"}, 2, "1000000 is outside [2, 128]"},
		{[]string{"reproduce", "ss18-fig2", "-dims", "4,x"}, 2, `"x" is not an integer`},
		{[]string{"reproduce", "ss18-fig1", "-azimuth", "NaN"}, 2, "invalid value NaN for flag -azimuth"},
		{[]string{"reproduce", "ss18-fig1", "stray"}, 2, `unexpected argument "stray"`},
		{[]string{"reproduce", "ss18-fig1", "-k", "0"}, 2, "0 is outside [1, 100000]"},
		{[]string{"reproduce", "ss18-fig4", "-n", "-5"}, 2, "-5 is outside [0, 1000000000]"},
		{[]string{"reproduce", "ss18-fig4", "-runs", "-1"}, 2, "-1 is outside [0,"},
		{[]string{"reproduce", "ss18-fig4", "-workers", "-1"}, 2, "-1 is outside [0, 1024]"},
		{[]string{"reproduce", "ss18-fig4", "-plotto", "-1"}, 2, "-1 is outside [0,"},
		{[]string{"reproduce", "ss18-fig5", "-rhos", "-1"}, 2, "-1 is outside [0, 64]"},
		{[]string{"reproduce", "ss18-fig4", "-seed", "2e4"}, 2, `invalid value "2e4" for flag -seed`},
		{[]string{"reproduce", "ss18-fig4", "-out"}, 2, "flag needs an argument: -out"},
		{[]string{"reproduce", "mt14-fig2-shuttle", "-delays", "2.7"}, 2, `2.7 is not an integer`},
		{[]string{"reproduce", "mt14-fig2-shuttle", "-delays", "-1"}, 2, `-1 is outside [0,`},
		{[]string{"reproduce", "mt14-fig2-obd", "-campaign", "kids", "-data", out}, 2, "want men or women"},
		{[]string{"reproduce", "mt14-fig2-shuttle", "-data", out, "-short"}, 1, "dpb data fetch uci -dir " + out},
		{[]string{"reproduce", "ss18-fig1", "-out=" + out, "-k=2e2", "--progress=false"}, 0, ""},
		{[]string{"audit", "-h"}, 0, ""},
		{[]string{"audit", "-trials", "-3"}, 2, "-3 is outside [0,"},
		{[]string{"slurm", "-h"}, 0, ""},
		{[]string{"slurm"}, 2, "want a figure name"},
		{[]string{"slurm", "-shards", "2", "ss18-fig4"}, 2, "the figure name comes first"},
		{[]string{"slurm", "ss18-fig4", "-shards", "-1", "-store", out}, 2, "-1 is outside [0, 100000]"},
		{[]string{"slurm", "ss18-fig4", "-shards", "2"}, 2, "-store DIR is required"},
		{[]string{"reproduce", "beyond-counters", "-maxlog", "99"}, 2, "99 is outside [10, 30]"},
		{[]string{"reproduce", "ss18-fig4", "-shard", "1/2", "-out", out}, 2, "-shard and -merge need -store DIR"},
		{[]string{"check", "ss18", "-n", "100000"}, 2, "add -trees"},
		{[]string{"check", "mt14", "-trees"}, 2, "supported by check ss18 only"},
		{[]string{"data"}, 2, "want a subcommand"},
		{[]string{"data", "fetch", "yahoo"}, 2, `data set "yahoo", want one of obd, uci, all`},
		{[]string{"data", "fetch", "obd", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"data", "fetch", "-manifest", filepath.Join(out, "none.json")}, 1, "no such file"},
	} {
		var stderr bytes.Buffer
		code := runMain(c.args, &stderr)
		msg := stderr.String()
		if code != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("dpb %q: exit %d, stderr %q; want exit %d and %q", c.args, code, msg, c.code, c.msg)
		}
		if strings.Contains(msg, "dpb: dpb") || strings.Count(msg, "dpb: ") > 1 {
			t.Errorf("dpb %q: more than one prefix in %q", c.args, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "ss18-fig1.json")); err != nil {
		t.Errorf("-out=DIR did not write there: %v", err)
	}
	// -k=2e2 was honoured.
	b, _ := os.ReadFile(filepath.Join(out, "ss18-fig1.csv"))
	if got := strings.Count(string(b), "\n"); got != 201 {
		t.Errorf("ss18-fig1 with -k=2e2 wrote %d lines, want 201", got)
	}
}

func TestParseCount(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"20000", 20000, true}, {"2e4", 20000, true}, {"1.5e3", 1500, true}, {"2.7", 0, false},
		{"1e30", 0, false}, {"NaN", 0, false}, {"Inf", 0, false}, {"-1", 0, false}, {"", 0, false}, {"0x10", 0, false},
		{"1_0", 0, false}, {"1_000e1", 0, false}, {"0x1p4", 0, false},
	} {
		got, err := parseCount(c.in, 0, 1e9)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseCount(%q) = %d, %v", c.in, got, err)
		}
	}
}

// Numbers on the command line are decimal: Go's flag package and
// strconv read "1_0" as 10 (ParseFloat, and ParseInt/ParseUint with base
// 0) and "0x10" as 16 (base 0, flag.Uint64's, which also read -seed 010
// as seed 8; it is 10 now), so -k 1_0 ran ten actions.
func TestNumbersAreDecimal(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"reproduce", "ss18-fig1", "-k", "1_0", "-out", out}, `invalid value "1_0" for flag -k: "1_0" is not a decimal number`},
		{[]string{"reproduce", "ss18-fig4", "-short", "-n", "2", "-runs", "1", "-seed", "0x10", "-out", out}, `invalid value "0x10" for flag -seed`},
		{[]string{"reproduce", "ss18-fig4", "-short", "-n", "2", "-runs", "1", "-seed", "1_0", "-out", out}, `invalid value "1_0" for flag -seed`},
		{[]string{"reproduce", "ss18-fig2", "-short", "-n", "2", "-runs", "1", "-dims", "4,1_0", "-out", out}, `"1_0" is not a decimal number`},
		{[]string{"reproduce", "mt14-fig1-k5", "-short", "-n", "2", "-runs", "1", "-eps", "0.1,1_0", "-out", out}, `entry "1_0", want a number`},
		{[]string{"bounds", "-eps", "1_0"}, `invalid value "1_0" for flag -eps: "1_0" is not a decimal number`},
		{[]string{"bounds", "-delta", "0x1p-4"}, `invalid value "0x1p-4" for flag -delta`},
	} {
		var stderr bytes.Buffer
		if code := runMain(c.args, &stderr); code != 2 || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("dpb %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, stderr.String(), c.msg)
		}
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"RhoMin": "rho_min", "NormCTR": "norm_ctr", "CTRSE": "ctrse", "D": "d", "Lt2": "lt2",
		"wishart_k": "wishart_k", "NoRelaxation": "no_relaxation", "rep0 ctr": "rep0 ctr", "MicrosPerRound": "micros_per_round",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCodeVersionNeverAsksGit(t *testing.T) {
	// go test never stamps vcs.revision: the version is "unknown", not the
	// git state of the working directory (what the old fallback returned).
	if v := codeVersion(); v != "unknown" {
		t.Errorf("codeVersion() = %q", v)
	}
}

// TestJSONKeysSnakeCase: every object key of bounds, bench, check and figure
// metadata JSON is snake_case (the issue found RhoMin beside wishart_k).
func TestJSONKeysSnakeCase(t *testing.T) {
	dir := t.TempDir()
	var outs [][]byte
	var b bytes.Buffer
	if err := runBounds(&b, []string{"-json"}); err != nil {
		t.Fatal(err)
	}
	outs = append(outs, append([]byte(nil), b.Bytes()...))
	b.Reset()
	useFakeChecks(t) // the real config and Verdict types, without running the checks
	if err := runCheck(&b, []string{"ss18", "-short", "-json", "-n", "64", "-reps", "4", "-trials", "200"}); err != nil {
		t.Fatal(err)
	}
	outs = append(outs, append([]byte(nil), b.Bytes()...))
	f, err := os.Create(filepath.Join(dir, "bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = f
	err = runBench([]string{"-rounds", "200", "-json"})
	os.Stdout = stdout
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	bench, _ := os.ReadFile(filepath.Join(dir, "bench.json"))
	outs = append(outs, bench)
	if code := runMain([]string{"reproduce", "mt14-fig1-k5", "-short", "-n", "2e3", "-runs", "2", "-out", dir}, &b); code != 0 {
		t.Fatalf("reproduce: exit %d: %s", code, b.String())
	}
	meta, _ := os.ReadFile(filepath.Join(dir, "mt14-fig1-k5.json"))
	outs = append(outs, meta)
	key := regexp.MustCompile(`"([^"]+)":`)
	snake := regexp.MustCompile(`^[a-z0-9_]+$`)
	for i, o := range outs {
		if len(o) == 0 {
			t.Fatalf("output %d empty", i)
		}
		for _, m := range key.FindAllSubmatch(o, -1) {
			if k := string(m[1]); !snake.MatchString(k) {
				t.Errorf("output %d (bounds, check, bench, metadata): key %q is not snake_case", i, k)
			}
		}
	}
}

// TestVersionStamp: "dpb version" prints the semantic version and the
// commit of a stamped build, says "+dirty" for a tree with uncommitted
// changes, and without a stamp says so and how to get one. The fake build
// infos are the three cases; the unstamped one is also the control (it must
// not print a commit).
func TestVersionStamp(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	info := func(kv ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{}
			for i := 0; i < len(kv); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
			}
			return bi, true
		}
	}
	for _, c := range []struct {
		read       func() (*debug.BuildInfo, bool)
		code       string
		want, omit string
	}{
		{info("vcs.revision", rev, "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "false"), rev, "commit: " + rev + " (2026-01-02T03:04:05Z)\n", "unknown"},
		{info("vcs.revision", rev, "vcs.modified", "true"), rev + "+dirty", "uncommitted changes", "unknown"},
		{info(), "unknown", "go build -buildvcs=true", rev},
		{func() (*debug.BuildInfo, bool) { return nil, false }, "unknown", "not stamped", rev},
	} {
		s := readStamp(c.read)
		if s.Code() != c.code {
			t.Errorf("Code() = %q, want %q", s.Code(), c.code)
		}
		var b bytes.Buffer
		if err := writeVersion(&b, s); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.HasPrefix(out, "dpb "+snap.Version+" (") || !strings.Contains(out, c.want) || strings.Contains(out, c.omit) {
			t.Errorf("version output %q: want prefix %q, %q in it and no %q", out, "dpb "+snap.Version, c.want, c.omit)
		}
	}
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}, {"version", "-h"}} {
		if code := runMain(args, io.Discard); code != 0 {
			t.Errorf("dpb %v: exit %d, want 0", args, code)
		}
	}
	if code := runMain([]string{"version", "extra"}, io.Discard); code != 2 {
		t.Errorf("dpb version extra: exit %d, want 2", code)
	}
}

// TestJSONRecordsVersion: check and audit JSON record the semantic version,
// the code version and the Go version (figure JSON: TestAS17FiguresSmoke).
func TestJSONRecordsVersion(t *testing.T) {
	for _, args := range [][]string{{"mt14", "-short", "-json"}} {
		var b bytes.Buffer
		if err := runCheck(&b, args); err != nil {
			t.Fatal(err)
		}
		requireProvenance(t, "check "+strings.Join(args, " "), b.Bytes())
	}
	var b bytes.Buffer
	if err := runAudit(&b, []string{"laplace-tree-plain", "-short", "-json"}); err != nil {
		t.Fatal(err)
	}
	requireProvenance(t, "audit", b.Bytes())
}

func requireProvenance(t *testing.T, what string, raw []byte) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if m["version"] != snap.Version || m["code_version"] != "unknown" || m["go_version"] != runtime.Version() {
		t.Errorf("%s JSON records version %v, code_version %v, go_version %v: want %s, unknown (go test stamps nothing), %s",
			what, m["version"], m["code_version"], m["go_version"], snap.Version, runtime.Version())
	}
}
