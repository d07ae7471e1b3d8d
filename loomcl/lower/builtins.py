"""OpenCL builtin calls (`ast.BuiltinCall`, resolved by sema to a `builtins.Builtin` and overload)
lowered to IR instructions: work-item queries, barriers and fences, math, integer and atomic
functions. A flat table maps each Builtin to one small method.

* Work-item functions (OpenCL C 6.13.1) become `WorkItemQuery` instructions, so the work-group
  transforms see them as operations, never as calls. `get_global_id(d)` is expanded to
  `group_id(d) * enqueued_local_size(d) + local_id(d) + global_offset(d)`, which exposes the local
  id to uniformity analysis (the rest is uniform over a work-group). A dimension that is not a
  constant becomes a select over dimensions 0..2 with the spec's value for any other dimension
  (0 for ids and offsets, 1 for sizes and counts). All results are size_t, i64; get_work_dim is
  uint.
* `barrier(flags)` needs constant flags (every real kernel passes CLK_* constants, folded here with
  the frontend's constant folder); otherwise the barrier fences both spaces (3), always safe.
* Math maps to `MathCall` (native_* and half_* forms to the same function: loomcl's precise versions
  meet their accuracy bounds); `mad` is fmul+fadd, which OpenCL allows and which needs no FMA unit.
  The rest of the math library is composed in builtins_math.py (MathLowering).
* Atomics (6.13.11) map to AtomicRMW/AtomicCmpXchg and give the old value; min/max pick the signed
  or unsigned operation from the argument type, inc/dec add or subtract 1.
* Async work-group copies, wait_group_events and prefetch: async_copy.py.
* The rest of the integer, common and relational functions are library tables of pure handlers
  (builtins_integer.py, builtins_common.py, builtins_relational.py), merged into `_LIBRARY`.
"""
from __future__ import annotations

from ..frontend import ast as A
from ..frontend.builtins import Builtin
from ..frontend.constfold import fold_int
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant, Value
from .async_copy import AsyncCopyLowering
from .builtin_families import FamilyBuiltinLowering
from .builtins_common import COMMON_FUNCTIONS
from .builtins_integer import INTEGER_FUNCTIONS
from .builtins_math import MATH_FUNCTIONS, MATH_HANDLERS, MathLowering
from .builtins_relational import RELATIONAL_FUNCTIONS
from .builtins_shuffle import SHUFFLE_FUNCTIONS
from .casts import splat
from .errors import unsupported
from .geometric import GeometricLowering
from .images import IMAGE_HANDLERS, ImageLowering
from .types import is_floating, is_signed, value_type

Q = ins.Query
M = ins.MathFunction
AO = ins.AtomicOpcode

# query -> (IR query, value for a dimension outside 0..2, result name)
_QUERIES = {
    Builtin.GET_LOCAL_ID: (Q.LOCAL_ID, 0, "lid"),
    Builtin.GET_GROUP_ID: (Q.GROUP_ID, 0, "group"),
    Builtin.GET_GLOBAL_OFFSET: (Q.GLOBAL_OFFSET, 0, "offset"),
    Builtin.GET_LOCAL_SIZE: (Q.LOCAL_SIZE, 1, "lsize"),
    Builtin.GET_ENQUEUED_LOCAL_SIZE: (Q.ENQUEUED_LOCAL_SIZE, 1, "elsize"),
    Builtin.GET_NUM_GROUPS: (Q.NUM_GROUPS, 1, "ngroups"),
    Builtin.GET_GLOBAL_SIZE: (Q.GLOBAL_SIZE, 1, "gsize"),
}

