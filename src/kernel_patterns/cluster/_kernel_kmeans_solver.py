"""Kernel k-means: Algorithm 8.22 of Shawe-Taylor & Cristianini (file ``002``, §8.2).

The solver works on assignments only. With the (weighted) assignment matrix Z, z_ik = w_i when
point i is in cluster k, and s_k = Σ_i z_ik, the squared feature-space distance of point n to
the centroid of cluster k is (eq. 6.3 of file ``003``; the book's rule before Algorithm 8.22)

    d_nk = K_nn − 2/s_k (K Z)_nk + 1/s_k² z_kᵀ K z_k.

The last (within-cluster) term differs between clusters and must not be dropped (tslearn's
``KernelKMeans`` drops it and assigns points wrongly). Each iteration needs one product K·Z
through the kernel operator: for a dense operator as the sparse one-hot product Zᵀ·K (one pass
over K, which is symmetric), otherwise ``op.matmat``. The within-cluster terms come from
zᵀ(KZ) at no extra cost. Once few points move, K·Z is updated from the moved points' rows
only. For a low-rank operator (Nyström, K = F Fᵀ, ``op.low_rank_factor()``) the solver keeps
the centroid sums in feature space, Zᵀ F (k × r), and forms KZ = F (Fᵀ Z) from them: the
same arithmetic, O(N r k) per pass, exact for that K.

Code Fragment 8.3 of the book has Matlab typos (``while change = 1``, ``if f(i) = ff(i)``,
errata 7): the intent, implemented here, is "repeat while any assignment changed; move point i
when its nearest centroid differs".
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

from .._parallel import single_blas_thread, usable_threads
from .._progress import start_progress
from ..kernels import DenseKernelOperator, KernelOperator

IntArray = NDArray[np.intp]
FloatArray = NDArray[np.floating[Any]]


#: rows of a dense K per block in :func:`_kernel_times`
_ROW_BLOCK = 512


def _kernel_times(op: KernelOperator, W: Any) -> FloatArray:
    """``K @ W`` (n × k) through the operator (a sparse W stays sparse: one pass over K).

    For a dense K and a dense W of several columns, the product runs over row blocks
    ``op.rows(a, b) @ W`` on every core with single-threaded BLAS: OpenBLAS's GEMM with a
    narrow right-hand side is 2x slower than this on one K (measured at N = 20,000, float32,
    20 columns: 0.90 s against 0.35-0.44 s).
    """
    if not isinstance(op, DenseKernelOperator) or sparse.issparse(W) or np.ndim(W) != 2:
        return np.asarray(op.matmat(W))
    V = np.ascontiguousarray(W, dtype=op.dtype)
    if V.shape[1] == 1:
        return np.asarray(op.matmat(V))
    n = op.n_samples
    out = np.empty((n, V.shape[1]), dtype=op.dtype)

    def work(a: int) -> None:
        b = min(a + _ROW_BLOCK, n)
        np.matmul(op.rows(a, b), V, out=out[a:b])

    if n <= _ROW_BLOCK:
        # one block: the same product without the pool. Starting threads and limiting BLAS
        # (threadpoolctl scans the loaded libraries on every call) cost ~4 ms per product,
        # which was 33 of the 40 s of `reproduce geodesic --quick` (N ≤ 300)
        work(0)
        return out
    starts = range(0, n, _ROW_BLOCK)
    with single_blas_thread(), ThreadPoolExecutor(usable_threads()) as pool:
        list(pool.map(work, starts))
    return out


#: rows of F per block in :func:`_times_features`
_FEATURE_BLOCK = 65_536


def _times_features(C: FloatArray, F: FloatArray) -> FloatArray:
    """``C Fᵀ`` (c × n, float64) over row blocks of F on every core (single-threaded BLAS):
    the centroid products of a low-rank K = F Fᵀ. OpenBLAS's one-call GEMM of this narrow
    shape is 2-3x slower (measured at n = 1,000,000, rank 100, 20 rows: 0.15 s against 0.42 s).
    """
    n = F.shape[0]
    Cf = np.ascontiguousarray(C, dtype=F.dtype)
    out = np.empty((C.shape[0], n))

    def work(a: int) -> None:
        b = min(a + _FEATURE_BLOCK, n)
        out[:, a:b] = Cf @ F[a:b].T

    with single_blas_thread(), ThreadPoolExecutor(usable_threads()) as pool:
        list(pool.map(work, range(0, n, _FEATURE_BLOCK)))
    return out


def _one_hot(labels: IntArray, weights: FloatArray, n_clusters: int, dtype: Any) -> Any:
    n = labels.shape[0]
    return sparse.csr_array(
        (weights.astype(dtype, copy=False), (np.arange(n), labels)), shape=(n, n_clusters)
    )


def _hard_distances(
    op: KernelOperator,
    labels: IntArray,
    weights: FloatArray,
    diag: FloatArray,
    n_clusters: int,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Distances d_nk of every point to every centroid (eq. 6.3), with empty clusters at +inf.

    Returns ``(dist, sizes, within)`` where ``sizes[k] = s_k`` and
    ``within[k] = z_kᵀ K z_k / s_k²`` (the squared norm of centroid k).
    """
    Z = _one_hot(labels, weights, n_clusters, op.dtype)
    KZ = _kernel_times(op, Z).astype(np.float64, copy=False)
    sizes = np.bincount(labels, weights=weights, minlength=n_clusters).astype(np.float64)
    zkz = np.bincount(
        labels, weights=weights * KZ[np.arange(labels.shape[0]), labels], minlength=n_clusters
    )
    empty = sizes <= 0.0
    safe = np.where(empty, 1.0, sizes)
    within = zkz / safe**2
    dist = diag[:, None] - (2.0 / safe) * KZ + within[None, :]
    dist[:, empty] = np.inf
    return dist, sizes, within


