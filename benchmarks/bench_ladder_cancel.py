"""GPClustering(): a rung of the length-scale ladder fitted ahead of need, stopped when unread.

The ladder (``cluster/gp/_ladder.py``) fits the rung above the one read on a second thread,
since the next reading nearly always needs it. When the reading ends first, that rung is not
needed; before, the fit waited for it on exit. Now it stops at its next variance evaluation
(``LadderPool.closing``, ``kernel_patterns._parallel.cancelled_by``). This benchmark fits
``GPClustering(random_state=0)`` on the families of ``bench_defaults_time.py`` and on the 23
real sets of ``bench_real.py`` (standardised), alternating runs with the stop and without
it (the same code with the stop switched off) in one process, best of ``--repeats``, and
checks that the labels are the same.

Run: ``python benchmarks/bench_ladder_cancel.py [--sizes 1000 5000] [--repeats 3]
[--no-real]``; the table is ``results/ladder_cancel.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import time
import warnings
from typing import Any

import numpy as np
from sklearn.preprocessing import StandardScaler

try:  # run as a script from benchmarks/ or imported as benchmarks.bench_ladder_cancel
    from _common import machine, save, table
    from bench_defaults_time import FAMILIES
    from bench_real import SETS
except ImportError:  # pragma: no cover
    from benchmarks._common import machine, save, table
    from benchmarks.bench_defaults_time import FAMILIES
    from benchmarks.bench_real import SETS

from kernel_patterns import GPClustering
from kernel_patterns.cluster.gp import _ladder


def _fit(X: np.ndarray, stop: bool) -> tuple[float, np.ndarray]:
    """Seconds and labels of GPClustering(random_state=0), the unread rung stopped or not."""
    keep = _ladder.cancelled_by
    if not stop:  # the rung fitted ahead runs to its end, as before
        _ladder.cancelled_by = lambda event: contextlib.nullcontext()  # type: ignore[assignment]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = time.perf_counter()
            labels = GPClustering(random_state=0).fit(X).labels_
            return time.perf_counter() - t, labels
    finally:
        _ladder.cancelled_by = keep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-real", action="store_true")
    args = ap.parse_args()
    data: list[tuple[str, Any]] = [(f"{name} {n}", make(n, 0)[0])
                                   for n in args.sizes for name, make in FAMILIES.items()]
    if not args.no_real:
        data += [(name, StandardScaler().fit_transform(SETS[name]()[0])) for name in SETS]
    rows, totals = [], np.zeros(2)
    for name, X in data:
        best = [np.inf, np.inf]
        labels: list[np.ndarray] = []
        for _ in range(args.repeats):
            for j, stop in enumerate((False, True)):
                seconds, lab = _fit(X, stop)
                best[j] = min(best[j], seconds)
                labels.append(lab)
        same = all(np.array_equal(labels[0], lab) for lab in labels)
        totals += best
        rows.append([name, X.shape[0], f"{best[0]:.2f}", f"{best[1]:.2f}",
                     f"{best[1] / best[0]:.2f}", "yes" if same else "NO"])
        print(*rows[-1], flush=True)
    rows.append(["total", "", f"{totals[0]:.2f}", f"{totals[1]:.2f}",
                 f"{totals[1] / totals[0]:.2f}", ""])
    text = (
        "# GPClustering(): the unread rung of the ladder stopped (seconds, best of "
        f"{args.repeats})\n\n`python benchmarks/bench_ladder_cancel.py --sizes "
        f"{' '.join(map(str, args.sizes))} --repeats {args.repeats}"
        f"{' --no-real' if args.no_real else ''}` on {machine()}; both in one process, "
        "alternating.\n\n"
        + table(["data", "n", "runs to its end s", "stopped s", "ratio", "same labels"], rows)
    )
    save("ladder_cancel", text)


if __name__ == "__main__":
    main()
