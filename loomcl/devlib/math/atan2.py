"""Vectorizable float atan2, written in LLVM IR in float throughout (atan, asin and acos stay in double:
devlib/math/inverse_trig.py). Float lanes keep the full vector width and pay one float division per
lane, where the double code paid three double divisions on half as many lanes.

atan2(y, x): a = min(|x|, |y|) / max(|x|, |y|) in [0, 1] (0/0 taken as 0, inf/inf as 1, so the C99
cases of zeros and infinities fall out), atan a = a P(a^2) with P of degree 9 (fit relative error
2^-29), pi/2 minus it where |y| > |x|, pi minus that where x has its sign bit set, with the sign of y;
pi/2 and pi are split in two floats so each subtraction rounds once. Polynomial fitted for loomcl by
weighted least squares at Chebyshev nodes. OpenCL 1.2 allows 6 ulp; measured: under 2 ulp
(tests/e2e/test_math_double.py).
"""
from __future__ import annotations

import math

import numpy as np

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .libm import _Writer

SUPPORTED = {M.ATAN2}

_ATAN_OVER_A = (-0.0017111374366133233, 0.010533082366706914, -0.03043831164815196, 0.05717845682091686,
                -0.08355068435506664, 0.10934234989736173, -0.14260394788084724, 0.19998113468627482,
                -0.33333277788070165, 1.0)


def _split(value: float) -> tuple[float, float]:
    """value as a float head plus a float tail."""
    head = float(np.float32(value))
    return head, value - head


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _Writer(module, t)
        body.lines.append(f"  ret {body.F} {_atan2(body, '%x', '%y')}")
        module.declare(name, body.text(name, ("%x", "%y")))
    return f"@{name}"


def _minus(w: _Writer, value: float, r: str) -> str:
    head, tail = _split(value)
    return w.op(f"fadd {w.F} {w.op(f'fsub {w.F} {w.f(head)}, {r}')}, {w.f(tail)}")


def _atan2(w: _Writer, y: str, x: str) -> str:
    ay, ax = w.call("fabs", y), w.call("fabs", x)
    low, high = w.call("minnum", ax, ay), w.call("maxnum", ax, ay)
    a = w.op(f"fdiv {w.F} {low}, {high}")
    infinite = w.f(math.inf)
    both_infinite = w.op(f"and {w.B} {w.fcmp('oeq', ax, infinite)}, {w.fcmp('oeq', ay, infinite)}")
    a = w.select(both_infinite, w.f(1.0), a)
    a = w.select(w.fcmp("oeq", low, w.f(0.0)), w.f(0.0), a)
    r = w.op(f"fmul {w.F} {a}, {w.horner(w.op(f'fmul {w.F} {a}, {a}'), _ATAN_OVER_A)}")
    r = w.select(w.fcmp("ogt", ay, ax), _minus(w, math.pi / 2, r), r)
    negative_x = w.op(f"icmp slt {w.I} {w.op(f'bitcast {w.F} {x} to {w.I}')}, {w.i(0)}")
    r = w.select(negative_x, _minus(w, math.pi, r), r)
    r = w.call("copysign", r, y)
    return w.select(w.fcmp("uno", x, y), w.op(f"fadd {w.F} {x}, {y}"), r)