#: a point whose squared feature-space distance to its centroid is at most this times the
#: largest K_nn sits on it (the distance is three kernel terms computed apart: about 1e-7 of
#: K_nn in float32, 0 to 1e-15 in float64)
ON_CENTROID = 1e-6


def on_centroid_floor(diag: FloatArray) -> float:
    """The squared feature-space distance at or below which a point sits on its centroid:
    ``ON_CENTROID`` times the largest K_nn."""
    return ON_CENTROID * float(np.max(np.abs(diag), initial=0.0))


def _relocate_empty(
    new_labels: IntArray, own_dist: FloatArray, weights: FloatArray, n_clusters: int,
    floor: float = 0.0,
) -> IntArray:
    """Empty-cluster policy: an empty cluster takes the point farthest (in feature space,
    weighted by its sample weight) from its centroid, among clusters with two or more points.

    ``own_dist[i]`` is the squared distance of point i to the centroid of ``new_labels[i]``.
    This is scikit-learn's ``KMeans`` rule, applied to feature-space distances, but for
    points on their centroid (``own_dist ≤ floor``): every such point is a duplicate of the
    rest of its cluster, and moving one would split identical points across two clusters
    with the same centroid (where ties keep them). When only such points are left the
    cluster stays empty and the estimator says so (fewer distinct points than clusters).
    """
    counts = np.bincount(new_labels, minlength=n_clusters)
    empty = np.flatnonzero(counts == 0)
    if empty.size == 0:
        return new_labels
    labels = new_labels.copy()
    far = weights * own_dist
    far[~np.isfinite(far)] = 0.0
    far[own_dist <= floor] = -np.inf
    for k in empty:
        counts = np.bincount(labels, minlength=n_clusters)
        movable = (counts[labels] > 1) & (far > -np.inf)
        if not movable.any():  # only duplicates of their clusters left (or n < n_clusters)
            break
        cand = np.where(movable, far, -np.inf)
        i = int(np.argmax(cand))
        labels[i] = k
        far[i] = -np.inf
    return labels


