"""The geometric builtins (OpenCL C 6.12.5) from lane arithmetic.

dot sums the lane products left to right. length, distance and normalize first scale the vector by a
power of two that brings its largest lane near 1 (exact), so that squares neither overflow (a float
lane of 1e30 has a finite length) nor underflow to nothing (subnormal lanes keep their digits); the
length is then scaled back, again exactly. Branch-free, so it vectorizes across work-items. normalize
returns a zero vector unchanged (no NaN). The fast_ forms are the same functions: they meet the fast
bounds.
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

    def scaled(self, x: Value) -> tuple[Value, Value]:
        """(x * 2^-k, 2^k) with 2^k near x's largest lane magnitude: both factors are exact powers."""
        element = x.type.element if isinstance(x.type, ty.VectorType) else x.type
        bits_type, mantissa, top = (ty.i32, 23, 254) if element == ty.f32 else (ty.i64, 52, 2046)
        largest = None
        for lane in self.lanes_of(x):
            magnitude = self.b.math(ins.MathFunction.FABS, [lane], element)
            largest = magnitude if largest is None else self.b.math(ins.MathFunction.FMAX, [largest, magnitude], element)
        bits = self.b.cast(ins.CastOpcode.BITCAST, largest, bits_type)
        exponent = self.b.binary(Op.LSHR, bits, splat(bits_type, mantissa))
        # 1 <= exponent <= top - 1, so that both 2^(bias - e) and 2^(e - bias) are normal numbers
        exponent = self.b.math(ins.MathFunction.UMAX, [exponent, splat(bits_type, 1)], bits_type)
        exponent = self.b.math(ins.MathFunction.UMIN, [exponent, splat(bits_type, top - 1)], bits_type)
        down = self.b.binary(Op.SHL, self.b.binary(Op.SUB, splat(bits_type, top), exponent), splat(bits_type, mantissa))
        up = self.b.binary(Op.SHL, exponent, splat(bits_type, mantissa))
        down, up = (self.b.cast(ins.CastOpcode.BITCAST, v, element) for v in (down, up))
        if isinstance(x.type, ty.VectorType):
            return self.b.binary(Op.FMUL, x, self.splat_value(down, x.type)), up
        return self.b.binary(Op.FMUL, x, down), up

    def norm(self, x: Value) -> tuple[Value, Value, Value]:
        """(y, scale, |y|) with y = x / scale as by `scaled`: the length of x is |y| * scale."""
        y, scale = self.scaled(x)
        return y, scale, self.b.math(ins.MathFunction.SQRT, [self.dot_product(y, y)], scale.type)

    def length_of(self, x: Value) -> Value:
        _, scale, length = self.norm(x)
        return self.b.binary(Op.FMUL, length, scale)

    def _length(self, e: A.BuiltinCall) -> Value:
        return self.length_of(*self._args(e))

    def _distance(self, e: A.BuiltinCall) -> Value:
        return self.length_of(self.b.binary(Op.FSUB, *self._args(e)))

    def _normalize(self, e: A.BuiltinCall) -> Value:
        """y / |y|; a zero vector comes back unchanged, and infinite lanes become ±1, the others ±0
        (the direction of a vector with infinite lanes), as OpenCL C 2.0 specifies."""
        (x,) = self._args(e)
        y, _, length = self.norm(x)
        infinite = self.b.compare(ins.Predicate.OEQ, length, splat(length.type, float("inf")))
        y = self.b.select(self._lanes_like(infinite, y), self._infinities_as_units(y), y)
        length = self.b.math(ins.MathFunction.SQRT, [self.dot_product(y, y)], length.type)
        is_zero = self.b.compare(ins.Predicate.OEQ, length, splat(length.type, 0.0))
        divisor = self.b.select(is_zero, splat(length.type, 1.0), length)
        return self.b.binary(Op.FDIV, y, self._lanes_like(divisor, y))

    def _lanes_like(self, scalar: Value, like: Value) -> Value:
        """`scalar` in every lane of a vector as wide as `like` (itself when `like` is a scalar)."""
        if not isinstance(like.type, ty.VectorType):
            return scalar
        return self.splat_value(scalar, ty.VectorType(scalar.type, like.type.count))

    def _infinities_as_units(self, y: Value) -> Value:
        """Per lane: ±1 where y is ±inf, else ±0 (sign kept)."""
        magnitude = self.b.math(ins.MathFunction.FABS, [y], y.type)
        unit = self.b.select(self.b.compare(ins.Predicate.OEQ, magnitude, splat(y.type, float("inf"))),
                             splat(y.type, 1.0), splat(y.type, 0.0))
        return self.b.math(ins.MathFunction.COPYSIGN, [unit, y], y.type)

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
