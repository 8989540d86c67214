package testkit

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ReportCPU reports the thread's CPU ns per b.Loop iteration.
func ReportCPU(b *testing.B, cpu cpuClock) {
	if c := cpu.elapsed(); c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// ReportRound reports wall and CPU µs per round (b.Loop's iterations).
func ReportRound(b *testing.B, cpu cpuClock) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N), "µs/round")
	if c := cpu.elapsed(); c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/1e3/float64(b.N), "cpu-µs/round")
	}
}

// FirstDiff returns the first index at which a and b differ in their bits
// (len(a) = len(b)), or −1.
func FirstDiff(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// MustPanic runs f and returns its panic message ("" when it did not panic).
func MustPanic(t *testing.T, f func()) (msg string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic"
			}
		}
	}()
	f()
	return ""
}

// AwkwardFloat draws a Float64 that is −0, a NaN with a random payload, a
// normal scaled by 2^600 (its products overflow) or by 2^−600 (they
// underflow) one time in six each, and a standard normal otherwise.
func AwkwardFloat(rng *rand.Rand) float64 {
	switch rng.IntN(6) {
	case 0:
		return math.Copysign(0, -1)
	case 1:
		return math.Float64frombits(0x7ff8_0000_0000_0000 | rng.Uint64()>>13)
	case 2:
		return math.Ldexp(rng.NormFloat64(), 600)
	case 3:
		return math.Ldexp(rng.NormFloat64(), -600)
	}
	return rng.NormFloat64()
}

// FirstDiffNaN is FirstDiff with every NaN equal to every other.
func FirstDiffNaN(a, b []float64) int {
	for i := range a {
		if math.IsNaN(a[i]) && math.IsNaN(b[i]) {
			continue
		}
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}
