// Package mt14 implements Mishra & Thakurta, (Nearly) Optimal Differentially
// Private Stochastic Multi-Arm Bandits (UAI 2015; the MT14 preprint).
//
//   - [DPUCB] is Algorithm 1: UCB over one private tree counter per arm, with
//     the confidence width Γ of Theorem 4 ([Gamma], [Theorem4Bound]); [UCB1]
//     is the non-private baseline of its Figure 1.
//   - [ContextualUCB] is Algorithm 2, private contextual UCB, over per-entry
//     trees or SS18's single tree ([ContextMechanism]), with ε₀ per entry
//     ([Epsilon0]).
//   - [DelayedPolicy] delays feedback by τ rounds, as in Figure 2's replay.
package mt14
