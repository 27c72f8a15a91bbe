"""GPClustering() on every ``bench_auto.py`` set: save its labels, or compare two saves.

A change to the GP count (issue 61) must keep every outcome the rule reaches: run ``save``
before and after it, then ``compare``. ``save`` also checks that the views of each fit agree
(``labels_at(level=level_)`` and ``labels_at(n_clusters=n_clusters_)`` equal ``labels_``)
and keeps each fit's time::

    PYTHONPATH=/path/to/old/src python benchmarks/check_gp_unchanged.py save before.npz
    python benchmarks/check_gp_unchanged.py save after.npz
    python benchmarks/check_gp_unchanged.py compare before.npz after.npz

All 91 sets at full size take about three minutes alone on the benchmark machine.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

try:  # run as a script from benchmarks/ or imported as benchmarks.check_gp_unchanged
    from bench_auto import GROUPS, _load, sets
except ImportError:  # pragma: no cover
    from benchmarks.bench_auto import GROUPS, _load, sets

from kernel_patterns import GPClustering


def save(out: str) -> None:
    """Fit every set, print its count, time, whether its views agree and the step of the
    count rule that decided; save the labels."""
    res: dict[str, np.ndarray] = {}
    steps: dict[str, int] = {}  # the step of the count rule that decided (count_trace_.step)
    agree = 0
    for name, load in sets(list(GROUPS), quick=False).items():
        X, _ = _load(load)
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gp = GPClustering(random_state=0).fit(X)
        dt = time.perf_counter() - t0
        res[name], res[name + "::time"] = gp.labels_, np.array([dt])
        views = ""
        if hasattr(gp.landscape_, "min_cluster_size"):  # the fitted tree (issue 61)
            ok = (np.array_equal(gp.labels_at(level=gp.level_), gp.labels_)
                  and np.array_equal(gp.labels_at(n_clusters=max(gp.n_clusters_, 1)),
                                     gp.labels_))
            agree += ok
            views = f" views agree: {ok}"
        step = getattr(gp.count_trace_, "step", "") or "line"
        steps[step] = steps.get(step, 0) + 1
        print(f"{name}: {gp.n_clusters_} clusters, {dt:.1f} s{views}, step {step}", flush=True)
    np.savez(out, **res)
    print(f"views agree on {agree} of {len(res) // 2}")
    print("sets per step of the count rule:", steps)


def compare(a_path: str, b_path: str) -> None:
    """The sets whose labels differ, and the total time of each save."""
    a, b = np.load(a_path), np.load(b_path)
    names = [k for k in a.files if not k.endswith("::time")]
    differ = [k for k in names if k not in b.files or not np.array_equal(a[k], b[k])]
    ta = sum(float(a[k][0]) for k in a.files if k.endswith("::time"))
    tb = sum(float(b[k][0]) for k in b.files if k.endswith("::time"))
    print(f"labels differ on {len(differ)} of {len(names)} sets: {differ}")
    print(f"time {ta:.0f} s before, {tb:.0f} s after")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("save").add_argument("out")
    cmp = sub.add_parser("compare")
    cmp.add_argument("before")
    cmp.add_argument("after")
    args = ap.parse_args()
    if args.cmd == "save":
        save(args.out)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
