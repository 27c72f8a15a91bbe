"""Demo step: spectral clustering of rings and moons; kernel MDS and Laplacian embeddings of the
crabs and Wine data (Shawe-Taylor & Cristianini, §8.2.3 and §8.3)."""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics import adjusted_rand_score

from .. import datasets, plotting
from .._mpl import pyplot
from .._optional import MissingDependencyError
from ..cluster import SpectralClustering, spectral_eigenpairs
from ..embed import KernelMDS, LaplacianEmbedding
from ..kernels import RBF, make_operator

NAME = "spectral"
ORDER = 30


def _clustering(out_dir: Path) -> dict[str, Any]:
    plt = pyplot()
    sets = {
        "rings": (datasets.make_rings(random_state=0), 10.0),
        "two moons": (datasets.make_two_moons(random_state=0), 20.0),
    }
    fig, axes = plt.subplots(2, 2, figsize=(11, 9))
    out: dict[str, Any] = {}
    for col, (name, ((X, y), gamma)) in enumerate(sets.items()):
        t0 = time.perf_counter()
        sc = SpectralClustering(2, kernel=RBF(gamma), random_state=0).fit(X)
        seconds = time.perf_counter() - t0
        ari = adjusted_rand_score(y, sc.labels_)
        plotting.plot_clusters(X, sc.labels_, ax=axes[0, col],
                               title=f"{name}: D^-1/2 K D^-1/2, k-means on rows (ARI {ari:.2f})")
        lam, _ = spectral_eigenpairs(make_operator(RBF(gamma), X), 10, "normalized",
                                     random_state=0)
        plotting.plot_spectrum(lam, n_selected=2, ax=axes[1, col],
                               title=f"{name}: top eigenvalues of D^-1/2 K D^-1/2 (γ={gamma:g})")
        out[name] = {"gamma": gamma, "ari": round(float(ari), 4),
                     "seconds": round(seconds, 3),
                     "eigenvalues": [round(float(v), 5) for v in lam]}
    fig.tight_layout()
    plotting.save_figure(fig, out_dir / "spectral_clusters.png")
    return out


def _embeddings(out_dir: Path, name: str, X: np.ndarray, y: np.ndarray,
                class_names: list[str]) -> dict[str, Any]:
    plt = pyplot()
    Z = datasets.whiten(X)
    gamma = 0.5 / Z.shape[1]
    names = np.asarray(class_names)[y]
    mds = KernelMDS(3, kernel=RBF(gamma), random_state=0).fit(Z)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lap_rbf = LaplacianEmbedding(2, kernel=RBF(gamma), random_state=0).fit(Z)
        # the default affinity: a k-NN graph of auto_n_neighbors neighbours per point
        lap_knn = LaplacianEmbedding(2, random_state=0).fit(Z)
    fig = plt.figure(figsize=(12, 10.5))
    r = mds.explained_variance_ratio_
    plotting.plot_embedding(
        mds.embedding_[:, :2], names, ax=fig.add_subplot(2, 2, 1),
        title=f"{name}: kernel MDS (Alg. 8.29)\nRBF γ={gamma:.3g} on whitened data",
        axis_labels=(f"MDS 1 ({r[0]:.0%})", f"MDS 2 ({r[1]:.0%})"),
    )
    plotting.plot_embedding(
        mds.embedding_, names, ax=fig.add_subplot(2, 2, 2, projection="3d"),
        title=f"{name}: kernel MDS, first 3 axes",
    )
    plotting.plot_embedding(
        lap_rbf.embedding_, names, ax=fig.add_subplot(2, 2, 3),
        title=(f"{name}: Laplacian embedding (Alg. 8.33)\n"
               f"RBF γ={gamma:.3g}, E(τ)={lap_rbf.objective_:.3g}"),
    )
    plotting.plot_embedding(
        lap_knn.embedding_, names, ax=fig.add_subplot(2, 2, 4),
        title=(f"{name}: Laplacian embedding (default)\n"
               f"sparse {lap_knn.n_neighbors_}-NN graph, E(τ)={lap_knn.objective_:.3g}"),
    )
    fig.tight_layout()
    fname = f"embedding_{name.lower()}.png"
    plotting.save_figure(fig, out_dir / fname)
    return {
        "figure": fname,
        "kernel_mds_explained_variance_ratio": [round(float(v), 4) for v in r],
        "laplacian_rbf_objective": round(lap_rbf.objective_, 6),
        "laplacian_knn_objective": round(lap_knn.objective_, 6),
        "laplacian_knn_components": lap_knn.n_connected_components_,
        "warnings": [str(w.message) for w in caught],
    }


def run(out_dir: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"figures": ["spectral_clusters.png"]}
    out["clustering"] = _clustering(out_dir)
    try:
        crabs = datasets.load_crabs()
    except MissingDependencyError as exc:  # the R data sets are the optional "data" extra
        out["crabs"] = {"skipped": str(exc)}
    else:
        # Remove the size effect (log measurements minus their row mean): otherwise the first
        # axis of every picture is the crab's size, not its species or sex.
        logs = np.log(crabs.data)
        out["crabs"] = _embeddings(out_dir, "Crabs", logs - logs.mean(axis=1, keepdims=True),
                                   crabs.target, list(crabs.target_names))
        out["figures"].append(out["crabs"]["figure"])
    wine = datasets.load_wine()
    out["wine"] = _embeddings(out_dir, "Wine", wine.data, wine.target,
                              [f"cultivar {i + 1}" for i in range(3)])
    out["figures"].append(out["wine"]["figure"])
    return out
