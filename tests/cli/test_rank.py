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


def test_past_fit_rows_the_fit_uses_a_sample_and_every_row_is_ranked(tmp_path,
                                                                      capsys) -> None:
    """More rows than ``--fit-rows``: fitted and cross-validated on a rank-stratified sample
    (a note says so; ``fit_rows`` in the summary); every row gets a rank, the rows not fitted
    an empty ``cv_rank`` (issue 63: 200,000 rows had not finished after 150 s)."""
    import json

    import pandas as pd

    out = tmp_path / "out"
    code = main(["--quiet", "rank", str(_file(tmp_path, 200)), "--target", "score",
                 "--fit-rows", "60", "--cv", "3", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert ("note: 200 rows > --fit-rows 60: fitted and cross-validated on a random sample "
            "of 60 rows (every rank in proportion); every row is ranked") in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["result"]["fit_rows"] == 60
    preds = pd.read_csv(out / "train_predictions.csv")
    assert len(preds) == 200 and preds["rank"].notna().all()
    assert preds["cv_rank"].notna().sum() == 60
    assert set(preds["cv_rank"].dropna().astype(int)) <= {0, 1}


def test_fit_rows_0_fits_every_row_and_a_negative_one_is_refused(tmp_path, capsys) -> None:
    """``--fit-rows 0``: no sample; below 0: one error naming the option."""
    assert main(["--quiet", "rank", str(_file(tmp_path, 40)), "--target", "score",
                 "--fit-rows", "0", "--cv", "0", "--out", str(tmp_path / "a")]) == 0
    assert "sample" not in capsys.readouterr().err
    assert main(["--quiet", "rank", str(_file(tmp_path, 40)), "--target", "score",
                 "--fit-rows", "-1", "--out", str(tmp_path / "b")]) == 2
    assert capsys.readouterr().err.endswith(
        "error: --fit-rows must be 0 (every row) or a number of rows; got -1\n")


def test_past_nystrom_rows_nu_ranking_fits_on_nystrom_features(tmp_path, capsys,
                                                               monkeypatch) -> None:
    """Past ``NYSTROM_ROWS`` training rows ``--method nu`` uses Nyström features (a note says
    so) unless ``--param approximation=...`` is given."""
    import json

    from kernel_patterns.cli import _rank

    monkeypatch.setattr(_rank, "NYSTROM_ROWS", 30)
    out = tmp_path / "out"
    assert main(["--quiet", "rank", str(_file(tmp_path, 40)), "--target", "score", "--cv", "0",
                 "--out", str(out)]) == 0
    assert "note: 40 rows > 30: ν-ranking on Nyström features" in capsys.readouterr().err
    assert json.loads((out / "summary.json").read_text())["parameters"]["approximation"] == \
        "nystrom"
    assert main(["--quiet", "rank", str(_file(tmp_path, 40)), "--target", "score", "--cv", "0",
                 "--param", "approximation=exact", "--out", str(tmp_path / "o2")]) == 0
    assert "Nyström" not in capsys.readouterr().err
