// Package ss18 implements Shariff & Sheffet, Differentially Private
// Contextual Linear Bandits (NeurIPS 2018).
//
//   - [LinUCB] is Algorithm 1, LinUCB with changing regularizers: at round t it
//     plays argmax_a ⟨θ̃_t, x⟩ + β_t‖x‖_{Ṽ_t⁻¹} on the regularized statistics a
//     [Regularizer] releases.
//   - [TreeRegularizer] is Section 4: the tree mechanism over the Gram matrix
//     and the reward vector with Wishart (§4.1) or Gaussian (§4.2) node
//     noise, jointly differentially private; [NewPolicy] builds each variant
//     by [Alg], the printed ones and those calibrated exactly on modern
//     counters.
//   - [Setting] holds every constant of the paper as printed, with the
//     corrected forms beside them: ρ_min, ρ_max and γ (Propositions 9 and 11),
//     β_t (Proposition 4: [BetaBar], [BetaLogDet]), the regret bounds of
//     Theorems 5 and 6 ([Theorem5Bound], [Theorem6Bound]) and the lower bound
//     of Claim 14 / Corollary 15 ([PrivateMABLowerBound]).
//
// Many formulas wrap a product in float64(…), as in float64(a*b) + c: the
// conversion rounds the product (the Go spec), which keeps a compiler for a
// CPU with fused multiply-add (GOAMD64=v3) from computing a*b + c with one
// rounding, so one seed gives the same bits whatever the build
// (.ci/fma-check scans the v3 build for fused sites). In a default amd64
// build the conversion is a no-op.
package ss18
