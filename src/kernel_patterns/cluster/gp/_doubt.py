"""The warning of a fit that found fewer than two clusters when that answer is in doubt."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import NDArray

from ..._tails import TAIL_KURTOSIS, median_excess_kurtosis
from ..._validation import FloatArray
from ..._warnings import user_stacklevel
from ._trace import GPCountTrace


def warn_degenerate(
    labels: NDArray[np.intp], length_scale: float, min_cluster_size: int,
    n_inducing: int | None = None, untransformed: FloatArray | None = None,
    trace: GPCountTrace | None = None, all_equal: bool = False,
) -> None:
    """Warn, naming what to change, when the fit found fewer than two clusters.

    No warning when one cluster is the data's answer: a landscape read (``trace``) had one
    mode and the features are not heavy-tailed. ``untransformed``: the features when no
    ``feature_transform`` was fitted (the warning then quotes their median excess kurtosis).
    ``trace``: the ladder read (kernel=None). ``all_equal``: every training point is the same.
    """
    n_found = int(labels.max()) + 1
    if n_found >= 2:
        return
    if labels.size < min_cluster_size:  # no cluster can be that large: say so, nothing else
        warnings.warn(
            f"GPClustering found every point is noise: the {labels.size} training points are "
            f"fewer than min_cluster_size={min_cluster_size}, the smallest cluster; give a "
            "smaller min_cluster_size.",
            UserWarning, stacklevel=user_stacklevel(),
        )
        return
    if all_equal:  # nothing to change but the data
        warnings.warn(f"GPClustering found one cluster: the {labels.size} points of X are all "
                      "the same point.", UserWarning, stacklevel=user_stacklevel())
        return
    heavy = untransformed is not None and median_excess_kurtosis(untransformed) > TAIL_KURTOSIS
    if (n_found == 1 and trace is not None and trace.mode_test is None and not heavy
            and trace.n_modes.size and trace.n_modes.min() <= 1):
        return  # one mode at a length scale read: one cluster is the data's answer, no doubt
    what = "every point is noise" if n_found == 0 else "one cluster"
    # on a line the count is the dip test's, which more inducing points do not change
    line = trace is not None and trace.mode_test is not None
    more = ("" if n_inducing is None or line else
            f"more inducing points (n_landmarks, now {n_inducing}) or approximation='exact', ")
    tails = ("" if untransformed is None else
             " If the features are heavy-tailed (the median feature's excess kurtosis is "
             f"{median_excess_kurtosis(untransformed):.2f}; feature_transform='auto' acts "
             f"above {TAIL_KURTOSIS:g}), try feature_transform='yeo-johnson'.")
    if trace is not None and trace.mode_test is not None:
        if trace.mode_test.n_modes > 1:  # the parts' own warning says why
            return
        tested = trace.mode_test.pvalues
        where = ("On one feature" if trace.one_feature
                 else "On data that lie on a line (count_trace_.line_axis)")
        tails += (f" {where} the count is the number of modes of its density: one, "
                  + (f"by Hartigan's dip test (p-value {tested[0]:.2f} against more; "
                     if tested.size else "as the values are too few for Hartigan's dip test "
                     "(fewer than twice min_cluster_size) or all equal (")
                  + "count_trace_.mode_test).")
    elif trace is not None and trace.n_modes.size and trace.n_modes.max() >= 2:
        j = int(np.argmax(trace.n_modes))
        tails += (f" The landscapes read had up to {int(trace.n_modes[j])} modes (length "
                  f"scale {trace.length_scales[j]:.3g}), none stable: count_trace_ lists them.")
    warnings.warn(
        f"GPClustering found {what} (length scale {length_scale:.3g}): the variance "
        f"landscape has no split the data can see. Give {more}a kernel with a shorter "
        "length scale (kernel=GPCovariance(l=...), l = 1/length²), a smaller "
        f"min_cluster_size (now {min_cluster_size}), a level, or n_clusters.{tails}",
        UserWarning, stacklevel=user_stacklevel(),
    )
