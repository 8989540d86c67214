// Package anytime runs a private policy on a stream of unknown length by the
// doubling trick: epoch e runs a fresh policy for n₀·2ᵉ rounds. Each round's
// data enters one epoch's tree only, so the epochs compose in parallel and the
// whole run keeps one epoch's (ε, δ). [SS18] wraps SS18's LinUCB (any
// variant), [DPUCB] MT14's DP-UCB; both save and restore themselves
// mid-stream, random state included.
package anytime
