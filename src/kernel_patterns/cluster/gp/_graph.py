"""Segment checks between SEPs and the saddle-level hierarchy (its cuts: :mod:`~._cuts`).

SEPs are adjacent at level r when every checked point on their segment has ``σ² ≤ r``
(§5 of Kim & Lee; eq. 4.3/4.4 print it inverted, errata 1). A pair's merge level is the
largest σ² found on its segment, so the components at every level are the single linkage
of these weights (errata 3). Pairs checked: all while there are at most
``MAX_COMPLETE_PAIRS``, else each SEP's ``N_NEIGHBORS`` nearest plus the Euclidean minimum
spanning tree of the SEPs (the graph stays connected).
"""

from __future__ import annotations

import heapq
import itertools

import numpy as np
from numpy.typing import NDArray
from scipy.sparse.csgraph import minimum_spanning_tree
from scipy.spatial.distance import cdist

from ..._validation import FloatArray
from ._cuts import find_root
from ._variance import VarianceFunction

MAX_COMPLETE_PAIRS = 2_000
N_NEIGHBORS = 10
_REFINE_ROUNDS = 3
_REFINE_POINTS = 4
#: segment points checked after each stage of a pair's bound in ``segment_levels(lazy=True)``.
_STAGES = (1, 3, 7, 15)
#: pairs raised together by ``segment_levels(lazy=True)`` (plus a quarter of the SEP count).
_LAZY_BATCH = 4


