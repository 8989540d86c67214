package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/dpbandits/dpbandits/dpb/harness"
)

// The memory budget: every command estimates, from its flags and before it
// allocates anything in proportion to them, the memory its run will hold,
// and refuses (a usage error, exit status 2) an estimate above -max-memory.
// An estimate is a sum of parts, each naming the flags that size it; the
// heap's share counts twice (the garbage collector lets the heap grow to
// twice what is live before it collects), above a fixed share for the
// process itself. Under the limit, the runtime's soft memory limit
// (debug.SetMemoryLimit) is set to it, so the collector works harder rather
// than exceed it.

// maxMemory is -max-memory in bytes; 0 means the default (memoryDefault).
var maxMemory int64

// processBytes is the memory of the process before any work: the Go
// runtime, the binary's data, gonum/plot's fonts (a run of dpb version
// peaks at 12 MB, a short check at 20 MB).
const processBytes = 40 << 20

// memPart is one part of a command's memory: what holds it, the flags
// that size it ("" for a part no flag sizes) and its live bytes.
type memPart struct {
	what  string
	flags string
	bytes float64
}

// memEstimate is a command's memory: its parts, summed.
type memEstimate []memPart

// total returns the estimated peak memory of the process: processBytes,
// plus twice the live bytes of the parts (the collector's headroom).
func (e memEstimate) total() float64 {
	t := float64(processBytes)
	for _, p := range e {
		t += 2 * p.bytes
	}
	return t
}

// largest returns the part with the most bytes.
func (e memEstimate) largest() memPart {
	var best memPart
	for _, p := range e {
		if p.bytes > best.bytes {
			best = p
		}
	}
	return best
}

// memoryDefault is -max-memory's default and the way it was found: half
// of MemTotal (/proc/meminfo), or 4 GiB where that cannot be read; under
// an address-space limit (ulimit -v), at most that limit less 2 GiB (at
// least a quarter of it), since the Go runtime reserves address space
// beyond the heap it uses.
func memoryDefault() (int64, string) {
	limit, how := int64(4<<30), "4 GiB (/proc/meminfo unreadable)"
	if total, ok := memTotal(); ok {
		limit, how = total/2, "half of MemTotal"
	}
	if as, ok := addressSpaceLimit(); ok {
		if cap := max(as-2<<30, as/4); cap < limit {
			limit, how = cap, "the address-space limit (ulimit -v) less 2 GiB"
		}
	}
	return limit, how
}

// memTotal reads MemTotal from /proc/meminfo, in bytes.
func memTotal() (int64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb <= 0 || kb > math.MaxInt64/1024 {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

// memoryLimit returns the limit in force and how it was set.
func memoryLimit() (int64, string) {
	if maxMemory > 0 {
		return maxMemory, "-max-memory"
	}
	return memoryDefault()
}

// checkMemory refuses an estimate above the limit: a usage error naming the
// flags of the largest part, the estimate and the limit. Under the limit it
// sets the runtime's soft memory limit to it.
func checkMemory(cmd string, e memEstimate) error {
	limit, how := memoryLimit()
	need := e.total()
	if need > float64(limit) {
		p := e.largest()
		flags := ""
		if p.flags != "" {
			flags = " " + p.flags + ":"
		}
		if how != "-max-memory" {
			how = "-max-memory's default: " + how
		}
		return usagef("%s: the flags need about %s of memory, above the limit of %s (%s):%s %s, %s live (twice that with the garbage collector's headroom). Lower them, or raise -max-memory if the machine has the memory",
			cmd, fmtBytes(need), fmtBytes(float64(limit)), how, flags, p.what, fmtBytes(p.bytes))
	}
	debug.SetMemoryLimit(limit)
	return nil
}

// fmtBytes formats a byte count with a decimal unit (1.5 GB).
func fmtBytes(b float64) string {
	for _, u := range []string{"B", "kB", "MB", "GB", "TB", "PB"} {
		if b < 999.5 || u == "PB" {
			if u == "B" {
				return fmt.Sprintf("%.0f B", b)
			}
			return fmt.Sprintf("%.3g %s", b, u)
		}
		b /= 1000
	}
	panic("unreachable")
}

// memFlag is -max-memory: a byte count with an optional unit, decimal (kB,
// MB, GB, TB: powers of 1000) or binary (KiB, MiB, GiB, TiB; K, M, G, T
// alone are binary too), such as 4G, 512MiB, 1.5e9.
type memFlag struct{ p *int64 }

func (f memFlag) String() string {
	if f.p == nil || *f.p == 0 {
		return ""
	}
	return strconv.FormatInt(*f.p, 10)
}

func (f memFlag) Set(s string) error {
	v, err := parseBytes(s)
	if err != nil {
		return err
	}
	*f.p = v
	return nil
}

// memUnits are -max-memory's units, longest first.
var memUnits = []struct {
	suffix string
	mult   float64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"k", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1},
}

// parseBytes parses a -max-memory value: a decimal number and a unit.
func parseBytes(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), 1.0
	for _, u := range memUnits {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !plainNumber(num) || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a size (want a number and a unit: 4G, 512MiB, 1.5e9)", s)
	}
	b := v * mult
	if !(b >= 16<<20 && b <= 1<<60) {
		return 0, fmt.Errorf("%q is outside [16 MiB, 1 EiB]", s)
	}
	return int64(b), nil
}

// memoryVar defines -max-memory on fs (newFlags does, for every command).
func memoryVar(fs *flag.FlagSet) {
	def, how := memoryDefault()
	fs.Var(memFlag{&maxMemory}, "max-memory", fmt.Sprintf("refuse to start when the flags need more memory than this (4G, 512MiB, 1.5e9 bytes); default: %s, %s here", how, fmtBytes(float64(def))))
}

// workersOf returns the goroutines a run uses: -workers, or GOMAXPROCS
// for 0.
func workersOf(w int) float64 {
	if w > 0 {
		return float64(w)
	}
	return float64(runtime.GOMAXPROCS(0))
}

// perRunBytes is the allowance for one job's state where it is small:
// policies, environment and trees at d = 5 and K = 25, or a few arms.
const perRunBytes = 1 << 20

// runsPart is the state of the jobs in flight, one per worker, at
// perRunBytes each (times scale for a figure whose jobs hold more).
func runsPart(workers int, what string, scale float64) memPart {
	if what == "" {
		what = "each worker's job (its policies, environment and trees)"
	}
	return memPart{what, "-workers", workersOf(workers) * perRunBytes * scale}
}

// figureMemory is a figure's memory: the parts it declared to ready (its
// jobs' state and what else its flags size), its drawing, and its job
// lists' recorded values (every job's points, held until the figure is
// written, and the summaries made of them), found by running it under an
// estimate plan.
func figureMemory(lists []harness.JobList, parts memEstimate) memEstimate {
	var vals float64
	for _, l := range lists {
		// A job's row (24-byte slice header) and its points; twice for
		// the summaries and copies the figure makes of them.
		vals += float64(2 * float64(l.Shape.Jobs()) * (24 + float64(8*float64(l.Shape.Points))))
	}
	est := append(memEstimate(nil), parts...)
	est = append(est, memPart{"the figure's drawing (its SVG and PNG canvases: an AS17 table's tiles take 30 MB)", "", 16 << 20})
	if vals > 0 {
		est = append(est, memPart{"the runs' recorded values (runs × series × record points, with their summaries)", "-runs", vals})
	}
	return est
}
