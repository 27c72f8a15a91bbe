"""Heavy-tailed features: when a width chosen from the data Gaussianises them first.

Shared by the four clustering estimators' ``feature_transform``. A width chosen from the data
(GPClustering's length scale, the 90th percentile of the distance to the 5th neighbour;
``RBF(gamma="scale")``; the k-NN graph) sees the spread of the points. When most features are
heavy-tailed, a dense core holds most points and the sparse tail sets the width: the GP
landscape is one basin with outliers around it. Each feature standardised and Yeo-Johnson
transformed (scikit-learn's :class:`~sklearn.preprocessing.PowerTransformer`) spreads the core
and draws the tail in. The measurements behind this (and the rank transform it was preferred
to) are in ``benchmarks/results/gp_design_notes.md``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from scipy import sparse
from scipy.stats import kurtosis
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import PowerTransformer, StandardScaler

from ._validation import FloatArray

#: feature_transform="auto" Gaussianises the features when the median feature's excess
#: kurtosis is above this: tails clearly heavier than a Gaussian's (0) or a logistic's (1.2
#: is its excess kurtosis, the Laplace's 3). Light-tailed sets are left as they are (the
#: sets checked: ``benchmarks/results/gp_design_notes.md``).
TAIL_KURTOSIS = 1.0


@contextmanager
def _quiet() -> Iterator[None]:
    """No floating-point or RuntimeWarning noise from kurtosis and the power transform
    (constant features, extreme values): what they give is checked by their callers."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def median_excess_kurtosis(X: FloatArray) -> float:
    """The excess kurtosis (Fisher's: 0 for a Gaussian) of the median feature of ``X``.

    Constant features count as 0.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    float
        The median over the features of their excess kurtosis (0 for a Gaussian).

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns.cluster.gp import median_excess_kurtosis
    >>> rng = np.random.default_rng(0)
    >>> bool(median_excess_kurtosis(rng.laplace(size=(5000, 3))) > 2)
    True
    >>> bool(abs(median_excess_kurtosis(rng.normal(size=(5000, 3)))) < 0.3)
    True
    """
    with _quiet():
        k = kurtosis(np.asarray(X, dtype=np.float64), axis=0)
    return float(np.median(np.nan_to_num(np.atleast_1d(k), nan=0.0)))


def to_input_units(
    transform: Any, S: FloatArray, fitted_on: FloatArray, original: FloatArray
) -> FloatArray:
    """Points ``S`` of the transformed space in the units of the input (SEPs to report).

    Each coordinate is first clipped to the range of the transformed training points
    ``fitted_on``: the Yeo-Johnson transform with λ < 0 (or > 2) is bounded on one side, and
    its inverse is undefined past the bound. Near that bound the inverse also loses every
    digit (a far outlier gives λ ≈ -40, and the training points' own image inverts to NaN or
    to a tenth of the value). So each row is checked by transforming it back; a row that does
    not return to itself is read, feature by feature, from the training points instead: the
    transform is monotone in each feature, and ``original`` (the training points in the
    input's units, the rows of ``fitted_on``) is interpolated linearly between them.
    """
    if transform is None:
        return S
    lo, hi = fitted_on.min(axis=0), fitted_on.max(axis=0)
    S = np.clip(S, lo, hi)
    with _quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn's "values are NaN"
        try:
            out = np.asarray(transform.inverse_transform(S), dtype=np.float64)
            back = np.asarray(transform.transform(np.nan_to_num(out)), dtype=np.float64)
        except ValueError:  # an inverse past float64's range
            out = np.full_like(S, np.nan)
            back = out
    bad = ~np.all(np.isfinite(out) & np.isclose(back, S, rtol=1e-6, atol=1e-6), axis=1)
    if bad.any():
        for j in range(S.shape[1]):
            order = np.argsort(fitted_on[:, j], kind="stable")
            out[bad, j] = np.interp(S[bad, j], fitted_on[order, j], original[order, j])
    return out


def transform_for_fit(
    X: Any, how: str | None, data_driven: bool, precomputed: bool = False
) -> Pipeline | None:
    """The Gaussianising transform an estimator with ``feature_transform=how`` fits on ``X``,
    or None.

    ``"auto"``: only when the estimator's kernel (or graph) takes its width from the data
    (``data_driven``: GPClustering's ``kernel=None``, the default ``RBF(gamma="scale")``, the
    k-nearest-neighbour graph; a width the user gave is in the units of ``X`` and is left
    alone) and :func:`median_excess_kurtosis` is above ``TAIL_KURTOSIS``. ``"yeo-johnson"``:
    always. None: never. The transform standardises each feature, then applies Yeo-Johnson
    (standardised again), so it is invariant to the units of each feature. A precomputed
    kernel or sparse ``X`` has no features to transform: ``"yeo-johnson"`` then raises a
    ValueError, ``"auto"`` does nothing. The transform does not read ``sample_weight``.
    """
    if how is None:
        return None
    if precomputed or sparse.issparse(X):
        if how == "yeo-johnson":
            got = "a precomputed kernel" if precomputed else "sparse X"
            raise ValueError(f"feature_transform='yeo-johnson' needs dense features; got {got}.")
        return None
    X = np.asarray(X, dtype=np.float64)
    if how == "auto" and (not data_driven or median_excess_kurtosis(X) <= TAIL_KURTOSIS):
        return None
    pipe = make_pipeline(StandardScaler(), PowerTransformer(method="yeo-johnson"))
    with _quiet():
        pipe.fit(X)
    return pipe


#: data whose mean lies more than this many standard deviations (of their widest feature)
#: from the origin are centred before a stationary landscape (:func:`centring_for_fit`)
FAR_FROM_ORIGIN = 1e6


def centring_for_fit(X: FloatArray) -> Pipeline | None:
    """The centring of the features of ``X`` (fitted), when their mean lies more than
    ``FAR_FROM_ORIGIN`` times the largest feature's standard deviation from the origin, else
    None.

    A stationary kernel sees only the differences of the points, which float64 holds to
    fewer digits the farther the points lie from the origin for their spread (the gradient
    and the flows' steps lose them first): the landscape of the centred data is the same
    one, computed with every digit.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(50, 2))
    >>> centring_for_fit(X) is None, centring_for_fit(X + 1e9) is None
    (True, False)
    """
    centre = X.mean(axis=0)
    spread = float(X.std(axis=0).max())
    if not spread > 0 or float(np.abs(centre).max()) <= FAR_FROM_ORIGIN * spread:
        return None
    return make_pipeline(StandardScaler(with_std=False)).fit(X)


def apply_to(transform: Any, X: Any) -> Any:
    """``X`` through a fitted transform, in its own dtype (unchanged when it is None)."""
    if transform is None:
        return X
    with _quiet():
        out = np.asarray(transform.transform(np.asarray(X, dtype=np.float64)))
    return out.astype(X.dtype, copy=False)
