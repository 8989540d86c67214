// Package as17 implements Agarwal & Singh, The Price of Differential Privacy
// for Online Learning (ICML 2017).
//
//   - [FTRL] is Algorithm 1, DP-FTRL over TreeBasedAgg (the padded tree) on
//     the simplex, the ball and the cube ([DecisionSet]), with Theorem 3.1's
//     and Corollary 3.2's bounds ([Theorem31Bound], [Corollary32Bound]).
//   - [FTPL] is DP-FTPL (Section 3.2, Theorem 3.5).
//   - [PrivateBandit] wraps a bandit learner in the tree (Section 4): private
//     EXP2 ([Exp2]) and private SCRiBLE ([SCRiBLE]), Theorems 4.1 and 4.2 and
//     Lemma 4.3.
//
// [OLORegretCurve] and [BanditRegretCurve] run a learner against a loss
// sequence.
package as17
