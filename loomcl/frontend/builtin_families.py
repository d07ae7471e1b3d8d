"""Builtins whose names spell their types, too many to list as rows (OpenCL C 6.12.3.2, 6.2.4.2,
6.12.7): `vloadN`/`vstoreN`, `vload[a]_half[N]`/`vstore[a]_half[N][_<rounding>]`,
`convert_<type>[_sat][_<rounding>]` and `as_<type>`.

`overloads(name)` gives the overloads of such a name, generated on first use: vloadN over every
element type and address space, the half forms from float (loads) and from float or double (stores)
in every address space that the spec allows (no stores to __constant), convert_ from every arithmetic
type with the target's lane count, as_ from every type of the target's size (a 3-lane vector only
from and to 3-lane vectors). `vloada_half`/`vstorea_half` without N are clang's scalar spellings.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import types as T

_ELEMENTS = (*T.INTEGER_TYPES, T.FLOAT, T.DOUBLE)
_SIZES = (2, 3, 4, 8, 16)
_SPACES = (T.AddressSpace.GLOBAL, T.AddressSpace.LOCAL, T.AddressSpace.CONSTANT, T.AddressSpace.PRIVATE)
_ROUNDING = ("rte", "rtz", "rtp", "rtn")
_NAMED = {t.name: t for t in _ELEMENTS}
_VLOAD = re.compile(r"v(load|store)(2|3|4|8|16)")
_VLOAD_HALF = re.compile(r"vload(a?)_half(2|3|4|8|16)?")
_VSTORE_HALF = re.compile(r"vstore(a?)_half(2|3|4|8|16)?(?:_(rte|rtz|rtp|rtn))?")
# a half pointer may also be generic (OpenCL C 2.0), e.g. a parameter of a helper function
_HALF_SPACES = _SPACES + (T.AddressSpace.GENERIC,)
_CONVERT = re.compile(r"convert_([a-z]+?)(2|3|4|8|16)?(_sat)?(?:_(rte|rtz|rtp|rtn))?")
_AS = re.compile(r"as_([a-z]+?)(2|3|4|8|16)?")


def _every_type():
    for element in _ELEMENTS:
        yield element
        for n in _SIZES:
            yield T.vector_of(element, n)


def _typed(element_name: str, count: str | None) -> T.Type | None:
    element = _NAMED.get(element_name)
    if element is None:
        return None
    return T.vector_of(element, int(count)) if count else element


def _lanes(t: T.Type) -> int:
    return t.count if t.is_vector else 1


@lru_cache(maxsize=None)
def overloads(name: str):
    from .builtins import Builtin, Overload

    if m := _VLOAD.fullmatch(name):
        n = int(m.group(2))
        out = []
        for element in _ELEMENTS:
            vector = T.vector_of(element, n)
            for space in _SPACES:
                if m.group(1) == "load":
                    pointee = element.with_quals(T.Qualifiers(const=True, address_space=space))
                    out.append(Overload(name, Builtin.VLOAD, vector, (T.SIZE_T, T.pointer_to(pointee))))
                elif space is not T.AddressSpace.CONSTANT:
                    pointee = element.with_quals(T.Qualifiers(address_space=space))
                    out.append(Overload(name, Builtin.VSTORE, T.VOID,
                                        (vector, T.SIZE_T, T.pointer_to(pointee))))
        return tuple(out)
    if m := _VLOAD_HALF.fullmatch(name):
        return tuple(_half_overloads(name, m.group(2), load=True))
    if m := _VSTORE_HALF.fullmatch(name):
        return tuple(_half_overloads(name, m.group(2), load=False))
    if m := _CONVERT.fullmatch(name):
        target = _typed(m.group(1), m.group(2))
        if target is None or (m.group(4) and not m.group(4) in _ROUNDING):
            return ()
        return tuple(Overload(name, Builtin.CONVERT, target, (source,)) for source in _every_type()
                     if _lanes(source) == _lanes(target))
    if m := _AS.fullmatch(name):
        target = _typed(m.group(1), m.group(2))
        if target is None:
            return ()
        # A 3-vector takes the size of a 4-vector: as_int3(float4) keeps lanes 0-2, as_int4(float3)
        # leaves lane 3 undefined (OpenCL C 3.0 6.4.4.2); clang's __builtin_astype allows both.
        return tuple(Overload(name, Builtin.AS_TYPE, target, (source,)) for source in _every_type()
                     if source.size == target.size)
    return ()


def _half_overloads(name: str, count: str | None, load: bool):
    """`floatN vload_halfN(size_t, const AS half *)` and `void vstore_halfN(floatN or doubleN, size_t,
    AS half *)` over the address spaces (no stores to __constant)."""
    from .builtins import Builtin, Overload

    builtin = Builtin.VLOAD_HALF if load else Builtin.VSTORE_HALF
    for space in _HALF_SPACES:
        half = T.HALF.with_quals(T.Qualifiers(const=load, address_space=space))
        if load:
            yield Overload(name, builtin, _typed("float", count), (T.SIZE_T, T.pointer_to(half)))
        elif space is not T.AddressSpace.CONSTANT:
            for element in ("float", "double"):
                yield Overload(name, builtin, T.VOID, (_typed(element, count), T.SIZE_T, T.pointer_to(half)))