_MATH = {
    Builtin.SQRT: M.SQRT, Builtin.NATIVE_SQRT: M.SQRT, Builtin.FABS: M.FABS,
    Builtin.FMIN: M.FMIN, Builtin.FMAX: M.FMAX, Builtin.FLOOR: M.FLOOR, Builtin.CEIL: M.CEIL,
    Builtin.EXP: M.EXP, Builtin.NATIVE_EXP: M.EXP, Builtin.LOG: M.LOG, Builtin.NATIVE_LOG: M.LOG,
    Builtin.POW: M.POW, Builtin.NATIVE_POWR: M.POW, Builtin.SIN: M.SIN,
    Builtin.NATIVE_SIN: M.SIN, Builtin.COS: M.COS, Builtin.NATIVE_COS: M.COS, Builtin.FMA: M.FMA,
    **MATH_FUNCTIONS,
}

# integer min/max: (signed, unsigned); floats use fmin/fmax
_MIN = (M.SMIN, M.UMIN, M.FMIN)
_MAX = (M.SMAX, M.UMAX, M.FMAX)

_ATOMICS = {
    Builtin.ATOMIC_ADD: AO.ADD, Builtin.ATOMIC_SUB: AO.SUB, Builtin.ATOMIC_XCHG: AO.XCHG,
    Builtin.ATOMIC_AND: AO.AND, Builtin.ATOMIC_OR: AO.OR, Builtin.ATOMIC_XOR: AO.XOR,
}
_ATOMIC_MIN_MAX = {Builtin.ATOMIC_MIN: (AO.SMIN, AO.UMIN), Builtin.ATOMIC_MAX: (AO.SMAX, AO.UMAX)}
_ATOMIC_STEP = {Builtin.ATOMIC_INC: AO.ADD, Builtin.ATOMIC_DEC: AO.SUB}

# handler(builder, argument values, overload) -> value
_LIBRARY = {**INTEGER_FUNCTIONS, **COMMON_FUNCTIONS, **RELATIONAL_FUNCTIONS, **SHUFFLE_FUNCTIONS}


