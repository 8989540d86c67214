package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dpbandits/dpbandits/dpb/internal/perf"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/internal/snap"
)

// TestBenchJSON runs "dpb bench -json" for each variant on a tiny loop and
// checks the report: the timing, the CPU and kernel, the work and the bound
// (flops of the scoring at the measured FMA peak, normals at the measured
// rate) and their ratio.
func TestBenchJSON(t *testing.T) {
	for _, alg := range []string{"nonprivate", "gaussian", "wishart"} {
		for _, env := range []string{"true", "false"} {
			out := captureStdout(t, func() error {
				return runBench([]string{"--alg", alg, "--d", "3", "--K", "9", "--rounds", "500", "--env=" + env, "--json"})
			})
			var m map[string]any
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("%s env=%s: %v in %q", alg, env, err, out)
			}
			num := func(key string) float64 {
				v, ok := m[key].(float64)
				if !ok {
					t.Fatalf("%s env=%s: no number %q in %v", alg, env, key, m)
				}
				return v
			}
			for _, key := range []string{"us_per_round", "best_us_per_round", "fma_peak_gflops", "normal_ns", "bound_us", "ratio_to_bound", "paired_ratio_median", "paired_ratio_best"} {
				if !(num(key) > 0) {
					t.Errorf("%s env=%s: %s = %v, want > 0", alg, env, key, m[key])
				}
			}
			if num("allocs_per_round") < 0 || num("best_us_per_round") > num("us_per_round")*1.0001 {
				t.Errorf("%s env=%s: allocs %v, best %v > mean %v", alg, env, m["allocs_per_round"], m["best_us_per_round"], m["us_per_round"])
			}
			if num("paired_chunks") != benchPairedChunks || num("paired_ratio_best") > num("paired_ratio_median") {
				t.Errorf("%s env=%s: paired chunks %v (want %d), best %v, median %v", alg, env, m["paired_chunks"], benchPairedChunks, m["paired_ratio_best"], m["paired_ratio_median"])
			}
			if got, want := num("flops_per_round"), 9.0*(3*4+4*3); got != want {
				t.Errorf("flops_per_round = %v, want %v", got, want)
			}
			wantNormals := 0.0
			if env == "true" {
				wantNormals += 9 * 3
			}
			if alg != "nonprivate" {
				wantNormals += 4 * 5 / 2
			}
			if got := num("normals_per_round"); got != wantNormals {
				t.Errorf("%s env=%s: normals_per_round = %v, want %v", alg, env, got, wantNormals)
			}
			if m["kernel"] != simd.Kernel() || m["cpu"] == "" || num("stream_version") != snap.StreamVersion {
				t.Errorf("kernel %v (want %s), cpu %v, stream_version %v", m["kernel"], simd.Kernel(), m["cpu"], m["stream_version"])
			}
		}
	}
	if err := runBench([]string{"--alg", "nope"}); err == nil || !strings.Contains(err.Error(), "unknown SS18 algorithm") {
		t.Errorf("unknown algorithm: err = %v", err)
	}
	if err := runBench([]string{"-kernel", "sse9"}); err == nil || !strings.Contains(err.Error(), "kernel") {
		t.Errorf("unknown kernel: err = %v", err)
	}
}

// TestBenchPeak runs "dpb bench -peak -json" and checks that every FMA unit
// the kernels use was measured, and the normal rates. It does not compare
// the units' rates (AVX2 above scalar, say): two timings taken one after the
// other are no test on a loaded host.
func TestBenchPeak(t *testing.T) {
	def := simd.Kernel()
	defer simd.SetKernel(def)
	out := captureStdout(t, func() error { return runBench([]string{"-peak", "-json", "-kernel", "go"}) })
	var p perf.Peak
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if p.Kernel != "go" || p.CPU == "" || !(p.FMAScalarGFlops > 0) || !(p.NormalNs > 0) || !(p.ChaCha8NormalNs > 0) {
		t.Fatalf("peak %+v", p)
	}
	for _, k := range p.Kernels {
		switch k {
		case "avx2":
			if !(p.FMAAVX2GFlops > 0) {
				t.Errorf("AVX2 kernel but no AVX2 peak: %+v", p)
			}
		case "avx512":
			if !(p.FMAAVX512GFlops > 0) {
				t.Errorf("AVX-512 kernel but no AVX-512 peak: %+v", p)
			}
		}
	}
}