def _seed_empty(kzt: FloatArray, labels: IntArray, weights: FloatArray, diag: FloatArray) -> bool:
    """Re-seed (in place) the clusters ``labels`` leave empty, by :func:`_relocate_empty` on
    the squared distances of the points to the centroids of ``labels`` (``kzt = (K Z)ᵀ`` of
    them). True when a label changed."""
    k, n = kzt.shape
    counts = np.bincount(labels, minlength=k)
    if counts.min() > 0:
        return False
    rows = np.arange(n)
    sizes = np.bincount(labels, weights=weights, minlength=k)
    cur = kzt[labels, rows]
    zkz = np.bincount(labels, weights=weights * cur, minlength=k)
    s = np.where(sizes > 0.0, sizes, 1.0)[labels]
    own = diag - 2.0 * cur / s + zkz[labels] / s**2
    new = _relocate_empty(labels, own, weights, k, on_centroid_floor(diag))
    changed = bool(np.any(new != labels))
    labels[:] = new
    return changed


def _join_coincident(
    kzt: FloatArray, labels: IntArray, weights: FloatArray, diag: FloatArray
) -> bool:
    """Join (in place) each cluster whose points all sit on its centroid, when that centroid
    coincides with one of a lower-numbered cluster, into that cluster; True when a label
    changed. Both within ``on_centroid_floor`` (squared feature-space distances).

    Such clusters hold copies of one point split over centroids that coincide (random and
    N − K + 1 starts deal identical points to several clusters; the k-means++ start puts a
    seed's copies in its cluster by the same ``on_centroid_floor``), which the "ties stay
    put" rule of :func:`_reassign` would never join. Joining keeps the inertia; the emptied
    cluster is then re-seeded from a point off its centroid, or stays empty (fewer distinct
    points than clusters) and the estimator says so. ``kzt = (K Z)ᵀ`` of ``labels``.
    """
    k, n = kzt.shape
    sizes = np.bincount(labels, weights=weights, minlength=k)
    if np.count_nonzero(sizes > 0.0) < 2:
        return False
    rows = np.arange(n)
    cur = kzt[labels, rows]
    safe = np.where(sizes > 0.0, sizes, 1.0)
    within = np.bincount(labels, weights=weights * cur, minlength=k) / safe**2
    floor = on_centroid_floor(diag)
    own = diag - 2.0 * cur / safe[labels] + within[labels] <= floor
    dest = np.arange(k)
    for b in range(1, k):
        in_b = labels == b
        if sizes[b] <= 0.0 or not own[in_b].all():
            continue
        # ‖μ_a − μ_b‖² of the clusters a before b, μ_aᵀμ_b = z_aᵀ K z_b / (s_a s_b)
        cross = kzt[:b] @ np.where(in_b, weights, 0.0) / (safe[:b] * sizes[b])
        on = np.flatnonzero((sizes[:b] > 0.0) & (within[:b] + within[b] - 2.0 * cross <= floor))
        if on.size:
            dest[b] = dest[on[0]]
    if np.all(dest == np.arange(k)):
        return False
    labels[:] = dest[labels]
    return True


