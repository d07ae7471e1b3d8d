"""pyfront/: kernels written in Python, compiled by loomcl's compiler (a second front-end).

    @cl.kernel
    def scale(a: cl.global_ptr(np.float32), s: np.float32):
        a[cl.global_id(0)] *= s

The Python function's syntax tree is translated into OpenCL C's typed AST, checked by the OpenCL C
front-end's own semantic analysis (sema.py), lowered by lower/ into the same kernel IR that OpenCL
C produces, and handed to the compiler driver (driver.compiler.build_from_module): work-group formation,
vectorization, checked mode, code generation, the cache and the runtime are shared, and nothing
after the front-end knows the source was Python.

Modules: decorators (@cl.kernel, launching, specializations), helpers (@cl.func), lang (the device language:
cl.global_id, cl.barrier, cl.local_array, atomics, vector types), types (annotations, numpy <->
OpenCL C types), source (positions in the Python file), program (kernels and helpers to one
program), function / statements / expressions / arithmetic / calls (the translation), names (what
globals mean), prelude (Python's // and % as OpenCL C), sema (sema that accepts checked subtrees),
cli (`loomcl build kernels.py`). docs/python-kernels.md is the user's guide.

Only lang (numpy alone) loads with `import loomcl`; the rest, which needs the compiler's front
half, loads when first used (`cl.kernel`, `cl.global_ptr`, ...).
"""
import importlib

from . import lang
from .lang import *  # noqa: F401,F403 - the device language (lang.__all__)

LAZY = {"kernel": "decorators", "func": "helpers", "PythonKernel": "decorators",
        "PythonFunction": "helpers", "global_ptr": "types", "constant_ptr": "types", "local_ptr": "types",
        "Global": "types", "Constant": "types", "Local": "types", "CompileError": "decorators"}

__all__ = [*LAZY, *lang.__all__]


def __getattr__(name: str):
    module = LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
