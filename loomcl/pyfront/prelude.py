"""Python's floor division and modulo, as small OpenCL C functions that calls of them inline.

Python rounds an integer quotient toward minus infinity and gives the remainder the sign of the
divisor (`-7 // 2 == -4`, `-7 % 2 == 1`); C truncates toward zero (`-7 / 2 == -3`, `-7 % 2 == -1`).
A kernel written in Python means Python's, so `//` and `%` of signed integers call these; unsigned
operands need no correction (both rules agree) and use C's operators. A float `%` is Python's
too: the remainder of fmod moved into the divisor's sign (a zero takes the divisor's sign).

The functions are written in OpenCL C and compiled by the OpenCL C front-end, only those a kernel
uses, into the kernel's program.
"""
from __future__ import annotations

from ..frontend import parse_program

_INTEGER = """
{t} {floordiv}({t} a, {t} b) {{
    {t} q = a / b;
    return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}}
{t} {mod}({t} a, {t} b) {{
    {t} r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}}
"""
_FLOAT = """
{t} {mod}({t} a, {t} b) {{
    {t} r = fmod(a, b);
    if (r == 0) return copysign(({t})0, b);
    return ((r < 0) != (b < 0)) ? r + b : r;
}}
"""


def helper_names(type_name: str) -> tuple[str, str]:
    """(floor division, modulo) function names for a C scalar type name."""
    return f"__py_floordiv_{type_name}", f"__py_mod_{type_name}"


def helper_functions(type_name: str, is_float: bool) -> list:
    """The typed FunctionDecls of Python's `//` and `%` for one scalar type."""
    floordiv, mod = helper_names(type_name)
    template = _FLOAT if is_float else _INTEGER
    text = template.format(t=type_name, floordiv=floordiv, mod=mod)
    return parse_program(text, filename="<python arithmetic>").functions
