"""Semantic analysis of structs, unions and enums (C 6.7.2.1-6.7.2.3, 6.5.2.3).

A record is laid out where it is defined (`RecordDecl`), or before if a type naming it is resolved
first (a definition inside a parameter list or a cast), by `complete_record`: its
members' types are resolved like a variable's (array lengths folded, pointee address spaces
defaulted) and `types.Record.complete` computes the offsets. A record under layout is incomplete,
so a struct that contains itself is reported, while one that points to itself is fine.

`s.m` and `p->m` become `Member` nodes with their `Field`; a member reached through anonymous
members becomes a chain of them. The member's type takes the object's qualifiers and address
space, so `p->a[i]` on a `__global struct S *p` stays in global memory.

Enum constants are int constants: their references become IntLiterals, so nothing of an enum is
left after sema.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from .constfold import fold_int

MAX_ALIGNMENT = 16


class RecordChecker:
    """Mixin for Sema: needs resolve_type, rvalue, to_rvalue, error, declare and diags."""

    # ---- layout -------------------------------------------------------------------------------
    def complete_record(self, record: T.Record) -> None:
        if record.is_complete or record.body is None or record.laying_out:
            return
        record.laying_out = True
        members: list[tuple[str | None, T.Type]] = []
        for loc, name, t in record.body:
            t = self.resolve_type(t, loc)
            if self.valid_member(record, members, loc, name, t):
                members.append((name, t))
        record.laying_out = False
        record.complete(members, self.requested_alignment(record))

    def requested_alignment(self, record: T.Record) -> int:
        """The largest N of the record's `aligned(N)` attributes (GCC: `aligned` alone means the
        target's largest useful alignment, here a 16-byte vector); 1 if none."""
        align = 1
        for attr in record.attributes:
            if not attr.args:
                align = max(align, MAX_ALIGNMENT)
                continue
            value = fold_int(self.rvalue(attr.args[0])) if len(attr.args) == 1 else None
            if value is None or value <= 0 or value & (value - 1) or value > MAX_ALIGNMENT * 8:
                self.diags.error(attr.loc, "'aligned' attribute requires a power of two constant "
                                           f"no larger than {MAX_ALIGNMENT * 8}")
            else:
                align = max(align, value)
        return align

    def valid_member(self, record: T.Record, members: list, loc, name: str | None,
                     t: T.Type) -> bool:
        problem = None
        if t.is_error:
            return False
        if name is not None and any(name == other for other, _ in members):
            problem = f"duplicate member '{name}'"
        elif t.is_function:
            problem = f"field '{name}' declared as a function"
        elif t.is_image or t.is_sampler:
            problem = f"the '{t.unqualified()}' type cannot be used to declare a structure or union field"
        elif t.address_space is not None:
            problem = f"field '{name}' may not be qualified with an address space"
        elif not _has_size(t):
            problem = f"field has incomplete type '{t}'"
        if problem is not None:
            self.diags.error(loc, problem)
        return problem is None

    # ---- member access ------------------------------------------------------------------------
    def check_record_member(self, e: A.Member, base: A.Expr) -> A.Expr | None:
        """`base.name` / `base->name` on a struct or union (base already checked), or None when
        base is not one, for the vector rules to handle."""
        t = base.type
        pointee = t.pointee if t.is_pointer else t.element if t.is_array else None
        if e.arrow and pointee is not None and pointee.is_record:
            return self.record_member(e, self.to_rvalue(base), pointee)
        if e.arrow and t.is_record:
            return self.error(e, f"member reference type '{t.unqualified()}' is not a pointer; "
                                 f"did you mean to use '.'?")
        if not e.arrow and t.is_pointer and t.pointee.is_record:
            return self.error(e, f"member reference type '{t.unqualified()}' is a pointer; "
                                 f"did you mean to use '->'?")
        if not e.arrow and t.is_record:
            return self.record_member(e, base, t)
        return None

    def record_member(self, e: A.Member, base: A.Expr, object_type: T.Type) -> A.Expr:
        record = object_type.record
        self.complete_record(record)
        if not record.is_complete:
            return self.error(e, f"incomplete definition of type '{object_type.base_spelling()}'")
        path = record.lookup(e.name)
        if path is None:
            return self.error(e, f"no member named '{e.name}' in '{object_type.base_spelling()}'")
        lvalue = base.lvalue or e.arrow
        node, arrow = base, e.arrow
        for field in path:
            node = A.Member(e.loc, node, field.name or "", arrow, field,
                            type=member_type(field.type, object_type), lvalue=lvalue)
            object_type, arrow = node.type, False
        return node

    def check_Designation(self, e: A.Designation) -> A.Expr:
        return self.error(e, f"field designator '.{e.name}' outside a struct or union initializer")

    def tag_decl(self, d: A.RecordDecl | A.EnumDecl) -> None:
        if isinstance(d, A.RecordDecl):
            self.complete_record(d.record)
        else:
            self.enum_decl(d)

    # ---- enums --------------------------------------------------------------------------------
    def enum_decl(self, d: A.EnumDecl) -> None:
        """Fold the enumerators. One that fits an int is an int (C 6.7.2.2p2); as clang allows
        in C, one that does not (hashcat's `MD5M_B = 0xefcdab89U`) takes the smallest of uint,
        long and ulong that holds every value of the enum (the enum's underlying type)."""
        next_value = 0
        for constant in d.constants:
            if constant.value is not None:
                expr = self.rvalue(constant.value)
                value = fold_int(expr)
                if value is None and not expr.type.is_error:
                    self.diags.error(expr.loc, "expression is not an integer constant expression")
                next_value = value if value is not None else next_value
            if not T.LONG.min_value <= next_value <= T.ULONG.max_value:
                self.diags.error(constant.loc, f"enumerator value {next_value} is not representable "
                                               f"in the largest integer type")
                next_value = 0
            constant.value, constant.type = next_value, _fitting_type(next_value)
            self.declare(constant.name, constant, constant.loc)
            next_value = constant.value + 1
        wide = _underlying_type([c.value for c in d.constants])
        for constant in d.constants:
            if constant.type is not T.INT:
                constant.type = wide

    def enum_constant_ref(self, e: A.VarRef, constant: A.EnumConstant) -> A.Expr:
        return A.IntLiteral(e.loc, constant.value, type=constant.type)


def _fitting_type(value: int) -> T.IntegerType:
    """The first of int, uint, long, ulong that holds value."""
    return next(t for t in (T.INT, T.UINT, T.LONG, T.ULONG) if t.min_value <= value <= t.max_value)


def _underlying_type(values: list[int]) -> T.IntegerType:
    """The type of an enum's enumerators that do not fit an int: uint or ulong when none is
    negative, else long."""
    low, high = min(values), max(values)
    if low < 0:
        return T.LONG
    return T.UINT if high <= T.UINT.max_value else T.ULONG


def member_type(t: T.Type, object_type: T.Type) -> T.Type:
    """The type of a member of type t in an object of object_type: its cv-qualifiers added, and
    its address space (for an array member, its elements' too, so indexing stays there)."""
    quals = object_type.quals
    t = T.qualified(t, T.Qualifiers(const=quals.const, volatile=quals.volatile))
    return T.with_address_space(t, quals.address_space) if quals.address_space else t


def _has_size(t: T.Type) -> bool:
    try:
        return t.size > 0 or t.is_record
    except TypeError:
        return False
