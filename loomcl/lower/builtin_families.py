"""Lowering of the builtins whose names spell their types (frontend/builtin_families.py).

* `vloadN(i, p)` / `vstoreN(v, i, p)` access lanes `p[N*i + k]` one by one: p need only be aligned
  to the element, and scalar accesses let the work-item loop vectorize them as one interleaved
  group per lane.
* `vload_halfN(i, p)` / `vstore_halfN[_rounding](v, i, p)` access the i16 lanes `p[N*i + k]` the
  same way and convert them bit-exactly (half.py); the `vloada_`/`vstorea_` forms differ only for
  N = 3, whose vectors are aligned and spaced like 4 (spec 6.12.7).
* `convert_T[_sat][_rounding]`: float-to-integer rounds as asked (toward zero by default) before
  converting, and `_sat` clamps to the target's range first (NaN gives 0), so no out-of-range
  conversion (undefined in LLVM) ever runs. Integer `_sat` clamps in the wider of the two types.
  Floating-point results round to nearest even; other rounding modes for them are refused.
* `as_T` is a bitcast of the bits.
"""
from __future__ import annotations

import numpy as np

from ..frontend import ast as A
from ..frontend import types as T
from ..frontend.conversions import cast_kind
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant, Value
from .casts import splat
from .errors import unsupported
from .half import float_to_half, half_to_float
from .types import is_signed, memory_type, value_type

M = ins.MathFunction
_ROUNDING = {"rte": M.RINT, "rtz": M.TRUNC, "rtp": M.CEIL, "rtn": M.FLOOR}


