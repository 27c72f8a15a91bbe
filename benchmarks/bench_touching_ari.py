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
``SpectralEmbedding(n_neighbors=10)`` (the 10 neighbours of ``SpectralClustering``'s graph,
and of ``LaplacianEmbedding()``'s up to 220 points; ``n_neighbors="auto"`` has more above).

Run: ``python benchmarks/bench_touching_ari.py`` (sizes 1,000, 5,000 and 20,000, ten draws,
about four minutes on two cores); the table is kept in ``results/touching_ari.md``.

``--neighbors K ...`` adds a row ``LaplacianEmbedding(n_neighbors=K)`` against
``SpectralEmbedding()`` for each K, and a second table: the ARI of KMeans on the embedding
of the paper's rings and two moons (``datasets.make_rings`` / ``make_two_moons``,
``random_state=0``) at 200, 300 and 1,000 points and of three stripes at 1,000 points, for 10
and each K, with the graph's connected components: what a denser default graph would gain on
touching blobs and cost on thin shapes. ``--name`` is the results file
(``touching_ari_neighbors`` for that run: ``python benchmarks/bench_touching_ari.py --sizes
1000 --seeds 60 --neighbors 14 20 32 50 --name touching_ari_neighbors``, about four minutes).
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.cluster import KMeans
from sklearn.cluster import SpectralClustering as SkSpectral
from sklearn.manifold import SpectralEmbedding
from sklearn.metrics import adjusted_rand_score

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_touching_ari
    from _common import machine, save, table
    from bench_defaults_time import PAIRS, stripes, touching_blobs
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_defaults_time import PAIRS, stripes, touching_blobs

from kernel_patterns import LaplacianEmbedding, SpectralClustering, datasets

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


def _with_neighbors(k: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda X: LaplacianEmbedding(n_neighbors=k, random_state=0).fit_transform(X)


def neighbor_rows(ks: list[int]) -> dict[tuple[str, str], tuple[Score, Score, int]]:
    """``LaplacianEmbedding(n_neighbors=k)`` against ``SpectralEmbedding()``, for each k."""
    peer = _embedded(lambda X: SpectralEmbedding(random_state=0).fit_transform(X))
    return {(f"LaplacianEmbedding(n_neighbors={k})", PAIRS["laplacian"][1]):
            (_embedded(_with_neighbors(k)), peer, 5000) for k in ks}


def thin_shapes(ks: list[int]) -> list[tuple[Any, ...]]:
    """The ARI of KMeans on ``LaplacianEmbedding(n_neighbors=k)`` of thin shapes, with the
    graph's connected components, for 10 and each of ``ks``: the paper's rings and two moons
    (``random_state=0``) at 200, 300 and 1,000 points, and ``bench_defaults_time.py``'s three
    stripes at 1,000 points (seeds 0-2)."""
    shapes: list[tuple[str, int, np.ndarray, np.ndarray]] = []
    for name, make in (("rings", datasets.make_rings), ("two moons", datasets.make_two_moons)):
        for half in (100, 150, 500):
            X, y = make(n_samples=(half, half), random_state=0)
            shapes.append((name, 2 * half, X, np.asarray(y)))
    for seed in range(3):
        X, y = stripes(1000, seed)
        shapes.append((f"three stripes, seed {seed}", 1000, X, y))
    rows = []
    for name, n, X, y in shapes:
        cells = []
        for k in [10, *ks]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a disconnected graph warns
                le = LaplacianEmbedding(n_neighbors=k, random_state=0).fit(X)
            labels = KMeans(np.unique(y).size, n_init=10,
                            random_state=0).fit_predict(le.embedding_)
            cells.append(f"{adjusted_rand_score(y, labels):.2f} ({le.n_connected_components_})")
        rows.append((name, n, *cells))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 20000])
    p.add_argument("--seeds", type=int, default=10, help="draws of the data: seeds 0..N-1")
    p.add_argument("--neighbors", type=int, nargs="*", default=[],
                   help="LaplacianEmbedding(n_neighbors=K) rows and the thin-shape table")
    p.add_argument("--name", default="touching_ari", help="the results file's name")
    args = p.parse_args()
    rows = []
    pairs = {**ROWS, **neighbor_rows(args.neighbors)}
    for n in args.sizes:
        draws = [touching_blobs(n, seed) for seed in range(args.seeds)]
        for (ours_name, peer_name), (ours, peer, largest) in pairs.items():
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
    extra = (f" --neighbors {' '.join(map(str, args.neighbors))} --name {args.name}"
             if args.neighbors else "")
    parts = [
        "# The spectral defaults on three touching blobs, over draws of the data",
        f"`python benchmarks/bench_touching_ari.py --sizes {' '.join(map(str, args.sizes))}"
        f" --seeds {args.seeds}{extra}` on {machine()}: `touching_blobs(n, seed)` of "
        "`bench_defaults_time.py` for seeds 0 to "
        f"{args.seeds - 1}; embeddings scored by the ARI of KMeans(3) on them. "
        "Difference: ours minus the peer's, its mean and standard error over the draws.",
        table(["ours", "peer", "n", "mean ARI ours", "mean ARI peer", "difference",
               "standard error", "draws ours ≥ peer"], rows),
    ]
    if args.neighbors:
        shapes = thin_shapes(args.neighbors)
        for row in shapes:
            print(" | ".join(map(str, row)), flush=True)
        parts += [
            "Thin shapes: the ARI of KMeans on `LaplacianEmbedding(n_neighbors=k)` (the "
            "connected components of the graph): the paper's rings and two moons "
            "(`random_state=0`) and `bench_defaults_time.py`'s three stripes.",
            table(["set", "n", *(f"k = {k}" for k in [10, *args.neighbors])], shapes),
        ]
    text = "\n\n".join(parts)
    print(f"saved {save(args.name, text)}")


if __name__ == "__main__":
    main()
