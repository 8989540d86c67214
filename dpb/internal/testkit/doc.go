// Package testkit holds test helpers that import nothing of dpb: bit
// comparisons, awkward floats, CPU clocks for benchmarks, and the
// statistical helpers (χ² p-values, the z quantile) of the law tests.
package testkit
