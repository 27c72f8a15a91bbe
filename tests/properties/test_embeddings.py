"""Properties of :class:`~kernel_patterns.KernelMDS` and
:class:`~kernel_patterns.LaplacianEmbedding` on generated data (``strategies``).

An embedding is unique up to the sign of each component (and a rotation within a repeated
eigenvalue's components), so two embeddings are compared by their pairwise distances."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.distance import pdist

from kernel_patterns import KernelMDS, LaplacianEmbedding

from .helpers import (
    assert_ignores_later_edits,
    assert_same_state,
    fitted_state,
    quiet_fit,
)
from .strategies import Data, affine, blobs, messy, seeds

ESTIMATORS: dict[str, Callable[[], Any]] = {
    "KernelMDS": lambda: KernelMDS(random_state=0),
    "LaplacianEmbedding": lambda: LaplacianEmbedding(random_state=0),
}
names = pytest.mark.parametrize("name", sorted(ESTIMATORS))

#: well-separated blobs are separate components of the k-NN graph: the Laplacian warns
#: (tested with the estimator); the properties below hold all the same
pytestmark = pytest.mark.filterwarnings("ignore:the affinity graph is disconnected:UserWarning")


def assert_same_embedding(a: np.ndarray, b: np.ndarray) -> None:
    """The same points up to component signs: equal pairwise distances (to 1e-6 of the
    largest)."""
    da, db = pdist(a), pdist(b)
    np.testing.assert_allclose(da, db, atol=1e-6 * max(float(da.max(initial=0.0)), 1e-300))


@st.composite
def strip(draw: st.DrawFn, max_n: int = 60) -> Data:
    """Points along a long thin box (sides 10, 1, 0.1; evenly spaced along the long side,
    jittered: random gaps would cut the k-NN graph): one connected cloud whose leading
    components (the long side, then the next) have distinct eigenvalues."""
    rng = np.random.default_rng(draw(seeds))
    n = draw(st.integers(20, max_n))
    d = draw(st.integers(1, 3))
    X = rng.uniform(size=(n, d)) * np.array([10.0, 1.0, 0.1])[:d]
    X[:, 0] = np.linspace(0.0, 10.0, n) + rng.uniform(-0.02, 0.02, n)
    return Data(X, 1, "strip")


#: data whose embedding is unique up to signs: KernelMDS on two blobs or a strip; the
#: Laplacian on a strip only (two blobs far apart are two components of the k-NN graph, a
#: repeated eigenvalue 0 whose eigenvectors any rotation mixes)
UNIQUE = {"KernelMDS": st.one_of(blobs(max_k=2), strip()), "LaplacianEmbedding": strip()}


@names
@given(draw=st.data(), perm_seed=st.integers(0, 1000))
def test_permuting_rows_permutes_embedding(name: str, draw: st.DataObject,
                                           perm_seed: int) -> None:
    """Fitting the rows in another order gives the same embedding, its rows permuted (on
    data whose components' eigenvalues are distinct)."""
    data = draw.draw(UNIQUE[name])
    perm = np.random.default_rng(perm_seed).permutation(len(data.X))
    a = quiet_fit(ESTIMATORS[name], data.X).embedding_
    b = quiet_fit(ESTIMATORS[name], data.X[perm]).embedding_
    assert_same_embedding(a[perm], b)


@names
@given(draw=st.data())
def test_affine_map_same_embedding(name: str, draw: st.DataObject) -> None:
    """``X * c + b`` (c > 0, b the same on every column) gives the same embedding: KernelMDS'
    RBF width follows the data (``gamma="scale"``), the Laplacian's k-NN graph depends on the
    order of the distances only."""
    data = draw.draw(UNIQUE[name])
    c, b = affine(draw.draw, data.X.shape[1])
    a = quiet_fit(ESTIMATORS[name], data.X).embedding_
    moved = quiet_fit(ESTIMATORS[name], data.X * c + b).embedding_
    assert_same_embedding(a, moved)


@names
@given(data=messy())
def test_same_random_state_same_result(name: str, data: Data) -> None:
    """Two fits with the same ``random_state`` give the same fitted model, bit for bit."""
    first = fitted_state(quiet_fit(ESTIMATORS[name], data.X))
    second = fitted_state(quiet_fit(ESTIMATORS[name], data.X))
    assert_same_state(first, second)


@names
@given(data=messy())
def test_embedding_finite(name: str, data: Data) -> None:
    """The embedding has one finite row per point."""
    emb = quiet_fit(ESTIMATORS[name], data.X).embedding_
    assert emb.shape[0] == len(data.X)
    assert np.isfinite(emb).all()


@given(data=messy())
def test_kernel_mds_transform_of_training_rows_is_embedding(data: Data) -> None:
    """``KernelMDS().fit(X).transform(X)`` equals ``embedding_``: the out-of-sample formula
    on a training point gives its own coordinates, on each component j to 1e-6 of the
    largest entry plus the rounding of K's entries (10 n ε, ε the output's precision, the
    RBF's entries at most 1)
    carried through the formula's 1/√λ_j. Components whose eigenvalue is at that rounding
    level (documented in ``KernelMDS.transform``) are noise in both and not compared."""
    model = quiet_fit(ESTIMATORS["KernelMDS"], data.X)
    # ε of the precision the model computes in (float32 input: float32)
    rounding = 10 * len(data.X) * np.finfo(model.embedding_.dtype).eps
    lam = model.eigenvalues_
    real = lam > rounding
    emb = model.embedding_[:, real]
    tol = 1e-6 * max(float(np.abs(emb).max(initial=0.0)), 1e-300) + rounding / np.sqrt(
        lam[real])
    assert (np.abs(model.transform(data.X)[:, real] - emb) <= tol).all()


@names
@given(data=messy())
def test_fitted_model_ignores_later_edits(name: str, data: Data) -> None:
    """Editing the caller's ``X`` in place after ``fit`` changes neither the fitted
    attributes nor (KernelMDS) the transform of (a copy of) the training rows."""
    output = "transform" if hasattr(ESTIMATORS[name](), "transform") else None
    assert_ignores_later_edits(ESTIMATORS[name], data.X, output=output)
