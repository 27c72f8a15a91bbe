"""Hypothesis strategies for the property tests: data sets as a careless user makes them.

Every strategy draws a small integer seed and a few shape parameters and builds the array
with NumPy's ``default_rng(seed)``, so that an example is cheap to build and to shrink (the
seed and the shape shrink; the values follow). Two families:

* :func:`separated` — data whose partition is unique by construction (well-separated
  Gaussian blobs, concentric rings far apart): the invariance properties (rows permuted,
  ``X * c + b``) are checked on them, since on ambiguous data a local optimum may move.
* :func:`messy` — everything a user may hand over: the separated families and uniform
  noise, duplicated points, integer and constant columns, tiny n, n_features ≫ n, extreme
  scales (1e-150 … 1e150) and float32. The robustness properties (finite outputs, labels
  without gaps, determinism, the caller's ``X`` left alone) are checked on them.

Each strategy returns a :class:`Data` (the array and the number of groups it was made with).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st


@dataclass(frozen=True)
class Data:
    """A generated data set: ``X``, the groups it was drawn from (``k``) and its family."""

    X: np.ndarray
    k: int
    family: str

    def __repr__(self) -> str:  # hypothesis prints the failing example: keep it short
        return f"Data({self.family}, shape={self.X.shape}, dtype={self.X.dtype}, k={self.k})"


seeds = st.integers(min_value=0, max_value=2**16)


@st.composite
def blobs(draw: st.DrawFn, max_n: int = 60, max_k: int = 3, min_per: int = 6) -> Data:
    """Gaussian blobs whose centres are 10 standard deviations apart (a unique partition),
    ``min_per`` points or more in each."""
    seed = draw(seeds)
    k = draw(st.integers(2, max_k))
    d = draw(st.integers(1, 4))
    per = draw(st.integers(min_per, max(min_per, max_n // k)))
    rng = np.random.default_rng(seed)
    centres = 10.0 * np.eye(max(k, d))[:k, :d] if d >= k else _spread(rng, k, d)
    X = np.repeat(centres, per, axis=0) + rng.normal(scale=0.5, size=(k * per, d))
    return Data(X, k, "blobs")


def _spread(rng: np.random.Generator, k: int, d: int) -> np.ndarray:
    """``k`` centres in ``d`` dimensions at least 10 apart (on a line when d is small)."""
    centres = np.zeros((k, d))
    centres[:, 0] = 10.0 * np.arange(k)
    return centres + rng.uniform(-0.5, 0.5, size=(k, d))


@st.composite
def rings(draw: st.DrawFn, max_n: int = 60, min_per: int = 10) -> Data:
    """A small disc inside a ring of radius ten times larger (two groups, a unique partition
    for a local kernel when the ring has points enough: ``min_per``)."""
    seed = draw(seeds)
    per = draw(st.integers(min_per, max(min_per, max_n // 2)))
    rng = np.random.default_rng(seed)
    # evenly around (jittered): random angles leave gaps that cut the ring in a k-NN graph
    theta = np.linspace(0, 2 * np.pi, per, endpoint=False) + rng.uniform(-0.1, 0.1, per)
    disc = rng.normal(scale=0.3, size=(per, 2))
    ring = np.c_[np.cos(theta), np.sin(theta)] * 5.0 + rng.normal(scale=0.1, size=(per, 2))
    return Data(np.vstack([disc, ring]), 2, "rings")


def separated(max_n: int = 60) -> st.SearchStrategy[Data]:
    """Data with one clear partition: blobs or rings."""
    return st.one_of(blobs(max_n=max_n), rings(max_n=max_n))


@st.composite
def uniform(draw: st.DrawFn, max_n: int = 60) -> Data:
    """Uniform noise in a box: no structure at all."""
    seed = draw(seeds)
    n = draw(st.integers(8, max_n))
    d = draw(st.integers(1, 5))
    return Data(np.random.default_rng(seed).uniform(size=(n, d)), 2, "uniform")


@st.composite
def duplicated(draw: st.DrawFn, max_n: int = 60) -> Data:
    """Blobs where many rows are exact copies of a few (ties everywhere)."""
    base = draw(blobs(max_n=max_n // 2))
    rng = np.random.default_rng(draw(seeds))
    rows = rng.integers(0, max(1, base.X.shape[0] // 3), size=base.X.shape[0])
    return Data(np.vstack([base.X, base.X[rows]]), base.k, "duplicated")


@st.composite
def integer_columns(draw: st.DrawFn, max_n: int = 60) -> Data:
    """Blobs rounded to integers, with a column of small counts added."""
    base = draw(blobs(max_n=max_n))
    rng = np.random.default_rng(draw(seeds))
    counts = rng.integers(0, 3, size=(base.X.shape[0], 1))
    return Data(np.hstack([np.round(base.X), counts]).astype(np.float64), base.k, "integers")


@st.composite
def constant_column(draw: st.DrawFn, max_n: int = 60) -> Data:
    """Blobs with a constant column (zero variance) inserted."""
    base = draw(blobs(max_n=max_n))
    value = draw(st.sampled_from([0.0, 1.0, -3.5, 1e6]))
    col = np.full((base.X.shape[0], 1), value)
    return Data(np.hstack([col, base.X]), base.k, "constant")


@st.composite
def tiny(draw: st.DrawFn) -> Data:
    """Four to seven points, two groups."""
    seed = draw(seeds)
    n = draw(st.integers(4, 7))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    X[: n // 2] += 10.0
    return Data(X, 2, "tiny")


@st.composite
def wide(draw: st.DrawFn) -> Data:
    """n_features ≫ n: 12 to 20 rows of 200 to 400 features, two groups."""
    seed = draw(seeds)
    n = draw(st.integers(12, 20))
    d = draw(st.integers(200, 400))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[: n // 2, :10] += 8.0
    return Data(X, 2, "wide")


@st.composite
def extreme_scale(draw: st.DrawFn, max_n: int = 60,
                  exponents: tuple[int, ...] = (-150, -100, -30, 30, 100, 149)) -> Data:
    """Blobs scaled to largest absolute value 10**e, e in -150 … 149 (past 1e150 the kernels'
    squares overflow and the estimators refuse X with a ValueError saying so,
    ``_validation.check_magnitude``: tested in :mod:`test_kmeans_family`)."""
    base = draw(blobs(max_n=max_n))
    e = draw(st.sampled_from(exponents))
    return Data(base.X / np.abs(base.X).max() * 10.0**e, base.k, f"scale1e{e}")


@st.composite
def float32(draw: st.DrawFn, max_n: int = 60) -> Data:
    """Separated data in single precision."""
    base = draw(separated(max_n=max_n))
    return Data(base.X.astype(np.float32), base.k, base.family + "-float32")


def messy(max_n: int = 60, wide_ok: bool = True, min_exponent: int = -150,
          max_exponent: int = 149) -> st.SearchStrategy[Data]:
    """Every family (``wide_ok=False`` leaves out n_features ≫ n; the scales are
    ``10**min_exponent`` … ``10**max_exponent``)."""
    exponents = tuple(e for e in (-150, -100, -30, 30, 100, 149)
                      if min_exponent <= e <= max_exponent)
    families = [separated(max_n), uniform(max_n), duplicated(max_n), integer_columns(max_n),
                constant_column(max_n), tiny(), extreme_scale(max_n, exponents),
                float32(max_n)]
    if wide_ok:
        families.append(wide())
    return st.one_of(*families)


def affine(draw: st.DrawFn, d: int, per_column: bool = False) -> tuple[float, np.ndarray]:
    """A scale c > 0 (0.001 … 1000) and a shift b for ``X * c + b``: the same on every column,
    or (``per_column``) one per column."""
    c = draw(st.sampled_from([1e-3, 0.5, 3.0, 1e3]))
    shifts = st.sampled_from([-100.0, 0.0, 7.0, 1e4])
    if per_column:
        b = np.asarray(draw(st.lists(shifts, min_size=d, max_size=d)))
    else:
        b = np.full(d, draw(shifts))
    return c, b


def same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two labelings are the same partition (the names of the groups aside)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    pairs = set(zip(a.tolist(), b.tolist(), strict=True))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def check_labels(labels: np.ndarray, n_clusters: int, noise: bool = False) -> None:
    """Labels are integers 0 … n_clusters − 1 without gaps (and -1 only when ``noise``)."""
    labels = np.asarray(labels)
    assert np.issubdtype(labels.dtype, np.integer), labels.dtype
    used = set(np.unique(labels).tolist())
    if noise:
        used.discard(-1)
    else:
        assert -1 not in used
    assert used == set(range(n_clusters)), (sorted(used), n_clusters)
