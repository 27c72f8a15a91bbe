"""Input checks shared by every layer: clear errors that name the argument.

Every public function and estimator validates its input here once, so that a NaN, an infinite
value, an empty array or a wrong shape gives a one-line ``ValueError`` naming the argument,
never a traceback from deep inside numpy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

FloatArray = NDArray[np.floating[Any]]

_FLOAT_DTYPES = (np.float64, np.float32)


def check_matrix(
    X: ArrayLike,
    name: str = "X",
    *,
    dtype: Any = "float",
    min_samples: int = 1,
    min_features: int = 1,
    allow_1d: bool = False,
    copy: bool = False,
    accept_sparse: bool = False,
) -> FloatArray:
    """Return ``X`` as a finite, non-empty 2-D float array or raise ``ValueError``.

    Parameters
    ----------
    X : array-like
        The input.
    name : str
        The argument's name, used in error messages.
    dtype : {"float", numpy dtype}
        ``"float"`` keeps float32 and float64 as they are and converts anything else to float64.
    min_samples, min_features : int
        Smallest accepted number of rows and columns.
    allow_1d : bool
        Treat a 1-D input as one column instead of rejecting it.
    copy : bool
        Always return a copy (the caller's array is never modified either way).
    accept_sparse : bool
        Return a scipy.sparse input as CSR (float32 kept, other types as float64), its stored
        values checked to be finite, instead of raising ``TypeError``.

    Examples
    --------
    >>> check_matrix([[0.0, 1.0], [2.0, 3.0]]).shape
    (2, 2)
    >>> check_matrix([[0.0, float("nan")]], name="Y")
    Traceback (most recent call last):
    ...
    ValueError: Y contains NaN (1 value); remove or impute the missing values first.
    """
    if sparse.issparse(X):
        if not accept_sparse:
            raise TypeError(f"{name} is a sparse matrix; a dense array is required here.")
        return _check_sparse(X, name, min_samples, min_features, copy)
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name} could not be converted to a numeric array: {exc}") from None
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)
    ):
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must be numeric; got values of type {arr.dtype}."
            ) from None
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(f"{name} must be real-valued; got complex values.")
    if arr.ndim == 1 and allow_1d:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features); got {arr.ndim}-D "
            f"with shape {arr.shape}."
            + (" Reshape 1-D data with X.reshape(-1, 1)." if arr.ndim == 1 else "")
        )
    if dtype == "float":
        target = arr.dtype if arr.dtype in _FLOAT_DTYPES else np.dtype(np.float64)
    else:
        target = np.dtype(dtype)
    arr = np.array(arr, dtype=target, copy=True) if copy else np.asarray(arr, dtype=target)
    _check_shape(arr.shape, name, min_samples, min_features)
    check_finite(arr, name)
    return arr


def _check_shape(shape: tuple[int, ...], name: str, min_samples: int, min_features: int) -> None:
    """Raise ``ValueError`` when a matrix of ``shape`` has too few rows or columns."""
    n, d = shape
    if n < min_samples:
        raise ValueError(
            f"{name} has {n} sample(s); at least {min_samples} "
            f"{'is' if min_samples == 1 else 'are'} required."
        )
    if d < min_features:
        raise ValueError(f"{name} has {d} feature(s); at least {min_features} required.")


def _check_sparse(X: Any, name: str, min_samples: int, min_features: int, copy: bool) -> Any:
    """:func:`check_matrix` for scipy.sparse input: CSR, float, finite, large enough."""
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D; got a sparse array of shape {X.shape}.")
    A = X.tocsr(copy=copy)
    if A.dtype not in _FLOAT_DTYPES:
        if np.issubdtype(A.dtype, np.complexfloating):
            raise ValueError(f"{name} must be real-valued; got complex values.")
        A = A.astype(np.float64)
    _check_shape(A.shape, name, min_samples, min_features)
    check_finite(A.data, name)
    return A


def check_finite(arr: NDArray[Any], name: str) -> None:
    """Raise ``ValueError`` naming ``name`` when ``arr`` holds NaN or infinite values."""
    if arr.dtype.kind not in "fc":
        return
    if np.isfinite(arr).all():
        return
    n_nan = int(np.isnan(arr).sum())
    if n_nan:
        raise ValueError(
            f"{name} contains NaN ({n_nan} value{'s' if n_nan != 1 else ''}); "
            "remove or impute the missing values first."
        )
    n_inf = int(np.isinf(arr).sum())
    raise ValueError(
        f"{name} contains infinity ({n_inf} value{'s' if n_inf != 1 else ''}); "
        "all values must be finite."
    )


#: the largest magnitude a kernel's input may hold: kernels square it (‖x − y‖², xᵀy summed
#: over the features), and float64 squares overflow past about 1.3e154
MAX_MAGNITUDE = 1e150


def check_magnitude(arr: Any, name: str) -> None:
    """Raise ``ValueError`` naming ``name`` when a dense or scipy.sparse ``arr`` holds a value
    beyond :data:`MAX_MAGNITUDE` in absolute value (its square overflows float64).

    Examples
    --------
    >>> check_magnitude(np.array([[1.0, -2e200]]), "X")
    Traceback (most recent call last):
    ...
    ValueError: X holds values up to 2e+200 in absolute value, beyond 1e+150: ...
    """
    values = arr.data if sparse.issparse(arr) else np.asarray(arr)
    if values.size == 0 or values.dtype.kind != "f":
        return
    top = max(float(values.max()), -float(values.min()))
    if top > MAX_MAGNITUDE:
        raise ValueError(
            f"{name} holds values up to {top:.3g} in absolute value, beyond "
            f"{MAX_MAGNITUDE:.0e}: their squares, which the kernels compute, overflow float64. "
            f"Rescale {name} (e.g. divide it by its largest absolute value, as scikit-learn's "
            "MaxAbsScaler does)."
        )


def check_same_features(X: FloatArray, Y: FloatArray, x_name: str = "X", y_name: str = "Y") -> None:
    """Raise ``ValueError`` when ``X`` and ``Y`` do not have the same number of columns."""
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"{y_name} has {Y.shape[1]} features but {x_name} has {X.shape[1]}; "
            "they must match."
        )


def check_labels(labels: ArrayLike, name: str) -> NDArray[Any]:
    """Return a 1-D label array, rejecting NaN, wrong dimensions and empty input."""
    arr = np.asarray(labels)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}.")
    if arr.size == 0:
        raise ValueError(f"{name} is empty.")
    if arr.dtype.kind in "fc":
        check_finite(arr, name)
    return arr


def categorical_parts(y: Any) -> tuple[Any, Any] | None:
    """``(categorical, codes)`` of a pandas categorical Series or Categorical, else ``None``
    (the rankers and the ranking metrics read an ordered one's categories as the ranks)."""
    cat: Any = getattr(y, "cat", None)  # pandas Series of categorical dtype
    codes = getattr(cat, "codes", None) if cat is not None else None
    if codes is None and getattr(y, "ordered", None) is not None and hasattr(y, "codes"):
        cat, codes = y, y.codes  # a bare pandas Categorical
    return None if codes is None else (cat, codes)


def check_positive_int(value: Any, name: str, minimum: int = 1) -> int:
    """Return ``value`` as an int ≥ ``minimum`` or raise a clear error."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer; got {type(value).__name__}.")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}; got {value}.")
    return int(value)


def check_number(value: Any, name: str, *, low: float | None = None, strict: bool = True) -> float:
    """Return ``value`` as a finite float, optionally ``> low`` (``strict``) or ``>= low``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}.")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name} must be finite; got {value!r}.")
    if low is not None and (v <= low if strict else v < low):
        raise ValueError(f"{name} must be {'>' if strict else '>='} {low:g}; got {value!r}.")
    return v


def check_n_clusters(n_clusters: int, n_samples: int) -> None:
    """Raise a ``ValueError`` when ``n_clusters`` exceeds ``n_samples``.

    The one check every clustering estimator (and the command line, through them) uses.

    Examples
    --------
    >>> check_n_clusters(3, 2)
    Traceback (most recent call last):
    ...
    ValueError: n_clusters=3 is larger than the number of samples, 2: ...
    """
    if n_clusters > n_samples:
        raise ValueError(
            f"n_clusters={n_clusters} is larger than the number of samples, {n_samples}: a "
            f"clustering cannot have more than the {n_samples} samples as clusters "
            f"(n_samples={n_samples} should be >= n_clusters={n_clusters})."
        )
