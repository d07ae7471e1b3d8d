"""Every command the README shows does what the README says it does."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def run(command: list[str], cwd=ROOT, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_the_first_commands_install_and_test_as_ci_does():
    first = blocks("sh")[0].splitlines()
    assert first[0].startswith("python3 -m pip install '.[test]' && loomcl demo")
    assert first[1].startswith("python3 -m pytest -q")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'test = [' in pyproject and 'loomcl = "loomcl.cli:main"' in pyproject
    ci = (ROOT / ".ci" / "run").read_text()
    assert "-e '.[test]'" in ci and "python -m pytest -q" in ci


def test_loomcl_demo_checks_its_kernels():
    result = run([sys.executable, "-m", "loomcl", "demo"])
    assert result.returncode == 0, result.stderr
    assert "all results match numpy" in result.stdout


def test_the_usage_example_runs_and_reduces_correctly():
    (example,) = blocks("python")
    script = example.replace("print(partial.sum(), a.sum(),", "assert abs(partial.sum() - a.sum()) < 1e-3 * a.sum(); print(")
    result = run([sys.executable, "-c", script])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ms")


def test_the_work_group_form_listing_is_what_the_command_prints(tmp_path):
    (example,) = blocks("python")
    source = re.search(r'SOURCE = """(.*?)"""', example, re.S).group(1)
    (tmp_path / "reduce.cl").write_text(source)
    command = re.search(r"`(loomcl build reduce\.cl [^`]*)`", README).group(1).split()
    result = run([sys.executable, "-m", "loomcl", *command[1:]], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    listing = re.search(r"```\n(kernel @reduce.*?)```", README, re.S).group(1)
    assert result.stdout == listing


def test_loomcl_info_names_the_device():
    result = run([sys.executable, "-m", "loomcl", "info"])
    assert result.returncode == 0 and "loomcl" in result.stdout.lower()


@pytest.mark.parametrize("line", [line for b in blocks("sh")[1:] for line in b.splitlines() if "tests.difftest" in line])
def test_the_differential_tester_command_runs(line, tmp_path):
    command = line.split("#")[0].split()
    command[command.index("--programs") + 1] = "3"
    command[command.index("--save") + 1] = str(tmp_path / "found")
    result = run([sys.executable, *command[1:]])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "difftest: 3 programs" in result.stdout and "0 findings" in result.stdout
