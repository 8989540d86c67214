// Package bandit holds the types every algorithm of the three papers shares:
// a [Round] (the decision set shown at time t), the [Policy] that chooses in
// it and learns from the reward, the [Environment] that draws rounds and
// rewards, and the [Privacy] a policy reports.
//
// It also holds the randomness convention: [Stream] derives an independent
// ChaCha8 stream from a seed and a stream id ([StreamID]), so that one seed
// reproduces an experiment bit for bit whatever the number of cores, and
// [RegretCurve] runs a policy against an environment.
package bandit
