"""Kernel matrix build and chunked K @ V, next to scikit-learn's ``rbf_kernel``.

Run: ``python benchmarks/bench_kernels.py [--n 20000] [--d 16]`` (or ``make bench``).
Prints time and peak traced memory of
* the dense 20,000 × 20,000 RBF build, float64 and float32: ours (``make_operator``) vs
  ``sklearn.metrics.pairwise.rbf_kernel`` on the same data, with the ratio;
* a chunked ``K @ V`` with V of 20,000 × 10 under a 1 GB block budget, vs dense K @ V.

Each dense build is timed twice and the best run kept: the first write to a fresh 3.2 GB
array pays 1-4 s of page faults (whoever runs first pays them), which is not the kernel's cost.
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel

from _common import machine, measure, save, table
from kernel_patterns.kernels import RBF, make_operator


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--d", type=int, default=16)
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    n, d = args.n, args.d
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, d))
    gamma = 1.0 / d
    rows = []
    for dt in (np.float64, np.float32):
        Xd = X.astype(dt)
        t_ours, m_ours, op = measure(
            lambda Xd=Xd, dt=dt: make_operator(RBF(gamma), Xd, operator="dense", dtype=dt),
            repeat=2,
        )
        sample = op.to_dense()[:: max(1, n // 500), :500].astype(np.float64)
        del op
        t_sk, m_sk, K = measure(lambda Xd=Xd: rbf_kernel(Xd, gamma=gamma), repeat=2)
        err = float(np.max(np.abs(K[:: max(1, n // 500), :500] - sample)))
        del K
        rows.append([f"dense RBF build {np.dtype(dt).name}", t_ours, m_ours, t_sk, m_sk,
                     t_sk / t_ours, err])
    V = rng.normal(size=(n, args.k))
    ch = make_operator(RBF(gamma), X, operator="chunked", block_memory=2**30)
    t_ch, m_ch, KV = measure(lambda: ch.matmat(V))

    def naive() -> np.ndarray:
        return rbf_kernel(X, gamma=gamma) @ V

    t_dn, m_dn, KV2 = measure(naive)
    rows.append([f"K @ V ({n}x{args.k}), chunked under 1 GB vs sklearn build + GEMM", t_ch, m_ch,
                 t_dn, m_dn, t_dn / t_ch, float(np.max(np.abs(KV - KV2)))])
    text = (
        f"# Kernel build and K @ V (N = {n}, d = {d}; {machine()})\n\n"
        + table(["what", "ours s", "ours peak MB", "sklearn s", "sklearn peak MB",
                 "speed-up (sklearn/ours)", "max abs diff"], rows)
    )
    save("kernels", text)


if __name__ == "__main__":
    main()
