"""The fit path every kernel estimator shares (private): resolve the kernel, prepare the operator.

Two functions, called in this order from an estimator's ``fit``:

* :func:`resolve_kernel` turns ``kernel=`` and ``kernel_params`` into a :class:`Kernel` (the
  registry is read here, at fit time, so a kernel added with ``register_kernel`` works in
  every estimator) and, given the training points, makes it ready for them through the
  kernel protocol's ``for_training_data`` (a data-driven width set, a ``data_dependent``
  kernel fitted on a clone);
* :func:`prepare_operator` validates ``X`` once, fits the estimator's ``feature_transform``,
  resolves the kernel on the (transformed) training points, caps the Nyström landmarks at
  the sample count and builds the operator with ``make_operator``.

The estimator then stores what :class:`FitSetup` holds (``kernel_``, ``feature_transform_``)
in its own ``fit``. The k-nearest-neighbour affinity (``kernel="nearest_neighbors"``) is a
graph, not a kernel function, and has its own builder (``kernel_patterns.utils.knn_operator``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.pipeline import Pipeline
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import validate_data

from ._graph import check_sparse_symmetric
from ._tails import apply_to, transform_for_fit
from ._validation import check_magnitude, check_matrix
from ._warnings import user_stacklevel
from .kernels import (
    RBF,
    Kernel,
    KernelOperator,
    Precomputed,
    check_kernel_input,
    make_kernel,
    make_operator,
)
from .utils import APPROXIMATION_PARAMETER_CONSTRAINTS

__all__ = [
    "AUTO_APPROXIMATION_CONSTRAINTS",
    "AUTO_EXACT_MAX_SAMPLES",
    "FitSetup",
    "cap_landmarks",
    "prepare_operator",
    "resolve_approximation",
    "resolve_kernel",
    "width_from_data",
]

#: ``approximation="auto"``: the exact kernel up to this many samples (a dense float64 K of
#: 800 MB, read on every pass of kernel k-means and every eigensolver product), the Nyström
#: approximation with ``n_landmarks`` landmarks beyond
AUTO_EXACT_MAX_SAMPLES = 10_000

#: the approximation parameters' constraints of the estimators whose default is
#: ``approximation="auto"`` (the dense-kernel ones: KernelKMeans, SoftKernelKMeans,
#: KernelMDS): the library's vocabulary with ``"auto"`` added
AUTO_APPROXIMATION_CONSTRAINTS: dict[str, list[Any]] = {
    **APPROXIMATION_PARAMETER_CONSTRAINTS,
    "approximation": [StrOptions({"auto", "exact", "nystrom"})],
}


def resolve_kernel(
    kernel: Any,
    kernel_params: dict[str, Any] | None = None,
    X: Any = None,
    *,
    default: Kernel | None = None,
) -> Kernel:
    """The kernel an estimator fits with.

    Parameters
    ----------
    kernel : Kernel, str, callable or None
        The estimator's ``kernel`` parameter; a name is looked up in the registry now.
    kernel_params : dict or None
        Parameters of a named kernel or a callable.
    X : ndarray or scipy.sparse matrix, default=None
        The validated training points; when given, the kernel is made ready for them
        (``Kernel.for_training_data``). A precomputed kernel is returned as it is.
    default : Kernel, default=None
        What ``kernel=None`` means.

    Returns
    -------
    Kernel

    Examples
    --------
    >>> import numpy as np
    >>> from kernel_patterns._fit import resolve_kernel
    >>> resolve_kernel("rbf", None, np.array([[0.0], [2.0]]))
    RBF(gamma=1.0)
    """
    k = make_kernel(kernel, kernel_params, default=default)
    if X is None or isinstance(k, Precomputed):
        return k
    return k.for_training_data(X)


def cap_landmarks(n_landmarks: int | None, n_samples: int) -> int | None:
    """``n_landmarks`` capped at ``n_samples`` with a warning, as scikit-learn's ``Nystroem``
    does (None, the default count, is left to :func:`make_operator`).

    Examples
    --------
    >>> import warnings
    >>> from kernel_patterns._fit import cap_landmarks
    >>> with warnings.catch_warnings(record=True):
    ...     cap_landmarks(500, 120), cap_landmarks(None, 120)
    (120, None)
    """
    if n_landmarks is None or n_landmarks <= n_samples:
        return n_landmarks
    warnings.warn(
        f"n_landmarks={n_landmarks} landmarks is more than n_samples={n_samples}; using "
        f"{n_samples} (the Nyström approximation is then the exact kernel, at a higher cost).",
        UserWarning,
        stacklevel=user_stacklevel(),
    )
    return n_samples


def resolve_approximation(
    approximation: str, kernel: Kernel, n_samples: int, operator: str = "auto"
) -> str:
    """What ``approximation="auto"`` means for this fit (other values are returned as given).

    ``"nystrom"`` above :data:`AUTO_EXACT_MAX_SAMPLES` samples, when the kernel is a function
    the Nyström approximation can evaluate at landmarks (not ``"precomputed"``, not a kernel
    fitted to the training set such as the geodesic one) and ``operator`` is ``"auto"`` (an
    explicit ``"dense"`` or ``"chunked"`` asks for the exact kernel); else ``"exact"``.

    Examples
    --------
    >>> from kernel_patterns._fit import resolve_approximation
    >>> from kernel_patterns.kernels import RBF, Precomputed
    >>> [resolve_approximation("auto", RBF(), n) for n in (10_000, 10_001)]
    ['exact', 'nystrom']
    >>> resolve_approximation("auto", Precomputed(), 50_000)
    'exact'
    >>> resolve_approximation("exact", RBF(), 50_000)
    'exact'
    """
    if approximation != "auto":
        return approximation
    if (n_samples <= AUTO_EXACT_MAX_SAMPLES or operator != "auto"
            or isinstance(kernel, Precomputed) or kernel.data_dependent):
        return "exact"
    return "nystrom"


def width_from_data(kernel: Kernel) -> bool:
    """Whether ``kernel`` takes its width from the data the way ``feature_transform="auto"``
    looks at: ``RBF(gamma="scale")``."""
    return isinstance(kernel, RBF) and kernel.gamma == "scale"


@dataclass(frozen=True)
class FitSetup:
    """What :func:`prepare_operator` hands back to the estimator's ``fit``.

    Attributes
    ----------
    X : ndarray or scipy.sparse matrix
        The validated training points (through ``feature_transform``), or the precomputed
        kernel matrix.
    kernel : Kernel
        The kernel fitted to them (the estimator's ``kernel_``).
    operator : KernelOperator
        The training operator.
    feature_transform : sklearn Pipeline or None
        The fitted Gaussianising transform (the estimator's ``feature_transform_``).
    approximation : {"exact", "nystrom"}
        The approximation the operator was built with (``"auto"`` resolved,
        :func:`resolve_approximation`).
    """

    X: Any
    kernel: Kernel
    operator: KernelOperator
    feature_transform: Pipeline | None
    approximation: str = "exact"


def prepare_operator(
    est: BaseEstimator,
    X: ArrayLike,
    kernel: Kernel,
    *,
    random_state: Any = None,
    feature_transform: str | None = None,
    memory_budget: int | None = None,
    check_psd: bool = False,
    min_samples: int = 2,
    sparse_precomputed: bool = True,
    dense_or_raise: bool = False,
) -> FitSetup:
    """Validate ``X`` once and build the training operator.

    scikit-learn's ``validate_data`` records ``n_features_in_`` (and feature names) and
    rejects complex, object, empty and 1-D input with its usual messages; NaN and infinite
    values are then named, as are values whose squares overflow float64 (beyond 1e150).
    Feature input is copied (estimators keep the training points for new ones; editing the
    caller's array after ``fit`` must not change them); a precomputed kernel matrix is read
    in place, never kept.

    Parameters
    ----------
    est : BaseEstimator
        The estimator being fitted (``validate_data`` records ``n_features_in_`` on it). Its
        parameters ``operator``, ``dtype``, ``approximation``, ``n_landmarks`` and
        ``landmarks`` say how to build the operator (:func:`make_operator`);
        ``approximation="auto"`` is resolved by :func:`resolve_approximation`. More
        landmarks than samples is reduced to ``n_samples`` with a warning, as
        scikit-learn's ``Nystroem`` does.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The training points, or the kernel matrix with a :class:`Precomputed` kernel.
    kernel : Kernel
        The estimator's kernel as :func:`resolve_kernel` built it without data; it is made
        ready for the (transformed) training points here.
    random_state : int, RandomState instance or None, default=None
        Seeds the Nyström landmarks (:func:`make_operator`).
    feature_transform : {"auto", "yeo-johnson"} or None, default=None
        The estimator's Gaussianising of heavy-tailed features (``"auto"``: under
        ``RBF(gamma="scale")`` only); see :func:`kernel_patterns._tails.transform_for_fit`.
    memory_budget : int, default=None
        Ceiling in bytes for a dense N × N matrix.
    check_psd : bool, default=False
        Reject a precomputed kernel matrix that is not positive semi-definite.
    min_samples : int, default=2
        Fewest samples accepted.
    sparse_precomputed : bool, default=True
        Whether a precomputed kernel matrix may be scipy.sparse.
    dense_or_raise : bool, default=False
        With ``operator="auto"`` and the exact kernel, hold K dense or raise
        :class:`~kernel_patterns.kernels.MemoryBudgetError` before allocating (kernel
        k-means reads all of K on every pass), instead of falling back to the chunked
        operator.

    Returns
    -------
    FitSetup
    """
    # the operator's parameters are the estimator's attributes (not get_params: a user's
    # subclass need not repeat them in its signature)
    operator, dtype, approximation = est.operator, est.dtype, est.approximation
    n_landmarks, landmarks = est.n_landmarks, est.landmarks
    precomputed = isinstance(kernel, Precomputed)
    if precomputed and approximation not in ("exact", "auto"):
        raise ValueError(
            f"approximation={approximation!r} needs a kernel function to evaluate at the "
            "landmarks; it cannot be used with kernel='precomputed' (use "
            "approximation='exact')."
        )
    if precomputed:
        accept: Any = ("csr", "csc", "coo") if sparse_precomputed else False
    else:
        accept = ("csr", "csc")
    Xa = validate_data(
        est, X, reset=True, accept_sparse=accept, dtype=[np.float64, np.float32],
        ensure_all_finite=False, ensure_min_samples=min_samples,
        copy=not precomputed,  # the fitted state may keep X: never the caller's array
    )
    if feature_transform is not None and not precomputed and not sparse.issparse(Xa):
        Xa = check_matrix(Xa, "X", min_samples=min_samples)  # NaN and inf named first
        check_magnitude(Xa, "X")  # and values whose squares overflow, before the transform
    transform = transform_for_fit(Xa, feature_transform, width_from_data(kernel), precomputed)
    Xa = apply_to(transform, Xa)
    if precomputed and sparse.issparse(Xa):
        op = make_operator(kernel, Xa, dtype=dtype)
        check_sparse_symmetric(op)
        return FitSetup(Xa, kernel, op, transform)
    # sparse features as CSR when the kernel takes them, else a TypeError naming the kernel
    Xv = check_kernel_input(kernel, Xa, "X", min_samples=min_samples)
    approximation = resolve_approximation(approximation, kernel, Xv.shape[0], operator)
    m = cap_landmarks(n_landmarks, Xv.shape[0]) if approximation == "nystrom" else n_landmarks
    # a data-dependent kernel is not fitted for Nyström, which refuses it (make_operator)
    fit_kernel = not precomputed and not (approximation == "nystrom" and kernel.data_dependent)
    fitted = kernel.for_training_data(Xv) if fit_kernel else kernel
    if dense_or_raise and operator == "auto" and approximation == "exact":
        operator = "dense"
    op = make_operator(
        fitted, Xv, operator=operator, dtype=dtype,
        memory_budget=memory_budget, check_psd=check_psd,
        approximation=approximation,  # type: ignore[arg-type]
        n_components=m, landmarks=landmarks,
        random_state=random_state,
    )
    return FitSetup(Xv, fitted, op, transform, approximation)
