"""Ranking: ν-ranking (Algorithm 8.9) and on-line ranking (Algorithm 8.14) of Shawe-Taylor &
Cristianini, *Kernel Methods for Pattern Analysis*, §8.1."""

from ._nu_ranking import NuRanking
from ._online import OnlineRanking

__all__ = ["NuRanking", "OnlineRanking"]
