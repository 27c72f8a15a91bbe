"""GP variance clustering (Kim & Lee, Neural Computation 2007) as one package.

:class:`GPClustering` is the scikit-learn estimator; :func:`gp_landscape` is the solver under
it and returns a :class:`GPLandscape` (the stable equilibrium points, their levels and basins,
the labels, ``assign``/``predict`` for new points, with its :class:`GPHierarchy`,
:class:`CondensedTree` and, when the count was found from the data, a :class:`GPCountTrace`).
:func:`default_kernel` and :func:`auto_length_scale` are the kernel and length scale chosen
from the data. :mod:`kernel_patterns.distributed` runs the flow through
:func:`fit_variance_model`, :class:`GPVarianceModel`, :func:`flow_to_equilibria` and
:class:`FlowResult`; a driver that assigns new points elsewhere calls
:func:`assign_to_equilibria` (an :class:`Assignment`) with ``GPClustering.assign_params()``;
:func:`components_at` and :func:`level_for_n_clusters` cut a hierarchy.
Everything else lives in private modules (``_solver``, ``_flow``, ``_cuts``, ...).

Examples
--------
``TAIL_KURTOSIS`` is the median feature's excess kurtosis above which the data-driven
landscape Gaussianises the features first (``feature_transform="auto"``):

>>> import numpy as np
>>> from kernel_patterns.cluster.gp import TAIL_KURTOSIS, median_excess_kurtosis
>>> rng = np.random.default_rng(0)
>>> bool(median_excess_kurtosis(rng.standard_t(3, size=(2000, 4))) > TAIL_KURTOSIS)
True
"""

from ..._tails import TAIL_KURTOSIS, median_excess_kurtosis
from ._assign import Assignment, assign_to_equilibria
from ._condensed import CondensedTree
from ._cuts import components_at, level_for_n_clusters
from ._estimator import GPClustering
from ._flow import FlowResult, flow_to_equilibria
from ._kernel import auto_length_scale, default_kernel
from ._results import GPHierarchy, GPLandscape
from ._solver import gp_landscape
from ._trace import GPCountTrace
from ._variance import GPVarianceModel, fit_variance_model

__all__ = [
    "TAIL_KURTOSIS",
    "Assignment",
    "CondensedTree",
    "FlowResult",
    "GPClustering",
    "GPCountTrace",
    "GPHierarchy",
    "GPLandscape",
    "GPVarianceModel",
    "assign_to_equilibria",
    "auto_length_scale",
    "components_at",
    "default_kernel",
    "fit_variance_model",
    "flow_to_equilibria",
    "gp_landscape",
    "level_for_n_clusters",
    "median_excess_kurtosis",
]
