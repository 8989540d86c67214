#!/usr/bin/python3
"""NumPy reference timing for the non-private LinUCB step (SS18 Algorithm 1
with H = I), to compare with BenchmarkLinUCBStep/alg=nonprivate.

The step is written the way a NumPy user would: V⁻¹ by numpy.linalg.inv,
θ̃ = V⁻¹u, quadratic forms as a row-wise sum of (X V⁻¹) ∘ X, log det by
slogdet. One decision set is drawn beforehand and scored every round, the
access pattern of the Go benchmark (one Round buffer, as in the real loop),
so only the bandit step is timed. Besides wall time it reports the process's
CPU time per round (time.process_time), which a shared host disturbs less;
run it with OPENBLAS_NUM_THREADS=1 for one core.

Usage: OPENBLAS_NUM_THREADS=1 /usr/bin/python3 dpb/testdata/numpy_linucb.py [rounds]
Needs Debian's python3-numpy (OpenBLAS). Prints one line per (d, K).
"""
import sys
import time

import numpy as np


def step(G, u, X, lam, sigma, alpha, S, d):
    V = G + lam * np.eye(d)
    Vinv = np.linalg.inv(V)
    theta = Vinv @ u
    _, logdet = np.linalg.slogdet(V)
    beta = sigma * np.sqrt(2 * np.log(2 / alpha) + logdet - d * np.log(lam)) + S * np.sqrt(lam)
    q = np.einsum("ij,ij->i", X @ Vinv, X)
    return int(np.argmax(X @ theta + beta * np.sqrt(q)))


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    rng = np.random.default_rng(1)
    for d, K in [(5, 25), (16, 256), (64, 4096)]:
        n = rounds or {5: 20000, 16: 5000, 64: 300}[d]
        X = rng.standard_normal((K, d))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        G = np.zeros((d, d))
        u = np.zeros(d)
        start, cpu = time.perf_counter(), time.process_time()
        for t in range(n):
            a = step(G, u, X, 1.0, 1.0, 1.0 / (1 << 22), 1.0, d)
            x = X[a]
            y = 0.5
            G += np.outer(x, x)
            u += y * x
        el, elcpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"numpy d={d} K={K}: {el / n * 1e6:.1f} µs/round, {elcpu / n * 1e6:.1f} cpu-µs/round"
              f" over {n} rounds (numpy {np.__version__})")


if __name__ == "__main__":
    main()
