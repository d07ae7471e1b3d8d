"""Expressions: typed AST expressions to IR values (rvalues) and addresses (lvalues).

Two entry points follow the AST's lvalue flag: `value(e)` computes what e evaluates to, `address(e)`
the pointer to the object an lvalue designates (VarRef: its alloca or global; Deref: the pointer;
Index: an elementptr). Reads are explicit in the AST (`Cast(LOAD)`), so a load is emitted exactly
where the program reads memory, and never for an array, which only decays.

Integer operations take signedness from the frontend type (C 6.3.1.8 has already made both operands
one type): sdiv/udiv, srem/urem, ashr/lshr and signed or unsigned compare predicates. Shift counts
are masked to the operand width (OpenCL C 6.3.j: "the shift count is taken modulo the bit width"),
which also keeps them defined in LLVM. Float `!=` is the unordered UNE (true when an operand is NaN,
as C demands); the other float comparisons are ordered. `&&`, `||` and `?:` evaluate one side only,
with branches joined by a phi.
"""
from __future__ import annotations

from ..frontend import ast as A
from ..frontend import types as T
from ..frontend.conversions import cast_kind
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant, Value
from .casts import bits, round_float, splat, zero
from .errors import unsupported
from .types import is_floating, is_signed, overflow_is_undefined, memory_type, pointee_memory_type, record_type, value_type

B = A.BinaryOp
Op = ins.BinaryOpcode
P = ins.Predicate

_INT_OPS = {B.ADD: Op.ADD, B.SUB: Op.SUB, B.MUL: Op.MUL, B.SHL: Op.SHL, B.BIT_AND: Op.AND,
            B.BIT_OR: Op.OR, B.BIT_XOR: Op.XOR}
_NO_SIGNED_WRAP = {B.ADD, B.SUB, B.MUL}
_SIGNED_INT_OPS = {B.DIV: (Op.SDIV, Op.UDIV), B.MOD: (Op.SREM, Op.UREM), B.SHR: (Op.ASHR, Op.LSHR)}
_FLOAT_OPS = {B.ADD: Op.FADD, B.SUB: Op.FSUB, B.MUL: Op.FMUL, B.DIV: Op.FDIV, B.MOD: Op.FREM}
# comparison -> (signed int, unsigned int or pointer, float)
_PREDICATES = {B.LT: (P.SLT, P.ULT, P.OLT), B.GT: (P.SGT, P.UGT, P.OGT),
               B.LE: (P.SLE, P.ULE, P.OLE), B.GE: (P.SGE, P.UGE, P.OGE),
               B.EQ: (P.EQ, P.EQ, P.OEQ), B.NE: (P.NE, P.NE, P.UNE)}


def name_of(e: A.Expr) -> str:
    """The source name of a variable reference, to name its loads (readable `--emit ir`)."""
    return e.decl.name if isinstance(e, A.VarRef) and e.decl is not None else ""


