"""Data on a line: one feature, or points that all lie close to one straight line.

With ``kernel=None`` such data are counted by the modes of their density along the line
(:func:`~._dip.dip_partition`), and every SEP of the landscape joins the part it lies in.
Several features are on a line when every point lies within ``LINE_WIDTH`` length scales of
their first principal axis (:func:`principal_axis`). Arrays in, arrays out.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..._tails import to_input_units
from ..._validation import FloatArray
from ..._warnings import user_stacklevel
from ._dip import dip_partition
from ._kernel import kernel_at
from ._ladder import FACTORS, factors_between
from ._landscape import FlowOptions, InducingPlan, Landscape, fit_landscape
from ._trace import GPCountTrace

#: data of several features are on a line when every point lies within this many length
#: scales ℓ₀ of their first principal axis: there the kernel between two points differs by
#: at most exp(-0.5²/2) ≈ 0.88 from that of their values along the axis
LINE_WIDTH = 0.5


def principal_axis(X: FloatArray, length_scale: float) -> FloatArray | None:
    """The unit direction of the straight line the points ``X`` lie on, or None.

    The first principal axis of ``X`` (through their mean, largest entry positive) when every
    point lies within ``LINE_WIDTH * length_scale`` of it; ``[1.0]`` for one feature. The values
    along the line are ``X @ axis``."""
    if X.shape[1] == 1:
        return np.ones(1)
    Xc = X - X.mean(axis=0)
    if Xc.shape[1] <= Xc.shape[0]:
        axis = np.linalg.eigh(Xc.T @ Xc)[1][:, -1]
    else:  # more features than points: the first eigenvector of the smaller Gram matrix
        axis = Xc.T @ np.linalg.eigh(Xc @ Xc.T)[1][:, -1]
        size = float(np.linalg.norm(axis))
        axis = axis / size if size > 0 else np.eye(Xc.shape[1])[0]  # else: one point
    axis = axis if axis[np.argmax(np.abs(axis))] > 0 else -axis  # one sign for one line
    across = np.einsum("ij,ij->i", Xc, Xc) - (Xc @ axis) ** 2
    if np.sqrt(max(float(across.max()), 0.0)) <= LINE_WIDTH * length_scale:
        return axis
    return None


class Line(NamedTuple):
    """Training points on a line: ``points`` (input units), unit ``axis`` and the
    heavy-tail ``transform`` (or None) to the landscape's space.
    """

    points: FloatArray
    axis: FloatArray
    transform: Any

    def along(self, S: FloatArray, fitted_on: FloatArray) -> FloatArray:
        """Points ``S`` of the landscape's space projected on the line, in input units
        (``fitted_on``: ``points`` transformed).
        """
        return to_input_units(self.transform, S, fitted_on, self.points) @ self.axis


def line_partition(
    X: FloatArray, ell0: float, line: Line,
    opts: FlowOptions, plan: InducingPlan | None, min_cluster_size: int, random_state: Any,
    n_parts: int | None = None, shortfall: str = "",
) -> tuple[Landscape, NDArray[np.intp], float, GPCountTrace]:
    """Data on a line (kernel=None, no ``level``): the landscape, the group of every SEP, the
    level r* and the count trace.

    The groups are the parts of :func:`~._dip.dip_partition` of the values along the line (of
    all points, or the subsample of ``plan``), in input units; every SEP joins the part its
    projection lies in. When some part holds no SEP, the landscape is that of the longest
    length scale down the ladder (to ``FACTORS[0]`` ℓ₀) with SEPs in the most parts. With
    ``n_parts``, a warning (with ``shortfall`` when given) says when fewer parts can be cut.
    """
    points = line.points if plan is None else line.points[plan.subsample]
    test = dip_partition(points @ line.axis, random_state, min_size=min_cluster_size,
                         n_parts=n_parts)
    if n_parts is not None and test.n_modes < n_parts:
        warnings.warn(
            f"GPClustering found {test.n_modes} cluster(s) of at least {min_cluster_size} "
            f"points (min_cluster_size) along the line of the data, fewer than "
            f"n_clusters={n_parts}: " + (shortfall or "no other part can be cut at a valley "
                                         "with that many points on each side. Give a "
                                         "smaller min_cluster_size or fewer n_clusters."),
            UserWarning, stacklevel=user_stacklevel())
    # the landscape at ℓ₀, else the longest length scale down the ladder with SEPs in every
    # part (with few distinct values, ℓ₀ can span the gap between two parts)
    tried: list[tuple[float, Landscape, NDArray[np.intp], int]] = []  # ..., groups, count
    for factor in factors_between(1.0, FACTORS[0]):
        fit = fit_landscape(kernel_at(ell0 * factor), X, opts, plan)
        _, groups = np.unique(np.searchsorted(test.cuts, line.along(fit.S, X)),
                              return_inverse=True)
        tried.append((factor, fit, groups, int(groups.max()) + 1))
        if tried[-1][3] == test.n_modes:
            break
    factor, fit, groups, n_groups = max(tried, key=lambda t: t[3])  # the first of the most
    if n_groups < test.n_modes:
        warnings.warn(
            f"The data divide into {test.n_modes} parts at valleys along their line "
            f"(dip_partition), but the landscape at length scale {fit.ell:.3g} (or any down "
            f"to {tried[-1][1].ell:.3g}) has stable equilibrium points in {n_groups} of them "
            f"only, so GPClustering found {n_groups} cluster(s). Give a kernel with a "
            "shorter length scale (kernel=GPCovariance(l=...), l = 1/length²).", UserWarning,
            stacklevel=user_stacklevel())
    tried.sort(key=lambda t: t[0])
    trace = GPCountTrace(
        factors=np.array([t[0] for t in tried]),
        length_scales=np.array([t[1].ell for t in tried]),
        n_modes=np.array([t[3] for t in tried], dtype=np.intp),
        agreement=np.full(len(tried), np.nan),
        reading="modes on the line", factor=factor, mode_test=test, line_axis=line.axis,
    )
    return fit, groups, fit.r_star, trace
