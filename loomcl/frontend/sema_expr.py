"""Semantic analysis of expressions: types, implicit conversions, lvalues (C 6.5, OpenCL C 6.3).

`check(e)` returns the typed version of e (often e itself, sometimes a replacement node such as
PointerArith for `p + i` or an IntLiteral for sizeof) and may leave an lvalue. `rvalue(e)` is what
operators use: it checks e and then applies C's lvalue conversions explicitly, a LOAD cast for an
object, ARRAY_TO_POINTER for an array. `convert(e, t)` inserts the implicit conversion of an rvalue
to type t as a Cast, reporting incompatible types. After an error an expression gets types.ERROR,
which every check passes through silently, so one mistake produces one message.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from . import unsupported
from .constfold import fold
from .conversions import (address_space_convertible, cast_kind, compatible_pointees,
                          pointer_assignable, pointer_warning, promote, usual_arithmetic)
from .sema_half import HalfChecker
from .sema_vector import VectorChecker

_ARITH_ONLY = {A.BinaryOp.MUL, A.BinaryOp.DIV}
_INTEGER_ONLY = {A.BinaryOp.MOD, A.BinaryOp.BIT_AND, A.BinaryOp.BIT_OR, A.BinaryOp.BIT_XOR,
                 A.BinaryOp.SHL, A.BinaryOp.SHR}


_CHECKERS: dict[tuple[type, type], object] = {}  # (checker class, expression class) -> its check_ method


def implicit(e: A.Expr, kind: A.CastKind, t: T.Type) -> A.Cast:
    return A.Cast(e.loc, kind, e, implicit=True, type=t)


def is_null_constant(e: A.Expr) -> bool:
    """An integer constant expression with value 0 (C 6.3.2.3), which converts to any pointer."""
    return e.type is not None and e.type.is_integer and fold(e) == 0


class ExpressionChecker(VectorChecker, HalfChecker):
    """Mixin for Sema: needs self.diags, self.lookup(name), self.check_call(call)."""

    # ---- entry points -------------------------------------------------------------------------
    def check(self, e: A.Expr) -> A.Expr:
        method = _CHECKERS.get((type(self), type(e)))
        if method is None:  # the first of its kind: check_<its class name>, remembered
            method = _CHECKERS[type(self), type(e)] = getattr(type(self), "check_" + type(e).__name__)
        return method(self, e)

    def rvalue(self, e: A.Expr) -> A.Expr:
        return self.to_rvalue(self.check(e))

    def to_rvalue(self, e: A.Expr) -> A.Expr:
        if not e.lvalue:
            return e
        if e.type.is_array:
            return implicit(e, A.CastKind.ARRAY_TO_POINTER, T.pointer_to(e.type.element))
        return self.refuse_half_load(e) or implicit(e, A.CastKind.LOAD, e.type.unqualified())

    def condition(self, e: A.Expr) -> A.Expr:
        """e as a truth value: a scalar converted to bool (if/while/for, !, &&, ||, ?:)."""
        return self.truth_value(self.rvalue(e))

    def truth_value(self, e: A.Expr) -> A.Expr:
        """The rvalue e converted to bool."""
        if e.type.is_error:
            return e
        kind = cast_kind(e.type, T.BOOL)
        if kind is None or not e.type.is_scalar:
            return self.error(e, f"statement requires expression of scalar type ('{e.type}' invalid)")
        return e if e.type.is_bool else implicit(e, kind, T.BOOL)

    def error(self, e: A.Expr, message: str, loc=None) -> A.Expr:
        self.diags.error(loc or e.loc, message)
        e.type, e.lvalue = T.ERROR, False
        return e

    def convert(self, e: A.Expr, target: T.Type,
                message: str = "assigning to '{target}' from incompatible type '{source}'") -> A.Expr:
        """The rvalue e implicitly converted to target (C 6.5.16.1 simple assignment rules)."""
        target = target.unqualified()
        if e.type.is_error or target.is_error or e.type.unqualified() == target:
            return e
        if target.is_vector or e.type.is_vector:
            return self.widen(e, target) if target.is_vector else \
                self.error(e, message.format(target=target, source=e.type))
        kind = self.implicit_kind(e, target)
        if kind is None and self.warn_pointer_conversion(e, target, message):
            kind = A.CastKind.POINTER_TO_POINTER
        if kind is None:
            self.diags.error(e.loc, message.format(target=target, source=e.type))
            return e
        return e if kind is A.CastKind.NOOP else implicit(e, kind, target)

    def warn_pointer_conversion(self, e: A.Expr, target: T.Type, message: str) -> bool:
        """Warn, in clang's words, about a pointer conversion clang accepts with a warning (clFFT
        stores through a `float4 *` made from a `float2 *`); whether it was one."""
        flag = pointer_warning(e.type.unqualified(), target)
        if flag is None:
            return False
        text = message.replace("from incompatible type ", "from ").replace("of incompatible type ", "of type ")
        text = text.replace("incompatible result type", "result type").format(target=target, source=e.type)
        if flag == "incompatible-pointer-types":
            self.diags.warning(e.loc, "incompatible pointer types " + text, flag)
        else:
            self.diags.warning(e.loc, text + " discards qualifiers", flag)
        return True

    def implicit_kind(self, e: A.Expr, target: T.Type) -> A.CastKind | None:
        source = e.type.unqualified()
        if source.is_arithmetic and target.is_arithmetic:
            return cast_kind(source, target)
        if target.is_pointer and source.is_pointer:
            if pointer_assignable(source, target):
                return A.CastKind.NOOP if source == target else A.CastKind.POINTER_TO_POINTER
            return None
        if target.is_pointer and is_null_constant(e):
            return A.CastKind.NULL_TO_POINTER
        if target.is_event and is_null_constant(e):
            return A.CastKind.NULL_TO_EVENT
        if target.is_bool and source.is_pointer:
            return A.CastKind.POINTER_TO_BOOL
        return None

    # ---- primaries ----------------------------------------------------------------------------
    def check_IntLiteral(self, e: A.IntLiteral) -> A.Expr:
        return e

    def check_FloatLiteral(self, e: A.FloatLiteral) -> A.Expr:
        return self.refuse_half_literal(e) or e

    def check_VarRef(self, e: A.VarRef) -> A.Expr:
        decl = self.lookup(e.name)
        if decl is None and e.name in unsupported.CONSTANTS:
            return self.error(e, unsupported.message(e.name, unsupported.CONSTANTS[e.name]))
        if decl is None:
            return self.error(e, f"use of undeclared identifier '{e.name}'")
        if isinstance(decl, A.FunctionDecl):
            return self.error(e, f"function '{e.name}' used as a value (OpenCL has no function "
                                 f"pointers)")
        if isinstance(decl, A.EnumConstant):
            return self.enum_constant_ref(e, decl)
        e.decl, e.type, e.lvalue = decl, decl.type, True
        self.note_use(decl)
        if isinstance(decl, A.VarDecl) and decl.sampler_bits is not None:
            return A.IntLiteral(e.loc, decl.sampler_bits, type=T.SAMPLER)  # a sampler is its constant
        if isinstance(decl, A.ParamDecl):  # parameters are private variables
            e.type = T.with_address_space(decl.type, T.AddressSpace.PRIVATE)
        return e

    def check_InitList(self, e: A.InitList) -> A.Expr:
        return self.error(e, "initializer list is only allowed in a declaration")

    def check_CompoundLiteral(self, e: A.CompoundLiteral) -> A.Expr:
        """A vector's or a scalar's compound literal is the value its brace list gives (clang's
        rule for vectors: lanes in order, the rest zero); an aggregate's would need storage."""
        target = self.resolve_type(e.type, e.loc)
        if target.is_error:
            return _poison(e)
        if target.is_vector:
            return self.vector_initializer(target.unqualified(), e.init)
        if target.is_scalar:
            return self.scalar_initializer(target.unqualified(), e.init, constant=False)
        return self.error(e, f"compound literals of type '{target}' are not supported (only of "
                             f"vector and scalar types)")

    # ---- unary operators ----------------------------------------------------------------------
    def check_Unary(self, e: A.Unary) -> A.Expr:
        e.operand = self.rvalue(e.operand)
        t = e.operand.type
        if t.is_vector and e.op is A.UnaryOp.LOGICAL_NOT:
            return self.vector_not(e)
        if e.op is A.UnaryOp.LOGICAL_NOT:
            e.operand = self.truth_value(e.operand)
            e.type = T.ERROR if e.operand.type.is_error else T.INT
            return e
        if t.is_error:
            return _poison(e)
        wanted_integer = e.op is A.UnaryOp.BIT_NOT
        if t.is_vector:
            if wanted_integer and not t.element.is_integer:
                return self.error(e, f"invalid argument type '{t}' to unary expression")
            e.type = t.unqualified()
            return e
        if not (t.is_integer if wanted_integer else t.is_arithmetic):
            return self.error(e, f"invalid argument type '{t}' to unary expression")
        e.operand = self.convert(e.operand, promote(t))
        e.type = promote(t)
        return e

    def check_AddressOf(self, e: A.AddressOf) -> A.Expr:
        e.operand = self.check(e.operand)
        if e.operand.type.is_error:
            return _poison(e)
        if not e.operand.lvalue:
            return self.error(e, "cannot take the address of an rvalue of type "
                                 f"'{e.operand.type}'")
        if isinstance(e.operand, (A.Swizzle, A.VectorIndex)):
            return self.error(e, "address of vector element requested")
        e.type = T.pointer_to(e.operand.type)
        return e

    def check_Deref(self, e: A.Deref) -> A.Expr:
        e.operand = self.rvalue(e.operand)
        t = e.operand.type
        if t.is_error:
            return _poison(e)
        if not t.is_pointer:
            return self.error(e, f"indirection requires pointer operand ('{t}' invalid)")
        if t.pointee.is_void:
            return self.error(e, f"indirection of a '{t}' pointer is not allowed")
        e.type, e.lvalue = t.pointee, True
        return e

    def check_IncDec(self, e: A.IncDec) -> A.Expr:
        e.operand = self.check(e.operand)
        t = e.operand.type
        if t.is_error:
            return _poison(e)
        if not self.require_modifiable(e.operand, e.loc):
            return _poison(e)
        if not (t.is_arithmetic or t.is_pointer or t.is_vector):
            return self.error(e, f"cannot increment or decrement value of type '{t}'")
        e.type = t.unqualified()
        return e

    def check_SizeOf(self, e: A.SizeOf) -> A.Expr:
        t = self.resolve_type(e.type_operand, e.loc) if e.type_operand is not None else \
            self.check(e.operand).type
        if t.is_error:
            return _poison(e)
        if e.vec_step:
            if t.is_vector:
                return A.IntLiteral(e.loc, 4 if t.count == 3 else t.count, type=T.INT)
            if t.is_arithmetic:
                return A.IntLiteral(e.loc, 1, type=T.INT)
            return self.error(e, f"invalid vec_step argument of type '{t.unqualified()}' (a scalar or vector type)")
        try:
            size = t.size  # raises for incomplete types, whose alignment is unknown too
            size = t.align if e.alignment else size
        except TypeError:
            name = "alignof" if e.alignment else "sizeof"
            return self.error(e, f"invalid application of '{name}' to type '{t}'")
        return A.IntLiteral(e.loc, size, type=T.SIZE_T)

    def check_Cast(self, e: A.Cast) -> A.Expr:
        e.operand = self.rvalue(e.operand)
        target = self.resolve_type(e.type, e.loc)
        source = e.operand.type
        if source.is_error or target.is_error:
            return _poison(e)
        if refused := self.refuse_half_cast(e, target):
            return refused
        if target.is_vector or (source.is_vector and not target.is_void):
            converted = self.vector_conversion(e.operand, target, explicit=True) \
                if target.is_vector else f"cannot cast from vector type '{source}' to '{target}'"
            return self.error(e, converted) if isinstance(converted, str) else converted
        kind = cast_kind(source, target) if (source.is_scalar or target.is_void) else None
        if kind is None or not (target.is_scalar or target.is_void):
            return self.error(e, f"cannot cast from type '{source}' to '{target}'")
        if source.is_pointer and target.is_pointer and not self.castable_spaces(source, target):
            return self.error(e, f"casting '{source}' to type '{target}' changes address space "
                                 f"of pointer")
        e.kind, e.type = kind, target.unqualified()
        return e

    @staticmethod
    def castable_spaces(source: T.PointerType, target: T.PointerType) -> bool:
        s, t = source.pointee.address_space, target.pointee.address_space
        return address_space_convertible(s, t) or address_space_convertible(t, s)

    # ---- binary operators ---------------------------------------------------------------------
    def check_Binary(self, e: A.Binary) -> A.Expr:
        e.left, e.right = self.rvalue(e.left), self.rvalue(e.right)
        lt, rt = e.left.type, e.right.type
        if (lt.is_vector or rt.is_vector) and not _has_error(e.left, e.right):
            return self.vector_binary(e, e.op in _INTEGER_ONLY)
        if e.op.is_logical:
            e.left, e.right = self.truth_value(e.left), self.truth_value(e.right)
            e.type = T.ERROR if _has_error(e.left, e.right) else T.INT
            return e
        if _has_error(e.left, e.right):
            return _poison(e)
        if lt.is_pointer or rt.is_pointer:
            return self.pointer_binary(e)
        if e.op in _INTEGER_ONLY and not (lt.is_integer and rt.is_integer) or \
                not (lt.is_arithmetic and rt.is_arithmetic):
            return self.invalid_operands(e)
        if e.op.is_shift:
            return self.shift(e)
        common = usual_arithmetic(lt, rt)
        e.left, e.right = self.convert(e.left, common), self.convert(e.right, common)
        e.type = T.INT if e.op.is_comparison else common
        return e

    def shift(self, e: A.Binary) -> A.Expr:
        result = promote(e.left.type)
        e.left = self.convert(e.left, result)
        e.right = self.convert(e.right, result)
        e.type = result
        return e

    def invalid_operands(self, e: A.Binary) -> A.Expr:
        return self.error(e, f"invalid operands to binary expression ('{e.left.type}' and "
                             f"'{e.right.type}')")

    def pointer_binary(self, e: A.Binary) -> A.Expr:
        lt, rt = e.left.type, e.right.type
        if e.op in (A.BinaryOp.ADD, A.BinaryOp.SUB) and lt.is_pointer and rt.is_integer:
            return self.pointer_arith(e, e.op, e.left, e.right)
        if e.op is A.BinaryOp.ADD and lt.is_integer and rt.is_pointer:
            return self.pointer_arith(e, e.op, e.right, e.left)
        if e.op is A.BinaryOp.SUB and lt.is_pointer and rt.is_pointer:
            if not compatible_pointees(lt, rt):
                return self.error(e, f"'{lt}' and '{rt}' are not pointers to compatible types")
            return A.PointerDiff(e.loc, e.left, e.right, type=T.PTRDIFF_T)
        if e.op.is_comparison:
            return self.pointer_compare(e)
        return self.invalid_operands(e)

    def pointer_arith(self, e: A.Expr, op: A.BinaryOp, pointer: A.Expr, offset: A.Expr) -> A.Expr:
        pointee = pointer.type.pointee
        if not has_size(pointee):
            return self.error(e, f"arithmetic on a pointer to incomplete type '{pointee}'")
        offset = self.convert(offset, T.LONG)
        return A.PointerArith(e.loc, op, pointer, offset, type=pointer.type.unqualified())

    def pointer_compare(self, e: A.Binary) -> A.Expr:
        lt, rt = e.left.type, e.right.type
        if lt.is_pointer and rt.is_pointer and compatible_pointees(lt, rt) and \
                self.castable_spaces(lt, rt):
            common = lt if address_space_convertible(rt.pointee.address_space,
                                                     lt.pointee.address_space) else rt
            e.left = self.convert_pointer_for_compare(e.left, common)
            e.right = self.convert_pointer_for_compare(e.right, common)
        elif lt.is_pointer and is_null_constant(e.right):
            e.right = implicit(e.right, A.CastKind.NULL_TO_POINTER, lt.unqualified())
        elif rt.is_pointer and is_null_constant(e.left):
            e.left = implicit(e.left, A.CastKind.NULL_TO_POINTER, rt.unqualified())
        else:
            return self.error(e, f"comparison of distinct pointer types ('{lt}' and '{rt}')")
        e.type = T.INT
        return e

    def convert_pointer_for_compare(self, e: A.Expr, target: T.PointerType) -> A.Expr:
        if e.type.unqualified() == target.unqualified():
            return e
        return implicit(e, A.CastKind.POINTER_TO_POINTER, target.unqualified())

    # ---- assignment, conditional, comma -------------------------------------------------------
    def require_modifiable(self, target: A.Expr, loc) -> bool:
        t = target.type
        if not target.lvalue:
            self.diags.error(loc, "expression is not assignable")
        elif t.is_array:
            self.diags.error(loc, f"array type '{t}' is not assignable")
        elif t.is_image or t.is_sampler:
            self.diags.error(loc, f"cannot assign to a variable of type '{t.unqualified()}' (images and "
                                  f"samplers are not assignable)")
        elif t.address_space is T.AddressSpace.CONSTANT:
            self.diags.error(loc, "cannot assign to a variable in the __constant address space")
        elif t.quals.const:
            self.diags.error(loc, f"cannot assign to a variable of const-qualified type '{t}'")
        elif not self.refuse_half_store(target, loc):
            return True
        return False

    def check_Assign(self, e: A.Assign) -> A.Expr:
        e.target = self.check(e.target)
        e.value = self.rvalue(e.value)
        if _has_error(e.target, e.value) or not self.require_modifiable(e.target, e.loc):
            return _poison(e)
        e.value = self.convert(e.value, e.target.type)
        e.type = e.target.type.unqualified()
        return e

    def check_CompoundAssign(self, e: A.CompoundAssign) -> A.Expr:
        e.target = self.check(e.target)
        e.value = self.rvalue(e.value)
        if _has_error(e.target, e.value) or not self.require_modifiable(e.target, e.loc):
            return _poison(e)
        t, vt = e.target.type.unqualified(), e.value.type
        e.type = t
        if t.is_pointer and e.op in (A.BinaryOp.ADD, A.BinaryOp.SUB) and vt.is_integer:
            e.value, e.computation_type = self.convert(e.value, T.LONG), t
            return e
        integer_only = e.op in _INTEGER_ONLY
        if t.is_vector:
            if (integer_only and not t.element.is_integer) or not (vt.is_arithmetic or vt.is_vector):
                return self.error(e, f"invalid operands to binary expression ('{t}' and '{vt}')")
            e.value, e.computation_type = self.widen(e.value, t), t
            return e
        if not (t.is_arithmetic and vt.is_arithmetic) or \
                (integer_only and not (t.is_integer and vt.is_integer)):
            return self.error(e, f"invalid operands to binary expression ('{t}' and '{vt}')")
        computation = promote(t) if e.op.is_shift else usual_arithmetic(t, vt)
        e.value = self.convert(e.value, computation)
        e.computation_type = computation
        e.to_computation, e.from_computation = cast_kind(t, computation), cast_kind(computation, t)
        return e

    def check_Conditional(self, e: A.Conditional) -> A.Expr:
        cond = self.rvalue(e.cond)
        e.then, e.else_ = self.rvalue(e.then), self.rvalue(e.else_)
        if cond.type.is_vector and not _has_error(cond, e.then, e.else_):
            e.cond = cond
            return self.vector_conditional(e)
        e.cond = self.truth_value(cond)
        if _has_error(e.cond, e.then, e.else_):
            return _poison(e)
        result = self.conditional_type(e.then, e.else_)
        if result is None:
            return self.error(e, f"incompatible operand types ('{e.then.type}' and "
                                 f"'{e.else_.type}')")
        if not result.is_void:
            e.then, e.else_ = self.convert(e.then, result), self.convert(e.else_, result)
        e.type = result
        return e

    def conditional_type(self, a: A.Expr, b: A.Expr) -> T.Type | None:
        at, bt = a.type.unqualified(), b.type.unqualified()
        if at.is_vector or bt.is_vector:
            vector = at if at.is_vector else bt
            other = bt if at.is_vector else at
            return vector if other == vector or other.is_arithmetic else None
        if at.is_arithmetic and bt.is_arithmetic:
            return usual_arithmetic(at, bt)
        if at.is_void and bt.is_void:
            return T.VOID
        if at.is_record and at == bt:
            return at
        if at.is_pointer and (at == bt or is_null_constant(b)):
            return at
        if bt.is_pointer and is_null_constant(a):
            return bt
        if at.is_pointer and bt.is_pointer and pointer_assignable(bt, at):
            return at
        if at.is_pointer and bt.is_pointer and pointer_assignable(at, bt):
            return bt
        return None

    def check_Comma(self, e: A.Comma) -> A.Expr:
        e.left = self.check(e.left)
        e.right = self.rvalue(e.right)
        e.type = e.right.type
        return e

    # ---- postfix ------------------------------------------------------------------------------
    def check_Index(self, e: A.Index) -> A.Expr:
        e.base = self.check(e.base)
        if e.base.type is not None and e.base.type.is_vector:
            return self.vector_index(e)
        e.base, e.index = self.to_rvalue(e.base), self.rvalue(e.index)
        if _has_error(e.base, e.index):
            return _poison(e)
        if e.index.type.is_pointer and e.base.type.is_integer:
            e.base, e.index = e.index, e.base  # i[a] is a[i]
        if not e.base.type.is_pointer:
            return self.error(e, "subscripted value is not an array or pointer")
        if not e.index.type.is_integer:
            return self.error(e, "array subscript is not an integer")
        if not has_size(e.base.type.pointee):
            return self.error(e, f"subscript of pointer to incomplete type '{e.base.type.pointee}'")
        e.index = self.convert(e.index, T.LONG)
        e.type, e.lvalue = e.base.type.pointee, True
        return e

    def check_Call(self, e: A.Call) -> A.Expr:
        return self.check_call(e)


def has_size(t: T.Type) -> bool:
    """Whether values of `t` have a size, so that pointers to it can be indexed and stepped."""
    if t.is_void or t.is_function or (t.is_array and t.length is None):
        return False
    return not (t.is_record and not t.record.is_complete)


def _has_error(*exprs: A.Expr) -> bool:
    return any(x.type is None or x.type.is_error for x in exprs)


def _poison(e: A.Expr) -> A.Expr:
    e.type, e.lvalue = T.ERROR, False
    return e
