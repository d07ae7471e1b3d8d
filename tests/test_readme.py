"""Every command the README shows does what the README says it does.

`shown_commands()` collects each concrete command of the README (inline code and shell blocks, not
the `FILE [...]` usage summaries); `test_every_shown_command_is_run` fails when a new one appears
that no test here runs, so the README cannot drift from what loomcl does.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PROGRAM = re.compile(r"^((?:[A-Z_]+=\S+ )*)(loomcl|python3) ")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def shown_commands() -> list[str]:
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", README, flags=re.S))
    in_blocks = [line.split("#")[0].strip() for b in blocks("sh") for line in b.splitlines()]
    commands = [c for c in inline + in_blocks if PROGRAM.match(c) and not re.search(r"FILE|\[|\||\bN\b", c)]
    return list(dict.fromkeys(commands))


def run(command: list[str], cwd=ROOT, timeout=600, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def run_shown(command: str, **kwargs) -> subprocess.CompletedProcess:
    """A shown command as the README's reader would type it (environment prefix included)."""
    env, program, rest = PROGRAM.match(command).group(1), PROGRAM.match(command).group(2), command.split()
    words = rest[len(env.split()):]
    variables = dict(word.split("=", 1) for word in env.split())
    argv = [sys.executable, "-m", "loomcl", *words[1:]] if program == "loomcl" else [sys.executable, *words[1:]]
    return run(argv, env={**variables, **kwargs.pop("env", {})}, **kwargs)


# Commands run elsewhere: by CI itself, or below with smaller sizes.
RUN_BY_CI = {"python3 -m pip install '.[test]' && loomcl demo", "python3 -m pytest -q"}
SHRUNK = ("loomcl bench", "python3 -m tests.difftest")


def test_the_first_commands_install_and_test_as_ci_does():
    first = blocks("sh")[0].splitlines()
    assert first[0].startswith("python3 -m pip install '.[test]' && loomcl demo")
    assert first[1].startswith("python3 -m pytest -q")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'test = [' in pyproject and 'loomcl = "loomcl.cli:main"' in pyproject
    ci = (ROOT / ".ci" / "run").read_text()
    assert "-e '.[test]'" in ci and "python -m pytest -q" in ci


def test_the_usage_example_is_the_example_file():
    (example,) = blocks("python")
    assert example == (ROOT / "examples" / "reduce.py").read_text()


def outputs_of_the_usage_example(stdout: str) -> tuple[float, float, list[str]]:
    device, host = map(float, re.search(r"sum on the device (\S+), numpy (\S+)", stdout).groups())
    return device, host, re.findall(r"^launch \d: kernel [\d.]+ ms, launch \+ copy back [\d.]+ ms$", stdout, re.M)


@pytest.mark.parametrize("command", [c for c in shown_commands() if "examples/reduce.py" in c])
def test_the_usage_example_runs_and_reduces_correctly(command):
    result = run_shown(command)
    assert result.returncode == 0, result.stderr
    device, host, launches = outputs_of_the_usage_example(result.stdout)
    assert abs(device - host) < 1e-4 * host
    assert len(launches) == 3 and re.search(r"^build: [\d.]+ ms$", result.stdout, re.M)


def test_the_work_group_form_listing_is_what_the_command_prints():
    (command,) = [c for c in shown_commands() if "--emit wg" in c]
    result = run_shown(command)
    assert result.returncode == 0, result.stderr
    listing = re.search(r"```\n(kernel @reduce.*?)```", README, re.S).group(1)
    assert result.stdout == listing


def test_loomcl_demo_checks_its_kernels():
    result = run_shown("loomcl demo")
    assert result.returncode == 0, result.stderr
    assert "all results match numpy" in result.stdout


def test_loomcl_info_names_the_device_in_words():
    result = run_shown("loomcl info")
    assert result.returncode == 0
    assert re.search(r"^ +type +CPU$", result.stdout, re.M) and "max work-group size" in result.stdout


