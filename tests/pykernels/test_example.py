"""examples/python_reduce.py, the example of docs/python-kernels.md and the README, runs and sums right."""
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_sums_as_numpy_does():
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "python_reduce.py")], capture_output=True,
                            text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    got, expected = map(float, re.fullmatch(r"sum (\S+), numpy (\S+)\n", result.stdout).groups())
    assert abs(got - expected) <= 1e-5 * expected


def test_the_docs_show_the_example_file():
    docs = (ROOT / "docs" / "python-kernels.md").read_text()
    example = (ROOT / "examples" / "python_reduce.py").read_text()
    kernel = example[example.index("@cl.kernel"):example.index('\n\nif __name__')]
    assert kernel in docs