class ExpressionLowering:
    """Mixin of FunctionLowerer: needs `self.b`, `self.storage_of(decl)`, `self.program`,
    `self.new_block`/`self.enter`, and the CastLowering and BuiltinLowering mixins."""

    # -- entry points ------------------------------------------------------------------------------

    def value(self, e: A.Expr) -> Value | None:
        """The value of e (None for void expressions)."""
        handler = _VALUE_HANDLERS.get(type(e))
        if handler is None:
            raise unsupported(f"expression '{type(e).__name__}'", e.loc)
        with self.located(e):
            return handler(self, e)

    def address(self, e: A.Expr) -> Value:
        """The address of the object lvalue e designates."""
        handler = _ADDRESS_HANDLERS.get(type(e))
        if handler is None:
            raise unsupported(f"'{type(e).__name__}' as an lvalue", e.loc)
        with self.located(e):
            return handler(self, e)

    def effect(self, e: A.Expr) -> None:
        """Evaluate e for its side effects only."""
        self.value(e)

    def condition(self, e: A.Expr) -> Value:
        """e as an i1 branch condition."""
        return self.truth(self.value(e))

    # -- memory ------------------------------------------------------------------------------------

    def load_from(self, address: Value, t: T.Type, name: str = "") -> Value:
        load = self.b.load(memory_type(t), address, name)
        load.volatile = t.quals.volatile
        return self.from_memory(load, t)

    def store_to(self, value: Value, address: Value, t: T.Type) -> None:
        store = self.b.store(self.to_memory(value), address)
        store.volatile = t.quals.volatile

    def _load(self, e: A.Expr) -> Value:
        """A read of lvalue e (the AST's Cast(LOAD); also used if an lvalue is met as a value)."""
        if isinstance(e, A.Swizzle):
            return self._swizzle(e)
        if isinstance(e, A.VectorIndex):
            return self.read_place(self.place(e))
        return self.load_from(self.address(e), e.type, name_of(e))

    def place(self, e: A.Expr) -> tuple[Value, A.Expr, Value | None]:
        """Where lvalue e lives, evaluated once for a read and a write: its address, or for a
        swizzle or `v[i]` the address of its vector (and the lane index, evaluated once)."""
        if isinstance(e, A.VectorIndex):
            return self.address(e.base), e, self.value(e.index)
        return self.address(e.base if isinstance(e, A.Swizzle) else e), e, None

    def read_place(self, place: tuple[Value, A.Expr, Value | None]) -> Value:
        address, e, lane = place
        if isinstance(e, A.VectorIndex):
            return self.read_lane(address, e.base.type, lane)
        if isinstance(e, A.Swizzle):
            vector = self.load_from(address, e.base.type, name_of(e.base))
            return self._swizzle_of(vector, e)
        return self.load_from(address, e.type, name_of(e))

    def write_place(self, place: tuple[Value, A.Expr, Value | None], value: Value) -> None:
        address, e, lane = place
        if isinstance(e, A.VectorIndex):
            self.write_lane(address, e.base.type, lane, value)
        elif isinstance(e, A.Swizzle):
            self.store_swizzle(e, value, address)
        else:
            self.store_to(value, address, e.type)

    # -- leaves ------------------------------------------------------------------------------------

    def _int_literal(self, e: A.IntLiteral) -> Value:
        return Constant(value_type(e.type), e.value)

    def _float_literal(self, e: A.FloatLiteral) -> Value:
        t = value_type(e.type)
        return Constant(t, round_float(t, e.value))

    def _var_address(self, e: A.VarRef) -> Value:
        if isinstance(e.decl, A.FunctionDecl):
            raise unsupported("a function used as a value", e.loc)
        return self.storage_of(e.decl)

    def _deref_address(self, e: A.Deref) -> Value:
        return self.value(e.operand)

    def _index_address(self, e: A.Index) -> Value:
        base = self.value(e.base)
        return self.b.element_ptr(memory_type(e.type), base, self.value(e.index))

    def _member_address(self, e: A.Member) -> Value:
        """A member's address: a field of the struct (all members of a union are at its start).
        A struct rvalue (a call's result) is first stored to a temporary, to have an address."""
        if e.arrow:
            base, record = self.value(e.base), e.base.type.pointee.record
        else:
            base, record = self.object_address(e.base), e.base.type.record
        if record.is_union:
            return base
        return self.b.field_ptr(record_type(record), base, record.fields.index(e.field))

    def object_address(self, e: A.Expr) -> Value:
        if e.lvalue:
            return self.address(e)
        slot = self.slot(memory_type(e.type), "tmp")
        self.b.store(self.value(e), slot)
        return slot

    def _address_of(self, e: A.AddressOf) -> Value:
        return self.coerce_pointer(self.address(e.operand), value_type(e.type))

    # -- operators ---------------------------------------------------------------------------------

    def _unary(self, e: A.Unary) -> Value:
        v = self.value(e.operand)
        t = e.operand.type
        if e.op is A.UnaryOp.PLUS:
            return v
        if e.op is A.UnaryOp.MINUS:
            return self.b.fneg(v) if is_floating(t) else self.b.sub(zero(v.type), v)
        if e.op is A.UnaryOp.BIT_NOT:
            return self.b.binary(Op.XOR, v, splat(v.type, -1))
        is_zero = self.b.compare(P.EQ if not is_floating(t) else P.OEQ, v, zero(v.type))
        return self.bool_to_int(is_zero, e.type)

    def _binary(self, e: A.Binary) -> Value:
        if e.op.is_logical:
            return self.vector_logical(e) if e.type.is_vector else self._logical(e)
        left, right = self.value(e.left), self.value(e.right)
        if e.op.is_comparison:
            return self.bool_to_int(self.compare(e.op, left, right, e.left.type), e.type)
        return self.arith(e.op, left, right, e.type)

    def arith(self, op: A.BinaryOp, left: Value, right: Value, t: T.Type) -> Value:
        """left op right for arithmetic or bitwise op on operands of frontend type t."""
        if is_floating(t):
            return self.b.binary(_FLOAT_OPS[op], left, right)
        if op.is_shift:
            right = self.shift_count(right)
        if op in _SIGNED_INT_OPS:
            signed, unsigned = _SIGNED_INT_OPS[op]
            return self.b.binary(signed if is_signed(t) else unsigned, left, right)
        result = self.b.binary(_INT_OPS[op], left, right)
        if op in _NO_SIGNED_WRAP and overflow_is_undefined(t):
            result.no_signed_wrap = True
        return result

    def shift_count(self, count: Value) -> Value:
        """count modulo the operand width (OpenCL C 6.3.j); folded for a constant count."""
        mask = bits(count.type) - 1
        if isinstance(count, Constant):
            return Constant(count.type, count.value & mask)
        return self.b.binary(Op.AND, count, splat(count.type, mask))

    def compare(self, op: A.BinaryOp, left: Value, right: Value, t: T.Type) -> Value:
        signed, unsigned, floating = _PREDICATES[op]
        predicate = floating if is_floating(t) else signed if is_signed(t) else unsigned
        return self.b.compare(predicate, left, right)

    def bool_to_int(self, flag: Value, t: T.Type) -> Value:
        """A comparison's i1 as C's int result: 1 for true; OpenCL vectors use -1 (all bits set)."""
        opcode = ins.CastOpcode.SEXT if t.is_vector else ins.CastOpcode.ZEXT
        return self.b.cast(opcode, flag, value_type(t))

    def _logical(self, e: A.Binary) -> Value:
        """a && b / a || b: b runs only when a does not decide; a phi joins the two outcomes."""
        is_and = e.op is B.LOGICAL_AND
        left = self.condition(e.left)
        right_block, end = self.new_block("and.rhs" if is_and else "or.rhs"), self.new_block("logic.end")
        decided_in = self.b.block
        if is_and:
            self.b.branch(left, right_block, end)
        else:
            self.b.branch(left, end, right_block)
        self.enter(right_block)
        right = self.condition(e.right)
        right_done = self.b.block
        self.b.jump(end)
        self.enter(end)
        phi = self.b.phi(ty.i1)
        phi.add_incoming(Constant(ty.i1, 0 if is_and else 1), decided_in)
        phi.add_incoming(right, right_done)
        return self.bool_to_int(phi, e.type)

    def _conditional(self, e: A.Conditional) -> Value | None:
        if e.cond.type.is_vector:
            return self.vector_select(e)
        cond = self.condition(e.cond)
        then_block, else_block = self.new_block("cond.then"), self.new_block("cond.else")
        end = self.new_block("cond.end")
        self.b.branch(cond, then_block, else_block)
        arms = []
        for block, arm in ((then_block, e.then), (else_block, e.else_)):
            self.enter(block)
            arms.append((self.value(arm), self.b.block))
            self.b.jump(end)
        self.enter(end)
        if e.type.is_void:
            return None
        phi = self.b.phi(value_type(e.type))
        for v, block in arms:
            phi.add_incoming(v, block)
        return phi

    def _comma(self, e: A.Comma) -> Value | None:
        self.effect(e.left)
        return self.value(e.right)

    # -- pointers ----------------------------------------------------------------------------------

    def _pointer_arith(self, e: A.PointerArith) -> Value:
        pointer, offset = self.value(e.pointer), self.value(e.offset)
        return self.offset_pointer(pointer, offset, e.op is B.SUB, e.pointer.type)

    def offset_pointer(self, pointer: Value, offset: Value, negate: bool, t: T.Type) -> Value:
        if negate:
            offset = self.b.sub(zero(offset.type), offset)
        return self.b.element_ptr(pointee_memory_type(t), pointer, offset)

    def _pointer_diff(self, e: A.PointerDiff) -> Value:
        left, right = self.value(e.left), self.value(e.right)
        to_int = ins.CastOpcode.PTRTOINT
        bytes_apart = self.b.sub(self.b.cast(to_int, left, ty.i64), self.b.cast(to_int, right, ty.i64))
        size = pointee_memory_type(e.left.type).size
        if size == 1:
            return bytes_apart
        return self.b.binary(Op.SDIV, bytes_apart, Constant(ty.i64, size))

    # -- assignment --------------------------------------------------------------------------------

    def _assign(self, e: A.Assign) -> Value:
        value = self.value(e.value)
        self.write_place(self.place(e.target), value)
        return value

    def _compound_assign(self, e: A.CompoundAssign) -> Value:
        """target op= value: load, convert into the computation type, operate, convert back, store."""
        value = self.value(e.value)
        target_type = e.target.type
        place = self.place(e.target)
        old = self.read_place(place)
        if target_type.is_pointer:
            new = self.offset_pointer(old, value, e.op is B.SUB, target_type)
        else:
            ct = e.computation_type or target_type
            wide = self.convert(e.to_computation, old, target_type, ct)
            result = self.arith(e.op, wide, value, ct)
            new = self.convert(e.from_computation, result, ct, target_type)
        self.write_place(place, new)
        return new

    def _inc_dec(self, e: A.IncDec) -> Value:
        t = e.operand.type
        place = self.place(e.operand)
        old = self.read_place(place)
        if t.is_pointer:
            new = self.offset_pointer(old, Constant(ty.i64, 1), not e.op.is_increment, t)
        else:
            op = B.ADD if e.op.is_increment else B.SUB
            new = self.arith(op, old, splat(old.type, 1.0 if is_floating(t) else 1), t)
        self.write_place(place, new)
        return new if e.op.is_prefix else old

    # -- conversions and calls ---------------------------------------------------------------------

    def _cast(self, e: A.Cast) -> Value | None:
        kind = e.kind or cast_kind(e.operand.type, e.type)
        if kind is A.CastKind.LOAD:
            return self._load(e.operand)
        if kind is A.CastKind.ARRAY_TO_POINTER:
            return self.coerce_pointer(self.address(e.operand), value_type(e.type))
        if kind in (A.CastKind.NULL_TO_POINTER, A.CastKind.NULL_TO_EVENT):
            return Constant(value_type(e.type), 0)
        if kind is None:
            raise unsupported(f"conversion from '{e.operand.type}' to '{e.type}'", e.loc)
        return self.convert(kind, self.value(e.operand), e.operand.type, e.type)

    def _call(self, e: A.Call) -> Value | None:
        callee = self.program.function_for(e.function, e.loc)
        args = [self.value(a) for a in e.args]
        call = self.b.call(callee, args)
        return None if e.type.is_void else call

    def _builtin_call(self, e: A.BuiltinCall) -> Value | None:
        return self.builtin(e)

    def _printf(self, e: A.PrintfCall) -> Value:
        args = [self.value(a) for a in e.args]
        for extra in e.unused:  # evaluated, not printed (6.12.13.2)
            self.value(extra)
        format_id = self.program.module.printf_format_id(e.format)
        return self.b.insert(ins.Printf(format_id, e.format, args))