def candidate_pairs(S: FloatArray) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Index pairs ``(I, J)``, ``I < J``, of SEPs whose segment is checked."""
    p = S.shape[0]
    if p * (p - 1) // 2 <= MAX_COMPLETE_PAIRS:
        I, J = np.triu_indices(p, k=1)
        return I.astype(np.intp), J.astype(np.intp)
    D = cdist(S, S)
    k = min(N_NEIGHBORS, p - 1)
    nn = np.argpartition(D + np.diag(np.full(p, np.inf)), k, axis=1)[:, :k]
    a = np.repeat(np.arange(p), k)
    b = nn.ravel()
    mst = minimum_spanning_tree(D + 1e-300).tocoo()  # tiny offset keeps zero distances
    a = np.concatenate([a, mst.row])
    b = np.concatenate([b, mst.col])
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    pairs = np.unique(np.stack([lo, hi], axis=1)[lo != hi], axis=0)
    return pairs[:, 0].astype(np.intp), pairs[:, 1].astype(np.intp)


def segment_levels(
    model: VarianceFunction,
    S: FloatArray,
    I: NDArray[np.intp],
    J: NDArray[np.intp],
    n_points: int = 20,
    refine: bool = True,
    *,
    lazy: bool = False,
) -> FloatArray:
    """Largest σ² on the segment ``[S[I[k]], S[J[k]]]`` for every pair k (merge levels).

    ``n_points`` interior points plus both ends; ``refine`` zooms in on the largest sample
    (``_REFINE_ROUNDS`` × ``_REFINE_POINTS``). With ``lazy`` only the levels the single linkage
    (Kruskal) reads are computed exactly, raised in ``_STAGES``; the others stay lower bounds."""
    if lazy and not refine:
        raise ValueError("segment_levels(lazy=True) computes the refined merge levels; "
                         "use refine=True with it.")
    m = I.size
    if m == 0:
        return np.empty(0)
    if lazy:
        return _lazy_levels(model, S, I, J, n_points)
    vS = model.variance(S)
    A, B = S[I], S[J] - S[I]
    ts = np.arange(1, n_points + 1) / (n_points + 1)
    vals = _on_segments(model, A, B, np.broadcast_to(ts, (m, n_points)))
    best = np.maximum(np.maximum(vS[I], vS[J]), vals.max(axis=1))
    return np.maximum(best, _refined(model, A, B, vals, ts)) if refine else best


def _refined(
    model: VarianceFunction, A: FloatArray, B: FloatArray, vals: FloatArray, ts: FloatArray
) -> FloatArray:
    """The largest of the samples ``vals`` (at ``ts``) after the refinement rounds."""
    m = A.shape[0]
    k = np.argmax(vals, axis=1)
    top = vals[np.arange(m), k]
    centre = ts[k]
    half = 1.0 / (ts.size + 1)
    offsets = np.linspace(-1.0, 1.0, _REFINE_POINTS + 2)[1:-1]
    for _ in range(_REFINE_ROUNDS):
        T = np.clip(centre[:, None] + half * offsets[None, :], 0.0, 1.0)
        v = _on_segments(model, A, B, T)
        k = np.argmax(v, axis=1)
        vk = v[np.arange(m), k]
        better = vk > top
        centre = np.where(better, T[np.arange(m), k], centre)
        top = np.maximum(top, vk)
        half *= 2.0 / (_REFINE_POINTS + 1)
    return top


def _probe_order(n: int) -> NDArray[np.intp]:
    """Indices 0..n-1 of the segment points, each next one farthest from those before it
    and from both ends (middle, quarters, eighths, ...).
    """
    chosen = [-1, n]
    order: list[int] = []
    for _ in range(n):
        rest = [i for i in range(n) if i not in order]
        gap = [min(abs(i - c) for c in chosen) for i in rest]
        pick = rest[int(np.argmax(gap))]
        order.append(pick)
        chosen.append(pick)
    return np.asarray(order, dtype=np.intp)


def _lazy_levels(model: VarianceFunction, S: FloatArray, I: NDArray[np.intp],
                 J: NDArray[np.intp], n_points: int) -> FloatArray:
    """:func:`segment_levels` with ``lazy=True`` (at least one pair).

    A pair's stages are its ``_STAGES`` of segment points, then its ``_REFINE_ROUNDS``
    refinement rounds (as :func:`_refined`, one round a stage); each batch of pairs advances
    one stage in one variance evaluation (:func:`_advance`). Kruskal takes a pair once all its
    stages are done; one whose ends are joined when it comes up is skipped (its bound stays)."""
    m = I.size
    p = S.shape[0]
    vS = model.variance(S)
    state = _LazyState(S[I], S[J] - S[I], n_points, np.maximum(vS[I], vS[J]))
    parent = np.arange(p)

    heap = [(float(state.w[e]), e) for e in range(m)]
    heapq.heapify(heap)
    batch = _LAZY_BATCH + p // 4
    merged = 0
    while heap and merged < p - 1:
        need: list[int] = []
        while heap and len(need) < batch:
            key, e = heapq.heappop(heap)
            ra, rb = find_root(parent, int(I[e])), find_root(parent, int(J[e]))
            if ra == rb:
                continue  # its ends joined below its bound: skipped at its merge level too
            if state.stage[e] < state.n_stages:
                need.append(e)
            elif need:  # a merge level: taken once the bounds below it are raised
                heapq.heappush(heap, (key, e))
                break
            else:
                parent[rb] = ra
                merged += 1
                if merged == p - 1:
                    break
        if need:
            _advance(model, state, need)
            for e in need:
                heapq.heappush(heap, (float(state.w[e]), e))
    return state.w


class _LazyState:
    """The bounds of :func:`_lazy_levels`: per pair its stage, samples and refinement."""

    def __init__(self, A: FloatArray, B: FloatArray, n_points: int, w: FloatArray) -> None:
        m = A.shape[0]
        self.A, self.B, self.w = A, B, w
        self.ts = np.arange(1, n_points + 1) / (n_points + 1)
        seq = _probe_order(n_points)
        stops = [0] + [k for k in _STAGES if k < n_points] + [n_points]
        self.cols = [seq[a:b] for a, b in itertools.pairwise(stops)]
        self.n_stages = len(self.cols) + _REFINE_ROUNDS  # stage == n_stages: exact
        self.stage = np.zeros(m, dtype=np.intp)
        self.vals = np.full((m, n_points), -np.inf)
        self.top = np.full(m, -np.inf)  # the refinement's best value and where it is
        self.centre = np.zeros(m)
        self.offsets = np.linspace(-1.0, 1.0, _REFINE_POINTS + 2)[1:-1]

    def positions(self, e: int) -> FloatArray:
        """The segment positions t of pair e's next stage."""
        st = int(self.stage[e]) - len(self.cols)
        if st < 0:
            return self.ts[self.cols[st + len(self.cols)]]
        if st == 0:  # as _refined: from the largest of the n_points samples
            k = int(np.argmax(self.vals[e]))
            self.top[e], self.centre[e] = self.vals[e, k], self.ts[k]
        half = 1.0 / (self.ts.size + 1)
        for _ in range(st):
            half *= 2.0 / (_REFINE_POINTS + 1)
        return np.clip(self.centre[e] + half * self.offsets, 0.0, 1.0)

    def record(self, e: int, t: FloatArray, v: FloatArray) -> None:
        """Pair e's values ``v`` at the positions ``t`` of its next stage."""
        st = int(self.stage[e]) - len(self.cols)
        if st < 0:
            self.vals[e, self.cols[st + len(self.cols)]] = v
            self.w[e] = max(self.w[e], v.max())
        else:
            k = int(np.argmax(v))
            if v[k] > self.top[e]:
                self.top[e], self.centre[e] = v[k], t[k]
            self.w[e] = max(self.w[e], self.top[e])
        self.stage[e] += 1


