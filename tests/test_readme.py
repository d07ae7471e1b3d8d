"""Every command the README and docs/ show does what they say it does.

`shown_commands()` collects each concrete command of the README and of every page of docs/ (inline
code and shell blocks, not the `FILE [...]` usage summaries); `test_every_shown_command_is_run` fails
when a new one appears that no test here runs, so the documentation cannot drift from what loomcl does.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PAGES = {path.name: path.read_text() for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}
TEXT = "\n".join(PAGES.values())  # every page, where commands and listings are looked for
README_LIMIT = 12 * 1024  # a README read on a few screens; the rest is in docs/
PROGRAM = re.compile(r"^((?:[A-Z_]+=\S+ )*)(loomcl|python3) ")


def blocks(language: str, text: str = README) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def shown_commands() -> list[str]:
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", TEXT, flags=re.S))
    in_blocks = [line.split("#")[0].strip() for b in blocks("sh", TEXT) for line in b.splitlines()]
    commands = [c for c in inline + in_blocks if PROGRAM.match(c) and not re.search(r"FILE|\[|\||\bN\b", c)]
    return list(dict.fromkeys(commands))


def run(command: list[str], cwd=ROOT, timeout=600, env=None) -> subprocess.CompletedProcess:
    """`command` with this checkout's loomcl first on the path (installed or not: the installed
    wheel is .ci/check_install's to test)."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": path, **(env or {})})


def run_shown(command: str, **kwargs) -> subprocess.CompletedProcess:
    """A shown command as the README's reader would type it (environment prefix included)."""
    env, program, rest = PROGRAM.match(command).group(1), PROGRAM.match(command).group(2), command.split()
    words = rest[len(env.split()):]
    variables = dict(word.split("=", 1) for word in env.split())
    argv = [sys.executable, "-m", "loomcl", *words[1:]] if program == "loomcl" else [sys.executable, *words[1:]]
    return run(argv, env={**variables, **kwargs.pop("env", {})}, **kwargs)


# Commands run elsewhere: by CI itself (.ci/run), or below with smaller sizes.
RUN_BY_CI = {"python3 -m pytest -q -n auto", "python3 -m pytest -q -m slow", "python3 -m pytest -q -m icd_suite",
             "python3 -m pip install pyopencl mako"}
SHRUNK = ("loomcl bench", "python3 -m tests.difftest")


def test_the_first_commands_install_and_test_as_ci_does():
    first = blocks("sh")[0].splitlines()
    assert first[0].startswith("python3 -m venv .venv && . .venv/bin/activate && python3 -m pip install '.[test]' "
                               "&& loomcl demo")
    assert first[1].startswith("python3 -m pytest -q")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'test = [' in pyproject and 'loomcl = "loomcl.cli:main"' in pyproject
    ci = (ROOT / ".ci" / "run").read_text()
    assert "'.[test]'" in ci and "python -m pytest -q -n auto\n" in ci and ".ci/check_install" in ci
    for tier in ("slow", "icd_suite"):
        assert tier in ci and f"python3 -m pytest -q -m {tier}" in README


# The README and the pages made from its long sections: written for users, without the project's
# internal references.
USER_PAGES = ("README.md", "api.md", "language.md", "icd.md", "debugging.md", "internals.md", "performance.md",
              "ablation.md")


def test_the_readme_fits_on_a_few_screens_and_names_no_internals():
    assert len(README.encode()) <= README_LIMIT
    for page, text in ((page, PAGES[page]) for page in USER_PAGES):
        assert not re.search(r"\bissue \d|\bseed 0\d\d|\.\./shared", text), page


def test_every_link_to_a_page_of_docs_leads_to_one():
    for page, text in PAGES.items():
        for target in re.findall(r"\]\(((?:docs/)?[\w-]+\.(?:md|png))(?:#[\w-]+)?\)", text):
            base = ROOT if page == "README.md" else ROOT / "docs"
            assert (base / target).exists() or target == "docs/architecture.md", f"{page} links to {target}"


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
    listing = re.search(r"```\n(kernel @reduce.*?)```", TEXT, re.S).group(1)
    assert result.stdout == listing


def test_loomcl_demo_checks_its_kernels():
    result = run_shown("loomcl demo")
    assert result.returncode == 0, result.stderr
    assert "all results match numpy" in result.stdout


def test_loomcl_help_names_every_command():
    result = run_shown("loomcl --help")
    assert result.returncode == 0, result.stderr
    assert all(command in result.stdout for command in ("info", "demo", "build", "bench", "icd", "cache"))


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
    assert result.stderr.startswith("; kernel 'reduce': local size 256,1,1 (--local-size)\n"
                                    "; IR after fold-local-id-guards\nkernel @reduce(")


ICD_LINE = "export OCL_ICD_VENDORS=$(python3 -m loomcl icd | tail -1)"


@pytest.mark.parametrize("command", [c for c in shown_commands() if "pyopencl_arrays.py" in c])
def test_the_pyopencl_example_runs_on_loomcl_through_the_icd(command):
    pytest.importorskip("pyopencl")
    (block,) = [b for b in blocks("sh") if ICD_LINE in b]  # the README's (docs/icd.md repeats it)
    assert command in block     # the README's three lines, run here as a reader's shell runs them
    built = run([sys.executable, "-m", "loomcl", "icd"])
    assert built.returncode == 0, built.stderr
    vendor = built.stdout.splitlines()[-1]     # what `| tail -1` keeps
    assert vendor.endswith("loomcl.icd") and Path(vendor).read_text().strip().endswith(".so")
    result = run_shown(command, env={"OCL_ICD_VENDORS": vendor})
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("platform: loomcl, device: ")
    assert result.stdout.count("matches numpy") == 4 and "DIFFERS" not in result.stdout
    assert "clean-up operation failed" not in result.stderr  # pyopencl's releases at exit, after Python's end


@pytest.mark.slow  # the bench's ICD section: minutes
@pytest.mark.parametrize("command", [c for c in shown_commands() if c.startswith("loomcl bench --only icd")])
def test_the_icd_bench_command_runs_quick(command, tmp_path):
    words = command.split()[2:]
    result = run([sys.executable, "-m", "loomcl", "bench", *words, "--quick", "--repeat", "1", "--no-pocl"],
                 cwd=tmp_path, timeout=900)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^launch: empty kernel, 1 work-item +- +[\d.]+ +[\d.]+", result.stdout, re.M), result.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # bench runs
@pytest.mark.parametrize("command", [c for c in shown_commands()
                                     if c.startswith("loomcl bench") and "--only icd" not in c])
def test_the_bench_commands_run_quick(command, tmp_path):
    words = command.split()[2:]
    result = run([sys.executable, "-m", "loomcl", "bench", *words, "--quick", "--only", "copyBuffer",
                  "--repeat", "1", "--no-pocl"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    if "--compile" in words:   # the compile-time section alone
        assert result.stdout.startswith("Compile time: cold build + first launch"), result.stdout
    else:
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
    covered = RUN_BY_CI | {"loomcl demo", "loomcl info", "loomcl icd", "loomcl --help"}  # (`python3 -m loomcl icd` is run below)
    tested = ("examples/reduce.py", "examples/pyopencl_arrays.py", "-m loomcl icd", "--emit wg", "--emit llvm", "--print-after",
              "loomcl cache", *SHRUNK)
    untested = [c for c in shown_commands() if c not in covered and not any(t in c for t in tested)]
    assert untested == [], f"README commands no test runs: {untested}"