func captureStdout(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	ferr := f()
	os.Stdout = old
	w.Close()
	b, _ := io.ReadAll(r)
	if ferr != nil {
		t.Fatal(ferr)
	}
	return string(b)
}

// TestBenchFig4 runs dpb bench -fig4 -json both ways: the paper's 3.5·10⁹
// job-rounds, the extrapolation from the mean, no allocations; and the flags
// that do not apply are rejected.
func TestBenchFig4(t *testing.T) {
	for _, alone := range []string{"false", "true"} {
		out := captureStdout(t, func() error {
			return runBench([]string{"-fig4", "-alone=" + alone, "-rounds", "2000", "-horizon", "4000", "-json"})
		})
		var m fig4Report
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("alone=%s: %v in %q", alone, err, out)
		}
		if m.PaperJobRounds != 3500000000 || m.Together != (alone == "false") || m.Horizon != 4000 || m.CPU == "" || m.Kernel != simd.Kernel() {
			t.Errorf("alone=%s: %+v", alone, m)
		}
		if !(m.MicrosPerRound > 0) || m.AllocsPerRound > 0.01 {
			t.Errorf("alone=%s: %v µs, %v allocs a round", alone, m.MicrosPerRound, m.AllocsPerRound)
		}
		if want := 3.5e9 * m.MicrosPerRound / 1e6 / 3600; math.Abs(m.PaperCoreHours-want) > 1e-9*want || math.Abs(m.PaperMinutes2-want*30) > 1e-9*want*30 {
			t.Errorf("alone=%s: %v core-hours, %v minutes on 2 cores; want %v and %v", alone, m.PaperCoreHours, m.PaperMinutes2, want, want*30)
		}
	}
	for _, args := range [][]string{{"-fig4", "-alg", "wishart"}, {"-fig4", "-K", "9"}, {"-alone"}, {"-horizon", "9"}, {"-fig4", "-rounds", "10", "-horizon", "9"}} {
		if err := runBench(args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestBenchChunks: dpb bench gives the chunks only when -chunks asks for
// them: in -json as the two arrays (100 chunks of 20 rounds; the thread CPU
// time on Linux), in text as the two lines and the count of fast chunks,
// with -fig4 and without.
func TestBenchChunks(t *testing.T) {
	for _, fig4 := range []bool{false, true} {
		args := []string{"-rounds", "2000"}
		if fig4 {
			args = append(args, "-fig4", "-horizon", "4000")
		}
		for _, chunks := range []bool{false, true} {
			a := append(slices.Clone(args), "-json", fmt.Sprintf("-chunks=%v", chunks))
			out := captureStdout(t, func() error { return runBench(a) })
			var m struct {
				Wall []float64 `json:"chunk_us_per_round"`
				CPU  []float64 `json:"chunk_cpu_us_per_round"`
			}
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("%v: %v", a, err)
			}
			wantCPU := 0
			if chunks && runtime.GOOS == "linux" {
				wantCPU = 100
			}
			if wantWall := map[bool]int{false: 0, true: 100}[chunks]; len(m.Wall) != wantWall || len(m.CPU) != wantCPU {
				t.Errorf("%v: %d wall and %d CPU chunks, want %d and %d", a, len(m.Wall), len(m.CPU), wantWall, wantCPU)
			}
		}
		a := append(slices.Clone(args), "-chunks")
		out := captureStdout(t, func() error { return runBench(a) })
		if !strings.Contains(out, "chunks, wall µs a round in order: ") || !strings.Contains(out, " of 100 chunks within 10 % of the fastest") {
			t.Errorf("%v: %q", a, out)
		}
	}
}
