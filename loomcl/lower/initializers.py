"""Initializers: of private variables (stores at the declaration) and of program-scope `__constant`
data (a flat list of scalar values, the form `GlobalVariable.initializer` holds).

Both follow C 6.7.9: brace lists fill arrays element by element and structs member by member
(sema gave a struct's list one item per member, None for zero), nested lists fill sub-aggregates,
and elements without an initializer are zero. A scalar may be wrapped in braces (`int x = {3};`).
A union is zeroed member by member, then its initialized member is stored.
"""
from __future__ import annotations

from ..frontend import ast as A
from ..frontend import types as T
from ..frontend.constfold import fold
from ..ir import types as ty
from ..ir.values import Constant, Value
from .casts import zero
from .errors import LoweringError, unsupported
from .types import memory_type, record_type

# Past this many elements a private array initializer would unroll into too many stores.
MAX_UNROLLED_ELEMENTS = 4096


class InitializerLowering:
    """Mixin of FunctionLowerer: needs `self.b`, `self.value` and `self.store_to`."""

    def initialize(self, address: Value, t: T.Type, init: A.Expr | None) -> None:
        """Store init (an expression, an InitList, or None for zero) into the object at address."""
        if t.is_array:
            self._initialize_array(address, t, init)
        elif t.is_record and (init is None or isinstance(init, A.InitList)):
            self._initialize_record(address, t.record, init.items if init is not None else [])
        elif isinstance(init, A.InitList):
            self.initialize(address, t, init.items[0] if init.items else None)
        elif init is None:  # a zero of the element's memory type (a splat for a vector)
            self.b.store(zero(memory_type(t)), address)
        else:
            self.store_to(self.value(init), address, t)

    def _initialize_array(self, address: Value, t: T.ArrayType, init: A.Expr | None) -> None:
        if init is not None and not isinstance(init, A.InitList):
            raise unsupported(f"initializing an array from '{type(init).__name__}'", init.loc)
        if scalar_count(t) > MAX_UNROLLED_ELEMENTS:
            raise unsupported(f"an initializer for an array of {t.length} elements",
                              init.loc if init is not None else None)
        items = init.items if init is not None else []
        element = memory_type(t.element)
        for i in range(t.length):
            slot = self.b.element_ptr(element, address, Constant(ty.i64, i))
            self.initialize(slot, t.element, items[i] if i < len(items) else None)


    def _initialize_record(self, address: Value, record: T.Record, items: list) -> None:
        if record.is_union:
            for f in record.fields if not any(items) else ():
                self.initialize(address, f.type, None)
            for f, item in zip(record.fields, items):
                if item is not None:
                    self.initialize(address, f.type, item)
            return
        struct = record_type(record)
        for i, f in enumerate(record.fields):
            item = items[i] if i < len(items) else None
            self.initialize(self.b.field_ptr(struct, address, i), f.type, item)


def scalar_count(t: T.Type) -> int:
    return t.length * scalar_count(t.element) if t.is_array else 1


def flat_initializer(t: T.Type, init: A.Expr | None) -> list[int | float]:
    """The scalar values of an object of type t, in memory order, from a constant initializer."""
    if t.is_array:
        items = init.items if isinstance(init, A.InitList) else []
        values: list[int | float] = []
        for i in range(t.length):
            values += flat_initializer(t.element, items[i] if i < len(items) else None)
        return values
    if t.is_record:
        return _flat_record(t.record, init)
    if t.is_vector:  # sema made a constant vector one literal per lane
        lanes = init.items if isinstance(init, A.VectorLiteral) else [None] * t.count
        return [v for lane in lanes for v in flat_initializer(t.element, lane)]
    if isinstance(init, A.InitList):
        return flat_initializer(t, init.items[0] if init.items else None)
    if init is None:
        return [0.0 if t.is_floating else 0]
    value = fold(init)
    if value is None:
        raise LoweringError("initializer of a __constant variable is not a constant", init.loc)
    return [float(value) if t.is_floating else int(value)]


def _flat_record(record: T.Record, init: A.Expr | None) -> list[int | float]:
    if record.is_union:
        raise unsupported("a union in a __constant variable")
    if init is not None and not isinstance(init, A.InitList):
        raise LoweringError("initializer of a __constant struct is not a constant", init.loc)
    items = init.items if init is not None else []
    values: list[int | float] = []
    for i, f in enumerate(record.fields):
        values += flat_initializer(f.type, items[i] if i < len(items) else None)
    tail = record_type(record).fields[len(record.fields):]  # an `aligned` record's tail padding
    return values + [0] * sum(pad.count for pad in tail)
