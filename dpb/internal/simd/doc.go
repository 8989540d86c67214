// Package simd holds the assembly kernels (AVX2, AVX-512) and their pure-Go
// references: LinUCB's scoring, Cholesky factor and inverse, the lockstep
// choice of four policies, the tree's elementwise sums and packed outer
// products, the Wishart's Bartlett product, the decision sets'
// normalisation and the ziggurat's fast path. CPU detection selects a kernel
// at start-up; every kernel computes its Go reference's operations in the
// same order, so one seed gives the same bits on every CPU.
package simd