def _reassign(
    kzt: FloatArray, labels: IntArray, weights: FloatArray, diag: FloatArray, w_diag: float,
    work: list[np.ndarray] | None = None,
) -> tuple[IntArray, float]:
    """One reassignment pass of one run from ``kzt = (K Z)ᵀ`` (k × n, rows contiguous).

    The distance of eq. 6.3 is ``K_nn + s_nk`` with the score ``s_nk = −2/s_k (KZ)_nk +
    z_kᵀKz_k/s_k²``; K_nn is the same for every cluster, so the pass compares scores only, one
    contiguous cluster row at a time (a handful of passes over n per cluster, no n × k
    temporaries). A point moves only when another centroid is strictly nearer (ties stay
    put: fixed points are fixed). Returns the new labels (empty clusters re-seeded) and the
    inertia of the *current* labels, Σ w K_nn − Σ_k z_kᵀKz_k / s_k (eq. 8.12).
    """
    k, n = kzt.shape
    if k == 2:
        fast = _reassign_two(kzt, labels, weights, w_diag, work)
        if fast is not None:
            return fast
    rows = np.arange(n)
    sizes = np.bincount(labels, weights=weights, minlength=k)
    cur = kzt[labels, rows]
    zkz = np.bincount(labels, weights=weights * cur, minlength=k)
    empty = sizes <= 0.0
    safe = np.where(empty, 1.0, sizes)
    a = -2.0 / safe
    b = zkz / safe**2
    inertia = w_diag - float(np.sum(zkz[~empty] / safe[~empty]))
    b[empty] = np.inf
    # running minimum over the cluster rows; label updates by arithmetic, not boolean masks
    # (masked writes with unpredictable masks cost 4-8x more: measured at n = 200,000)
    best = kzt[0] * a[0]
    best += b[0]
    new = np.zeros(n, dtype=np.intp)
    v = np.empty_like(best)
    for c in range(1, k):
        np.multiply(kzt[c], a[c], out=v)
        v += b[c]
        better = v < best  # strict: the first of equal scores wins, as argmin
        np.minimum(best, v, out=best)
        new += (c - new) * better
    cur_score = a[labels] * cur
    cur_score += b[labels]
    new += (labels - new) * (cur_score <= best)  # ties stay put
    if np.bincount(new, minlength=k).min() == 0:
        own = kzt[new, rows] * a[new] + b[new] + diag
        new = _relocate_empty(new, own, weights, k, on_centroid_floor(diag))
    return new, inertia


def _reassign_two(
    kzt: FloatArray, labels: IntArray, weights: FloatArray, w_diag: float,
    work: list[np.ndarray] | None = None,
) -> tuple[IntArray, float] | None:
    """:func:`_reassign` for two clusters by dot products and comparisons into reused
    buffers (no gathers, scatter-adds or fresh N-sized temporaries: about 3x faster at
    n = 1,000,000). Same rule: a point moves only when the other centroid is strictly
    nearer. None when a cluster is or becomes empty (the general pass re-seeds it).

    ``work``: two float64 and two bool arrays of length n, reused across calls.
    """
    n = labels.shape[0]
    if work is None:
        work = [np.empty(n), np.empty(n), np.empty(n, dtype=bool), np.empty(n, dtype=bool)]
    f0, f1, b0, b1 = work
    np.multiply(weights, labels, out=f1)  # weights of the points in cluster 1
    s1 = float(f1.sum())
    s0 = float(weights.sum()) - s1
    if s0 <= 0.0 or s1 <= 0.0:
        return None
    z1 = float(f1 @ kzt[1])
    z0 = float(weights @ kzt[0]) - float(f1 @ kzt[0])
    inertia = w_diag - z0 / s0 - z1 / s1
    np.multiply(kzt[0], -2.0 / s0, out=f0)  # scores: distance minus K_nn
    f0 += z0 / s0**2
    np.multiply(kzt[1], -2.0 / s1, out=f1)
    f1 += z1 / s1**2
    # cluster 1 when strictly nearer, or tied and already there
    np.equal(labels, 1, out=b0)
    np.equal(f1, f0, out=b1)
    b1 &= b0
    np.less(f1, f0, out=b0)
    b0 |= b1
    n1 = int(np.count_nonzero(b0))
    if n1 == 0 or n1 == n:
        return None
    return b0.astype(np.intp), inertia


#: a pass updates K·Z from the rows of the moved points when fewer than n / _INCREMENTAL move
_INCREMENTAL = 8
#: and recomputes K·Z in full at least every _REFRESH passes (bounds round-off drift)
_REFRESH = 25


