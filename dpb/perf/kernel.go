package perf

import "github.com/dpbandits/dpbandits/dpb/internal/simd"

// Kernel returns the name of the LinUCB scoring kernel in use: "avx512",
// "avx2" or "go".
func Kernel() string { return simd.Kernel() }

// Kernels returns the names of the scoring kernels this CPU supports, the
// default (fastest) first.
func Kernels() []string { return simd.Kernels() }

// SetKernel selects the LinUCB scoring kernel by name (one of Kernels()).
// Every kernel computes the same bits, so the choice changes speed only; it
// is meant for benchmarks and must not be called while policies are running
// on other goroutines.
func SetKernel(name string) error { return simd.SetKernel(name) }

// FusionBuild names the builds whose results may differ in the last bits
// from the default amd64 build's, and is "" for the default (amd64 at
// GOAMD64=v1 or v2): see the job store, which keys results by it.
func FusionBuild() string { return simd.FusionBuild() }
