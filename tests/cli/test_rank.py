"""``kernel-patterns rank`` (``cli._rank``): the checks of its own options."""

from __future__ import annotations

import pytest

from kernel_patterns.cli import main


def _file(tmp_path, n_rows: int):
    rows = [f"{0.5 + i},{(i * 0.37) % 1:.2f},{i % 2}" for i in range(n_rows)]
    path = tmp_path / "r.csv"
    path.write_text("a,b,score\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize(("n_rows", "message"), [
    (2, "the file has 2 usable rows, too few for the default 5-fold cross-validation of the "
        "held-out errors; pass --cv 0 to skip it\n"),
    (4, "the file has 4 usable rows, too few for the default 5-fold cross-validation of the "
        "held-out errors; pass --cv 0 to skip it, or a smaller --cv (2 to 4)\n"),
])
def test_too_few_rows_for_the_default_folds_says_so(tmp_path, capsys, n_rows, message) -> None:
    # it said "--cv must be ... between 2 and the 2 rows; got 5" to a user who gave no --cv
    out = tmp_path / "out"
    code = main(["--quiet", "rank", str(_file(tmp_path, n_rows)), "--target", "score",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err == f"kernel-patterns rank: error: {message}"
    assert not out.exists()


def test_a_given_cv_is_checked_against_the_rows(tmp_path, capsys) -> None:
    code = main(["--quiet", "rank", str(_file(tmp_path, 4)), "--target", "score", "--cv", "5",
                 "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.endswith("error: --cv must be 0 (none) or between 2 and the 4 rows; got 5\n")
