"""The ARI of the spectral defaults on three touching blobs, over many draws of the data.

``bench_defaults_time.py`` draws each family once (``--seed 0``). On its three touching blobs
(three Gaussians of deviation 1, centres 3 apart) the ARI sits near the Bayes rule's, and one
draw cannot tell two methods apart: the rows where ours is below scikit-learn's differ by
0.001 (``SpectralClustering`` at 20,000 points) and 0.008 (``LaplacianEmbedding`` at 1,000).
This runs the same pairs on ``--seeds`` draws of that family and prints, per size, the mean
ARI of each side, the mean of ours minus the peer's with its standard error, and on how many
draws ours is at least the peer's. Two more rows put the embeddings on the same graph, to
tell the method from its default graph: ``LaplacianEmbedding(n_neighbors=None)`` (the
``n_samples // 10`` neighbours of ``SpectralEmbedding()``) and
``SpectralEmbedding(n_neighbors=10)`` (the 10 neighbours of ours).

Run: ``python benchmarks/bench_touching_ari.py`` (sizes 1,000, 5,000 and 20,000, ten draws,
about four minutes on two cores); the table is kept in ``results/touching_ari.md``.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable

import numpy as np
from sklearn.cluster import KMeans
from sklearn.cluster import SpectralClustering as SkSpectral
from sklearn.manifold import SpectralEmbedding
from sklearn.metrics import adjusted_rand_score

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_touching_ari
    from _common import machine, save, table
    from bench_defaults_time import PAIRS, touching_blobs
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_defaults_time import PAIRS, touching_blobs

from kernel_patterns import LaplacianEmbedding, SpectralClustering

Score = Callable[[np.ndarray, np.ndarray], float]


def _labels(fit: Callable[[np.ndarray], np.ndarray]) -> Score:
    return lambda X, y: float(adjusted_rand_score(y, fit(X)))


def _embedded(fit: Callable[[np.ndarray], np.ndarray]) -> Score:
    """Scored as in ``bench_defaults_time.py``: the ARI of KMeans(3) on the embedding."""
    return lambda X, y: float(adjusted_rand_score(
        y, KMeans(3, n_init=10, random_state=0).fit_predict(np.asarray(fit(X), np.float64))))


#: (ours, peer) label -> (ours, peer, largest size run)
ROWS: dict[tuple[str, str], tuple[Score, Score, int]] = {
    (PAIRS["spectral"][0], PAIRS["spectral"][1]): (
        _labels(lambda X: SpectralClustering(3, random_state=0).fit_predict(X)),
        _labels(lambda X: SkSpectral(3, affinity="nearest_neighbors",
                                     random_state=0).fit_predict(X)),
        20000),
    (PAIRS["laplacian"][0], PAIRS["laplacian"][1]): (
        _embedded(lambda X: LaplacianEmbedding(random_state=0).fit_transform(X)),
        _embedded(lambda X: SpectralEmbedding(random_state=0).fit_transform(X)),
        5000),  # SpectralEmbedding() takes minutes at 20,000 points (2,000 neighbours)
    ("LaplacianEmbedding(n_neighbors=None)", PAIRS["laplacian"][1]): (
        _embedded(lambda X: LaplacianEmbedding(n_neighbors=None,
                                               random_state=0).fit_transform(X)),
        _embedded(lambda X: SpectralEmbedding(random_state=0).fit_transform(X)),
        5000),
    (PAIRS["laplacian"][0], "SpectralEmbedding(n_neighbors=10)"): (
        _embedded(lambda X: LaplacianEmbedding(random_state=0).fit_transform(X)),
        _embedded(lambda X: SpectralEmbedding(n_neighbors=10,
                                              random_state=0).fit_transform(X)),
        5000),
}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 20000])
    p.add_argument("--seeds", type=int, default=10, help="draws of the data: seeds 0..N-1")
    args = p.parse_args()
    rows = []
    for n in args.sizes:
        draws = [touching_blobs(n, seed) for seed in range(args.seeds)]
        for (ours_name, peer_name), (ours, peer, largest) in ROWS.items():
            if n > largest:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the same for both sides
                scores = np.array([(ours(X, y), peer(X, y)) for X, y in draws])
            diff = scores[:, 0] - scores[:, 1]
            row = (ours_name, peer_name, n, float(scores[:, 0].mean()),
                   float(scores[:, 1].mean()), f"{diff.mean():+.4f}",
                   f"{diff.std(ddof=1) / np.sqrt(diff.size):.4f}",
                   f"{int(np.sum(diff >= 0))}/{diff.size}")
            print(" | ".join(map(str, row)), flush=True)
            rows.append(row)
    text = "\n\n".join([
        "# The spectral defaults on three touching blobs, over draws of the data",
        f"`python benchmarks/bench_touching_ari.py --sizes {' '.join(map(str, args.sizes))}"
        f" --seeds {args.seeds}` on {machine()}: `touching_blobs(n, seed)` of "
        "`bench_defaults_time.py` for seeds 0 to "
        f"{args.seeds - 1}; embeddings scored by the ARI of KMeans(3) on them. "
        "Difference: ours minus the peer's, its mean and standard error over the draws.",
        table(["ours", "peer", "n", "mean ARI ours", "mean ARI peer", "difference",
               "standard error", "draws ours ≥ peer"], rows),
    ])
    print(f"saved {save('touching_ari', text)}")


if __name__ == "__main__":
    main()
