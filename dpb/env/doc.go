// Package env holds the environments the papers' experiments run on: the
// linear contextual environment of SS18 Appendix D ([LinearEnv]: K actions
// on a band of the sphere around θ*, Gaussian or ±1 rewards), K-armed
// Bernoulli and Gaussian arms ([KArmedEnv], [BernoulliArms]; MT14 Figure 1),
// fixed action sets, and the instances of SS18's lower bounds (Claim 13:
// [SwapEnv] and [RandomizedResponse]).
package env
