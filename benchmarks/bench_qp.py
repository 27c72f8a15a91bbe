"""Benchmark: which QP solver and formulation for the ν-ranking dual (Algorithm 8.9)?

piqp (dense interior point) and Clarabel (sparse interior point, faer LDLᵀ), each called
through its own API on the *same* problem, in two forms:

* dense:  variables (α^u, α^l), Hessian DᵀKD (about 4ℓ² entries);
* lifted: variables (β, α^u, α^l) with β = α^u − α^l as ℓ extra equality rows, Hessian
  blockdiag(K, 0) (ℓ² entries).

Then the estimator end to end (kernel matrix + QP + thresholds) at larger ℓ with the chosen
default, and scikit-learn's SVC on the same data for scale.

Last, the question of issue 33: piqp is a compiled package; could ν-ranking's default run on
the pure NumPy decomposition solver (``solver="smo"``) instead, so that piqp need not be a core
dependency? The same duals by SMO beside piqp, then ``NuRanking()`` with its defaults
(``nu="auto"``: 48 cross-validation QPs and the final one) with ``solver="piqp"`` (what
``"auto"`` picks up to 500 points) against ``solver="smo"``: fit time and held-out MAE.

Run: ``python benchmarks/bench_qp.py [--large] [--fallback]`` (``--large`` adds ℓ = 5,000;
``--fallback`` runs only the last comparison).
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
from sklearn.svm import SVC

from kernel_patterns import NuRanking
from kernel_patterns.kernels import RBF
from kernel_patterns.metrics import mean_absolute_error
from kernel_patterns.rank._nu_ranking_solver import _nu_ranking_dual


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 8))
    z = X[:, 0] + np.sin(2 * X[:, 1]) + 0.5 * X[:, 2] ** 2 + 0.4 * rng.normal(size=n)
    y = np.digitize(z, np.quantile(z, [0.2, 0.4, 0.6, 0.8]))
    return X, y


def timed(fn, repeat: int = 1):  # type: ignore[no-untyped-def]
    best, out = np.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def fallback() -> None:
    """piqp (the default up to 500 points) against the pure NumPy SMO, solver and estimator."""
    nu, kernel = 0.5, RBF(1.0 / 8)
    print("\n## The ν-ranking dual: piqp (dense) against SMO (pure NumPy), same problems\n")
    print("| ℓ | piqp (s) | SMO (s) | SMO / piqp | objective rel. diff |")
    print("|---:|---:|---:|---:|---:|")
    for n in (100, 200, 300, 500):
        X, y = data(n)
        K = kernel(X)
        out = {}
        for solver in ("piqp", "smo"):
            t, (au, al, _) = timed(lambda s=solver, K=K, y=y: _nu_ranking_dual(
                K, y, nu, solver=s), repeat=3)
            beta = au - al
            out[solver] = (t, 0.5 * beta @ K @ beta)
        (tp, op), (ts, os_) = out["piqp"], out["smo"]
        print(f"| {n} | {tp:.3f} | {ts:.3f} | {ts / tp:.1f} | {abs(os_ - op) / op:.1e} |")
    print("\n## NuRanking() defaults (nu='auto'), solver='piqp' against solver='smo'; "
          "MAE on 1,000 held-out points\n")
    print("| ℓ | piqp fit (s) | SMO fit (s) | SMO / piqp | piqp MAE | SMO MAE | ν piqp / SMO |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for n in (178, 300, 500):
        X, y = data(n + 1000, seed=1)
        Xtr, ytr, Xte, yte = X[:n], y[:n], X[n:], y[n:]
        row = {}
        for solver in ("piqp", "smo"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t, model = timed(lambda s=solver, X=Xtr, y=ytr: NuRanking(solver=s).fit(X, y))
            row[solver] = (t, mean_absolute_error(yte, model.predict(Xte)), model.nu_)
        (tp, mp, nup), (ts, ms, nus) = row["piqp"], row["smo"]
        print(f"| {n} | {tp:.2f} | {ts:.2f} | {ts / tp:.1f} | {mp:.3f} | {ms:.3f} | "
              f"{nup:.3g} / {nus:.3g} |")


def main() -> None:
    if "--fallback" in sys.argv:
        fallback()
        return
    nu, kernel = 0.5, RBF(1.0 / 8)
    print("## QP solvers on the ν-ranking dual (5 ranks, d = 8, RBF γ = 1/8, ν = 0.5)\n")
    print("| ℓ | solver | form | time (s) | iters | status | objective | max |Δf| vs piqp-dense |")
    print("|---:|---|---|---:|---:|---|---:|---:|")
    for n in (100, 200, 300, 400, 500):
        X, y = data(n)
        K = kernel(X)
        ref = None
        for solver in ("piqp", "clarabel"):
            for form in ("dense", "lifted"):
                t, (au, al, info) = timed(  # explicit solver and form: no "auto"
                    lambda s=solver, f=form, K=K, y=y: _nu_ranking_dual(
                        K, y, nu, solver=s, formulation=f),
                    repeat=3 if n <= 300 else 1,
                )
                beta = au - al
                f = K @ beta
                if ref is None:
                    ref = f
                print(f"| {n} | {solver} | {form} | {t:.3f} | {info['iterations']} | "
                      f"{info['status'].replace('Status.', '')} | {0.5 * beta @ f:.4e} | "
                      f"{np.abs(f - ref).max():.1e} |")
    sizes = [1000, 2000] + ([5000] if "--large" in sys.argv else [])
    print("\n## NuRanking end to end (kernel + QP + thresholds) vs scikit-learn SVC "
          "(one-vs-one, same kernel) on the same data\n")
    print("| ℓ | solver | NuRanking fit (s) | QP iters | SVC fit (s) | ratio |")
    print("|---:|---|---:|---:|---:|---:|")
    for n in sizes:
        X, y = data(n)
        t_svc, _ = timed(lambda X=X, y=y: SVC(kernel="rbf", gamma=1.0 / 8).fit(X, y))
        choices = ["piqp", "clarabel"] if n <= 2000 else ["auto"]
        for solver in choices:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t_nu, model = timed(lambda X=X, y=y, s=solver: NuRanking(
                    nu=nu, kernel=kernel, solver=s).fit(X, y))
            print(f"| {n} | {solver} | {t_nu:.2f} | {model.n_iter_} | {t_svc:.2f} | "
                  f"{t_nu / t_svc:.1f} |")
    fallback()


if __name__ == "__main__":
    main()
