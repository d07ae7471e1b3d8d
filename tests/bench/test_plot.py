"""--plot writes a PNG (skipped without matplotlib); without matplotlib the message says how to get it."""
import pytest

from loomcl.bench import plot

from .helpers import make_limits, make_row


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    rows = [make_row("a", {"loomcl": [1.0], "PoCL": [2.0]}, flops=1e7),
            make_row("b", {"loomcl": "skipped", "PoCL": [2.0]}),
            make_row("c", {"loomcl": [3.0], "PoCL": [2.0]}, flops=1e9)]
    path = tmp_path / "bench.png"
    plot.plot(str(path), rows, ["loomcl", "PoCL"], make_limits())
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_matplotlib_message(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert "pip install" in plot.require_matplotlib()


def test_the_ablation_plot_writes_a_png_beside_the_first(tmp_path):
    pytest.importorskip("matplotlib")
    from loomcl.bench import plot_ablation

    from .helpers import make_record
    record = make_record({"a": {"loomcl": [1.0], "loomcl[novec]": [2.0], "loomcl[nofold]": [0.5]},
                          "b": {"loomcl": "skipped", "loomcl[novec]": "skipped", "loomcl[nofold]": "skipped"}},
                         [("novec", "-loomcl-no-parallel-metadata", ""), ("nofold", "-loomcl-no-fold-guards", "")])
    path = plot_ablation.path_beside(str(tmp_path / "bench.png"))
    assert path == str(tmp_path / "bench-ablation.png")
    plot_ablation.plot(path, record, 0.1)
    assert (tmp_path / "bench-ablation.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
