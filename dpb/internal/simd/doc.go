// Package simd holds the assembly kernels (AVX2, AVX-512) and their pure-Go
// references: LinUCB's scoring, the lockstep choice and factorisation of
// four policies, the decision sets' normalisation and the ziggurat's fast
// path. CPU detection (golang.org/x/sys/cpu) selects a kernel at start-up;
// every kernel computes its Go reference's operations in the same order, so
// one seed gives the same bits on every CPU. The other routines that callers
// reach here (portable.go) run their Go references everywhere.
//
// peak_amd64.s is written by an avo program in _asm (its own module, run by
// go generate); choose4_amd64.s and prepare5x4_amd64.s by the Python scripts
// in ../asmgen; the rest by hand. .ci/generate-check regenerates them all and
// fails on any difference.
package simd