class FamilyBuiltinLowering:
    """Mixin of FunctionLowerer: needs `self.b`, `self.value`, `self.convert`, vector helpers."""

    def _vload(self, e: A.BuiltinCall) -> Value:
        index, pointer = (self.value(a) for a in e.args)
        vector = e.type
        element = memory_type(vector.element)
        first = self.b.mul(index, Constant(ty.i64, vector.count))
        lanes = []
        for k in range(vector.count):
            offset = self.b.add(first, Constant(ty.i64, k)) if k else first
            lanes.append(self.from_memory(self.b.load(element, self.b.element_ptr(element, pointer, offset)),
                                          vector.element))
        return self.build_vector(value_type(vector), lanes)

    def _vstore(self, e: A.BuiltinCall) -> None:
        data, index, pointer = (self.value(a) for a in e.args)
        vector = e.args[0].type
        element = memory_type(vector.element)
        first = self.b.mul(index, Constant(ty.i64, vector.count))
        for k, lane in enumerate(self.lanes_of(data)):
            offset = self.b.add(first, Constant(ty.i64, k)) if k else first
            self.b.store(self.to_memory(lane), self.b.element_ptr(element, pointer, offset))

    def _vload_half(self, e: A.BuiltinCall) -> Value:
        index, pointer = (self.value(a) for a in e.args)
        count = e.type.count if e.type.is_vector else 1
        lanes = [self.b.load(ty.i16, pointer) for pointer in self._half_lanes(e, index, pointer, count)]
        bits = self.build_vector(ty.VectorType(ty.i16, count), lanes) if count > 1 else lanes[0]
        return half_to_float(self.b, bits)

    def _vstore_half(self, e: A.BuiltinCall) -> None:
        data, index, pointer = (self.value(a) for a in e.args)
        name = e.overload.name
        mode = name[-3:] if name[-4:-3] == "_" and name[-3:] in _ROUNDING else "rte"
        bits = self.lanes_of(float_to_half(self.b, data, mode))
        for lane, address in zip(bits, self._half_lanes(e, index, pointer, len(bits))):
            self.b.store(lane, address)

    def _half_lanes(self, e: A.BuiltinCall, index: Value, pointer: Value, count: int) -> list[Value]:
        """The addresses of the `count` halves that a vload_half/vstore_half call accesses."""
        aligned = e.overload.name.startswith(("vloada", "vstorea"))
        stride = 4 if aligned and count == 3 else count
        first = self.b.mul(index, Constant(ty.i64, stride)) if stride > 1 else index
        return [self.b.element_ptr(ty.i16, pointer, self.b.add(first, Constant(ty.i64, k)) if k else first)
                for k in range(count)]

    def _as_type(self, e: A.BuiltinCall) -> Value:
        """Reinterpret the bits; a 3-vector is a 4-vector whose last lane is undefined."""
        (value,) = (self.value(a) for a in e.args)
        to = value_type(e.type)
        if value.type is to or _lanes(value.type) == _lanes(to):
            return value if value.type is to else self.b.cast(ins.CastOpcode.BITCAST, value, to)
        if _lanes(value.type) == 3:
            value = self.b.insert(ins.ShuffleVector(value, value, [0, 1, 2, -1]))
        through = ty.VectorType(to.element, 4) if _lanes(to) == 3 else to
        if value.type is not through:
            value = self.b.cast(ins.CastOpcode.BITCAST, value, through)
        return value if through is to else self.b.insert(ins.ShuffleVector(value, value, [0, 1, 2]))

    def _convert(self, e: A.BuiltinCall) -> Value:
        (value,) = (self.value(a) for a in e.args)
        source, target = e.args[0].type.unqualified(), e.type
        name = e.overload.name
        saturate = "_sat" in name
        rounding = name.rsplit("_", 1)[1] if name[-4:-3] == "_" and name[-3:] in _ROUNDING else None
        s, t = T.element_of(source), T.element_of(target)
        if t.is_floating and rounding not in (None, "rte") and source != target:
            raise unsupported(f"'{name}': rounding a floating-point result other than to nearest", e.loc)
        above = None
        if s.is_floating and t.is_integer:
            if saturate:  # at or above hi + 1 (a power of two, exact in any float): hi itself, which
                # the float clamp below cannot give where hi has more bits than the float's mantissa
                limit = splat(value.type, float(t.max_value + 1))
                above = self.b.compare(ins.Predicate.OGE, value, limit)
            value = self._float_to_integer_range(value, rounding, saturate, t)
        elif s.is_integer and t.is_integer and saturate:
            value = self._saturate_integer(value, s, t)
        kind = cast_kind(s, t)
        result = self.convert(kind, value, source, target)
        return result if above is None else self.b.select(above, splat(result.type, t.max_value), result)

    def _float_to_integer_range(self, value: Value, rounding, saturate: bool, t: T.Type) -> Value:
        if rounding not in (None, "rtz"):
            value = self.b.math(_ROUNDING[rounding], [value], value.type)
        if not saturate:
            return value
        lo, hi = float(t.min_value), float(t.max_value)
        # The largest float not above hi: converting hi itself may round up past the range.
        hi = _float_below(hi, ty.scalar_of(value.type).bits)
        is_nan = self.b.compare(ins.Predicate.UNO, value, value)  # before fmax turns NaN into lo
        value = self.b.math(M.FMAX, [value, splat(value.type, lo)], value.type)
        value = self.b.math(M.FMIN, [value, splat(value.type, hi)], value.type)
        return self.b.select(is_nan, splat(value.type, 0.0), value)

    def _saturate_integer(self, value: Value, s: T.Type, t: T.Type) -> Value:
        """value of integer type s clamped to t's range, computed in s (when t is no wider)."""
        lo, hi = t.min_value, t.max_value
        signed = is_signed(s)
        if s.bits < t.bits or (s.bits == t.bits and signed == t.signed):
            # Widening: only a negative value going unsigned is out of range.
            if signed and not t.signed:
                return self.b.math(M.SMAX, [value, splat(value.type, 0)], value.type)
            return value
        if signed:
            clamped = self.b.math(M.SMAX, [value, splat(value.type, max(lo, s.min_value))], value.type)
            return self.b.math(M.SMIN, [clamped, splat(value.type, min(hi, s.max_value))], value.type)
        return self.b.math(M.UMIN, [value, splat(value.type, min(hi, s.max_value))], value.type)


def _float_below(limit: float, bits: int) -> float:
    dtype = {32: np.float32, 64: np.float64}[bits]
    f = dtype(limit)
    return float(np.nextafter(f, dtype(0)) if float(f) > limit else f)


def _lanes(t: ty.Type) -> int:
    return t.count if isinstance(t, ty.VectorType) else 1
