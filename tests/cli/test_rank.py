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


def _diamonds(tmp_path):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    cuts = ["Fair", "Good", "Very Good", "Premium", "Ideal"]
    y = rng.integers(0, 5, size=60)
    frame = pd.DataFrame({"carat": y + rng.normal(scale=0.3, size=60),
                          "depth": rng.normal(size=60), "cut": [cuts[i] for i in y]})
    path = tmp_path / "diamonds.csv"
    frame.to_csv(path, index=False)
    return path, y


def test_order_ranks_a_text_target_and_the_report_shows_rank_sizes(tmp_path, capsys) -> None:
    import json

    import pandas as pd

    path, y = _diamonds(tmp_path)
    out = tmp_path / "o"
    assert main(["-q", "rank", str(path), "--target", "cut", "--cv", "0", "--order",
                 "Fair,Good,Very Good,Premium,Ideal", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["result"]["binning"].startswith(
        "--order: the values of 'cut' as ranks 1..5: Fair = 1, Good = 2, Very Good = 3")
    got = pd.read_csv(out / "train_predictions.csv")
    assert got["target"].tolist() == (y + 1).tolist()
    page = (out / "report.html").read_text()
    assert "<h2>Rank sizes</h2>" in page and "<th scope='col'>rank</th>" in page
    assert "rank_sizes" not in page


@pytest.mark.parametrize(("order", "message"), [
    ("Fair,Good", r"--order does not name the value\(s\) \['Ideal', 'Premium', 'Very Good'\]"),
    ("Fair", "--order needs at least two values"),
    ("Fair,Fair,Good,Very Good,Premium,Ideal", "--order names a value twice"),
])
def test_order_errors_name_the_option(tmp_path, capsys, order, message) -> None:
    import re

    path, _ = _diamonds(tmp_path)
    assert main(["-q", "rank", str(path), "--target", "cut", "--order", order,
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and re.search(message, err), err


def test_help_texts_name_each_commands_own_defaults(capsys) -> None:
    for argv, wanted in ((["rank", "--help"], "default rbf, for nu and online"),
                         (["rank", "--help"], "--order"),
                         (["embed", "--help"], "rbf for mds, the k-nearest-neighbour graph"),
                         (["embed", "--help"], "laplacian: the Laplacian eigenmap")):
        with pytest.raises(SystemExit):
            main(argv)
        assert wanted in " ".join(capsys.readouterr().out.split())


def test_rows_dropped_from_the_predict_file_are_a_warning(tmp_path, capsys) -> None:
    train = _file(tmp_path, 20)
    new = tmp_path / "new.csv"
    new.write_text("a,b\n0.5,0.1\n,0.2\n1.5,0.3\n")
    assert main(["-q", "rank", str(train), "--target", "score", "--cv", "0", "--drop-na",
                 "--predict", str(new), "--out", str(tmp_path / "o")]) == 0
    assert ("kernel-patterns rank: warning: --predict file: dropped 1 of the 3 rows (33.3 %) "
            "for missing values (--drop-na)\n") in capsys.readouterr().err
