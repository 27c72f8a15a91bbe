"""Ranking: ν-ranking (Algorithm 8.9) and on-line ranking (Algorithm 8.14) of Shawe-Taylor &
Cristianini, *Kernel Methods for Pattern Analysis*, §8.1.

Layout: ``_nu_ranking_solver`` holds the dual QP of ν-ranking (piqp dense, Clarabel on the
sparse lifted form) and the thresholds from its solution; ``_nu_ranking_smo`` the
decomposition solver of the same dual; ``_nu_ranking_select`` the internal cross-validation
of ``nu="auto"``; ``_nu_ranking`` the :class:`NuRanking` estimator over them; ``_online``
the perceptron ranking (:class:`OnlineRanking`, with ``partial_fit``); ``_common`` the
rank/label handling both share.
"""

from ._nu_ranking import NuRanking
from ._online import OnlineRanking

__all__ = ["NuRanking", "OnlineRanking"]
