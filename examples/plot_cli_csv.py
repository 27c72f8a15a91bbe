"""
The command line on a CSV file
==============================

``kernel-patterns cluster`` reads a CSV, TSV or Parquet file and writes the labels, a
``summary.json``, the rows with their cluster and a profile of each cluster in the file's units,
PNG figures and a self-contained ``report.html``. Here the wine data written
as a CSV with an id column, clustered by GP variance clustering with no count given; the
command runs in a subprocess exactly as in a shell.
"""

# %%
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import load_wine

work = Path(tempfile.mkdtemp())
wine = load_wine(as_frame=True).frame.rename(columns={"target": "cultivar"})
wine.insert(0, "id", [f"wine{i:03d}" for i in range(len(wine))])
wine.to_csv(work / "wine.csv", index=False)

cmd = [sys.executable, "-m", "kernel_patterns.cli", "cluster", "wine.csv", "--method", "gp",
       "--label-column", "cultivar", "--scale", "standard", "--out", "wine-gp"]
print("$ kernel-patterns", " ".join(cmd[3:]))
done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=work)
print(done.stderr + done.stdout)

summary = json.loads((work / "wine-gp" / "summary.json").read_text())
print(sorted(p.name for p in (work / "wine-gp").iterdir()))
print("clusters:", summary["result"]["n_clusters"], "scores:", summary["scores"])

# %%
# The figure the command wrote: its clusters beside the cultivars, in a kernel MDS view.
fig, ax = plt.subplots(figsize=(10, 4))
ax.imshow(mpimg.imread(work / "wine-gp" / "clusters.png"))
ax.axis("off")
fig.tight_layout()

# %%
# The results in the file's own units: each cluster's size and the median (IQR) of every
# feature (``profile.csv``), and the six features that separate the clusters most, pair by pair
# (``pairs.png``). ``clustered.csv`` holds the input rows with their cluster.
profile = pd.read_csv(work / "wine-gp" / "profile.csv")
print(profile[["cluster", "size", "proline median", "proline IQR", "flavanoids median"]])
fig, ax = plt.subplots(figsize=(9, 8))
ax.imshow(mpimg.imread(work / "wine-gp" / "pairs.png"))
ax.axis("off")
fig.tight_layout()
