"""Semantic analysis of OpenCL's vector types (spec 6.1.2, 6.1.7, 6.3): literals, swizzles and the
component-wise operators.

Rules, as clang applies them to OpenCL C:
* An operator with two vector operands needs one vector type on both sides; with a vector and a
  scalar, the scalar is converted to the element type and copied into every lane
  (`SCALAR_TO_VECTOR`). Implicit conversions between vector types do not exist, and explicit casts
  between them are refused too (spec 6.2.2): `convert_T()` and `as_T()` are the ways.
* Comparisons, `!`, `&&` and `||` on vectors give the signed integer vector of the same lane width
  with -1 for true and 0 for false (`types.mask_type`); `&&` and `||` evaluate both sides.
* `c ? a : b` with a vector `c` selects per lane by the most significant bit of c (spec 6.3.i).
* Swizzles: `.xyzw` (and `.rgba`), `.s0`..`.sF`, `.lo .hi .even .odd`. A swizzle of an lvalue with
  no lane repeated is an lvalue. The 4th lane named by `.hi`/`.odd` of a 3-lane vector does not exist:
  it reads as an undefined value and writes nowhere (`Swizzle` lane index 3).
* `v[i]` (clang's extension) picks lane i by any integer; an lvalue when v is one. Like a swizzle
  it has no address. An index outside the vector is undefined, as in clang.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from .constfold import fold_int
from .conversions import usual_arithmetic

_XYZW = {c: i for i, c in enumerate("xyzw")}
_RGBA = {c: i for i, c in enumerate("rgba")}
_VECTOR_SIZES = (2, 3, 4, 8, 16)


def swizzle_lanes(name: str, count: int) -> tuple[int, ...] | str:
    """The lanes that `name` selects from a vector of `count` lanes, or why it selects none."""
    padded = 4 if count == 3 else count
    halves = {"lo": range(padded // 2), "hi": range(padded // 2, padded),
              "even": range(0, padded, 2), "odd": range(1, padded, 2)}
    if name in halves:
        return tuple(halves[name])
    if name[0] in "sS" and len(name) > 1:
        try:
            lanes = tuple(int(c, 16) for c in name[1:])
        except ValueError:
            return f"illegal vector component name '{name}'"
    else:
        letters = _XYZW if name[0] in _XYZW else _RGBA
        if any(c not in letters for c in name):
            return f"illegal vector component name '{name}'"
        lanes = tuple(letters[c] for c in name)
    if any(lane >= count for lane in lanes):
        return f"vector component name '{name}' is out of range for a vector of {count} components"
    return lanes


class VectorChecker:
    """Mixin for Sema's ExpressionChecker: needs check/rvalue/convert/error/diags."""

    # ---- literals and swizzles ----------------------------------------------------------------
    def check_VectorLiteral(self, e: A.VectorLiteral) -> A.Expr:
        target = self.resolve_type(e.type, e.loc)
        items = [self.rvalue(item) for item in e.items]
        if target.is_error or any(i.type.is_error for i in items):
            return _poison(e)
        element = target.element
        if len(items) == 1 and items[0].type.is_arithmetic:
            e.items = [self.convert(items[0], element)]
            e.type = target
            return e
        lanes = 0
        converted = []
        for item in items:
            t = item.type.unqualified()
            if t.is_vector:
                if t.element != element:
                    return self.error(item, f"cannot use a '{t}' in a '{target}' literal: its "
                                            f"elements are not '{element}'")
                lanes += t.count
                converted.append(item)
            elif t.is_arithmetic:
                lanes += 1
                converted.append(self.convert(item, element))
            else:
                return self.error(item, f"invalid operand of type '{t}' in a vector literal")
        if lanes != target.count:
            return self.error(e, f"a '{target}' literal needs {target.count} components, not {lanes}")
        e.items, e.type = converted, target
        return e

    def check_Member(self, e: A.Member) -> A.Expr:
        base = self.check(e.base)
        t = base.type
        if t.is_error:
            return _poison(e)
        record_member = self.check_record_member(e, base)
        if record_member is not None:
            return record_member
        if e.arrow:
            if not (t.is_pointer and t.pointee.is_vector):
                return self.error(e, f"member reference type '{t}' is not a pointer to a structure")
            return self.error(e, f"member reference type '{t}' is a pointer to a vector; "
                                 f"use '.' on '*p'")
        if not t.is_vector:
            return self.error(e, f"member reference base type '{t.unqualified()}' is not a structure, union "
                                 f"or vector")
        lanes = swizzle_lanes(e.name, t.count)
        if isinstance(lanes, str):
            return self.error(e, lanes)
        if len(lanes) not in (1, *_VECTOR_SIZES):
            return self.error(e, f"vector swizzle '{e.name}' selects {len(lanes)} components; "
                                 f"OpenCL has no vector of that size")
        element = t.element.unqualified()
        result = element if len(lanes) == 1 else T.vector_of(element, len(lanes))
        if base.lvalue:
            result = result.with_quals(T.Qualifiers(const=t.quals.const,
                                                    address_space=t.address_space))
        lvalue = base.lvalue and len(set(lanes)) == len(lanes)
        if not base.lvalue:
            base = self.to_rvalue(base)
        return A.Swizzle(e.loc, base, lanes, type=result, lvalue=lvalue)

    def vector_index(self, e: A.Index) -> A.Expr:
        """`v[i]` on a checked vector base: its lane i, an lvalue when v is one."""
        base, index = e.base, self.rvalue(e.index)
        if index.type.is_error:
            return _poison(e)
        if not index.type.is_integer:
            return self.error(e, "array subscript is not an integer")
        lane = fold_int(index)
        if lane is not None and not 0 <= lane < base.type.count:
            return self.error(e, f"vector index {lane} is out of range for '{base.type.unqualified()}'")
        if isinstance(base, A.Swizzle):
            base = self.to_rvalue(base)     # lanes of lanes: readable, not assignable
        t = base.type
        result = t.element.unqualified()
        if base.lvalue:
            result = result.with_quals(T.Qualifiers(const=t.quals.const, volatile=t.quals.volatile,
                                                    address_space=t.address_space))
        else:
            base = self.to_rvalue(base)
        return A.VectorIndex(e.loc, base, self.convert(index, T.LONG), type=result, lvalue=base.lvalue)

    # ---- conversions --------------------------------------------------------------------------
    def vector_conversion(self, e: A.Expr, target: T.Type, explicit: bool = False):
        """e converted to the vector type target (a scalar is widened), or an error message."""
        source = e.type.unqualified()
        target = target.unqualified()
        if source == target:
            return e
        if source.is_vector:
            if explicit:
                return (f"cannot cast from vector type '{source}' to vector type '{target}'; use "
                        f"convert_{target}() or as_{target}()")
            return f"cannot convert between vector values of different types ('{source}' and '{target}')"
        if not source.is_arithmetic:
            return f"cannot convert '{source}' to vector type '{target}'"
        element = self.convert(e, target.element)
        return A.Cast(e.loc, A.CastKind.SCALAR_TO_VECTOR, element, implicit=True, type=target)

    def widen(self, e: A.Expr, target: T.Type) -> A.Expr:
        converted = self.vector_conversion(e, target)
        if isinstance(converted, str):
            return self.error(e, converted)
        return converted

    # ---- operators ----------------------------------------------------------------------------
    def vector_operand_type(self, e: A.Binary, left: A.Expr, right: A.Expr) -> T.Type | None:
        lt, rt = left.type.unqualified(), right.type.unqualified()
        if lt.is_vector and rt.is_vector and lt != rt:
            self.diags.error(e.loc, f"cannot convert between vector values of different types "
                                    f"('{lt}' and '{rt}')")
            return None
        vector = lt if lt.is_vector else rt
        other = rt if lt.is_vector else lt
        if not (other.is_arithmetic or other.is_vector):
            self.diags.error(e.loc, f"invalid operands to binary expression ('{lt}' and '{rt}')")
            return None
        return vector

    def vector_binary(self, e: A.Binary, integer_only: bool) -> A.Expr:
        t = self.vector_operand_type(e, e.left, e.right)
        if t is None:
            return _poison(e)
        if e.op.is_shift and not e.left.type.is_vector:
            return self.error(e, f"the left operand of '{e.op.value}' cannot be a scalar when the "
                                 f"right is a vector ('{e.left.type}')")
        if (integer_only or e.op.is_shift) and not t.element.is_integer:
            return self.invalid_operands(e)
        e.left, e.right = self.widen(e.left, t), self.widen(e.right, t)
        logical_or_compare = e.op.is_comparison or e.op.is_logical
        e.type = T.mask_type(t) if logical_or_compare else t
        return e

    def vector_not(self, e: A.Unary) -> A.Expr:
        e.type = T.mask_type(e.operand.type.unqualified())
        return e

    def vector_conditional(self, e: A.Conditional) -> A.Expr:
        ct = e.cond.type.unqualified()
        if not ct.element.is_integer:
            return self.error(e.cond, f"a vector condition must have integer elements ('{ct}')")
        arms = [a.type.unqualified() for a in (e.then, e.else_)]
        vectors = [t for t in arms if t.is_vector]
        result = vectors[0] if vectors else T.vector_of(usual_arithmetic(*arms), ct.count)
        if result.count != ct.count or any(v != result for v in vectors):
            return self.error(e, f"incompatible operand types for a '{ct}' condition "
                                 f"('{arms[0]}' and '{arms[1]}')")
        if result.element.size != ct.element.size:
            return self.error(e, f"the condition '{ct}' and the result '{result}' of '?:' need "
                                 f"elements of the same size")
        e.then, e.else_ = self.widen(e.then, result), self.widen(e.else_, result)
        e.type = result
        return e


def _poison(e: A.Expr) -> A.Expr:
    e.type, e.lvalue = T.ERROR, False
    return e
