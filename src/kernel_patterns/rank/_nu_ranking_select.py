"""``NuRanking(nu="auto")``: ν (and the RBF width) chosen by a small internal cross-validation.

Pure functions over a kernel factory, the training points and their ranks; no validation.

The ν-ranking dual, like the ν-SVM's (Chang & Lin, 2001), has a useful range
ν_min < ν < ν_max (``max_feasible_nu`` gives ν_max). Below ν_min the ranks' reduced convex
hulls overlap in feature space, the optimum is w ≈ 0 and the direction of f is solver
round-off; near ν_max every α sits at its bound and f becomes the difference of the top and
bottom ranks' means. ν_min depends on how noisy the ranks are, and the best RBF width on the
data, so no fixed ν and width fit every data set.

So ``nu="auto"`` scores every (ν/ν_max, width, threshold rule) of a small grid by held-out
mean absolute rank error (5 folds on data up to ``MAX_CV_SAMPLES`` points, else 3 folds on a
rank-stratified subsample of that many), picks the best, and refits on all the data: with a
data-driven width, 4 ν × 4 widths × 5 or 3 folds = 80 or 48 small QPs per ``fit``. The
measurements behind the grid and its cost are in the user guide (Ranking: How the defaults were
chosen).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._nu_ranking_solver import (
    _mae_thresholds,
    _nu_ranking_dual,
    _thresholds,
    max_feasible_nu,
)

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: ν as a fraction of ν_max (the largest feasible ν on the training ranks of each fold)
NU_RATIOS: tuple[float, ...] = (0.4, 0.6, 0.8, 0.95)
#: multiples of the data-driven RBF width γ = 1 / (n_features · Var X) ("scale")
WIDTH_FACTORS: tuple[float, ...] = (0.1, 0.3, 1.0, 3.0)
#: the cross-validation runs on at most this many points (rank-stratified, deterministic)
MAX_CV_SAMPLES = 500
#: solver tolerance and iteration cap inside the cross-validation (the final fit uses the
#: estimator's own ``tol`` and ``max_iter``)
CV_TOL = 1e-6
CV_MAX_ITER = 50


def stratified_subsample(y: IntArray, max_samples: int) -> IntArray:
    """Indices of at most ``max_samples`` points, each rank in proportion, evenly spread over
    the data order (deterministic: no random choice)."""
    n = y.shape[0]
    if n <= max_samples:
        return np.arange(n)
    keep = []
    for r in np.unique(y):
        idx = np.flatnonzero(y == r)
        m = max(2, round(max_samples * idx.size / n))
        keep.append(idx[np.unique(np.linspace(0, idx.size - 1, min(m, idx.size)).astype(int))])
    return np.sort(np.concatenate(keep))


def interleaved_folds(y: IntArray, n_folds: int) -> list[tuple[IntArray, IntArray]]:
    """Rank-stratified folds, the points of each rank dealt in turn to folds 0, 1, …: every
    fold spans the whole data order (files sorted by place or time do not make a fold a
    block) without any random choice."""
    fold = np.empty(y.shape[0], dtype=np.intp)
    for r in np.unique(y):
        idx = np.flatnonzero(y == r)
        fold[idx] = np.arange(idx.size) % n_folds
    return [(np.flatnonzero(fold != k), np.flatnonzero(fold == k)) for k in range(n_folds)]


def fit_dual(K: FloatArray, y: IntArray, nu: float, n_ranks: int, rule: str = "kkt",
             **solver_args: Any) -> tuple[FloatArray, FloatArray, FloatArray, dict[str, Any]]:
    """Solve the dual and place the thresholds: ``(alpha_u, alpha_l, thresholds, info)``.

    ``rule="kkt"``: from the KKT conditions of Algorithm 8.9 (the ν-ranking primal's own
    thresholds); ``"mae"``: the thresholds on the same f that minimise the training mean
    absolute rank error (:func:`_mae_thresholds`). ``info["margin"]`` is γ from the KKT rule.
    """
    alpha_u, alpha_l, info = _nu_ranking_dual(K, y, nu, n_ranks=n_ranks, **solver_args)
    f = K @ (alpha_u - alpha_l)
    b, gamma = _thresholds(f, y, alpha_u, alpha_l, info["C"], n_ranks)
    if rule == "mae":
        b = _mae_thresholds(f, y, n_ranks)
    info["margin"] = gamma
    return alpha_u, alpha_l, b, info


def select_nu_and_width(
    gram: Callable[[float], FloatArray],
    y: IntArray,
    n_ranks: int,
    width_factors: tuple[float, ...],
    nu_ratios: tuple[float, ...] = NU_RATIOS,
    n_folds: int = 3,
    rules: tuple[str, ...] = ("kkt", "mae"),
    **solver_args: Any,
) -> tuple[float, float, str, dict[str, Any]]:
    """Pick (ν/ν_max, width factor, threshold rule) by ``n_folds``-fold held-out rank MAE.

    Both threshold rules read the same dual solution, so trying them costs no extra QP.

    Parameters
    ----------
    gram : callable
        ``gram(factor)`` returns the kernel matrix of the (subsampled) training points with the
        width multiplied by ``factor`` (called once per factor; ``(1.0,)`` when the kernel has
        no data-driven width).
    y : ndarray of int
        Ranks 0, …, R − 1 of those points.

    rules : tuple of {"kkt", "mae"}
        Threshold rules to compare (see :func:`fit_dual`).

    Returns
    -------
    nu_ratio, width_factor : float
    rule : str
        The best triple (ties: the first in grid order: smoother kernel, smaller ν, "kkt").
    results : dict
        ``nu_ratio``, ``width_factor``, ``thresholds`` and ``mae`` (over the held-out folds) of
        every triple tried; ``mae`` is NaN throughout when no fold can be scored (every rank a
        single point), and the first triple is returned.
    """
    counts = np.bincount(y, minlength=n_ranks)
    n_folds = max(2, min(n_folds, int(counts.min())))
    # a fold whose training part lacks a rank (one with a single point) cannot fit every
    # threshold: leave it out. The last fold always remains: its training part holds fold
    # 0, which the interleaving gives the first point of every rank; it has held-out points
    # unless every rank has a single point (then nothing is scored: no QP is solved).
    folds = [(tr, te) for tr, te in interleaved_folds(y, n_folds)
             if te.size and np.bincount(y[tr], minlength=n_ranks).min() > 0]
    n_test = sum(te.size for _, te in folds)
    triples, maes = [], []
    for factor in width_factors:
        K = gram(factor) if folds else np.zeros((0, 0))
        err = np.zeros((len(nu_ratios), len(rules)))
        for train, test in folds:
            yt = y[train]
            nu_max = max_feasible_nu(yt, n_ranks)
            K_tt = K[np.ix_(train, train)]
            K_vt = K[np.ix_(test, train)]
            for j, ratio in enumerate(nu_ratios):
                au, al, b_kkt, _ = fit_dual(K_tt, yt, ratio * nu_max, n_ranks, **solver_args)
                f_test = K_vt @ (au - al)
                for k, rule in enumerate(rules):
                    b = (b_kkt if rule == "kkt"
                         else _mae_thresholds(K_tt @ (au - al), yt, n_ranks))
                    pred = np.searchsorted(b, f_test, side="right")
                    err[j, k] += np.abs(pred - y[test]).sum()
        for j, ratio in enumerate(nu_ratios):
            for k, rule in enumerate(rules):
                triples.append((ratio, factor, rule))
                maes.append(err[j, k] / n_test if n_test else np.nan)
    best = int(np.argmin(maes)) if n_test else 0
    results: dict[str, Any] = {
        "nu_ratio": np.array([t[0] for t in triples]),
        "width_factor": np.array([t[1] for t in triples]),
        "thresholds": np.array([t[2] for t in triples]),
        "mae": np.array(maes),
    }
    return triples[best][0], triples[best][1], triples[best][2], results