def _lloyd_kernel_kmeans_runs(
    op: KernelOperator,
    labels: ArrayLike,
    n_clusters: int,
    sample_weight: FloatArray | None = None,
    max_iter: int = 300,
    tol: float = 0.0,
    diag: FloatArray | None = None,
    callback: Callable[[int, IntArray, FloatArray], None] | None = None,
) -> tuple[IntArray, FloatArray, IntArray]:
    """Several Lloyd runs (the ``n_init`` restarts) in lock step, from labels of shape (r, n).

    Kernel k-means is memory-bound: one pass over K costs the same for 2 or 50 right-hand
    sides. So all r runs share each product K·[Z_1 … Z_r], and once few points move, K·Z is
    updated from the kernel rows of the moved points only (``op.take_rows``), which costs
    O(n · moved) instead of O(n²). Returns ``(labels (r, n), inertia (r,), n_iter (r,))``.
    ``callback(iteration, runs, inertias)``, if given, is called after every pass with the
    runs that made it and the inertia of their labels at its start (the estimator's
    ``verbose`` output; the solver itself never prints).
    """
    lab = np.array(labels, dtype=np.intp, copy=True)
    r, n = lab.shape
    k = n_clusters
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    d = np.asarray(op.diag() if diag is None else diag, dtype=np.float64)
    w_diag = float(w @ d)
    rows = np.arange(n)
    active = np.ones(r, dtype=bool)
    n_iter = np.zeros(r, dtype=np.intp)
    inertia = np.full(r, np.inf)
    # (K Z)ᵀ of every run, cluster rows contiguous: run j owns rows j k … (j + 1) k − 1
    KZt = np.zeros((r * k, n))
    work = [np.empty(n), np.empty(n), np.empty(n, dtype=bool), np.empty(n, dtype=bool)]
    # Low-rank K = F Fᵀ (Nyström): keep the centroid sums in feature space, Ct = Zᵀ F
    # (r k × rank), updated from the moved points only, and KZᵀ = Ct Fᵀ: exact for a low-rank
    # K, no round-off drift, no (moved × N) block (measured at N = 1,000,000, rank 100:
    # 0.15 s per pass against 0.33 s for F (Fᵀ ΔZ) plus a transposed scatter-add)
    F = op.low_rank_factor()
    Ct = None if F is None else np.zeros((r * k, F.shape[1]))

    def full_product(runs: np.ndarray) -> None:
        m = len(runs)
        cols = lab[runs] + (np.arange(m) * k)[:, None]  # (m, n), run-major
        Z = sparse.csr_array(
            (np.tile(w, m).astype(op.dtype), (np.tile(rows, m), cols.ravel())),
            shape=(n, m * k),
        )
        if F is not None and Ct is not None:
            sums = np.asarray(Z.T @ F, dtype=np.float64)  # (m k, rank)
            idx = (runs[:, None] * k + np.arange(k)[None, :]).ravel()
            Ct[idx] = sums
            KZt[idx] = _times_features(Ct[idx], F)
            return
        # one run: the sparse one-hot product Zᵀ·K is fastest; several runs: one dense GEMM
        # reads K once for all of them (measured at n = 8,000: 5 runs 0.10 s against 0.28 s)
        prod = _kernel_times(op, Z if m == 1 else Z.toarray())
        for t, j in enumerate(runs):
            KZt[j * k : (j + 1) * k] = prod[:, t * k : (t + 1) * k].T

    full_product(np.arange(r))
    # a cluster the initial labels leave empty is re-seeded before the first pass, as part of
    # the first iteration (scikit-learn relocates in the update that follows the first
    # assignment): a pass of its own would count one iteration more than KMeans
    seeded = [j for j in range(r) if _seed_empty(KZt[j * k : (j + 1) * k], lab[j], w, d)]
    if seeded:
        full_product(np.asarray(seeded))
    since_full = 0
    bar = start_progress(max_iter, "kernel k-means")
    for it in range(1, max_iter + 1):
        bar.update(1)
        moved_runs, moved_pts, old_c, new_c = [], [], [], []
        passed = np.flatnonzero(active)
        seen = np.empty(passed.size)
        for t, j in enumerate(passed):
            lj = lab[j]
            # vector work of length n: BLAS's threads only add latency (the dot products of
            # the two-cluster pass took 19 ms each at n = 20,000 on a loaded machine, 5 µs on
            # one thread: 11 of the 15 s of a 20,000-point Nyström fit)
            with single_blas_thread():
                new, inertia[j] = _reassign(KZt[j * k : (j + 1) * k], lj, w, d, w_diag, work)
            seen[t] = inertia[j]
            moved = np.flatnonzero(new != lj)
            n_iter[j] = it
            if moved.size == 0:
                # a fixed point, unless copies of one point are split over coinciding
                # centroids: joined, the emptied clusters re-seeded, the run goes on
                if _join_coincident(KZt[j * k : (j + 1) * k], lj, w, d):
                    full_product(np.array([j]))
                    if _seed_empty(KZt[j * k : (j + 1) * k], lj, w, d):
                        full_product(np.array([j]))
                    continue
                active[j] = False
                continue
            if moved.size <= tol * n:
                active[j] = False  # stopped by tol: inertia recomputed below
                inertia[j] = np.nan
            moved_runs.append(np.full(moved.size, j))
            moved_pts.append(moved)
            old_c.append(lj[moved])
            new_c.append(new[moved])
            lab[j] = new
        if callback is not None:
            callback(it, passed, seen)
        if not moved_runs:
            break
        mr = np.concatenate(moved_runs)
        mp = np.concatenate(moved_pts)
        uniq, inv = np.unique(mp, return_inverse=True)
        since_full += 1
        todo = np.unique(mr)
        if uniq.size * _INCREMENTAL > n or since_full >= _REFRESH:
            full_product(todo)
            since_full = 0
        else:
            # K·Z += K · ΔZ, with ΔZ = +w at the new and −w at the old column of each moved
            # point: only the rows of the moved points are read (K is symmetric)
            wm = w[mp]
            c_new = mr * k + np.concatenate(new_c)
            c_old = mr * k + np.concatenate(old_c)
            touched, tcol = np.unique(np.concatenate([c_new, c_old]), return_inverse=True)
            if F is not None and Ct is not None:
                dZt = sparse.csr_array(
                    (np.concatenate([wm, -wm]), (tcol, np.concatenate([mp, mp]))),
                    shape=(touched.size, n),
                )
                # in F's dtype: a float64 product would copy F (N × rank) every pass
                Ct[touched] += np.asarray(dZt.astype(F.dtype) @ F, dtype=np.float64)
                KZt[touched] = _times_features(Ct[touched], F)
            elif isinstance(op, DenseKernelOperator):
                # the sparse product reads only the moved rows of K
                dZt = sparse.csr_array(
                    (np.concatenate([wm, -wm]).astype(op.dtype),
                     (tcol, np.concatenate([mp, mp]))),
                    shape=(touched.size, n),
                )
                KZt[touched] += op.matmat(dZt.T).T
            else:
                delta = np.zeros((touched.size, uniq.size), dtype=op.dtype)
                np.add.at(delta, (tcol, np.concatenate([inv, inv])), np.concatenate([wm, -wm]))
                # K[moved, :] in blocks of the operator's row budget (chunked: bounded memory)
                step = max(1, op._default_block_rows())
                for a in range(0, uniq.size, step):
                    R = np.asarray(op.take_rows(uniq[a : a + step]))
                    KZt[touched] += delta[:, a : a + step] @ R
    bar.close()
    # runs stopped by tol or max_iter: the inertia of their final labels, from a full product
    redo = np.flatnonzero(active | ~np.isfinite(inertia))
    if redo.size:
        full_product(redo)
        for j in redo:
            _, inertia[j] = _reassign(KZt[j * k : (j + 1) * k], lab[j], w, d, w_diag)
    return lab, inertia, n_iter
