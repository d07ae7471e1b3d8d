"""Helpers of the lowering tests: OpenCL C source -> verified IR module and its printed text."""
from __future__ import annotations

import re

from loomcl.frontend import parse_program
from loomcl.ir import print_function, verify_module
from loomcl.lower import lower_program


def lower(source: str):
    """The module of source, verified (every test program passes the IR verifier)."""
    module = lower_program(parse_program(source, filename="test.cl"))
    verify_module(module)
    return module


def ir(source: str, function: str | None = None) -> str:
    """The printed IR of one function of source (the only or the named one)."""
    module = lower(source)
    f = module.functions[function] if function else next(iter(module.functions.values()))
    return print_function(f)


def kernel_ir(body: str, params: str = "__global int *out") -> str:
    """The IR of `kernel void k(params) { body }`."""
    return ir(f"__kernel void k({params}) {{\n{body}\n}}", "k")


def ops(text: str) -> list[str]:
    """The instruction words of printed IR, in order (`%x = add ...` -> 'add')."""
    result = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.endswith(":") or line.startswith(("kernel", "func", "local", "}")):
            continue
        result.append(re.sub(r"^%\S+ = ", "", line).split()[0])
    return result


def blocks(text: str) -> list[str]:
    return [line[:-1] for line in text.splitlines() if re.match(r"^[\w.]+:$", line)]
