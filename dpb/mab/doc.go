// Package mab holds the ε-DP K-armed bandits that followed MT14, each beside
// its lower bound: DP-SE (Sajed & Sheffet 2019, [DPSE]), AdaP-UCB and
// AdaP-KLUCB (Azize & Basu 2022, [AdaP]), DP-KLUCB and DP-IMED (Azize et al.
// 2025, [DPKL]), and Lazy-DP-TS (Hu & Hegde 2022, [LazyDPTS]); the lower
// bounds are [LaiRobbinsBound], [AzizeBasuLowerBound] and [AzizeLowerBound].
// MT14's DP-UCB and UCB1 are in package mt14.
package mab
