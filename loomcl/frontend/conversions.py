"""C's conversion rules (C 6.3) as pure functions on types.

* `promote`: the integer promotions (everything narrower than int becomes int; bool too).
* `usual_arithmetic`: the common type of two arithmetic operands (C 6.3.1.8): the wider floating
  type if either is floating (half < float < double); otherwise promote both and pick the higher
  rank, preferring unsigned at equal rank, or the signed type if it can hold every value of the
  unsigned one, else the unsigned version of the signed type.
* `cast_kind`: which `CastKind` converts a value of one scalar type to another, or None.
* `pointer_assignable`: whether a pointer may be implicitly converted to another (same pointee up to
  added qualifiers, void* on either side, into the generic address space from a named one).

Sema uses these to materialize every implicit conversion as a Cast node.
"""
from __future__ import annotations

from . import types as T
from .ast import CastKind


def promote(t: T.Type) -> T.Type:
    t = t.unqualified()
    if t.is_integer and t.rank < T.INT.rank:
        return T.INT
    return t


def usual_arithmetic(a: T.Type, b: T.Type) -> T.Type:
    a, b = a.unqualified(), b.unqualified()
    if a.is_floating or b.is_floating:
        floats = [t for t in (a, b) if t.is_floating]
        return max(floats, key=lambda t: t.bits)
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.rank > b.rank else b
    unsigned, signed = (a, b) if not a.signed else (b, a)
    if unsigned.rank >= signed.rank:
        return unsigned
    if signed.bits > unsigned.bits:
        return signed
    return T.to_unsigned(signed)


def cast_kind(source: T.Type, target: T.Type) -> CastKind | None:
    """The conversion of a scalar value of type source to type target (explicit-cast rules)."""
    s, t = source.unqualified(), target.unqualified()
    if t.is_void:
        return CastKind.TO_VOID
    if t.is_bool:
        return _to_bool(s)
    if s == t:
        return CastKind.NOOP
    if s.is_integer and t.is_integer:
        return CastKind.INTEGRAL
    if s.is_integer and t.is_floating:
        return CastKind.INT_TO_FLOAT
    if s.is_floating and t.is_integer:
        return CastKind.FLOAT_TO_INT
    if s.is_floating and t.is_floating:
        return CastKind.FLOAT_TO_FLOAT
    if s.is_pointer and t.is_pointer:
        return CastKind.POINTER_TO_POINTER if s != t else CastKind.NOOP
    if s.is_integer and t.is_pointer:
        return CastKind.INT_TO_POINTER
    if s.is_pointer and t.is_integer:
        return CastKind.POINTER_TO_INT
    return None


def _to_bool(s: T.Type) -> CastKind | None:
    if s.is_bool:
        return CastKind.NOOP
    if s.is_integer:
        return CastKind.INT_TO_BOOL
    if s.is_floating:
        return CastKind.FLOAT_TO_BOOL
    if s.is_pointer:
        return CastKind.POINTER_TO_BOOL
    return None


def address_space_convertible(source: T.AddressSpace | None, target: T.AddressSpace | None) -> bool:
    """Whether a pointer into source may be used as a pointer into target (OpenCL C 2.0 6.5.5):
    the same space, or into generic from any space but constant."""
    if source == target:
        return True
    return target is T.AddressSpace.GENERIC and source is not T.AddressSpace.CONSTANT


def pointer_assignable(source: T.PointerType, target: T.PointerType) -> bool:
    """Implicit pointer conversion (C 6.5.16.1 constraints, with OpenCL address spaces)."""
    sp, tp = source.pointee, target.pointee
    if not address_space_convertible(sp.address_space, tp.address_space):
        return False
    if not tp.quals.includes(sp.quals):
        return False
    su, tu = _strip(sp), _strip(tp)
    return su == tu or su.is_void or tu.is_void


def pointer_warning(source: T.Type, target: T.Type) -> str | None:
    """The warning flag of a pointer conversion that C forbids but clang only warns about (and
    does): pointees of different types, or a target pointee that lacks some of the source's
    qualifiers. None when the conversion is not such a case (an address space change is an error)."""
    if not (source.is_pointer and target.is_pointer):
        return None
    sp, tp = source.pointee, target.pointee
    if not address_space_convertible(sp.address_space, tp.address_space):
        return None
    su, tu = _strip(sp), _strip(tp)
    if not (su == tu or su.is_void or tu.is_void):
        return "incompatible-pointer-types"
    return None if tp.quals.includes(sp.quals) else "incompatible-pointer-types-discards-qualifiers"


def _strip(t: T.Type) -> T.Type:
    """t without its own qualifiers and without address spaces inside arrays."""
    if isinstance(t, T.ArrayType):
        return T.array_of(_strip(t.element), t.length)
    return t.unqualified()


def compatible_pointees(a: T.PointerType, b: T.PointerType) -> bool:
    """Whether two pointers may be compared or subtracted: same pointee type, ignoring qualifiers."""
    return _strip(a.pointee) == _strip(b.pointee)


def conversion_rank(source: T.Type, target: T.Type) -> int | None:
    """How good an implicit conversion is, for overload resolution: 0 exact, 1 promotion,
    2 conversion, 3 scalar-to-vector splat, None impossible (C++ 16.3.3.1's ranks, which clang
    applies to OpenCL builtins)."""
    s, t = source.unqualified(), target.unqualified()
    if s == t:
        return 0
    if s.is_arithmetic and t.is_arithmetic:
        is_promotion = (s.is_integer and t == T.INT and s.rank < T.INT.rank) or \
                       (s == T.FLOAT and t == T.DOUBLE)
        return 1 if is_promotion else 2
    if s.is_arithmetic and not s.is_vector and t.is_vector:
        return 3    # a scalar splat into every lane (clang's vector splat: rotate(v, 24u)); ranked
        #             below a scalar conversion, so that a scalar overload wins over a vector one
    if s.is_integer and t.is_event:
        return 2    # only the constant 0 converts (sema checks the argument itself)
    if s.is_pointer and t.is_pointer and pointer_assignable(s, t):
        exact = _strip(s.pointee) == _strip(t.pointee) and \
            s.pointee.address_space == t.pointee.address_space
        return 0 if exact else 2
    return None
