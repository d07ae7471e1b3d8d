"""The geometric builtins (OpenCL C 6.12.5) from lane arithmetic.

dot sums the lane products left to right; length and distance are sqrt(dot), normalize divides by it
and returns a zero vector unchanged (no NaN). The fast_ forms are the same functions: they meet the
fast bounds. Lengths are not rescaled against overflow: a vector with a lane beyond about 1.8e19
(float) gives inf.
"""
from __future__ import annotations

from ..frontend import ast as A
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Value
from .casts import splat

Op = ins.BinaryOpcode


class GeometricLowering:
    """Mixin of FunctionLowerer: needs `self.b`, `self._args` and the vector helpers."""

    def dot_product(self, a: Value, b: Value) -> Value:
        products = self.lanes_of(self.b.binary(Op.FMUL, a, b))
        total = products[0]
        for p in products[1:]:
            total = self.b.binary(Op.FADD, total, p)
        return total

    def _dot(self, e: A.BuiltinCall) -> Value:
        return self.dot_product(*self._args(e))

    def norm(self, x: Value) -> tuple[Value, Value]:
        """(x . x, its square root)."""
        d = self.dot_product(x, x)
        return d, self.b.math(ins.MathFunction.SQRT, [d], d.type)

    def _length(self, e: A.BuiltinCall) -> Value:
        return self.norm(*self._args(e))[1]

    def _distance(self, e: A.BuiltinCall) -> Value:
        return self.norm(self.b.binary(Op.FSUB, *self._args(e)))[1]

    def _normalize(self, e: A.BuiltinCall) -> Value:
        (x,) = self._args(e)
        d, length = self.norm(x)
        is_zero = self.b.compare(ins.Predicate.OEQ, d, splat(d.type, 0.0))
        divisor = self.b.select(is_zero, splat(d.type, 1.0), length)
        if isinstance(x.type, ty.VectorType):
            divisor = self.splat_value(divisor, x.type)
        return self.b.binary(Op.FDIV, x, divisor)

    def _cross(self, e: A.BuiltinCall) -> Value:
        a, b = self._args(e)
        ax, ay, az = self.lanes_of(a)[:3]
        bx, by, bz = self.lanes_of(b)[:3]

        def minus(p, q, r, s):
            return self.b.binary(Op.FSUB, self.b.binary(Op.FMUL, p, q), self.b.binary(Op.FMUL, r, s))

        lanes = [minus(ay, bz, az, by), minus(az, bx, ax, bz), minus(ax, by, ay, bx)]
        if a.type.count == 4:
            lanes.append(splat(a.type.element, 0.0))
        return self.build_vector(a.type, lanes)
