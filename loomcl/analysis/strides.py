"""Stride analysis (Kim ch. 3.3): for every load, store and atomic of a work-item-form function, how
far its address moves when local_id(0), local_id(1), local_id(2), group_id(0..2) or the iteration
count of an enclosing natural loop grows by one.

Each variable is solved on its own, as a derivative: a map from every integer or pointer value to
its stride (stride_values.py: a constant, a uniform polynomial such as `4*%n`, or irregular). Seeds:
`local_id(d)` has stride 1 for d and 0 otherwise, `group_id(d)` likewise for its own variable;
constants, arguments, globals and every value defined outside a loop have stride 0 for it; the
header phi of a loop that adds a loop-invariant step each iteration (`i += s`, `p = &p[s]`) has
stride s for that loop (loop induction variables, Kim fig. 3.5). Transfer: add/sub add strides,
multiplication and shifts by an invariant scale them (the invariant kept as a polynomial of its
values), `elementptr` scales the index by the element size. Kim's approximate rules (3.3) hold for
what address code does in practice: `b % N` and `b & mask` keep b's stride, `b / N` (or `b >> c`)
divides it exactly when it can and counts as 1 otherwise (neighbours differ by 0 or 1), and a phi or
select takes its operands' common stride, a zero stride giving way to the other (the worse
footprint). A load from an address with stride 0 gives a value with stride 0; any other load, an
atomic's result, or anything else whose operands move gives an irregular stride. Phis make the
problem cyclic: each value's stride only goes up the lattice unvisited < 0 < s < irregular, so the
fixed point comes within three rounds per value.

It is a cost-model analysis: it ignores integer overflow and stores between two loads, and a value
computed in an inner loop and used after it counts as invariant in the outer loop. Nothing about
correctness may rest on it. Expects SSA (after mem2reg); never changes the IR.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function
from ..ir.values import Constant, Value
from ..ir.dominators import reverse_post_order
from .loops import Loop, LoopInfo
from .stride_values import IRREGULAR, ZERO, Class, Poly, Stride, constant
from .sweep import sweep_to_fixed_point

Op = ins.BinaryOpcode
_BOTTOM = object()  # not yet visited
_SAME_VALUE_CASTS = (ins.CastOpcode.TRUNC, ins.CastOpcode.ZEXT, ins.CastOpcode.SEXT, ins.CastOpcode.PTRTOINT,
                     ins.CastOpcode.INTTOPTR, ins.CastOpcode.BITCAST, ins.CastOpcode.ADDRSPACECAST)


@dataclass(frozen=True)
class Group:
    """The variable group_id(dim): how an address moves from one work-group to the next."""

    dim: int


Variable = int | Group | Loop
"""A work-item dimension (0, 1, 2: local_id of it), a group id, or a loop (its iteration count)."""


def join(a, b):
    """The common stride of two values merged by a phi or select (Kim's approximate meet)."""
    if a is _BOTTOM or a == b:
        return b
    if b is _BOTTOM:
        return a
    if a.is_zero:
        return b
    return a if b.is_zero else IRREGULAR


class Access:
    """A memory access and its strides in bytes, each solved when first asked for: a pass that
    reads the group strides alone (group-order) never pays for the others."""

    def __init__(self, inst: ins.Instruction, element_size: int, strides: Strides) -> None:
        self.inst = inst
        self.element_size = element_size
        self._strides = strides
        self._solved: dict = {}

    def stride(self, variable: Variable) -> Stride:
        key = id(variable) if isinstance(variable, Loop) else variable
        found = self._solved.get(key)
        if found is None:
            if isinstance(variable, Loop) and variable not in self._strides.enclosing_loops(self.inst.block):
                found = ZERO
            else:
                found = self._strides.stride(self.inst.address, variable)
            self._solved[key] = found
        return found

    @property
    def by_local_id(self) -> tuple[Stride, Stride, Stride]:
        return tuple(self.stride(d) for d in range(3))

    @property
    def by_group_id(self) -> tuple[Stride, Stride, Stride]:
        return tuple(self.stride(Group(d)) for d in range(3))

    @property
    def by_loop(self) -> dict[Loop, Stride]:
        """One entry for each natural loop around the access."""
        return {loop: self.stride(loop) for loop in self._strides.enclosing_loops(self.inst.block)}

    def classify(self, variable: Variable) -> Class:
        return self.stride(variable).classify(self.element_size)

    @property
    def kind(self) -> str:
        inst = self.inst
        return "atomic" if inst.reads_memory and inst.writes_memory else "store" if inst.writes_memory else "load"

    def where(self) -> str:
        loc = self.inst.loc
        return f"{self.kind} at {loc.line}:{loc.column}" if loc is not None else self.kind


def access_pointer(inst: ins.Instruction) -> tuple[Value, ty.Type] | None:
    """The address and accessed type of a load, store or atomic; None for anything else."""
    return None if inst.address is None else (inst.address, inst.accessed_type)


class Strides:
    """`accesses` (every load, store and atomic, in block order) and `stride(value, variable)`."""

    def __init__(self, function: Function, loops: LoopInfo | None = None, local_size=None) -> None:
        self.function = function
        self.loops = loops or LoopInfo(function)
        self.local_size = local_size
        self.order = reverse_post_order(function.entry, lambda b: b.successors)
        self._solved: dict[object, dict[Value, Stride]] = {}
        self._polys: dict[Value, Poly] = {}
        self.accesses = [self._access(i) for b in self.order for i in b.instructions if access_pointer(i)]

    # -- queries --------------------------------------------------------------------------------

    def stride(self, value: Value, variable: Variable) -> Stride:
        strides = self._solve(variable)
        if isinstance(value, ins.Instruction) and value in strides:
            return strides[value]
        if isinstance(variable, Loop) and ins.defined_in(value, variable.blocks):
            return IRREGULAR  # unreachable code inside the loop
        return ZERO

    def enclosing_loops(self, block: Block) -> list[Loop]:
        """The natural loops around `block`, innermost first."""
        chain, loop = [], self.loops.loop_of(block)
        while loop is not None:
            chain.append(loop)
            loop = loop.parent
        return chain

    def in_loop(self, loop: Loop) -> list[Access]:
        return [a for a in self.accesses if a.inst.block in loop.blocks]

    def _access(self, inst: ins.Instruction) -> Access:
        return Access(inst, access_pointer(inst)[1].size, self)

    # -- the fixed point for one variable --------------------------------------------------------

    def _solve(self, variable: Variable) -> dict[Value, Stride]:
        key = id(variable) if isinstance(variable, Loop) else variable
        if key in self._solved:
            return self._solved[key]
        blocks = [b for b in self.order if b in variable.blocks] if isinstance(variable, Loop) else self.order
        insts = [i for b in blocks for i in b.instructions if not i.is_terminator]
        state: dict[Value, object] = {i: _BOTTOM for i in insts}
        transfer = _Transfer(self, variable, state)

        def evaluate(inst: ins.Instruction) -> bool:
            new = transfer.of(inst)
            new = join(state[inst], new) if new is not _BOTTOM else state[inst]
            if new is state[inst] or new == state[inst]:
                return False
            state[inst] = new
            return True

        sweep_to_fixed_point(insts, evaluate)
        solved = {v: (IRREGULAR if s is _BOTTOM else s) for v, s in state.items()}
        self._solved[key] = solved
        return solved

    # -- invariant values as polynomials ---------------------------------------------------------

    def poly(self, value: Value) -> Poly:
        """A uniform value as a polynomial of the values it is made of (`%n * 4 + %m`)."""
        if value not in self._polys:
            self._polys[value] = self._poly(value)
        return self._polys[value]

    def _poly(self, v: Value) -> Poly:
        if isinstance(v, Constant) and isinstance(v.type, ty.IntType):
            return Poly.constant(v.signed_value)
        if isinstance(v, ins.WorkItemQuery) and self.local_size and \
                v.query in (ins.Query.LOCAL_SIZE, ins.Query.ENQUEUED_LOCAL_SIZE):
            return Poly.constant(self.local_size[v.dim])
        if isinstance(v, ins.Cast) and v.opcode in _SAME_VALUE_CASTS[:3]:
            return self.poly(v.value)
        if isinstance(v, ins.BinaryOp) and v.opcode in (Op.ADD, Op.SUB, Op.MUL):
            a, b = self.poly(v.lhs), self.poly(v.rhs)
            return a + b if v.opcode is Op.ADD else a - b if v.opcode is Op.SUB else a * b
        if isinstance(v, ins.BinaryOp) and v.opcode is Op.SHL and isinstance(v.rhs, Constant) and v.rhs.value < 63:
            return self.poly(v.lhs) * Poly.constant(1 << v.rhs.value)
        return Poly.symbol(v)


class _Transfer:
    """The stride of one instruction from the current strides of its operands (a flat dispatch)."""

    def __init__(self, strides: Strides, variable: Variable, state: dict) -> None:
        self.strides, self.variable, self.state = strides, variable, state

    def get(self, value: Value):
        return self.state.get(value, ZERO) if isinstance(value, ins.Instruction) else ZERO

    def of(self, i: ins.Instruction):
        if isinstance(i, ins.WorkItemQuery):
            v = self.variable
            local = isinstance(v, int) and ins.is_query(i, ins.Query.LOCAL_ID, v)
            group = isinstance(v, Group) and ins.is_query(i, ins.Query.GROUP_ID, v.dim)
            return constant(1) if local or group else ZERO
        operands = [self.get(v) for v in i.operands]
        if isinstance(i, ins.Phi):
            if isinstance(self.variable, Loop) and i.block is self.variable.header:
                return self.induction(i)
            result = _BOTTOM
            for s in operands:
                result = join(result, s)
            return result
        if any(s is _BOTTOM for s in operands):
            return _BOTTOM
        if all(s.is_zero for s in operands):
            return IRREGULAR if i.has_side_effects else ZERO  # an atomic's old value changes every time
        if isinstance(i, ins.BinaryOp) and isinstance(i.type, ty.IntType):
            return self.binary(i, *operands)
        if isinstance(i, ins.ElementPtr):
            return self.scale(operands[1], Poly.constant(i.element_type.size), add=operands[0])
        if isinstance(i, ins.FieldPtr):
            return operands[0]
        if isinstance(i, ins.Cast) and i.opcode in _SAME_VALUE_CASTS:
            return operands[0]
        if isinstance(i, ins.Select):
            return join(operands[1], operands[2])
        return IRREGULAR  # loads from moving addresses, atomics, floating point, anything else

    @staticmethod
    def scale(s: Stride, factor: Poly, add: Stride = ZERO) -> Stride:
        if s.is_irregular or add.is_irregular:
            return IRREGULAR
        return Stride(s.poly * factor + add.poly)

    def binary(self, i: ins.BinaryOp, a: Stride, b: Stride) -> Stride:
        op, poly = i.opcode, self.strides.poly
        if op is Op.ADD:
            return self.scale(a, Poly.constant(1), add=b)
        if op is Op.SUB:
            return self.scale(b, Poly.constant(-1), add=a)
        if op is Op.MUL and (a.is_zero or b.is_zero):
            return self.scale(b, poly(i.lhs)) if a.is_zero else self.scale(a, poly(i.rhs))
        if not b.is_zero:
            return IRREGULAR
        if op is Op.SHL and isinstance(i.rhs, Constant) and i.rhs.value < 63:
            return self.scale(a, Poly.constant(1 << i.rhs.value))
        if op in (Op.SDIV, Op.UDIV, Op.LSHR, Op.ASHR):
            return self.divide(a, i)
        if op in (Op.SREM, Op.UREM, Op.AND, Op.OR):
            return a  # Kim: `b % N` is stride-one "for the most part"; masks and or-ed low bits alike
        return IRREGULAR

    def divide(self, a: Stride, i: ins.BinaryOp) -> Stride:
        divisor = self.strides.poly(i.rhs).constant_value
        if i.opcode in (Op.LSHR, Op.ASHR):
            divisor = 1 << divisor if divisor is not None and 0 <= divisor < 63 else None
        exact = a.poly.divide(divisor) if divisor and not a.is_irregular else None
        if exact is not None:
            return Stride(exact)
        return IRREGULAR if a.is_irregular else constant(1)  # Kim: neighbours differ by 0 or 1

    def induction(self, phi: ins.Phi) -> Stride:
        """The step of a loop's induction variable per iteration (every latch adds the same one)."""
        loop, steps = self.variable, set()
        for value, pred in phi.incoming:
            if pred not in loop.blocks:
                continue
            step = self.step(phi, value)
            if step is None:
                return IRREGULAR
            steps.add(step)
        return Stride(steps.pop()) if len(steps) == 1 else IRREGULAR

    def step(self, phi: ins.Phi, value: Value) -> Poly | None:
        if value is phi:
            return Poly()
        invariant = lambda v: not ins.defined_in(v, self.variable.blocks)
        poly = self.strides.poly
        if isinstance(value, ins.BinaryOp) and value.opcode in (Op.ADD, Op.SUB):
            if value.lhs is phi and invariant(value.rhs):
                return poly(value.rhs) if value.opcode is Op.ADD else -poly(value.rhs)
            if value.rhs is phi and invariant(value.lhs) and value.opcode is Op.ADD:
                return poly(value.lhs)
        if isinstance(value, ins.ElementPtr) and value.base is phi and invariant(value.index):
            return poly(value.index) * Poly.constant(value.element_type.size)
        return None