class BuiltinLowering(FamilyBuiltinLowering, GeometricLowering, MathLowering, AsyncCopyLowering, ImageLowering):
    """Mixin of FunctionLowerer: needs `self.b` and `self.value`."""

    def builtin(self, e: A.BuiltinCall) -> Value | None:
        b = e.builtin
        if b in _QUERIES:
            return self._query(e)
        if b in _MATH:
            return self.b.math(_MATH[b], self._args(e), value_type(e.type))
        if b in _ATOMICS:
            pointer, operand = self._args(e)
            return self.b.atomic_rmw(_ATOMICS[b], pointer, operand)
        if b in _LIBRARY:
            return _LIBRARY[b](self.b, self._args(e), e.overload)
        handler = _HANDLERS.get(b)
        if handler is None:
            raise unsupported(f"builtin '{getattr(e.overload, 'name', b)}'", e.loc)
        return handler(self, e)

    def _args(self, e: A.BuiltinCall) -> list[Value]:
        """The arguments' values; a scalar argument of a builtin with a vector result (the `S` of
        `min(float4, float)`) is copied into every lane."""
        values = [self.value(a) for a in e.args]
        result = value_type(e.type)
        if isinstance(result, ty.VectorType):
            values = [self.splat_value(v, result) if v.type is result.element else v for v in values]
        return values

    # -- work-item functions -----------------------------------------------------------------------

    def _query(self, e: A.BuiltinCall) -> Value:
        query, default, name = _QUERIES[e.builtin]
        return self._per_dimension(e, lambda d: self.b.query(query, d, f"{name}{d}"), default)

    def _global_id(self, e: A.BuiltinCall) -> Value:
        return self._per_dimension(e, self._global_id_of, 0)

    def _global_id_of(self, d: int) -> Value:
        group = self.b.query(Q.GROUP_ID, d, f"group{d}")
        size = self.b.query(Q.ENQUEUED_LOCAL_SIZE, d, f"elsize{d}")
        local = self.b.query(Q.LOCAL_ID, d, f"lid{d}")
        offset = self.b.query(Q.GLOBAL_OFFSET, d, f"offset{d}")
        base = self.b.mul(group, size)
        return self.b.add(self.b.add(base, local), offset, f"gid{d}")

    def _per_dimension(self, e: A.BuiltinCall, compute, default: int) -> Value:
        """compute(d) for the call's dimension argument: directly when it is a constant, else a
        select chain over 0..2 that falls back to `default`."""
        constant = fold_int(e.args[0])
        if constant is not None:
            return compute(constant) if 0 <= constant < 3 else Constant(ty.i64, default)
        dim = self.value(e.args[0])
        result: Value = Constant(ty.i64, default)
        for d in (2, 1, 0):
            is_d = self.b.compare(ins.Predicate.EQ, dim, Constant(dim.type, d))
            result = self.b.select(is_d, compute(d), result)
        return result

    def _linear_id(self, id_of, size_of) -> Value:
        """(id(2) * size(1) + id(1)) * size(0) + id(0): OpenCL C 2.0's linear ids (6.13.1),
        from the per-dimension queries (an unused dimension has id 0 and size 1)."""
        result = id_of(2)
        for d in (1, 0):
            result = self.b.add(self.b.mul(result, size_of(d)), id_of(d))
        return result

    def _global_linear_id(self, e: A.BuiltinCall) -> Value:
        def id_of(d: int) -> Value:  # counted from the global offset
            return self.b.sub(self._global_id_of(d), self.b.query(Q.GLOBAL_OFFSET, d, f"offset{d}"))
        return self._linear_id(id_of, lambda d: self.b.query(Q.GLOBAL_SIZE, d, f"gsize{d}"))

    def _local_linear_id(self, e: A.BuiltinCall) -> Value:
        return self._linear_id(lambda d: self.b.query(Q.LOCAL_ID, d, f"lid{d}"),
                               lambda d: self.b.query(Q.LOCAL_SIZE, d, f"lsize{d}"))

    def _work_dim(self, e: A.BuiltinCall) -> Value:
        dims = self.b.query(Q.WORK_DIM, 0, "work_dim")
        return self.b.cast(ins.CastOpcode.TRUNC, dims, value_type(e.type))

    # -- synchronization -----------------------------------------------------------------------------

    def _flags(self, e: A.BuiltinCall) -> int:
        flags = fold_int(e.args[0])
        if flags is None:
            self.effect(e.args[0])
            return 3
        return flags

    def _barrier(self, e: A.BuiltinCall) -> None:
        self.b.barrier(self._flags(e))

    def _fence(self, e: A.BuiltinCall) -> None:
        self.b.fence(self._flags(e))

    # -- math and integer functions ------------------------------------------------------------------

    def _mad(self, e: A.BuiltinCall) -> Value:
        a, b, c = self._args(e)
        return self.b.binary(ins.BinaryOpcode.FADD, self.b.binary(ins.BinaryOpcode.FMUL, a, b), c)

    def _native_divide(self, e: A.BuiltinCall) -> Value:
        a, b = self._args(e)
        return self.b.binary(ins.BinaryOpcode.FDIV, a, b)

    def _native_recip(self, e: A.BuiltinCall) -> Value:
        (x,) = self._args(e)
        return self.b.binary(ins.BinaryOpcode.FDIV, splat(x.type, 1.0), x)

    def _min_max(self, which, a: Value, b: Value, t) -> Value:
        signed, unsigned, floating = which
        function = floating if is_floating(t) else signed if is_signed(t) else unsigned
        return self.b.math(function, [a, b], a.type)

    def _min(self, e: A.BuiltinCall) -> Value:
        return self._min_max(_MIN, *self._args(e), e.type)

    def _max(self, e: A.BuiltinCall) -> Value:
        return self._min_max(_MAX, *self._args(e), e.type)

    def _clamp(self, e: A.BuiltinCall) -> Value:
        x, lo, hi = self._args(e)
        return self._min_max(_MIN, self._min_max(_MAX, x, lo, e.type), hi, e.type)

    def _abs(self, e: A.BuiltinCall) -> Value:
        (x,) = self._args(e)
        # an unsigned value is its own magnitude (llvm.abs would read 254 as the uchar -2)
        return self.b.math(M.ABS, [x]) if is_signed(e.overload.params[0]) else x

    # -- atomics -------------------------------------------------------------------------------------

    def _atomic_min_max(self, e: A.BuiltinCall) -> Value:
        pointer, operand = self._args(e)
        signed, unsigned = _ATOMIC_MIN_MAX[e.builtin]
        return self.b.atomic_rmw(signed if is_signed(e.type) else unsigned, pointer, operand)

    def _atomic_step(self, e: A.BuiltinCall) -> Value:
        (pointer,) = self._args(e)
        one = Constant(value_type(e.type), 1)
        return self.b.atomic_rmw(_ATOMIC_STEP[e.builtin], pointer, one)

    def _atomic_cmpxchg(self, e: A.BuiltinCall) -> Value:
        pointer, expected, new = self._args(e)
        return self.b.atomic_cmpxchg(pointer, expected, new)


