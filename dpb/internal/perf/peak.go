package perf

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/dpbandits/dpbandits/dpb/bandit"
	"github.com/dpbandits/dpbandits/dpb/internal/simd"
	"github.com/dpbandits/dpbandits/dpb/noise"
)

// Peak is what one core of this machine can do at best, measured: the bounds
// against which the bandit loop's timings are judged (dpb bench -peak).
type Peak struct {
	CPU     string   `json:"cpu"`     // the CPU's brand string (CPUID), or GOARCH
	Kernel  string   `json:"kernel"`  // the LinUCB scoring kernel in use
	Kernels []string `json:"kernels"` // the kernels this CPU supports
	// Double-precision FMA throughput in GFLOP/s (2 flops per lane per
	// FMA): many independent accumulator chains, so that latency is hidden
	// and only the FMA units' throughput counts. 0 when unsupported.
	FMAScalarGFlops float64 `json:"fma_scalar_gflops"` // math.FMA, scalar
	FMAAVX2GFlops   float64 `json:"fma_avx2_gflops"`   // 256-bit (YMM)
	FMAAVX512GFlops float64 `json:"fma_avx512_gflops"` // 512-bit (ZMM)
	// NormalNs is ns per standard normal from the environments' generator
	// (wyrand + 256-layer ziggurat), ChaCha8NormalNs from rng.NormFloat64
	// on a ChaCha8 stream (the node noises' source).
	NormalNs        float64 `json:"normal_ns"`
	ChaCha8NormalNs float64 `json:"chacha8_normal_ns"`
}

// FMAGFlops returns the widest vector unit's FMA peak: the flop bound.
func (p Peak) FMAGFlops() float64 {
	return max(p.FMAScalarGFlops, p.FMAAVX2GFlops, p.FMAAVX512GFlops)
}

// CPUModel returns the CPU's name as Peak.CPU gives it (on amd64 the brand
// string with the CPUID family and model), without measuring anything.
func CPUModel() string { return simd.CpuModel() }

// MeasurePeak measures the Peak of the calling goroutine's core, spending
// about 5·each on the five figures; each is the best of several runs, so a
// shared host that steals time lowers it less. It allocates a few kB.
func MeasurePeak(each time.Duration) Peak {
	p := Peak{CPU: CPUModel(), Kernel: simd.Kernel(), Kernels: simd.Kernels()}
	p.FMAScalarGFlops = BestRate(each, peakScalarRun)
	if simd.HasFMA256() {
		p.FMAAVX2GFlops = BestRate(each, peak256Run)
	}
	if simd.HasFMA512() {
		p.FMAAVX512GFlops = BestRate(each, peak512Run)
	}
	buf := make([]float64, 1024)
	f := noise.NewFastRand(bandit.Stream(0, 0))
	if r := BestRate(each, func(n int) float64 {
		for range n {
			f.NormalsTo(buf)
		}
		return float64(n * len(buf))
	}); r > 0 {
		p.NormalNs = 1 / r // r is normals per ns
	}
	rng := bandit.Stream(0, 1)
	if r := BestRate(each, func(n int) float64 {
		chachaNormals(rng, buf, n)
		return float64(n * len(buf))
	}); r > 0 {
		p.ChaCha8NormalNs = 1 / r
	}
	return p
}

// The peak loops as BestRate runs them: n iterations, returning the flops
// done.
func peakScalarRun(n int) float64 { peakSink = fmaPeakGo(n); return float64(n) * 8 * 2 } // fmaPeakGo's math.FMA, inlined
func peak256Run(n int) float64    { simd.FmaPeak256(n); return float64(n) * simd.FmaPeak256Flops }
func peak512Run(n int) float64    { simd.FmaPeak512(n); return float64(n) * simd.FmaPeak512Flops }

// WidestFMARate returns the FMA peak of the widest unit this CPU has, in
// flops per ns (GFLOP/s), measured over about each: the rate behind
// Peak.FMAGFlops without measuring the narrower units.
func WidestFMARate(each time.Duration) float64 { return BestRate(each, widestFMARun()) }

// widestFMARun returns the peak loop of the widest FMA unit this CPU has.
func widestFMARun() func(n int) float64 {
	switch {
	case simd.HasFMA512():
		return peak512Run
	case simd.HasFMA256():
		return peak256Run
	}
	return peakScalarRun
}

// FMAMeter measures the widest FMA unit's peak (Peak.FMAGFlops) in calls of
// about 1 ms, the iteration count fixed when the meter is made, so that a
// timing can be paired with the peak of the same moment: on a shared host
// the core's clock moves with the other tenants' load, and a peak measured
// apart from a timing may be measured at another clock (dpb bench -json's
// paired ratio).
type FMAMeter struct {
	n   int
	run func(n int) float64
}

// NewFMAMeter returns a meter for this CPU's widest FMA unit; making it
// takes a few ms.
func NewFMAMeter() *FMAMeter {
	run := widestFMARun()
	return &FMAMeter{n: millisecondCount(run), run: run}
}

// GFlops returns the best rate of calls calls of the peak loop (at least
// one), in GFLOP/s.
func (m *FMAMeter) GFlops(calls int) float64 {
	best := 0.0
	for range max(calls, 1) {
		t := time.Now()
		c := m.run(m.n)
		if r := c / float64(time.Since(t).Nanoseconds()); r > best {
			best = r
		}
	}
	return best
}

// chachaNormals fills buf with rng.NormFloat64() n times over.
func chachaNormals(rng *rand.Rand, buf []float64, n int) {
	for range n {
		for i := range buf {
			buf[i] = rng.NormFloat64()
		}
	}
}

// BestRate calls run(n) with n doubling until one call takes about 1 ms,
// then again at that n until each has passed (at least five times), and
// returns the best count per nanosecond (run returns the count it did: flops
// or normals), so 10⁹·count/s: GFLOP/s for flops. Short calls and the best
// of many keep the figure near the hardware's on a time-shared host, where a
// call that is descheduled only loses that one sample.
func BestRate(each time.Duration, run func(n int) float64) float64 {
	n := millisecondCount(run)
	best := 0.0
	start := time.Now()
	for i := 0; i < 5 || time.Since(start) < each; i++ {
		t := time.Now()
		c := run(n)
		if r := c / float64(time.Since(t).Nanoseconds()); r > best {
			best = r
		}
	}
	return best
}

// millisecondCount returns the n, doubling from 1, at which one call of
// run(n) takes about 1 ms.
func millisecondCount(run func(n int) float64) int {
	n := 1
	for {
		t := time.Now()
		run(n)
		if time.Since(t) >= time.Millisecond || n > 1<<40 {
			return n
		}
		n *= 2
	}
}

// peakSink keeps the scalar peak loop's result alive.
var peakSink float64

// fmaPeakGo runs n iterations of eight independent scalar FMA chains.
func fmaPeakGo(n int) float64 {
	const a, b = 1e-9, 1e-9
	var c0, c1, c2, c3, c4, c5, c6, c7 float64
	for range n {
		c0 = math.FMA(a, b, c0)
		c1 = math.FMA(a, b, c1)
		c2 = math.FMA(a, b, c2)
		c3 = math.FMA(a, b, c3)
		c4 = math.FMA(a, b, c4)
		c5 = math.FMA(a, b, c5)
		c6 = math.FMA(a, b, c6)
		c7 = math.FMA(a, b, c7)
	}
	return c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7
}
