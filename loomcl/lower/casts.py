"""Conversions between values: one method per `ast.CastKind`, plus the i1/i8 moves of bool.

Sema made every conversion explicit and named its kind (ast.py's contract), so nothing here decides
*whether* to convert, only *how*: the IR opcode follows from the kind, the IR widths, and the
frontend signedness (C 6.3.1.3: widening extends by the source's sign; float to integer truncates
toward zero by the target's sign). Vector operands convert lane-wise with the same opcodes.
"""
from __future__ import annotations

import math
import struct

from ..frontend import types as T
from ..frontend.ast import CastKind
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant, Value, VectorConstant
from .errors import unsupported
from .types import is_signed, value_type

Op = ins.CastOpcode


def zero(t: ty.Type) -> Value:
    """The zero (or null) of IR type t; a splat for vectors."""
    return splat(t, 0)


def splat(t: ty.Type, value: int | float) -> Value:
    if isinstance(t, ty.VectorType):
        return VectorConstant(t, [Constant(t.element, value)] * t.count)
    return Constant(t, value)


def bits(t: ty.Type) -> int:
    return ty.scalar_of(t).bits


def round_float(t: ty.FloatType, value: float) -> float:
    """value rounded to the precision of t, so a folded constant equals the run-time result."""
    code = {16: "e", 32: "f", 64: "d"}[t.bits]
    try:
        return struct.unpack(code, struct.pack(code, value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def fold_constant_cast(kind: CastKind, value: Value, source: T.Type, target: T.Type):
    """The converted Constant when value is a scalar arithmetic constant, else None. Literals meet
    conversions constantly (`x * 2` with float x), and folding them keeps the IR readable."""
    if not isinstance(value, Constant) or not isinstance(value.type, (ty.IntType, ty.FloatType)):
        return None
    number = value.value
    if isinstance(value.type, ty.IntType) and is_signed(source) and not source.is_bool:
        number = value.signed_value
    to = value_type(target)
    if kind in (CastKind.INT_TO_BOOL, CastKind.FLOAT_TO_BOOL):
        return Constant(ty.i1, int(number != 0))
    if kind is CastKind.INTEGRAL:
        return Constant(to, number)
    if kind in (CastKind.INT_TO_FLOAT, CastKind.FLOAT_TO_FLOAT):
        return Constant(to, round_float(to, float(number)))
    if kind is CastKind.FLOAT_TO_INT and math.isfinite(number):
        return Constant(to, math.trunc(number))
    return None


_LOCAL_EXTENTS = (ins.Query.LOCAL_ID, ins.Query.LOCAL_SIZE, ins.Query.ENQUEUED_LOCAL_SIZE)


def is_local_extent(value: Value) -> bool:
    """Whether value is a local id or local size, which always fits in 31 bits (a work-group is far
    smaller). Their truncation to int is then marked no-wrap (`trunc nuw nsw`), which keeps
    `a[(int)lid]` affine for LLVM's vectorizer; a plain trunc let InstCombine turn sext(trunc(lid))
    under a guard into a mask and nothing vectorized (../shared/LLVMLITE.md, index width)."""
    return isinstance(value, ins.WorkItemQuery) and value.query in _LOCAL_EXTENTS


def is_widened_flag(value: Value) -> bool:
    """Whether value is `zext i1 to iN`: a comparison's int result, tested again by `if`, `&&` or
    `!`; testing the i1 itself spares a compare (sema writes `if (a < b)` as `(bool)(int)(a < b)`)."""
    return (isinstance(value, ins.Cast) and value.opcode is Op.ZEXT
            and value.value.type is ty.i1)


class CastLowering:
    """Mixin of FunctionLowerer: needs `self.b`, the builder."""

    def convert(self, kind: CastKind, value: Value, source: T.Type, target: T.Type) -> Value:
        """`value` of frontend type source, converted to target as `kind` says."""
        folded = fold_constant_cast(kind, value, source, target)
        if folded is not None:
            return folded
        method = getattr(self, "_cast_" + kind.name.lower(), None)
        if method is None:
            raise unsupported(f"conversion '{kind.value}'")
        return method(value, source, target)

    def _cast_noop(self, value, source, target):
        return value

    def _cast_integral(self, value, source, target):
        to = value_type(target)
        have, want = bits(value.type), bits(to)
        if have == want:
            return value
        if have > want:
            trunc = self.b.cast(Op.TRUNC, value, to)
            trunc.no_wrap = want >= 32 and is_local_extent(value)
            return trunc
        widen = Op.SEXT if is_signed(source) and not source.is_bool else Op.ZEXT
        return self.b.cast(widen, value, to)

    def _cast_int_to_float(self, value, source, target):
        opcode = Op.SITOFP if is_signed(source) and not source.is_bool else Op.UITOFP
        return self.b.cast(opcode, value, value_type(target))

    def _cast_float_to_int(self, value, source, target):
        opcode = Op.FPTOSI if is_signed(target) else Op.FPTOUI
        return self.b.cast(opcode, value, value_type(target))

    def _cast_float_to_float(self, value, source, target):
        to = value_type(target)
        if bits(value.type) == bits(to):
            return value
        opcode = Op.FPEXT if bits(value.type) < bits(to) else Op.FPTRUNC
        return self.b.cast(opcode, value, to)

    def _cast_int_to_bool(self, value, source, target):
        return self.truth(value)

    _cast_float_to_bool = _cast_int_to_bool
    _cast_pointer_to_bool = _cast_int_to_bool

    def _cast_pointer_to_pointer(self, value, source, target):
        return self.coerce_pointer(value, value_type(target))

    def _cast_null_to_pointer(self, value, source, target):
        return Constant(value_type(target), 0)

    def _cast_int_to_pointer(self, value, source, target):
        return self.b.cast(Op.INTTOPTR, value, value_type(target))

    def _cast_pointer_to_int(self, value, source, target):
        return self.b.cast(Op.PTRTOINT, value, value_type(target))

    def _cast_to_void(self, value, source, target):
        return None

    def _cast_scalar_to_vector(self, value, source, target):
        return self.splat_value(value, value_type(target))

    # -- helpers shared with expressions -------------------------------------------------------

    def truth(self, value: Value) -> Value:
        """value != 0 as i1 (C's "compares unequal to 0"); i1 values pass through. Floats use the
        unordered predicate so that NaN counts as true, as C requires."""
        if value.type is ty.i1:
            return value
        if is_widened_flag(value):
            flag = value.value
            if not value.users:
                value.erase()
            return flag
        predicate = ins.Predicate.UNE if ty.is_float(value.type) else ins.Predicate.NE
        return self.b.compare(predicate, value, zero(value.type))

    def coerce_pointer(self, value: Value, to: ty.Type) -> Value:
        """value in the address space of pointer type `to` (an addrspacecast when they differ)."""
        if value.type is to:
            return value
        if isinstance(value, Constant):
            return Constant(to, 0)
        return self.b.cast(Op.ADDRSPACECAST, value, to)

    def to_memory(self, value: Value) -> Value:
        """A value as stored: bool's i1 widens to its i8 byte."""
        if value.type is ty.i1:
            return self.b.cast(Op.ZEXT, value, ty.i8)
        return value

    def from_memory(self, value: Value, t: T.Type) -> Value:
        """A loaded value of frontend type t: a bool byte narrows to i1."""
        if t.is_bool:
            return self.b.cast(Op.TRUNC, value, ty.i1)
        return value
