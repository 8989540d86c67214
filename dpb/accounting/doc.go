// Package accounting computes the privacy of the noise mechanisms in dpb and
// calibrates their noise to a target (ε, δ). It imports only the standard
// library, so package dpb may import it.
//
// What is here, each in its own file:
//
//   - gdp.go: Gaussian differential privacy (Dong, Roth & Su 2022): the
//     exact (ε, δ) curve of a μ-GDP mechanism (Balle & Wang 2018, Thm 8),
//     its inverses, composition (μ² add), and the analytic Gaussian
//     calibration σ = Δ₂/μ(ε, δ);
//   - zcdp.go: zero-concentrated DP (Bun & Steinke 2016) and its two
//     conversions to (ε, δ);
//   - rdp.go: Rényi DP (Mironov 2017) of the Gaussian and Laplace mechanisms
//     and the conversion to (ε, δ) of Canonne, Kamath & Steinke (2020);
//   - pld.go: privacy-loss-distribution accounting (Koskela, Jälkö &
//     Honkela 2020; Meiser & Mohammadi 2018) for composed Laplace mechanisms,
//     with pessimistic (upper) and optimistic (lower) discretisations;
//   - kov.go: the optimal composition theorem of Kairouz, Oh & Viswanath
//     (2015) for m mechanisms that are each (ε₀, δ₀)-DP, and the smallest
//     Wishart degrees of freedom of SS18 §4.1 that it certifies.
//
// Conventions: logarithms are natural; "sensitivity" is the largest change
// of a released quantity between two neighbouring inputs (one record
// replaced), measured in the norm the mechanism needs (ℓ2 for Gaussian
// noise, ℓ1 for Laplace). Functions validate their arguments and return an
// error naming the bad one; the plain numerical helpers (Delta, Epsilon)
// assume valid input and document their range.
package accounting
