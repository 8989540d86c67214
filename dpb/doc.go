// Package dpb implements differentially private bandit and online-learning
// algorithms, and the quantities their papers' theorems are stated in, so that
// the theorems can be checked empirically.
//
// Three papers share one core:
//
//   - SS18: Shariff & Sheffet, Differentially Private Contextual Linear Bandits,
//     NeurIPS 2018 — [LinUCB] with changing regularizers (Algorithm 1) fed by the
//     tree-based mechanism with Wishart or Gaussian node noise (Section 4).
//   - MT14: Mishra & Thakurta, Private Stochastic Multi-arm Bandits — DP-UCB and
//     private contextual UCB over Laplace tree counters.
//   - AS17: Agarwal & Singh, The Price of Differential Privacy for Online
//     Learning, ICML 2017 — DP-FTRL, DP-FTPL and private EXP2 over TreeBasedAgg.
//
// The shared pieces are [TreeSum] (continual release, plain or padded), the
// [Noise] interface for node noise, [Stream] for seeded randomness and
// [RunTrials] for many independent runs on all cores.
//
// # Privacy
//
// SS18's algorithms are jointly differentially private: the neighbouring
// relation changes one round's (context, reward) pair, and the guarantee covers
// the actions shown to every other round. MT14 and AS17 give event-level DP over
// the reward (loss) stream. Privacy holds only for data inside the bound the
// mechanism is calibrated for; out-of-bound data is rejected with an error, or
// clipped when the configuration asks for clipping. The default noise is a
// fast seeded floating-point simulation and must not be released to an
// adversary: its low bits reveal the data (Mironov 2012; dpb/audit's
// fp-attack rows measure ε ≥ 8.8 against a claimed 1). Setting the Noise
// field of a configuration to [NoiseSecure] draws exact discrete Laplace or
// discrete Gaussian noise from crypto/rand on a grid instead ([SecureNoise]):
// the releases then follow the discrete mechanism's law exactly. Secure mode
// has no seed, is not reproducible, and its policies cannot be saved; Wishart
// noise has no secure sampler. Package dpb/audit checks every mechanism's
// claim empirically (dpb audit).
//
// # Randomness
//
// Every random draw comes from a *rand.Rand passed in by the caller (except
// the secure mode's noise, from crypto/rand); nothing reads the global
// generator. [Stream] derives independent ChaCha8 streams from
// a seed and a stream id, so one seed reproduces an experiment bit for bit
// whatever GOMAXPROCS is.
//
// # Errors
//
// Constructors validate their configuration and return an error whose text
// names the parameter, its value and the allowed range. Hot-loop methods panic
// only on programmer errors (wrong dimensions, rounds past the horizon).
//
// # References
//
//   - R. Shariff, O. Sheffet. Differentially Private Contextual Linear Bandits. NeurIPS 2018.
//   - N. Mishra, A. Thakurta. (Nearly) Optimal Differentially Private Stochastic Multi-Arm Bandits. UAI 2015 (MT14 preprint).
//   - N. Agarwal, K. Singh. The Price of Differential Privacy for Online Learning. ICML 2017.
//   - T.-H. H. Chan, E. Shi, D. Song. Private and Continual Release of Statistics. 2011.
package dpb
