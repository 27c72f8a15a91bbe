"""Ranking experiment: ν-ranking and on-line ranking against a nominal classifier and ordinal
regression (Shawe-Taylor & Cristianini §8.1).

Boston housing (MASS, 506 rows): the target ``medv`` cut into 5 and 10 equal-width ranks,
300 training / 206 test rows, 20 seeded splits, features standardised on the training part,
RBF kernel; ν (NuRanking), passes (OnlineRanking), C (SVC) and γ chosen by 3-fold
cross-validation on the training part, by the mean absolute rank error (MAE) for every method.
Peers: scikit-learn's SVC (nominal: one-vs-one, ignores the order) and statsmodels'
OrderedModel (linear ordinal logit, no hyper-parameter).

MASS ``cpus`` (209 rows): ``perf`` is very skewed (6 … 1150; equal-width bins on the raw
value put about 90% of the machines in the first rank), so it is cut into equal-width bins of
log(perf) instead; 150 training / 59 test rows.

Run: ``kernel-patterns reproduce ranking`` (or ``python benchmarks/experiment_ranking.py``);
needs the ``experiments`` extra (statsmodels).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from .. import datasets
from .._optional import import_optional
from ..metrics import mean_absolute_error, mean_zero_one_error
from ..rank import NuRanking, OnlineRanking

NAME = "ranking"
TITLE = "Ranking (Shawe-Taylor & Cristianini §8.1): Boston and cpus, MZE and MAE"
#: the demo step that draws this experiment\'s figures (run beside it by ``reproduce``)
FIGURES = "ranking"

GAMMAS = [0.01, 0.02, 0.05, 0.1, 0.2]


def mae_score(y_true: Any, y_pred: Any) -> float:
    return -mean_absolute_error(y_true, y_pred)


SCORER = make_scorer(mae_score)


def equal_width_ranks(target: np.ndarray, n_ranks: int) -> np.ndarray:
    edges = np.linspace(target.min(), target.max(), n_ranks + 1)[1:-1]
    return np.digitize(target, edges) + 1  # ranks 1 … n_ranks


class OrderedLogit(BaseEstimator):
    """statsmodels' OrderedModel (logit link) with a fit/predict face; labels = ranks.

    The model's logistic cdf is ``scipy.special.expit``, which is what
    ``scipy.stats.logistic.cdf`` computes (bit for bit, checked on 10⁵ values and ±inf)
    without the generic distribution's argument handling: that took 2.8 of the 4.2 s of
    each fit (its BFGS takes numerical gradients, ~2,500 likelihoods per fit).
    """

    def fit(self, X: np.ndarray, y: np.ndarray) -> OrderedLogit:
        import pandas as pd
        from scipy.special import expit

        OrderedModel: Any = import_optional(
            "statsmodels.miscmodels.ordinal_model", extra="experiments",
            purpose="the ordinal-logit peer of the ranking experiment",
        ).OrderedModel

        class _Logit(OrderedModel):
            def cdf(self, x: Any) -> Any:
                return expit(x)

        self.classes_ = np.unique(y)
        cats = pd.Categorical(y, categories=self.classes_, ordered=True)
        keep = np.std(X, axis=0) > 1e-12  # a constant column would be collinear with cuts
        self.keep_ = keep
        model = _Logit(cats, X[:, keep], distr="logit")
        self.result_ = model.fit(method="bfgs", disp=False, maxiter=2000)
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        probs = np.asarray(self.result_.model.predict(self.result_.params, exog=X[:, self.keep_]))
        return np.asarray(self.classes_[np.argmax(probs, axis=1)])


def methods(n_train: int) -> dict[str, tuple[BaseEstimator, dict[str, list[Any]]]]:
    return {
        "NuRanking": (
            make_pipeline(StandardScaler(), NuRanking(kernel="rbf")),
            {"nuranking__nu": [0.1, 0.2, 0.4, 0.6, 0.8],
             "nuranking__kernel_params": [{"gamma": g} for g in GAMMAS]},
        ),
        "OnlineRanking": (
            make_pipeline(StandardScaler(),
                          OnlineRanking(kernel="rbf", shuffle=True, random_state=0)),
            {"onlineranking__max_iter": [1, 5, 20],
             "onlineranking__kernel_params": [{"gamma": g} for g in GAMMAS]},
        ),
        "SVC (nominal)": (
            make_pipeline(StandardScaler(), SVC(kernel="rbf")),
            {"svc__C": [1.0, 10.0, 100.0], "svc__gamma": GAMMAS},
        ),
        "OrderedModel (logit)": (make_pipeline(StandardScaler(), OrderedLogit()), {}),
    }


def run_setting(X: np.ndarray, y: np.ndarray, n_train: int, n_splits: int,
                label: str) -> list[dict[str, Any]]:
    rows = []
    results: dict[str, dict[str, list[float]]] = {}
    t_method: dict[str, float] = {}
    for split in range(n_splits):
        rng = np.random.default_rng(split)
        perm = rng.permutation(len(y))
        tr, te = perm[:n_train], perm[n_train:]
        for name, (est, grid) in methods(n_train).items():
            t0 = time.perf_counter()
            if grid:
                search = GridSearchCV(clone(est), grid, scoring=SCORER,
                                      cv=KFold(3, shuffle=True, random_state=split),
                                      error_score=np.nan, n_jobs=1)
                model = search.fit(X[tr], y[tr]).best_estimator_
            else:
                model = clone(est).fit(X[tr], y[tr])
            pred = model.predict(X[te])
            t_method[name] = t_method.get(name, 0.0) + time.perf_counter() - t0
            r = results.setdefault(name, {"mze": [], "mae": []})
            r["mze"].append(mean_zero_one_error(y[te], pred))
            r["mae"].append(mean_absolute_error(y[te], pred))
    for name, r in results.items():
        rows.append({
            "data": label, "method": name,
            "mze_mean": float(np.mean(r["mze"])), "mze_std": float(np.std(r["mze"])),
            "mae_mean": float(np.mean(r["mae"])), "mae_std": float(np.std(r["mae"])),
            "seconds": t_method[name], "splits": n_splits,
        })
    return rows


def run(out_dir: Path, quick: bool = False) -> dict[str, Any]:
    """All settings over 20 seeded splits (2 with ``quick``); one table of mean ± std."""
    import pandas as pd

    n_splits = 2 if quick else 20
    warnings.filterwarnings("ignore")  # degenerate ν in the grid, ordinal-logit convergence
    boston = datasets.load_boston()
    cpus = datasets.load_cpus()
    settings = [
        (boston.data, equal_width_ranks(boston.target, 5), 300, "Boston, 5 ranks"),
        (boston.data, equal_width_ranks(boston.target, 10), 300, "Boston, 10 ranks"),
        (cpus.data, equal_width_ranks(np.log(cpus.target), 5), 150, "cpus (log perf), 5 ranks"),
        (cpus.data, equal_width_ranks(np.log(cpus.target), 10), 150,
         "cpus (log perf), 10 ranks"),
    ]
    if quick:
        settings = settings[:1]
    rows: list[dict[str, Any]] = []
    for X, y, n_train, label in settings:
        rows.extend(run_setting(np.asarray(X, dtype=np.float64), y, n_train, n_splits, label))
    frame = pd.DataFrame(rows)
    table = pd.DataFrame({
        "data": frame["data"],
        "method": frame["method"],
        "MZE (mean ± std)": [f"{m:.3f} ± {s:.3f}" for m, s in
                             zip(frame["mze_mean"], frame["mze_std"], strict=True)],
        "MAE (mean ± std)": [f"{m:.3f} ± {s:.3f}" for m, s in
                             zip(frame["mae_mean"], frame["mae_std"], strict=True)],
        "seconds (incl. CV)": frame["seconds"].round(1),
        "splits": frame["splits"],
    })
    return {"errors": table, "raw": frame}
