"""The README's Python example runs as written."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks
    for code in blocks:
        namespace: dict[str, object] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the geodesic graph is joined
            exec(compile(code, str(README), "exec"), namespace)
        assert namespace["gp"].n_clusters_ == 2  # type: ignore[attr-defined]
