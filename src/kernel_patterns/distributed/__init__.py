"""Dask as the distributed engine (optional extra: ``pip install 'kernel_patterns[distributed]'``).

Layout: ``_client`` (the client, worker resources, the active backend), ``_backend``
(:func:`dask_backend`), ``_operator`` (:class:`DaskKernelOperator`), ``_nystrom`` (Nyström
features of a Dask array), ``_kmeans`` (Lloyd iterations on them), ``_gp`` (GP flows and
predictions partition by partition) and ``_data`` (data generated on the workers). Every module
uses only the public names of :mod:`kernel_patterns.kernels` and
:mod:`kernel_patterns.cluster.gp`, so the solvers run unchanged on Dask.

* :func:`dask_backend` — ``with dask_backend(client): KernelKMeans(...).fit(X)``: the same
  estimators, with every exact kernel operator a :class:`DaskKernelOperator` (row blocks of K
  computed and kept on the workers; a product moves only V and K·V) and
  ``approximation="nystrom"`` features computed on the workers.
* :class:`DaskKernelOperator` — the operator itself (``client=``), usable by any solver.
* :func:`nystrom_features`, :func:`nystrom_kmeans`, :func:`dask_kmeans` — Nyström kernel
  k-means of a Dask array with ``map_blocks``: data, features and labels stay on the workers.
* :func:`gp_flow`, :func:`gp_predict` — GP-variance clustering's flow (eq. 4.2) partition by
  partition, the fitted variance model shared by the workers.

Losing a worker costs time, not the result (``_resilience``): everything the workers hold is
recomputable (tasks with lineage, never ``scatter``), a task the scheduler gives up on is
re-submitted at most ``max_retries`` times (then :class:`WorkerLostError` names the lost
workers), and a scheduler gone for ``timeout`` seconds is a :class:`SchedulerLostError`;
both are set with :func:`dask_backend`.
* :func:`make_moons` — two moons generated on the workers, block by block.

Dask is imported on first use; without it, those calls raise an ImportError naming the extra.

Examples
--------
>>> from kernel_patterns.distributed import INSTALL_HINT
>>> INSTALL_HINT
"pip install 'kernel_patterns[distributed]'"
"""

from ._backend import dask_backend
from ._client import INSTALL_HINT
from ._data import make_moons
from ._gp import DaskFlowResult, gp_flow, gp_predict
from ._kmeans import DaskKMeansResult, dask_kmeans, nystrom_kmeans
from ._nystrom import DaskNystromOperator, NystromMap, fit_nystrom_map, nystrom_features
from ._operator import DaskKernelOperator
from ._resilience import SchedulerLostError, WorkerLostError

__all__ = [
    "INSTALL_HINT",
    "DaskFlowResult",
    "DaskKMeansResult",
    "DaskKernelOperator",
    "DaskNystromOperator",
    "NystromMap",
    "SchedulerLostError",
    "WorkerLostError",
    "dask_backend",
    "dask_kmeans",
    "fit_nystrom_map",
    "gp_flow",
    "gp_predict",
    "make_moons",
    "nystrom_features",
    "nystrom_kmeans",
]
