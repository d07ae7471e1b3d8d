"""Vectorizable single-precision atan, asin and acos, evaluated in double and rounded to float once (the
writer is devlib/math/wide.py's; float atan2 is devlib/math/atan2.py, in float).

atan |x|: a = |x|, or 1/a above 1 (atan a = pi/2 - atan(1/a)); above tan(pi/12) = 2 - sqrt 3 the
addition formula atan a = pi/6 + atan((a sqrt 3 - 1)/(a + sqrt 3)) brings the argument to
|t| <= 2 - sqrt 3, where the Taylor series t - t^3/3 + t^5/5 - ... to t^17 is within 2^-36.
Inside, atan2(y, x) = atan(|y|/|x|) (0/0 taken as 0, inf/inf as 1, so the C99 cases of zeros and infinities
fall out), pi minus it when x has its sign bit set, with the sign of y. asin x = atan2(x,
sqrt((1 - x)(1 + x))) and acos x = atan2(sqrt((1 - x)(1 + x)), x): exact products in double, NaN for
|x| > 1 from the square root.
"""
from __future__ import annotations

import math

from ...ir import types as ty
from ...ir.instructions import MathFunction as M
from ...llvmtext.module import ModuleText
from ...llvmtext.types import intrinsic_suffix
from .wide import _WideWriter

SUPPORTED = {M.ATAN, M.ASIN, M.ACOS}

_ATAN_TAYLOR = tuple((-1) ** k / (2 * k + 1) for k in range(8, -1, -1))  # in t^2, times t


def supports(function: M, t: ty.Type) -> bool:
    return function in SUPPORTED and ty.scalar_of(t) == ty.f32


def libm_function(module: ModuleText, function: M, t: ty.Type) -> str:
    name = f"loomcl.{function.value}.{intrinsic_suffix(t)}"
    if name not in module.declarations:
        body = _InverseTrigWriter(module, t)
        result = getattr(body, function.value)(body.widen("%x"))
        result = body.select(body.fcmp("uno", "%x", "%x"), body.op(f"fadd {body.F} %x, %x"),
                             body.op(f"fptrunc {body.D} {result} to {body.F}"))
        body.lines.append(f"  ret {body.F} {result}")
        module.declare(name, body.text(name))
    return f"@{name}"


class _InverseTrigWriter(_WideWriter):

    def atan_positive(self, a: str) -> str:
        """atan a for a >= 0 (inf included)."""
        inverted = self.dcmp("ogt", a, self.d(1.0))
        a = self.dselect(inverted, self.dop("fdiv", self.d(1.0), a), a)
        shifted = self.dcmp("ogt", a, self.d(2 - math.sqrt(3)))
        moved = self.dop("fdiv", self.fma(a, self.d(math.sqrt(3)), self.d(-1.0), t=self.D),
                         self.dop("fadd", a, self.d(math.sqrt(3))))
        t = self.dselect(shifted, moved, a)
        series = self.dop("fmul", t, self.horner(self.dop("fmul", t, t), _ATAN_TAYLOR, t=self.D))
        r = self.dop("fadd", series, self.dselect(shifted, self.d(math.pi / 6), self.d(0.0)))
        return self.dselect(inverted, self.dsub(self.d(math.pi / 2), r), r)

    def atan(self, x: str) -> str:
        return self.with_sign_of(self.atan_positive(self.call("fabs", x, t=self.D)), x)

    def atan2(self, y: str, x: str) -> str:
        ay, ax = self.call("fabs", y, t=self.D), self.call("fabs", x, t=self.D)
        ratio = self.dop("fdiv", ay, ax)
        both_infinite = self.op(f"and {self.B} {self.dcmp('oeq', ay, self.d(math.inf))}, "
                                f"{self.dcmp('oeq', ax, self.d(math.inf))}")
        ratio = self.dselect(both_infinite, self.d(1.0), ratio)
        ratio = self.dselect(self.dcmp("oeq", ay, self.d(0.0)), self.d(0.0), ratio)
        r = self.atan_positive(ratio)
        x_bits = self.op(f"bitcast {self.D} {x} to {self.L}")
        negative_x = self.op(f"icmp slt {self.L} {x_bits}, {self.l(0)}")
        r = self.dselect(negative_x, self.dsub(self.d(math.pi), r), r)
        return self.with_sign_of(r, y)

    def cosine_side(self, x: str) -> str:
        return self.call("sqrt", self.dop("fmul", self.dsub(self.d(1.0), x), self.dop("fadd", self.d(1.0), x)),
                         t=self.D)

    def asin(self, x: str) -> str:
        return self.atan2(x, self.cosine_side(x))

    def acos(self, x: str) -> str:
        return self.atan2(self.cosine_side(x), x)
