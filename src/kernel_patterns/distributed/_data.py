"""Data sets generated on the workers, block by block (never in the driver)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..datasets import make_two_moons
from ._client import import_dask_array


def _moons_block(ids: np.ndarray, sizes: tuple[int, ...], seeds: tuple[int, ...],
                 noise: float) -> np.ndarray:
    """Rows ``[x1, x2, label]`` of one block (on a worker), from its own seed."""
    i = int(ids[0])
    n = sizes[i]
    X, y = make_two_moons((n - n // 2, n // 2), noise=noise, random_state=seeds[i])
    return np.column_stack([X, y.astype(np.float64)])


def make_moons(
    n_samples: int = 1_000_000,
    *,
    noise: float = 0.06,
    chunks: int = 100_000,
    random_state: Any = None,
) -> tuple[Any, Any]:
    """Two interleaving moons (as :func:`kernel_patterns.datasets.make_two_moons`) as lazy Dask
    arrays: every block of ``chunks`` rows is generated where it is computed, from its own
    seed (``numpy.random.SeedSequence(random_state).spawn``), half of it in each moon.

    Parameters
    ----------
    n_samples : int, default=1,000,000
        Points in all.
    noise : float, default=0.06
        Standard deviation of the Gaussian noise added to every point.
    chunks : int, default=100,000
        Rows per block.
    random_state : int, RandomState or None, default=None
        Seed of the blocks' seeds.

    Returns
    -------
    X : dask.array.Array of shape (n_samples, 2), float64
    y : dask.array.Array of shape (n_samples,), int64
        The moon of every point (the truth). Persist ``X`` and ``y`` together
        (``client.persist([X, y])``) to generate each block once.

    Examples
    --------
    >>> from kernel_patterns.distributed import make_moons
    >>> X, y = make_moons(10, chunks=4, random_state=0)
    >>> X.shape, X.chunks[0], [int(c) for c in y.compute().tolist()]
    ((10, 2), (4, 4, 2), [0, 0, 1, 1, 0, 0, 1, 1, 0, 1])
    """
    da = import_dask_array()
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)):
        raise TypeError(f"n_samples must be an integer; got {n_samples!r}.")
    if n_samples < 2:
        raise ValueError(f"n_samples must be >= 2; got {n_samples}.")
    if isinstance(chunks, bool) or not isinstance(chunks, (int, np.integer)) or chunks < 2:
        raise ValueError(f"chunks must be an integer >= 2; got {chunks!r}.")
    if not noise >= 0:
        raise ValueError(f"noise must be >= 0; got {noise}.")
    sizes = tuple([chunks] * (n_samples // chunks) + ([n_samples % chunks] if n_samples % chunks
                                                      else []))
    if sizes[-1] < 2 and len(sizes) > 1:
        sizes = (*sizes[:-2], sizes[-2] + sizes[-1])
    seq = np.random.SeedSequence(None if random_state is None else int(random_state))
    seeds = tuple(int(s.generate_state(1)[0]) for s in seq.spawn(len(sizes)))
    ids = da.arange(len(sizes), chunks=1)
    A = ids.map_blocks(
        _moons_block, sizes, seeds, float(noise),
        chunks=(sizes, (3,)), new_axis=1, dtype=np.float64,
    )
    return A[:, :2], A[:, 2].astype(np.int64)
