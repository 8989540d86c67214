// Package ope evaluates bandit policies off-policy: on a log of events
// (decision set, logged arm, reward, logging propensity) collected by
// another policy, it estimates the reward the target policy would have
// earned.
//
// For a fixed target policy π_e ([Target]) on a log with any logging
// propensities, [EstimateAll] computes the estimators of the Open Bandit
// Pipeline (Saito et al. 2020), written per event as there:
//
//	IPS    V̂ = (1/n) Σ_i w_i r_i,                   w_i = π_e(a_i | x_i) / p_i
//	SNIPS  V̂ = Σ_i w_i r_i / Σ_i w_i
//	DM     V̂ = (1/n) Σ_i Σ_a π_e(a | x_i) q̂(x_i, a)
//	DR     V̂ = (1/n) Σ_i [ Σ_a π_e(a | x_i) q̂(x_i, a) + w_i (r_i − q̂(x_i, a_i)) ]
//
// with p_i the logged propensity of the logged arm a_i, asymptotic or
// bootstrap confidence intervals and the effective sample size
// (Σ w_i)²/Σ w_i². IPS is unbiased when every p_i is the logging policy's
// true probability and p_i > 0 wherever π_e(a_i | x_i) > 0 (Horvitz &
// Thompson 1952; Strehl et al. 2010); DR is unbiased under the same
// condition whatever the reward model q̂ ([RewardModel]), provided q̂ does
// not depend on the events it is evaluated on (fit it on other data or a
// split), and has smaller variance when q̂ is close to the true mean reward
// (Dudík, Langford & Li 2011); SNIPS is consistent, biased by O(1/n), and
// bounded by the rewards' range; DM is biased unless q̂ is right.
// [FitLinearModel] fits q̂ = b̂ + ⟨θ̂, x_a⟩ with an intercept (without one, a
// model of 0/1 rewards on centred features predicts ≈ 0 and DM with it);
// [CrossFitLinear] fits it in folds, each event predicted by the model of
// the other folds, so that DR may use the whole log for both.
//
// For a policy that learns online (any bandit.Policy), [Replay] is Li et al.'s
// (2011) replay for uniformly logged data, and [PropensityReplay] the
// rejection-sampling replay of Dudík, Erhan, Langford & Li (2012) for any
// logger, with its doubly robust value.
package ope
