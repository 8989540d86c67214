// Package simd holds the assembly kernels (AVX2, AVX-512) and their pure-Go
// references: LinUCB's scoring, the lockstep choice and factorisation of
// four policies, the decision sets' normalisation and the ziggurat's fast
// path. CPU detection (golang.org/x/sys/cpu) selects a kernel at start-up;
// every kernel computes its Go reference's operations in the same order, so
// one seed gives the same bits on every CPU. The other routines that callers
// reach here (portable.go) run their Go references everywhere.
//
// Every assembly file is written by an avo program in _asm, its own module
// with one main package a generated file (_asm/NAME writes NAME_amd64.s;
// _asm/lanes writes kernel_lanes_amd64.s; shared pieces in _asm/internal),
// each run by a go:generate line in this package: no assembly is written by
// hand. .ci/generate-check regenerates them and fails on any difference.
package simd
