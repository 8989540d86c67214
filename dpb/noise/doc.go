// Package noise holds the node noise of the tree mechanisms, behind one
// [Noise] interface that every counter and every paper's algorithm uses:
//
//   - [LaplaceNoise] (MT14 Alg. 1, AS17 Alg. 2: Lap(m/ε) per node),
//   - [GaussianNoise] and [SymGaussianNoise], the symmetrised Gaussian
//     matrices of SS18 §4.2,
//   - [WishartNoise], SS18 §4.1's Wishart matrices by the Bartlett
//     decomposition,
//   - [SecureNoise], exact discrete Laplace and discrete Gaussian draws from
//     crypto/rand on a grid ([Mode] Secure), for releases that must
//     stay private in floating point.
//
// The fast generator [FastRand] (a ziggurat normal sampler seeded from a
// *rand.Rand) serves the simulated noise and the environments.
package noise
