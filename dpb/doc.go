// Package dpb is the practitioner's entry to dpbandits: differentially
// private bandit and online-learning algorithms from three papers, with the
// quantities their theorems are stated in. It re-exports what running a
// private policy on one's own stream takes: [NewSS18Policy] and
// [NewAnytimeSS18] (SS18's private LinUCB), [NewDPUCB] and [NewAnytimeDPUCB]
// (MT14's DP-UCB), [Stream] for seeded randomness, and the shared [Round],
// [Policy] and [Privacy]. Everything else lives in one package per paper and
// per concept:
//
//   - dpb/ss18: Shariff & Sheffet, Differentially Private Contextual Linear
//     Bandits (NeurIPS 2018): LinUCB with changing regularizers (Algorithm
//     1), the tree with Wishart or Gaussian noise (Section 4), every constant
//     and bound.
//   - dpb/mt14: Mishra & Thakurta, Private Stochastic Multi-arm Bandits:
//     DP-UCB (Algorithm 1), private contextual UCB (Algorithm 2).
//   - dpb/as17: Agarwal & Singh, The Price of Differential Privacy for
//     Online Learning (ICML 2017): DP-FTRL, DP-FTPL, private EXP2 and
//     SCRiBLE.
//   - dpb/mab: the optimal ε-DP K-armed bandits that followed MT14.
//   - dpb/counter (the tree mechanism and modern continual counters),
//     dpb/noise (node noise, secure samplers), dpb/env (environments),
//     dpb/bandit (the shared types), dpb/anytime (unknown horizons).
//   - dpb/check (the proof checks), dpb/audit (empirical privacy audits),
//     dpb/harness (the runner, job store and curves), dpb/ss18fig,
//     dpb/mt14fig, dpb/as17fig and dpb/mabfig (the papers' experiments),
//     dpb/ope (off-policy evaluation), dpb/data (loaders), dpb/plot
//     (figures).
//
// # Privacy
//
// SS18's algorithms are jointly differentially private: the neighbouring
// relation changes one round's (context, reward) pair, and the guarantee
// covers the actions shown to every other round. MT14 and AS17 give
// event-level DP over the reward (loss) stream. Privacy holds only for data
// inside the bound the mechanism is calibrated for; out-of-bound data is
// rejected with an error, or clipped when the configuration asks for
// clipping. A configuration that leaves its Noise field unset
// ([NoiseDefault]) runs on secure noise ([NoiseSecure]): exact discrete
// Laplace or discrete Gaussian noise from crypto/rand on a grid, so that the
// releases follow the discrete mechanism's law exactly; Privacy reports the
// resolved mode. Secure mode has no seed and is not reproducible; its
// policies save and restore their sums and node noises (restore a snapshot
// once). [NoiseSimulated], a fast seeded floating-point simulation that the
// experiments name, must not be released to an adversary: its low bits reveal
// the data (Mironov 2012; dpb/audit's fp-attack rows measure it), and its
// Privacy says it is not a release-grade guarantee. The square-root and BLT
// counters run secure noise with a data bound (the SS18 regularizers give
// L̃²). The Wishart noise has no secure form: it refuses NoiseSecure, and an
// unset Noise with an error that says to name NoiseSimulated.
//
// # Randomness
//
// Every random draw comes from a *rand.Rand passed in by the caller (except
// the secure mode's noise, from crypto/rand); nothing reads the global
// generator. [Stream] derives independent ChaCha8 streams from a seed and a
// stream id, so one seed reproduces an experiment bit for bit whatever
// GOMAXPROCS is.
//
// # Errors
//
// Constructors validate their configuration and return an error whose text
// names the parameter, its value and the allowed range. A configuration
// names what it means: the zero SS18 Alg is an error (the non-private
// baseline is asked for as SS18NonPrivate), and an unset release Mode is the
// one the paper's bounds assume (Padded for SS18, Plain for MT14).
//
// The policies a service runs ([LinUCB], [AnytimeSS18], [DPUCB],
// [AnytimeDPUCB]) are [Checked]: ChooseErr refuses a decision set with a NaN
// or infinite feature with an error and plays nothing (Choose panics on it);
// UpdateErr skips a record the mechanism cannot take (non-finite, or outside
// its bound and not clipped), returns the reason, counts it in Skipped and
// keeps learning at the same privacy (the skipped round enters the tree as a
// zero record). Update instead records the first such record in the sticky
// Err and stops learning. The other panics are programmer errors (rounds
// past the horizon).
//
// # Concurrency
//
// No policy is safe for concurrent use, not even two concurrent Chooses. To
// share one between goroutines, wrap it: [NewLocked] serialises every call
// behind a mutex (tested under the race detector).
//
// # References
//
//   - R. Shariff, O. Sheffet. Differentially Private Contextual Linear Bandits. NeurIPS 2018.
//   - N. Mishra, A. Thakurta. (Nearly) Optimal Differentially Private Stochastic Multi-Arm Bandits. UAI 2015 (MT14 preprint).
//   - N. Agarwal, K. Singh. The Price of Differential Privacy for Online Learning. ICML 2017.
//   - T.-H. H. Chan, E. Shi, D. Song. Private and Continual Release of Statistics. 2011.
package dpb