_HANDLERS = {
    Builtin.VLOAD: FamilyBuiltinLowering._vload,
    Builtin.VSTORE: FamilyBuiltinLowering._vstore,
    Builtin.VLOAD_HALF: FamilyBuiltinLowering._vload_half,
    Builtin.VSTORE_HALF: FamilyBuiltinLowering._vstore_half,
    Builtin.CONVERT: FamilyBuiltinLowering._convert,
    Builtin.AS_TYPE: FamilyBuiltinLowering._as_type,
    Builtin.DOT: GeometricLowering._dot,
    Builtin.CROSS: GeometricLowering._cross,
    Builtin.LENGTH: GeometricLowering._length,
    Builtin.DISTANCE: GeometricLowering._distance,
    Builtin.NORMALIZE: GeometricLowering._normalize,
    Builtin.GET_GLOBAL_ID: BuiltinLowering._global_id,
    Builtin.GET_WORK_DIM: BuiltinLowering._work_dim,
    Builtin.GET_GLOBAL_LINEAR_ID: BuiltinLowering._global_linear_id,
    Builtin.GET_LOCAL_LINEAR_ID: BuiltinLowering._local_linear_id,
    Builtin.BARRIER: BuiltinLowering._barrier,
    Builtin.MEM_FENCE: BuiltinLowering._fence,
    Builtin.READ_MEM_FENCE: BuiltinLowering._fence,
    Builtin.WRITE_MEM_FENCE: BuiltinLowering._fence,
    Builtin.ASYNC_COPY: AsyncCopyLowering._async_copy,
    Builtin.ASYNC_STRIDED_COPY: AsyncCopyLowering._async_copy,
    Builtin.WAIT_GROUP_EVENTS: AsyncCopyLowering._wait_group_events,
    Builtin.PREFETCH: AsyncCopyLowering._prefetch,
    Builtin.MAD: BuiltinLowering._mad,
    Builtin.NATIVE_DIVIDE: BuiltinLowering._native_divide,
    Builtin.NATIVE_RECIP: BuiltinLowering._native_recip,
    Builtin.MIN: BuiltinLowering._min,
    Builtin.MAX: BuiltinLowering._max,
    Builtin.CLAMP: BuiltinLowering._clamp,
    Builtin.ABS: BuiltinLowering._abs,
    Builtin.ATOMIC_MIN: BuiltinLowering._atomic_min_max,
    Builtin.ATOMIC_MAX: BuiltinLowering._atomic_min_max,
    Builtin.ATOMIC_INC: BuiltinLowering._atomic_step,
    Builtin.ATOMIC_DEC: BuiltinLowering._atomic_step,
    Builtin.ATOMIC_CMPXCHG: BuiltinLowering._atomic_cmpxchg,
    **MATH_HANDLERS,
    **IMAGE_HANDLERS,
}
