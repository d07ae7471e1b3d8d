"""The Python-kernel twin of a generated program, checked like the OpenCL C one.

`python_rendering.render` writes the program as a module of `@cl.kernel`/`@cl.func` functions; it
is imported from a file (the Python front-end reads a function's source from its file), built by
loomcl/pyfront/, and checked bit for bit against the C program's reference output: by the
work-item reference on the Python program's own work-item form (checked mode: a rendering that
reads out of bounds or races is reported as such), in the interpreter on the work-group form of the
same pipeline configurations as the C program, and natively in the same build-option
configurations. Findings carry the configuration with a `py-` prefix.
"""
from __future__ import annotations

import atexit
import importlib.util
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

from . import check
from .check import Finding
from .generator import PRELUDE, Program
from .python_rendering import NotRendered, render

_DIRECTORY: list = []  # this process's folder of rendered modules (removed at exit)


def _folder() -> Path:
    if not _DIRECTORY:
        folder = tempfile.mkdtemp(prefix="loomcl-difftest-py-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _DIRECTORY.append(Path(folder))
    return _DIRECTORY[0]


def rendering(program: Program) -> str:
    """The Python module text of a generated program; raises NotRendered."""
    return render(PRELUDE + program.source, program.seed)


def load_kernel(text: str, name: str, stem: str):
    """The @cl.kernel `name` of a module text, imported from a file of its own."""
    path = _folder() / f"{stem}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def python_findings(program: Program, case, expected, interp_configs: dict, native_configs: list, native,
                    report=lambda *a: None) -> tuple[str, list]:
    """(what happened, findings): "compared", or "skipped: REASON" when the program has a
    construct Python kernels cannot express."""
    try:
        text = rendering(program)
    except NotRendered as e:
        return f"skipped: {e}", []
    seed = program.seed
    try:
        kernel = load_kernel(text, case.kernel, f"difftest_{seed}")
        module = kernel.compiled_program().module
    except Exception as e:  # noqa: BLE001 - the rendering or pyfront is wrong: either is a finding
        return "compared", [Finding(seed, "py-frontend", "error", f"{type(e).__name__}: {str(e)[:500]}")]
    try:
        got = check.reference(module, case)
    except check.InvalidProgram as e:
        return "compared", [Finding(seed, "py-reference", "invalid program", str(e))]
    findings = [f for f in [check.compare(case, "py-reference", got, expected)] if f]
    for finding in check.interp_check(module, case, expected, interp_configs):
        finding.config = "py-" + finding.config
        findings.append(finding)
    for options in native_configs:
        config = f"py-native:{options or 'default'}"
        report(seed, config)
        try:
            twin = type(kernel)(kernel.function, options=options)
            got = native.launch(SimpleNamespace(**{case.kernel: twin}), case)
        except Exception as e:  # noqa: BLE001
            findings.append(check._error(case, config, e))
            continue
        found = check.compare(case, config, got, expected)
        if found:
            findings.append(found)
    return "compared", findings
