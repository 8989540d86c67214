// Package counter holds the continual counters that release running sums
// privately: the binary tree mechanism [TreeSum] of Chan, Shi & Song (2011),
// plain (MT14 Alg. 1, SS18 §4) or padded (AS17 Alg. 2, TreeBasedAgg), and the
// modern counters with less noise at the same privacy: Honaker's variance
// reduction ([HonakerTree]), the smooth binary mechanism ([SmoothBinary]),
// the k-ary tree ([KaryTree]) and the Toeplitz (square-root and BLT)
// factorisations ([ToeplitzCounter]). [New] builds any of them from a [Config]
// naming its [Kind]; [ProfileOf] gives their exact per-round variances.
// With secure (gridded) node noise the tree, k-ary, smooth and Honaker
// counters run through one grid wrapper, and the Toeplitz counters, given a
// data bound ([DataBound]), round their measurements to the grid with their
// floating-point error counted in the calibration (counter_grid.go, both
// proofs in its comments).
package counter
