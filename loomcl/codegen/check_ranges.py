"""Checked mode's fast path: bounds checks proven for a whole work-group before it runs.

A check in a work-item loop stops LLVM from vectorizing the loop (its failure path leaves the
loop). Most accesses, though, are affine in the local ids: `a[get_global_id(0) + 1]` reads
`base + 4 * (group * L + lid + offset + 1)`. For such an access the offsets over the whole group
lie between the values at the corners of the local-id box, so one test per group, before any
work-item runs, proves every access of the group in bounds. The work-group body is then compiled
twice (entry.py): a *fast* copy without the proven checks and the *checked* copy with all of them;
a group runs the fast copy only when its test passes. The test looks at the whole box [0, L) in
every dimension, a superset of the work-items that really reach the access (guards, folded loop
bounds), so passing it is sufficient; a group where it fails (the ragged end of an array, a real
violation) runs the checked copy, which finds and reports the exact work-item.

Soundness against wrap-around: the analysis accepts an offset only as a sum of terms
`coefficient * leaf`, `coefficient * local id`, `coefficient * local id * leaf` and
`coefficient * leaf * leaf` (a row index times a run-time width), where a *leaf* is a
group-invariant value (parameters, group-level queries, extents and pure integer arithmetic on
them), built through add, sub, mul (by a constant or a leaf) and shl by small constants, sign or
zero extension, and `trunc nuw nsw` (a value that fits). The test also bounds every leaf
(|leaf| < 2**40; a leaf that multiplies: < 2**24) and every intermediate value of a type narrower
than 64 bits (its range over the box must lie in [0, 2**(bits-1))): then no arithmetic of the
kernel wraps, and the machine's offsets are the exact ones the test reasoned about. Coefficients
are bounded (|c| < 2**12, at most 8 terms, local sizes below 2**12), so the test's own i64
arithmetic cannot overflow either (each term stays below 2**60).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Function
from ..ir.values import Argument, Constant, Value

MAX_COEFFICIENT = 1 << 12
MAX_LEAF = 1 << 40
MAX_FACTOR = 1 << 24  # a leaf that multiplies another term
MAX_TERMS = 8
_LEAF_OPS = {ins.BinaryOpcode.ADD, ins.BinaryOpcode.SUB, ins.BinaryOpcode.MUL, ins.BinaryOpcode.SHL,
             ins.BinaryOpcode.AND, ins.BinaryOpcode.OR, ins.BinaryOpcode.XOR}


class NotAffine(Exception):
    pass


@dataclass
class Form:
    """constant + sum(coefficient * term). A term is a leaf Value, ("lid", d), ("lid", d, leaf)
    (the local id times a leaf) or ("mul", leaf, leaf)."""

    constant: int = 0
    terms: dict = field(default_factory=dict)

    def plus(self, other: Form, sign: int = 1) -> Form:
        terms = dict(self.terms)
        for term, c in other.terms.items():
            terms[term] = terms.get(term, 0) + sign * c
        return _bounded(Form(self.constant + sign * other.constant, {t: c for t, c in terms.items() if c}))

    def scaled(self, factor: int) -> Form:
        return _bounded(Form(self.constant * factor, {t: c * factor for t, c in self.terms.items()}))

    def times_leaf(self, leaf: Value) -> Form:
        """This form times a run-time leaf: each term takes the leaf as a factor (once)."""
        terms = {leaf: self.constant} if self.constant else {}
        for term, c in self.terms.items():
            if isinstance(term, tuple) and len(term) == 2 and term[0] == "lid":
                terms[("lid", term[1], leaf)] = terms.get(("lid", term[1], leaf), 0) + c
            elif not isinstance(term, tuple):
                key = ("mul", term, leaf)
                terms[key] = terms.get(key, 0) + c
            else:
                raise NotAffine
        return _bounded(Form(0, {t: c for t, c in terms.items() if c}))


def _bounded(form: Form) -> Form:
    if len(form.terms) > MAX_TERMS or abs(form.constant) >= MAX_LEAF or \
            any(abs(c) >= MAX_COEFFICIENT for c in form.terms.values()):
        raise NotAffine
    return form


@dataclass
class ProvenCheck:
    check: ins.CheckAccess
    offset: Form  # bytes from the base


@dataclass
class GroupTest:
    """What the per-group test evaluates: the provable checks, and the narrow intermediate values
    whose range must stay within [0, 2**(bits-1))."""

    proven: list[ProvenCheck]
    narrow: list[tuple[Form, int]]  # (form, bits)

    @property
    def forms(self) -> list[Form]:
        return [p.offset for p in self.proven] + [f for f, _ in self.narrow]

    @property
    def leaves(self) -> list[Value]:
        found = {t: None for f in self.forms for t in f.terms if not isinstance(t, tuple)}
        found.update({p.check.extent: None for p in self.proven if not isinstance(p.check.extent, Constant)})
        return list(found)

    @property
    def factors(self) -> list[Value]:
        """Leaves that multiply another term: bounded tighter (MAX_FACTOR)."""
        found = {}
        for form in self.forms:
            for term in form.terms:
                if isinstance(term, tuple) and term[0] == "mul":
                    found.update({term[1]: None, term[2]: None})
                elif isinstance(term, tuple) and len(term) == 3:
                    found[term[2]] = None
        return list(found)


def group_test(function: Function) -> GroupTest | None:
    """The checks of `function` that one per-group test can prove, or None if there are none."""
    analysis = _Analysis(function)
    proven = []
    for inst in function.instructions():
        if isinstance(inst, ins.CheckAccess):
            narrow_before = len(analysis.narrow)
            try:
                proven.append(ProvenCheck(inst, analysis.pointer_offset(inst)))
            except NotAffine:
                del analysis.narrow[narrow_before:]
    return GroupTest(proven, analysis.narrow) if proven else None


class _Analysis:
    def __init__(self, function: Function) -> None:
        self.counters = {loop.counter: loop.dim for loop in function.work_item_loops}
        self.invariant: dict[Value, bool] = {}
        self.narrow: list[tuple[Form, int]] = []

    def pointer_offset(self, check: ins.CheckAccess) -> Form:
        if not (isinstance(check.extent, Constant) or self.is_leaf(check.extent)):
            raise NotAffine
        offset, p = Form(), check.pointer
        while p is not check.base:
            if isinstance(p, ins.ElementPtr):
                offset = offset.plus(self.index(p.index).scaled(p.element_type.size))
                p = p.base
            elif isinstance(p, ins.FieldPtr):
                offset = offset.plus(Form(p.struct_type.offsets[p.field]))
                p = p.base
            elif isinstance(p, ins.Cast) and p.opcode in (ins.CastOpcode.BITCAST, ins.CastOpcode.ADDRSPACECAST):
                p = p.value
            else:
                raise NotAffine
        return offset

    def index(self, v: Value) -> Form:
        """The exact value of an integer index (sign-extended, as codegen extends narrow indices)."""
        form = self.form(v)
        if v.type.bits < 64 and form.terms:
            self.narrow.append((form, v.type.bits))
        return form

    def form(self, v: Value) -> Form:
        if isinstance(v, Constant):
            return _bounded(Form(v.signed_value))
        if v in self.counters:
            return Form(0, {("lid", self.counters[v]): 1})
        if self.is_leaf(v):
            return Form(0, {v: 1})
        if isinstance(v, ins.Cast) and v.opcode in (ins.CastOpcode.SEXT, ins.CastOpcode.ZEXT):
            return self.index(v.value)  # the narrow value's range is tested to be non-negative
        if isinstance(v, ins.Cast) and v.opcode is ins.CastOpcode.TRUNC and v.no_wrap:
            return self.form(v.value)
        if isinstance(v, ins.BinaryOp) and isinstance(v.type, ty.IntType):
            return self.binary(v)
        raise NotAffine

    def binary(self, v: ins.BinaryOp) -> Form:
        op, narrow = v.opcode, v.type.bits < 64
        if op in (ins.BinaryOpcode.ADD, ins.BinaryOpcode.SUB):
            form = self.form(v.lhs).plus(self.form(v.rhs), 1 if op is ins.BinaryOpcode.ADD else -1)
        elif op is ins.BinaryOpcode.MUL and isinstance(v.rhs, Constant):
            form = self.form(v.lhs).scaled(v.rhs.signed_value)
        elif op is ins.BinaryOpcode.MUL and isinstance(v.lhs, Constant):
            form = self.form(v.rhs).scaled(v.lhs.signed_value)
        elif op is ins.BinaryOpcode.MUL and self.is_leaf(v.rhs):
            form = self.form(v.lhs).times_leaf(v.rhs)
        elif op is ins.BinaryOpcode.MUL and self.is_leaf(v.lhs):
            form = self.form(v.rhs).times_leaf(v.lhs)
        elif op is ins.BinaryOpcode.SHL and isinstance(v.rhs, Constant) and 0 <= v.rhs.value < 16:
            form = self.form(v.lhs).scaled(1 << v.rhs.value)
        else:
            raise NotAffine
        if narrow:
            self.narrow.append((form, v.type.bits))
        return form

    def is_leaf(self, v: Value) -> bool:
        """Group-invariant integer: computed from parameters, group-level queries and extents by
        pure integer arithmetic (the group test recomputes it)."""
        if v not in self.invariant:
            self.invariant[v] = self._leaf(v)
        return self.invariant[v]

    def _leaf(self, v: Value) -> bool:
        if not isinstance(v.type, ty.IntType):
            return False
        if isinstance(v, (Argument, ins.ArgumentExtent)):
            return True
        if isinstance(v, ins.WorkItemQuery):
            return v.query not in (ins.Query.LOCAL_ID, ins.Query.LOCAL_SIZE)
        if isinstance(v, ins.Cast) and v.opcode in (ins.CastOpcode.SEXT, ins.CastOpcode.ZEXT, ins.CastOpcode.TRUNC):
            return isinstance(v.value, Constant) or self.is_leaf(v.value)
        if isinstance(v, ins.BinaryOp) and v.opcode in _LEAF_OPS:
            return all(isinstance(x, Constant) or self.is_leaf(x) for x in v.operands)
        return False
