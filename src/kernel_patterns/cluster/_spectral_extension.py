"""Out-of-sample extension of spectral clustering (private): eigenvectors and labels of new points.

An eigenvector v of a kernel-derived matrix satisfies ``v_i = (1/λ) Σ_j M(x_i, x_j) v_j``; the
same formula with a new point y in place of x_i extends it (the Nyström extension of
eigenfunctions; Bengio et al., "Out-of-sample extensions for LLE, Isomap, MDS, Eigenmaps and
spectral clustering", NIPS 2003). With ``d_y = Σ_j k(y, x_j)``:

* ``"K"``: ``v(y) = k(y, X) V Λ⁻¹``;
* ``"normalized"`` (D^-½KD^-½): ``v(y) = d_y^-½ k(y, X) D^-½ V Λ⁻¹``;
* ``"random_walk"`` (D⁻¹K, vectors D^-½V): ``v(y) = d_y⁻¹ k(y, X) D^-½ V Λ⁻¹``;
* ``"laplacian"`` (D − K): ``(d_y − λ) v(y) = k(y, X) v``.

At a training point each formula returns the eigenvector's own entry, so predicting the
training data gives back the fitted embedding. Everything a new point needs is one product
``k(y, X) B`` with the N × (k + 1) matrix ``B = [1, …]`` (the first column gives d_y): in row
blocks for an exact kernel, ``Y @ B`` for a precomputed block, and ``φ(y) (Fᵀ B)`` for a
low-rank kernel K = F Fᵀ (O(r) per point, no N-wide row at all).

The labels of the new rows then follow the rule that labelled the training rows: the fitted
k-means (re-clustering), the rotation and weights of the eigenvector approach, the QR
approach's ``R11⁻¹ Q̂ᵀ`` map, or the threshold.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse

from .._validation import FloatArray
from ..kernels import Kernel, KernelOperator, LowRankKernelOperator, check_kernel_input
from ._spectral_assign import discretize_rows

#: bytes of kernel rows evaluated at once for new points.
_BLOCK_BYTES = 64 * 1024**2


def extension_basis(
    V: FloatArray, lam: FloatArray, matrix: str, scale: FloatArray | None
) -> FloatArray:
    """``B = [1, …]`` (N × (k + 1)) such that ``k(y, X) B`` gives d_y and the new rows.

    ``scale`` is D^-½ as used in the fit (None for "K").
    """
    inv = np.divide(1.0, lam, out=np.zeros_like(lam), where=np.abs(lam) > 0)
    if matrix == "K":
        body = V * inv
    elif matrix == "normalized":
        assert scale is not None
        body = (V * scale[:, None]) * inv
    elif matrix == "random_walk":  # V already holds D^-½ v
        body = V * inv
    else:  # laplacian
        body = V
    return np.hstack([np.ones((V.shape[0], 1)), body])


def new_rows(
    KB: FloatArray, lam: FloatArray, matrix: str, self_affinity: FloatArray | None = None
) -> FloatArray:
    """Embedding rows of new points from ``KB = k(Y, X) B``.

    ``self_affinity`` (low-rank kernels: ``‖φ(y)‖²``) is the floor of the degree, as in the
    fit's repair of approximate degrees (:func:`kernel_patterns._graph.low_rank_degrees`).
    """
    d = np.asarray(KB[:, 0], dtype=np.float64)
    if self_affinity is not None:
        d = np.where((d < self_affinity) | (d <= 0), self_affinity, d)
    body = np.asarray(KB[:, 1:], dtype=np.float64)
    if matrix == "K":
        return body
    if matrix == "laplacian":
        gap = d[:, None] - lam
        return np.divide(body, gap, out=np.zeros_like(body), where=np.abs(gap) > 0)
    pos = d > 0
    factor = np.zeros_like(d)
    factor[pos] = d[pos] ** (-0.5 if matrix == "normalized" else -1.0)
    return body * factor[:, None]


class KernelRowProducts:
    """``Y -> k(Y, X_train) B`` for a fitted B, without keeping the N × N operator.

    Exact kernel: kernel rows in blocks of ``_BLOCK_BYTES``; precomputed: ``Y @ B`` (Y is the
    n_new × N block, dense or sparse); low-rank operator: ``φ(Y) (Fᵀ B)`` from a copy of the
    operator without its N × r features.
    """

    def __init__(self, op: KernelOperator, B: FloatArray) -> None:
        F = op.low_rank_factor()
        self.feature_map: LowRankKernelOperator | None = None
        self.kernel: Kernel | None = None
        self.X: FloatArray | None = None
        if F is not None and isinstance(op, LowRankKernelOperator):
            self.feature_map = copy.copy(op)
            self.feature_map.features = F[:0]  # transform needs X, landmarks and the map
            self.B: FloatArray = np.zeros((F.shape[1], B.shape[1]))
            # Fᵀ B: block products in F's precision, accumulated in float64 (16k-row blocks)
            step = 16_384
            for a in range(0, F.shape[0], step):
                self.B += F[a : a + step].T @ B[a : a + step].astype(F.dtype)
        else:
            self.kernel, self.X = op.kernel, op.X
            self.B = B

    @property
    def low_rank(self) -> bool:
        return self.feature_map is not None

    def __call__(self, Y: Any) -> tuple[FloatArray, FloatArray | None]:
        """``(k(Y, X) B, self-affinity of Y or None)``; Y already validated."""
        if self.feature_map is not None:
            phi = np.asarray(self.feature_map.transform(Y), dtype=np.float64)
            return phi @ self.B, np.einsum("ij,ij->i", phi, phi)
        if self.kernel is None or self.X is None:  # precomputed block
            out = Y @ self.B
            return np.asarray(out.toarray() if sparse.issparse(out) else out), None
        X = self.X
        if sparse.issparse(Y):  # CSR, or a TypeError naming a kernel that cannot take it
            Y = check_kernel_input(self.kernel, Y, "X")
        step = max(1, _BLOCK_BYTES // (8 * max(1, X.shape[0])))
        out = np.empty((Y.shape[0], self.B.shape[1]))
        for a in range(0, Y.shape[0], step):
            Kb = self.kernel.pairwise(Y[a : a + step].astype(X.dtype, copy=False), X)
            out[a : a + step] = Kb @ self.B.astype(Kb.dtype)
        return out, None


def predict_labels(rows: FloatArray, state: dict[str, Any]) -> np.ndarray:
    """Labels of new embedding rows by the fitted assignment rule (see ``assignment_state``),
    renumbered as the training labels were (``state["relabel"]``: clusters that held no
    training point after the others)."""
    labels = _rule_labels(rows, state)
    relabel = state.get("relabel")
    return labels if relabel is None else relabel[labels]


def _rule_labels(rows: FloatArray, state: dict[str, Any]) -> np.ndarray:
    """The fitted assignment rule's own labels of embedding rows."""
    kind = state["kind"]
    if kind == "threshold":
        return (rows[:, 1] > state["threshold"]).astype(np.int64)
    R = rows[:, : state["n_columns"]]
    if kind == "qr":
        return np.argmax(np.abs(R @ state["map"].T), axis=1).astype(np.int64)
    if kind == "discretize":
        return discretize_rows(R, state["factors"], state["rotation"])
    if kind == "eigenvector":
        return np.argmax((R @ state["rotation"]) * state["weights"], axis=1).astype(np.int64)
    if state["normalize_rows"]:
        norms = np.linalg.norm(R, axis=1, keepdims=True)
        R = R / np.where(norms > 0, norms, 1.0)
    km = state["kmeans"]
    return np.asarray(km.predict(R.astype(km.cluster_centers_.dtype)), dtype=np.int64)


def check_new_points(Y: ArrayLike) -> None:
    """Reject NaN / inf in new points (dense or sparse) with a message naming X."""
    data = Y.data if sparse.issparse(Y) else np.asarray(Y)  # type: ignore[union-attr]
    if not np.all(np.isfinite(data)):
        raise ValueError("X contains NaN or infinite values; clean or impute them first.")
