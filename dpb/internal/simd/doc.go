// Package simd holds the assembly kernels (AVX2, AVX-512) and their pure-Go
// references: LinUCB's scoring, the lockstep choice and factorisation of
// four policies, the decision sets' normalisation and the ziggurat's fast
// path. CPU detection (golang.org/x/sys/cpu) selects a kernel at start-up;
// every kernel computes its Go reference's operations in the same order, so
// one seed gives the same bits on every CPU. The other routines that callers
// reach here (portable.go) run their Go references everywhere.
//
// Avo programs in _asm (its own module, run by go generate) write
// peak_amd64.s and, one main package each, kernel_amd64.s (_asm/kernel),
// kernel_lanes_amd64.s (_asm/lanes), normalise_amd64.s (_asm/normalise) and
// prepare4_amd64.s (_asm/prepare4); shared pieces live in _asm/internal.
// choose4_amd64.s and prepare5x4_amd64.s are written by the Python scripts
// in ../asmgen; zig_amd64.s by hand. .ci/test regenerates them all and fails
// on any difference.
package simd
