"""Math functions that have neither an LLVM intrinsic nor our own implementation at a type: calls of the C
library (glibc's libm, already loaded in the process that runs the JIT), one call per lane for vectors.
Today no function reaches it: every one in _C_NAMES has its own code at float and double (glibc
documents these within 1-3 ulp of the exact result, inside OpenCL's bounds, should one be dropped).

These calls do not vectorize (a work-item loop around them runs one lane at a time); the functions
with their own branch-free code in llvm_libm_*.py reach this module only where it is missing.
"""
from __future__ import annotations

from ..ir import types as ty
from ..ir.instructions import MathFunction as M
from .llvm_module import ModuleText
from .llvm_types import intrinsic_suffix, llvm_type

# the C name of the double function; the float one adds "f"
_C_NAMES = {
    M.EXP10: "exp10", M.EXPM1: "expm1", M.LOG1P: "log1p", M.CBRT: "cbrt", M.HYPOT: "hypot",
    M.SINH: "sinh", M.COSH: "cosh", M.TANH: "tanh", M.ASINH: "asinh", M.ACOSH: "acosh", M.ATANH: "atanh",
    M.ASIN: "asin", M.ACOS: "acos", M.ATAN: "atan", M.ATAN2: "atan2", M.ERF: "erf", M.ERFC: "erfc",
    M.TGAMMA: "tgamma", M.LGAMMA: "lgamma",
}


def supports(function: M, t: ty.Type) -> bool:
    return function in _C_NAMES and ty.scalar_of(t) in (ty.f32, ty.f64)


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    """`@name` of the C function, or of a wrapper that calls it lane by lane for a vector type."""
    scalar = ty.scalar_of(t)
    c_name = _C_NAMES[function] + ("f" if scalar == ty.f32 else "")
    s = llvm_type(scalar)
    params = ", ".join([s] * function.arity)
    module.declare(c_name, f"declare {s} @{c_name}({params}) nounwind willreturn memory(none)")
    if not isinstance(t, ty.VectorType):
        return f"@{c_name}"
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        module.declare(name, _lane_by_lane(name, c_name, s, llvm_type(t), t.count, function.arity))
    return f"@{name}"


def _lane_by_lane(name: str, c_name: str, s: str, v: str, lanes: int, arity: int) -> str:
    params = [f"%a{k}" for k in range(arity)]
    lines = [f"define internal {v} @{name}({', '.join(f'{v} {p}' for p in params)}) #0 {{", "entry:"]
    result = "undef"
    for lane in range(lanes):
        for p in params:
            lines.append(f"  {p}.{lane} = extractelement {v} {p}, i32 {lane}")
        args = ", ".join(f"{s} {p}.{lane}" for p in params)
        lines.append(f"  %r{lane} = call {s} @{c_name}({args})")
        lines.append(f"  %v{lane} = insertelement {v} {result}, {s} %r{lane}, i32 {lane}")
        result = f"%v{lane}"
    return "\n".join(lines + [f"  ret {v} {result}", "}", ""])
