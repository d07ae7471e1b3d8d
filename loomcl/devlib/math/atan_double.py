"""Vectorizable double-precision atan, atan2, asin and acos, written in LLVM IR (branch-free; see
devlib/math/libm.py for why we write our own).

All four are atan2(y, x): t = min(|y|, |x|) / max(|y|, |x|) in [0, 1], c = rint(8t)/8 and
u = (t - c)/(1 + t c), |u| <= 1/16 (t - c is exact), so atan t = atan c + atan u with atan c from a
nine-entry double-double table (a gather when vectorized) and atan u = u + u^3 Q(u^2), Q of degree 4
(relative error 2^-62, fitted for loomcl by weighted least squares at Chebyshev nodes). The octant
puts the result at K + s atan t with K in {0, pi/2, pi} and s = +-1 (pi/2 - a where |y| > |x|,
pi - a where x has its sign bit set), summed as a double-double; the sign of y is copied on last.
atan x = atan2(x, 1); asin x = atan2(x, sqrt((1 - x)(1 + x))) and acos x = atan2(sqrt(...), x), the
product form keeping 1 - x^2 accurate near |x| = 1. Special values of C99 Annex F: atan2 of two
zeros gives +-0 or +-pi by the sign bit of x, of two infinities +-pi/4 or +-3pi/4; NaN gives NaN, and
asin and acos outside [-1, 1] too (the square root of a negative number). Within about 1.5 ulp
(measured in tests/e2e/test_math_double.py; OpenCL 1.2 allows 5 for atan, 6 for atan2, 4 for asin
and acos).
"""
from __future__ import annotations

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .pow_double import _DoublePowWriter

SUPPORTED = {M.ATAN, M.ATAN2, M.ASIN, M.ACOS}

_ATAN_POLY = (-0.09001814721071573, 0.1111072528048351, -0.1428571352541553, 0.19999999999344253,
              -0.3333333333333315)
# atan(k/8), k = 0..8, as head and tail (mpmath at 200 bits)
_ATAN_EIGHTHS = ((0.0, 0.0), (0.12435499454676144, -3.1253241424539383e-18),
                 (0.24497866312686414, 1.0698755618734451e-17), (0.35877067027057225, -2.4623815582638635e-17),
                 (0.4636476090008061, 2.2698777452961687e-17), (0.5585993153435624, -5.4556305485916264e-18),
                 (0.6435011087932844, 1.5834785051444286e-17), (0.7188299996216245, -2.1478388444456983e-17),
                 (0.7853981633974483, 3.061616997868383e-17))
_PIO2 = (1.5707963267948966, 6.123233995736766e-17)
_PI = (3.141592653589793, 1.2246467991473532e-16)
_TABLE = "loomcl.atan_eighths"


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f64


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _AtanWriter(module, t)
        params = ("%x", "%y") if function == M.ATAN2 else ("%x",)
        body.lines.append(f"  ret {body.F} {getattr(body, function.value)()}")
        module.declare(name, body.text(name, params))
    return f"@{name}"


def _table_text() -> str:
    values = [pair[column] for column in range(2) for pair in _ATAN_EIGHTHS]
    items = ", ".join(f"double {v!r}" for v in values)
    return f"@{_TABLE} = private unnamed_addr constant [{len(values)} x double] [{items}], align 64"


class _AtanWriter(_DoublePowWriter):

    def eighth(self, column: int, index: str) -> str:
        self.module.declare(_TABLE, _table_text())
        at = self.op(f"add {self.I} {index}, {self.i(column * len(_ATAN_EIGHTHS))}")
        return self.load_gather(_TABLE, at)

    def atan2_of(self, y: str, x: str) -> str:
        ay, ax = self.call("fabs", y), self.call("fabs", x)
        swap = self.fcmp("ogt", ay, ax)
        t = self.dop("fdiv", self.select(swap, ax, ay), self.select(swap, ay, ax))
        # 0/0 and inf/inf: the octant's edge, 0 or 1
        both_infinite = self.fcmp("oeq", ax, self.d(float("inf")))
        neither_nan = self.fcmp("ord", x, y)
        t = self.select(self.op(f"and {self.B} {self.fcmp('uno', t, t)}, {neither_nan}"),
                        self.select(both_infinite, self.d(1.0), self.d(0.0)), t)
        eighths = self.call("rint", self.dop("fmul", t, self.d(8.0)))
        c = self.dop("fmul", eighths, self.d(0.125))
        u = self.dop("fdiv", self.dop("fsub", t, c), self.fma(t, c, self.d(1.0)))
        z = self.dop("fmul", u, u)
        atan_u = self.fma(self.dop("fmul", u, z), self.horner(z, _ATAN_POLY, t=self.F), u)
        index = self.op(f"fptosi {self.F} {self.select(self.fcmp('uno', t, t), self.d(0.0), eighths)} to {self.I}")
        c_head, c_tail = self.eighth(0, index), self.eighth(1, index)
        x_negative = self.fcmp("olt", self.call("copysign", self.d(1.0), x), self.d(0.0))
        # K + s (c_head + c_tail + atan_u): s = -1 when exactly one of swap and x_negative holds
        s = self.select(self.op(f"xor {self.B} {swap}, {x_negative}"), self.d(-1.0), self.d(1.0))
        k_head = self.select(x_negative, self.select(swap, self.d(_PIO2[0]), self.d(_PI[0])),
                             self.select(swap, self.d(_PIO2[0]), self.d(0.0)))
        k_tail = self.select(x_negative, self.select(swap, self.d(_PIO2[1]), self.d(_PI[1])),
                             self.select(swap, self.d(_PIO2[1]), self.d(0.0)))
        head, lost = self.two_sum(k_head, self.dop("fmul", s, c_head))
        tail = self.fma(s, self.dop("fadd", c_tail, atan_u), self.dop("fadd", k_tail, lost))
        result = self.call("copysign", self.dop("fadd", head, tail), y)
        return self.select(self.fcmp("uno", x, y), self.dop("fadd", x, y), result)

    def atan(self) -> str:
        return self.atan2_of("%x", self.d(1.0))

    def atan2(self) -> str:
        return self.atan2_of("%x", "%y")

    def cosine_side(self) -> str:
        """sqrt(1 - x^2) as sqrt((1 - x)(1 + x)); NaN for |x| > 1."""
        one_minus, one_plus = self.dop("fsub", self.d(1.0), "%x"), self.dop("fadd", self.d(1.0), "%x")
        return self.call("sqrt", self.dop("fmul", one_minus, one_plus))

    def asin(self) -> str:
        return self.atan2_of("%x", self.cosine_side())

    def acos(self) -> str:
        return self.atan2_of(self.cosine_side(), "%x")
