"""The scale demo step: four approximations on 50,000–200,000 points, one figure."""

from __future__ import annotations

from pathlib import Path

from kernel_patterns.demos import scale


def test_scale_step_clusters_every_data_set_and_draws_the_figure(tmp_path: Path) -> None:
    summary = scale.run(tmp_path)
    assert summary["figures"] == ["scale.png"]
    assert (tmp_path / "scale.png").stat().st_size > 10_000
    results = {k: v for k, v in summary.items() if k != "figures"}
    assert len(results) == 4
    for name, r in results.items():
        assert r["n_samples"] >= 50_000, name
        # the moons' k-means optimum cuts the tips (ARI ~0.97 for the exact method too)
        assert r["ari"] >= 0.95, (name, r)