_VALUE_HANDLERS = {
    A.IntLiteral: ExpressionLowering._int_literal,
    A.FloatLiteral: ExpressionLowering._float_literal,
    A.VarRef: ExpressionLowering._load,
    A.Deref: ExpressionLowering._load,
    A.Index: ExpressionLowering._load,
    A.Member: ExpressionLowering._load,
    A.AddressOf: ExpressionLowering._address_of,
    A.Unary: ExpressionLowering._unary,
    A.Binary: ExpressionLowering._binary,
    A.Conditional: ExpressionLowering._conditional,
    A.Comma: ExpressionLowering._comma,
    A.PointerArith: ExpressionLowering._pointer_arith,
    A.PointerDiff: ExpressionLowering._pointer_diff,
    A.Assign: ExpressionLowering._assign,
    A.CompoundAssign: ExpressionLowering._compound_assign,
    A.IncDec: ExpressionLowering._inc_dec,
    A.Cast: ExpressionLowering._cast,
    A.Call: ExpressionLowering._call,
    A.BuiltinCall: ExpressionLowering._builtin_call,
    A.PrintfCall: ExpressionLowering._printf,
    A.VectorLiteral: lambda self, e: self._vector_literal(e),
    A.Swizzle: lambda self, e: self._swizzle(e),
    A.VectorIndex: lambda self, e: self._vector_index(e),
}

_ADDRESS_HANDLERS = {
    A.VarRef: ExpressionLowering._var_address,
    A.Deref: ExpressionLowering._deref_address,
    A.Index: ExpressionLowering._index_address,
    A.Member: ExpressionLowering._member_address,
}
