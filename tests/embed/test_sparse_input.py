"""Sparse input to the embeddings (issue 18, item 6): on CSR/CSC input KernelMDS and
LaplacianEmbedding give what they give on the same data dense."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from kernel_patterns import KernelMDS, LaplacianEmbedding


@pytest.mark.parametrize("kernel", ["linear", "cosine", "rbf"])
@pytest.mark.parametrize("approximation", ["exact", "nystrom"])
def test_embeddings_on_sparse_equal_dense(kernel, approximation, nonneg_points):
    X, Xn = nonneg_points(), nonneg_points(20, seed=1)
    kw = {"kernel": kernel, "approximation": approximation, "n_landmarks": 60,
          "random_state": 0}
    a, b = KernelMDS(2, **kw).fit(X), KernelMDS(2, **kw).fit(sparse.csr_array(X))
    np.testing.assert_allclose(b.embedding_, a.embedding_, atol=1e-8)
    np.testing.assert_allclose(b.transform(sparse.csr_array(Xn)), a.transform(Xn), atol=1e-8)
    if kernel != "linear":  # the Laplacian needs a non-negative affinity
        la = LaplacianEmbedding(2, **kw).fit(X)
        lb = LaplacianEmbedding(2, **kw).fit(sparse.csr_array(X))
        np.testing.assert_allclose(np.abs(lb.embedding_), np.abs(la.embedding_), atol=1e-7)



def test_kernel_mds_preimages_from_sparse_training_data(nonneg_points):
    X = nonneg_points()
    a = KernelMDS(3, kernel="rbf", fit_inverse_transform=True).fit(X)
    b = KernelMDS(3, kernel="rbf", fit_inverse_transform=True).fit(sparse.csr_array(X))
    np.testing.assert_allclose(b.inverse_transform(b.embedding_[:5]),
                               a.inverse_transform(a.embedding_[:5]), atol=1e-8)
