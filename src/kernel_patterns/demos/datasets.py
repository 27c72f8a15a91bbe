"""Demo step: the built-in data sets and an RBF kernel matrix through the kernel operator."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import datasets, plotting
from .._mpl import pyplot
from ..kernels import RBF, make_operator

NAME = "datasets"
ORDER = 0


def run(out_dir: Path) -> dict[str, Any]:
    plt = pyplot()
    sets = {
        "two moons": datasets.make_two_moons(random_state=0),
        "three moons": datasets.make_three_moons(random_state=0),
        "ICASSP logo": datasets.make_icassp_logo(random_state=0),
        "rings": datasets.make_rings(random_state=0),
    }
    fig, axes = plt.subplots(1, 4, figsize=(18, 4))
    for ax, (title, (X, y)) in zip(axes, sets.items(), strict=True):
        plotting.plot_clusters(X, y, ax=ax, title=f"{title} ({len(y)} points)")
    plotting.save_figure(fig, out_dir / "datasets.png")

    X, y = sets["two moons"]
    t0 = time.perf_counter()
    op = make_operator(RBF(gamma=5.0), X, operator="dense")
    build = time.perf_counter() - t0
    ax = plotting.plot_kernel_matrix(op.to_dense(), y, title="RBF kernel, two moons (by class)")
    plotting.save_figure(ax, out_dir / "kernel_matrix.png")
    return {
        "figures": ["datasets.png", "kernel_matrix.png"],
        "sizes": {k: [int(c) for c in np.bincount(v[1])] for k, v in sets.items()},
        "rbf_build_seconds": round(build, 4),
    }