def _advance(model: VarianceFunction, state: _LazyState, need: list[int]) -> None:
    """Every pair of ``need`` one stage on: all their segment points in one evaluation."""
    ts = [state.positions(e) for e in need]
    sizes = [t.size for t in ts]
    rows = np.repeat(np.asarray(need, dtype=np.intp), sizes)
    T = np.concatenate(ts)
    v = model.variance(state.A[rows] + T[:, None] * state.B[rows])
    ends = np.cumsum(sizes)
    for e, t, b in zip(need, ts, ends, strict=True):
        state.record(e, t, v[b - t.size : b])


def _on_segments(
    model: VarianceFunction, A: FloatArray, B: FloatArray, T: FloatArray
) -> FloatArray:
    """σ²(A_k + T[k, s] B_k) as an array of shape T.shape."""
    m, s = T.shape
    Q = (A[:, None, :] + T[:, :, None] * B[:, None, :]).reshape(m * s, -1)
    return model.variance(Q).reshape(m, s)


def single_linkage(
    p: int, I: NDArray[np.intp], J: NDArray[np.intp], w: FloatArray
) -> tuple[FloatArray, NDArray[np.intp]]:
    """Kruskal on the weighted SEP graph, as a scipy linkage matrix and the SEP pair of each merge.

    Row r merges ``Z[r, 0]`` and ``Z[r, 1]`` (ids < p are SEPs, ``p + r`` the cluster of row
    r) at height ``Z[r, 2]``, with ``Z[r, 3]`` SEPs. The graph must be connected. The pairs,
    shape ``(p - 1, 2)``, are the edges of the minimum spanning tree.
    """
    parent = np.arange(p)
    cid = np.arange(p)  # linkage id of each union-find root
    size = np.ones(p, dtype=np.int64)

    rows: list[tuple[float, float, float, float]] = []
    edges: list[tuple[int, int]] = []
    for e in np.argsort(w, kind="stable"):
        ra, rb = find_root(parent, int(I[e])), find_root(parent, int(J[e]))
        if ra == rb:
            continue
        a, b = sorted((int(cid[ra]), int(cid[rb])))
        parent[rb] = ra
        size[ra] += size[rb]
        rows.append((float(a), float(b), float(w[e]), float(size[ra])))
        edges.append((int(I[e]), int(J[e])))
        cid[ra] = p + len(rows) - 1
        if len(rows) == p - 1:
            break
    if len(rows) != p - 1:  # pragma: no cover - candidate_pairs keeps the graph connected
        raise RuntimeError("the SEP graph is not connected")
    return (np.asarray(rows, dtype=np.float64).reshape(-1, 4),
            np.asarray(edges, dtype=np.intp).reshape(-1, 2))
