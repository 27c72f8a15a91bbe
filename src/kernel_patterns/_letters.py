"""The letters I, C, A, S, S, P of the "ICASSP" logo as strokes, and points along them (private:
:func:`kernel_patterns.datasets.make_icassp_logo` draws the logo from them)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import FloatArray

# Strokes of the letters I, C, A, S, S, P in a 0.6 × 1 box: ("line", p0, p1) or
# ("arc", centre, (rx, ry), angle0, angle1) with angles in degrees.
LETTERS: dict[str, list[tuple[Any, ...]]] = {
    "I": [("line", (0.3, 0.0), (0.3, 1.0))],
    "C": [("arc", (0.35, 0.5), (0.35, 0.5), 50.0, 310.0)],
    "A": [
        ("line", (0.0, 0.0), (0.3, 1.0)),
        ("line", (0.3, 1.0), (0.6, 0.0)),
        ("line", (0.12, 0.4), (0.48, 0.4)),
    ],
    "S": [
        ("arc", (0.3, 0.75), (0.28, 0.25), 20.0, 270.0),
        ("arc", (0.3, 0.25), (0.28, 0.25), 90.0, -160.0),
    ],
    "P": [
        ("line", (0.05, 0.0), (0.05, 1.0)),
        ("arc", (0.05, 0.75), (0.45, 0.25), 90.0, -90.0),
    ],
}


def stroke_points(strokes: list[tuple[Any, ...]], n: int, rng: Any) -> FloatArray:
    """``n`` points spread uniformly by arc length over a letter's strokes."""
    fine = []
    for s in strokes:
        t = np.linspace(0.0, 1.0, 400)
        if s[0] == "line":
            p0, p1 = np.asarray(s[1]), np.asarray(s[2])
            fine.append(p0 + t[:, None] * (p1 - p0))
        else:
            c, r, a0, a1 = np.asarray(s[1]), np.asarray(s[2]), s[3], s[4]
            a = np.deg2rad(a0 + t * (a1 - a0))
            fine.append(c + r * np.c_[np.cos(a), np.sin(a)])
    P = np.vstack(fine)
    seg = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(P, axis=0), axis=1))]
    # Jumps between strokes are not ink: drop their length.
    jumps = np.cumsum([len(f) for f in fine])[:-1]
    step = np.diff(seg)
    step[jumps - 1] = 0.0
    seg = np.r_[0.0, np.cumsum(step)]
    u = np.sort(rng.uniform(0.0, seg[-1], n))
    return np.c_[np.interp(u, seg, P[:, 0]), np.interp(u, seg, P[:, 1])]
