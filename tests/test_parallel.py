"""Thread limits through one threadpoolctl controller (``kernel_patterns._parallel``)."""

from __future__ import annotations

import threading

import pytest
from threadpoolctl import threadpool_info

from kernel_patterns import _parallel
from kernel_patterns._parallel import (
    Cancelled,
    cancelled_by,
    check_cancelled,
    limit_threads,
    single_blas_thread,
    usable_threads,
)


def _threads(user_api: str) -> list[int]:
    return [p["num_threads"] for p in threadpool_info() if p["user_api"] == user_api]


@pytest.mark.parametrize("user_api", ["blas", "openmp"])
def test_limit_threads_limits_inside_and_restores_on_exit(user_api: str) -> None:
    before = _threads(user_api)
    assert before, f"no {user_api} library loaded: nothing to check"
    with limit_threads(1, user_api):
        assert set(_threads(user_api)) == {1}
    assert _threads(user_api) == before


def test_limit_threads_none_leaves_the_pools_as_they_are() -> None:
    before = _threads("blas")
    with limit_threads(None, "blas"):
        assert _threads("blas") == before
    assert _threads("blas") == before


def test_one_controller_serves_every_limit() -> None:
    with limit_threads(1, "blas"):
        first = _parallel._CONTROLLER
    with single_blas_thread(), limit_threads(1, "openmp"):
        assert set(_threads("blas")) == {1}
    assert first is not None and _parallel._CONTROLLER is first


def test_usable_threads_is_bounded() -> None:
    assert 1 <= usable_threads(limit=2) <= 2
    assert usable_threads(limit=1) == 1


def test_check_cancelled_raises_only_inside_its_block_once_the_event_is_set() -> None:
    outer, inner = threading.Event(), threading.Event()
    check_cancelled()  # no event: nothing to stop
    with cancelled_by(outer):
        with cancelled_by(inner):
            outer.set()
            check_cancelled()  # the inner block's event is the one read
            inner.set()
            with pytest.raises(Cancelled):
                check_cancelled()
        with pytest.raises(Cancelled):  # the outer one again, set meanwhile
            check_cancelled()
    check_cancelled()  # outside every block


def test_an_event_set_in_one_thread_stops_only_the_work_it_was_given_to() -> None:
    closing = threading.Event()
    closing.set()
    caught: list[BaseException] = []

    def work() -> None:
        try:
            with cancelled_by(closing):
                check_cancelled()
        except Cancelled as exc:
            caught.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert len(caught) == 1
    check_cancelled()  # this thread was given no event
