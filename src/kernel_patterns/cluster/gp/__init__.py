"""GP variance clustering (Kim & Lee, Neural Computation 2007) as one package.

Layout: ``_solver`` holds the one pure solver :func:`gp_landscape` (the inducing-point plan,
the data-driven kernel and length-scale search, the level and the labels), which returns a
:class:`GPLandscape` (``_results``: SEPs, levels, basins, labels, ``assign``/``predict`` for
new points, ``labels_at``, with its :class:`GPHierarchy`; both have ``.plot(ax=None)``, drawn
by ``_plots``, and ``.to_pandas()``). Its steps: ``_variance`` (the exact variance of eq. 3.1
and its gradient), ``_inducing`` (DTC/FITC inducing-point variance), ``_kernel`` (the kernel
and length scale chosen from the data), ``_landscape`` (one landscape fit for one kernel),
``_flow`` (the batched descent to stable equilibrium points, eq. 4.2), ``_graph`` (segment
checks, errata 1, and the saddle-level single linkage, errata 3), ``_cuts`` (the readings of
that hierarchy: a level, the modes, the most persistent groups), ``_tree`` (the fitted
tree: the clusters chosen written into the hierarchy, so that its cut at the level is
them, the cut for a count, and every point's membership), ``_trace`` (why the count, in
one sentence), ``_doubt`` (the warning of a one-cluster answer in doubt), ``_selection`` (the
clusters of greatest excess of mass, splits tested against noise), ``_uniform`` (Hopkins'
test of data uniform on their box, which gates the floor rule), ``_tails`` (the Gaussianising
transform for heavy-tailed features), ``_unimodal`` and ``_dip`` (tests of one mode, and the
parts of one mode each that one feature divides into), ``_line`` (data on a line, counted by
those parts), ``_steps`` (training points by
steps to lower ones) and ``_assign`` (new points by segment checks and a short flow).
``_estimator`` holds :class:`GPClustering`, a thin scikit-learn estimator over
:func:`gp_landscape`. The package imports only the kernels' public surface and the shared
root helpers; :mod:`kernel_patterns.distributed` runs its flow through the public names below.

Examples
--------
``BLOCK_BYTES`` bounds the temporaries of one batch of :func:`assign_to_equilibria`:

>>> from kernel_patterns.cluster.gp import BLOCK_BYTES, default_batch_size
>>> BLOCK_BYTES // 2**20
64
>>> batch = default_batch_size(1000, 10, 8)
>>> batch * 1000 * (8 + 1) * 8 <= BLOCK_BYTES
True

``TAIL_KURTOSIS`` is the median feature's excess kurtosis above which the data-driven
landscape Gaussianises the features first (``feature_transform="auto"``):

>>> import numpy as np
>>> from kernel_patterns.cluster.gp import TAIL_KURTOSIS, median_excess_kurtosis
>>> rng = np.random.default_rng(0)
>>> bool(median_excess_kurtosis(rng.standard_t(3, size=(2000, 4))) > TAIL_KURTOSIS)
True

``LINE_WIDTH`` is how far from their first principal axis, in length scales, every point
must lie for data of several features to be counted along it as one feature is:

>>> from kernel_patterns.cluster.gp import LINE_WIDTH, principal_axis
>>> t = rng.normal(size=100)
>>> X = np.c_[t, 2 * t + 0.01 * rng.normal(size=100)]
>>> principal_axis(X, length_scale=0.01) is None, principal_axis(X, length_scale=1.0) is None
(True, False)
>>> LINE_WIDTH
0.5
"""

from ..._tails import TAIL_KURTOSIS, median_excess_kurtosis
from ._assign import (
    BLOCK_BYTES,
    Assignment,
    assign_to_equilibria,
    default_batch_size,
    flow_assign,
)
from ._condensed import CondensedTree, condense
from ._cuts import (
    components_at,
    data_level_components,
    effective_count,
    group_persistence,
    level_for_n_clusters,
    persistent_components,
)
from ._dip import DipPartition, dip_partition, dip_statistic, dip_test
from ._estimator import GPClustering
from ._flow import FlowResult, flow_to_equilibria
from ._graph import segment_levels
from ._inducing import (
    InducingVarianceModel,
    auto_n_landmarks,
    choose_inducing_points,
    fit_inducing_model,
)
from ._kernel import auto_length_scale, default_kernel, kernel_length_scale
from ._landscape import FlowOptions, InducingPlan
from ._line import LINE_WIDTH, principal_axis
from ._results import GPHierarchy, GPLandscape
from ._selection import Selection, excess_of_mass, join_within_noise
from ._solver import gp_landscape
from ._trace import GPCountTrace
from ._tree import fitted_tree, level_for_count, membership, replay_merges
from ._uniform import HopkinsTest, hopkins_test
from ._unimodal import (
    ModeCount,
    UnimodalSplitTest,
    mode_count_test,
    silverman_test,
    unimodal_split_test,
)
from ._variance import GPVarianceModel, VarianceFunction, fit_variance_model

__all__ = [
    "BLOCK_BYTES",
    "LINE_WIDTH",
    "TAIL_KURTOSIS",
    "Assignment",
    "CondensedTree",
    "DipPartition",
    "FlowOptions",
    "FlowResult",
    "GPClustering",
    "GPCountTrace",
    "GPHierarchy",
    "GPLandscape",
    "GPVarianceModel",
    "HopkinsTest",
    "InducingPlan",
    "InducingVarianceModel",
    "ModeCount",
    "Selection",
    "UnimodalSplitTest",
    "VarianceFunction",
    "assign_to_equilibria",
    "auto_length_scale",
    "auto_n_landmarks",
    "choose_inducing_points",
    "components_at",
    "condense",
    "data_level_components",
    "default_batch_size",
    "default_kernel",
    "dip_partition",
    "dip_statistic",
    "dip_test",
    "effective_count",
    "excess_of_mass",
    "fit_inducing_model",
    "fit_variance_model",
    "fitted_tree",
    "flow_assign",
    "flow_to_equilibria",
    "gp_landscape",
    "group_persistence",
    "hopkins_test",
    "join_within_noise",
    "kernel_length_scale",
    "level_for_count",
    "level_for_n_clusters",
    "median_excess_kurtosis",
    "membership",
    "mode_count_test",
    "persistent_components",
    "principal_axis",
    "replay_merges",
    "segment_levels",
    "silverman_test",
    "unimodal_split_test",
]