def test_emit_llvm_shows_the_kernel():
    (command,) = [c for c in shown_commands() if "--emit llvm" in c]
    result = run_shown(command)
    assert result.returncode == 0, result.stderr
    assert "define" in result.stdout and "reduce" in result.stdout


def test_print_after_prints_the_pass_to_stderr():
    (command,) = [c for c in shown_commands() if "--print-after" in c]
    result = run_shown(command)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("; IR after fold-local-id-guards\nkernel @reduce(")


ICD_LINE = "export OCL_ICD_VENDORS=$(python3 -m loomcl icd | tail -1)"


@pytest.mark.parametrize("command", [c for c in shown_commands() if "pyopencl_arrays.py" in c])
def test_the_pyopencl_example_runs_on_loomcl_through_the_icd(command):
    pytest.importorskip("pyopencl")
    (block,) = [b for b in blocks("sh") if ICD_LINE in b]
    assert command in block     # the README's three lines, run here as a reader's shell runs them
    built = run([sys.executable, "-m", "loomcl", "icd"])
    assert built.returncode == 0, built.stderr
    vendor = built.stdout.splitlines()[-1]     # what `| tail -1` keeps
    assert vendor.endswith("loomcl.icd") and Path(vendor).read_text().strip().endswith(".so")
    result = run_shown(command, env={"OCL_ICD_VENDORS": vendor})
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("platform: loomcl, device: ")
    assert result.stdout.count("matches numpy") == 4 and "DIFFERS" not in result.stdout


@pytest.mark.parametrize("command", [c for c in shown_commands() if c.startswith("loomcl bench --only icd")])
def test_the_icd_bench_command_runs_quick(command, tmp_path):
    words = command.split()[2:]
    result = run([sys.executable, "-m", "loomcl", "bench", *words, "--quick", "--repeat", "1", "--no-pocl"],
                 cwd=tmp_path, timeout=900)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^launch: empty kernel, 1 work-item +- +[\d.]+ +[\d.]+", result.stdout, re.M), result.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [c for c in shown_commands()
                                     if c.startswith("loomcl bench") and "--only icd" not in c])
def test_the_bench_commands_run_quick(command, tmp_path):
    words = command.split()[2:]
    result = run([sys.executable, "-m", "loomcl", "bench", *words, "--quick", "--only", "copyBuffer",
                  "--repeat", "1", "--no-pocl"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^copyBuffer .* ms", result.stdout, re.M) or "copyBuffer" in result.stdout
    assert list(tmp_path.iterdir()) == []  # writes files only when asked


@pytest.mark.parametrize("line", [c for c in shown_commands() if "tests.difftest" in c])
def test_the_differential_tester_command_runs(line, tmp_path):
    command = line.split()
    command[command.index("--programs") + 1] = "3"
    command[command.index("--save") + 1] = str(tmp_path / "found")
    result = run([sys.executable, *command[1:]])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "difftest: 3 programs" in result.stdout and "0 findings" in result.stdout


@pytest.mark.parametrize("command", [c for c in shown_commands() if c.startswith("loomcl cache")])
def test_the_cache_commands_run(command, tmp_path):
    result = run([sys.executable, "-m", "loomcl", *command.split()[1:]], env={"LOOMCL_CACHE_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    expected = f"directory  {tmp_path}\n" if command.endswith("info") else f"removed 0 entries (0 bytes) from {tmp_path}"
    assert expected in result.stdout


def test_every_shown_command_is_run():
    covered = RUN_BY_CI | {"loomcl demo", "loomcl info"}
    tested = ("examples/reduce.py", "examples/pyopencl_arrays.py", "-m loomcl icd", "--emit wg", "--emit llvm", "--print-after",
              "loomcl cache", *SHRUNK)
    untested = [c for c in shown_commands() if c not in covered and not any(t in c for t in tested)]
    assert untested == [], f"README commands no test runs: {untested}"
