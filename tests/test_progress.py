"""Progress bars: drawn on long stages when enabled, silent otherwise, never in the way."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_patterns import GPClustering, KernelKMeans, SoftKernelKMeans, _progress, datasets
from kernel_patterns.kernels import RBF, make_operator


@pytest.fixture
def bars_on():
    old = _progress.QUIET
    _progress.QUIET = False
    yield
    _progress.QUIET = old


def test_stage_bars_draw_on_stderr_when_enabled(bars_on, capsys) -> None:
    with _progress.progress_bar(3, "stage") as bar:
        for _ in range(3):
            bar.update(1)
    b = _progress.start_progress(2, "loop")
    b.update(2)
    b.close()
    # tqdm's delay keeps sub-second stages silent; the calls themselves must work
    assert capsys.readouterr().out == ""


def test_estimators_fit_the_same_with_bars_enabled(bars_on) -> None:
    X, _ = datasets.make_two_moons(random_state=0)
    X = datasets.scale_unit_interval(X)
    a = KernelKMeans(2, kernel=RBF(20.0), random_state=0).fit(X).labels_
    s = SoftKernelKMeans(2, kernel=RBF(20.0), random_state=0).fit(X).labels_
    g = GPClustering(n_clusters=2).fit(X).labels_
    big = make_operator(RBF(1.0), np.random.default_rng(0).normal(size=(2100, 2)))
    _progress.QUIET = True
    km = KernelKMeans(2, kernel=RBF(20.0), random_state=0)
    soft = SoftKernelKMeans(2, kernel=RBF(20.0), random_state=0)
    np.testing.assert_array_equal(a, km.fit(X).labels_)
    np.testing.assert_array_equal(s, soft.fit(X).labels_)
    np.testing.assert_array_equal(g, GPClustering(n_clusters=2).fit(X).labels_)
    assert big.to_dense().shape == (2100, 2100)


def test_disabled_bars_are_no_ops() -> None:
    old = _progress.QUIET
    _progress.QUIET = True
    try:
        assert not _progress.progress_enabled()
        with _progress.progress_bar(5, "x") as bar:
            bar.update(5)
            bar.set_postfix_str("ok")
        assert list(_progress.progress(range(3))) == [0, 1, 2]
    finally:
        _progress.QUIET = old
