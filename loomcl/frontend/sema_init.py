"""Semantic analysis of initializers (C 6.7.9), as far as OpenCL C kernels need them.

A scalar is initialized by an expression (optionally in braces) converted to its type; a vector by
an expression or a brace list of scalars and vectors filling its lanes in order, the rest zero. An array is
initialized by a brace list; nested arrays take either a nested brace list or, with brace elision,
the next run of scalars (`int a[2][2] = {1, 2, 3, 4}`). `float c[] = {...}` takes its length from
the list. Missing trailing elements are zero (the AST records only the ones written).

A struct is initialized by an expression of its type or by a brace list that fills its members in
order; `.name = value` places an item at a member and goes on from there (C 6.7.9p17). A union's
list initializes one member, the first or the designated one. The checked list of a record holds
one item per member, None for those left zero. Brace elision reaches into arrays, not into structs
(a struct member takes a brace list or an expression of its type).

When the variable needs a constant initializer (program scope and `__constant`), each scalar is
folded and replaced by an IntLiteral/FloatLiteral of the element type, so the lowering can emit the
data directly.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from .constfold import fold, round_to
from .sema_string import string_for_char_array


class InitializerChecker:
    """Mixin for Sema."""

    def check_initializer(self, t: T.Type, init: A.Expr, constant: bool) -> tuple[A.Expr, T.Type]:
        """The checked initializer and the variable's type (completed if it was `T x[]`)."""
        literal = string_for_char_array(t, init)
        if literal is not None:
            result = self.string_initializer(t, literal)
            return result, result.type
        if t.is_record and isinstance(init, A.InitList):
            return self.record_initializer(t, init, constant), t
        if t.is_vector and isinstance(init, A.InitList):
            literal = self.vector_initializer(t.unqualified(), init)
            return (self.constant_literal(literal, t) if constant else literal), t
        if not t.is_array:
            return self.scalar_initializer(t, init, constant), t
        if not isinstance(init, A.InitList):
            self.diags.error(init.loc, "array initializer must be an initializer list")
            return init, t
        result, used = self.array_initializer(t, init.items, 0, init.loc, constant)
        if used < len(init.items):
            self.diags.error(init.items[used].loc, "excess elements in array initializer")
        return result, result.type

    def array_initializer(self, t: T.ArrayType, items: list[A.Expr], pos: int, loc,
                          constant: bool) -> tuple[A.InitList, int]:
        out: list[A.Expr] = []
        while pos < len(items) and (t.length is None or len(out) < t.length):
            item = items[pos]
            if t.element.is_array and isinstance(item, A.InitList):
                sub, used = self.array_initializer(t.element, item.items, 0, item.loc, constant)
                if used < len(item.items):
                    self.diags.error(item.items[used].loc, "excess elements in array initializer")
                out.append(sub)
                pos += 1
            elif t.element.is_array and string_for_char_array(t.element, item) is None:
                sub, pos = self.array_initializer(t.element, items, pos, item.loc, constant)
                out.append(sub)
            else:
                out.append(self.check_initializer(t.element, item, constant)[0])
                pos += 1
        length = t.length if t.length is not None else len(out)
        return A.InitList(loc, out, type=T.array_of(t.element, length, t.quals)), pos

    def record_initializer(self, t: T.RecordType, init: A.InitList, constant: bool) -> A.InitList:
        fields = t.record.fields
        out: list[A.Expr | None] = [None] * len(fields)
        at = 0
        for item in init.items:
            designated = isinstance(item, A.Designation)
            if designated:
                at = next((i for i, f in enumerate(fields) if f.name == item.name), None)
                if at is None:
                    self.diags.error(item.loc, f"field designator '{item.name}' does not refer to "
                                               f"any field in type '{t.base_spelling()}'")
                    return init
                item = item.value
            if at >= len(fields) or (t.record.is_union and at > 0 and not designated):
                self.diags.error(item.loc, f"excess elements in {t.record.kind} initializer")
                return init
            if t.record.is_union:
                out = [None] * len(fields)
            out[at] = self.check_initializer(fields[at].type, item, constant)[0]
            at += 1
        return A.InitList(init.loc, out, type=t.unqualified())

    def vector_initializer(self, t: T.VectorType, init: A.InitList) -> A.Expr:
        """`float4 f = {x, v.yz}`: lanes in order, the rest zero (clang's rule for vectors), as a
        checked vector literal."""
        lanes, converted = 0, []
        for item in init.items:
            item = self.rvalue(item)
            if item.type.is_error:
                return item
            if item.type.is_vector and item.type.element == t.element:
                lanes += item.type.count
            elif item.type.is_arithmetic:
                item, lanes = self.convert(item, t.element), lanes + 1
            else:
                return self.error(item, f"initializing a '{t}' lane with an expression of "
                                        f"incompatible type '{item.type}'")
            converted.append(item)
        if lanes > t.count:
            return self.error(init, f"excess elements in vector initializer ('{t}' has {t.count})")
        zero = A.IntLiteral(init.loc, 0, type=T.INT)
        converted += [self.convert(zero, t.element) for _ in range(t.count - lanes)]
        return A.VectorLiteral(init.loc, converted, type=t)

    def scalar_initializer(self, t: T.Type, init: A.Expr, constant: bool) -> A.Expr:
        if isinstance(init, A.InitList):
            if len(init.items) != 1:
                self.diags.error(init.loc, "scalar initializer must hold exactly one element")
                return init
            init = init.items[0]
        value = self.convert(self.rvalue(init), t,
                             "initializing '{target}' with an expression of incompatible type "
                             "'{source}'")
        return self.constant_literal(value, t) if constant else value

    def constant_literal(self, e: A.Expr, t: T.Type) -> A.Expr:
        if e.type.is_error:
            return e
        if t.is_vector:
            return self.constant_vector(e, t.unqualified())
        value = fold(e)
        if value is None:
            self.diags.error(e.loc, "initializer element is not a compile-time constant")
            return e
        t = t.unqualified()
        value = round_to(t, value)
        if t.is_integer:
            return A.IntLiteral(e.loc, value, type=t)
        return A.FloatLiteral(e.loc, value, type=t)

    def constant_vector(self, e: A.Expr, t: T.VectorType) -> A.Expr:
        """A vector literal of folded lanes (`(float4)(1.0f, v.xy...)` with constant parts, or a
        splat): one literal per lane, in order."""
        lanes = self.constant_lanes(e)
        if lanes is None:
            self.diags.error(e.loc, "initializer element is not a compile-time constant")
            return e
        if len(lanes) == 1:
            lanes *= t.count
        return A.VectorLiteral(e.loc, [self.constant_literal(lane, t.element) for lane in lanes], type=t)

    def constant_lanes(self, e: A.Expr) -> list[A.Expr] | None:
        """The lane expressions of a constant vector expression, or None if it is not one."""
        if isinstance(e, A.VectorLiteral):
            lanes: list[A.Expr] = []
            for item in e.items:
                if item.type.is_vector:
                    inner = self.constant_lanes(item)
                    if inner is None:
                        return None
                    lanes += inner
                else:
                    lanes.append(item)
            return lanes
        if isinstance(e, A.Cast) and e.type.is_vector and not e.operand.type.is_vector:
            return [e.operand]  # a scalar widened to every lane
        return None
