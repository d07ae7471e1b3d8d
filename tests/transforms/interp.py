"""A tiny test-only interpreter for the kernel IR, to check transforms on semantics.

Two modes: `run_work_items` executes a work-item-form kernel with one Python generator per
work-item that yields at each barrier (the OpenCL semantics, independent of our transforms);
`run_work_groups` executes a work-group-form function once per group, sequentially. Memory is
numpy byte arrays; a pointer is (array, byte offset). Only what the tests use is supported.
Never used by the product: no work-item ever runs in Python outside tests.
"""
from __future__ import annotations

import numpy as np

from loomcl.ir import instructions as ins
from loomcl.ir import types as ty
from loomcl.ir.values import Argument, Constant, GlobalVariable, Undef

_DTYPES = {ty.i8: np.uint8, ty.i16: np.uint16, ty.i32: np.uint32, ty.i64: np.uint64, ty.i1: np.uint8,
           ty.f32: np.float32, ty.f64: np.float64}
Op = ins.BinaryOpcode
P = ins.Predicate


def _signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def _binary(op, t, a, b):
    if isinstance(t, ty.FloatType):
        f = np.float32 if t.bits == 32 else np.float64
        a, b = f(a), f(b)
        with np.errstate(all="ignore"):
            r = {Op.FADD: lambda: a + b, Op.FSUB: lambda: a - b, Op.FMUL: lambda: a * b,
                 Op.FDIV: lambda: a / b, Op.FREM: lambda: np.fmod(a, b)}[op]()
        return float(f(r))
    bits = t.bits
    sa, sb = _signed(a, bits), _signed(b, bits)
    r = {Op.ADD: lambda: a + b, Op.SUB: lambda: a - b, Op.MUL: lambda: a * b,
         Op.UDIV: lambda: a // b, Op.UREM: lambda: a % b,
         Op.SDIV: lambda: int(sa / sb), Op.SREM: lambda: sa - int(sa / sb) * sb,
         Op.SHL: lambda: a << b, Op.LSHR: lambda: a >> b, Op.ASHR: lambda: sa >> b,
         Op.AND: lambda: a & b, Op.OR: lambda: a | b, Op.XOR: lambda: a ^ b}[op]()
    return r & ((1 << bits) - 1)


def _compare(p, t, a, b):
    if isinstance(t, ty.FloatType):
        return int({P.OEQ: a == b, P.ONE: a != b, P.OLT: a < b, P.OLE: a <= b, P.OGT: a > b,
                    P.OGE: a >= b, P.UNE: a != b}[p])
    bits = t.bits
    sa, sb = _signed(a, bits), _signed(b, bits)
    return int({P.EQ: a == b, P.NE: a != b, P.ULT: a < b, P.ULE: a <= b, P.UGT: a > b, P.UGE: a >= b,
                P.SLT: sa < sb, P.SLE: sa <= sb, P.SGT: sa > sb, P.SGE: sa >= sb}[p])


def _cast(op, v, src, dst):
    C = ins.CastOpcode
    if op in (C.TRUNC, C.ZEXT):
        return v & ((1 << dst.bits) - 1)
    if op is C.SEXT:
        return _signed(v, src.bits) & ((1 << dst.bits) - 1)
    if op is C.SITOFP:
        return float(_DTYPES[dst](_signed(v, src.bits)))
    if op is C.UITOFP:
        return float(_DTYPES[dst](v))
    if op in (C.FPTOSI, C.FPTOUI):
        return int(v) & ((1 << dst.bits) - 1)
    if op in (C.FPEXT, C.FPTRUNC):
        return float(_DTYPES[dst](v))
    return v


class Memory:
    pointers: dict = {}  # pointers stored in memory: (id(array), offset) -> pointer value

    @staticmethod
    def load(t, pointer):
        array, offset = pointer
        if isinstance(t, ty.PointerType):
            return Memory.pointers[(id(array), offset)]
        dtype = _DTYPES[t]
        value = array[offset:offset + np.dtype(dtype).itemsize].view(dtype)[0]
        return float(value) if isinstance(t, ty.FloatType) else int(value)

    @staticmethod
    def store(t, pointer, value):
        array, offset = pointer
        if isinstance(t, ty.PointerType):
            Memory.pointers[(id(array), offset)] = value
            return
        dtype = _DTYPES[t]
        array[offset:offset + np.dtype(dtype).itemsize].view(dtype)[0] = value


class Frame:
    """Executes one function invocation: the state of one work-item, or of one work-group."""

    def __init__(self, function, args, group_id, locals_, local_id=(0, 0, 0), local_size=(1, 1, 1),
                 num_groups=(1, 1, 1)):
        self.function = function
        self.env = {p: a & ((1 << p.type.bits) - 1) if isinstance(p.type, ty.IntType) else a
                    for p, a in zip(function.params, args)}
        self.env.update(locals_)
        self.group_id, self.local_id, self.local_size, self.num_groups = group_id, local_id, local_size, num_groups
        self.steps = 0

    def value(self, v):
        if isinstance(v, Constant):
            return v.value
        if isinstance(v, Undef):
            return 0
        return self.env[v]

    def run(self):
        """A generator: yields at each barrier; returns at `ret`."""
        block, previous = self.function.entry, None
        while True:
            phis = [(phi, self.value(phi.value_for(previous))) for phi in block.phis]
            for phi, v in phis:
                self.env[phi] = v
            for inst in block.instructions[len(phis):]:
                self.steps += 1
                assert self.steps < 10_000_000, "interpreter: runaway loop"
                if isinstance(inst, ins.Barrier):
                    yield
                    continue
                if inst.is_terminator:
                    nxt = self.terminator(inst)
                    if nxt is None:
                        return
                    block, previous = nxt, block
                    break
                self.env[inst] = self.execute(inst)

    def terminator(self, i):
        if isinstance(i, ins.Jump):
            return i.target
        if isinstance(i, ins.Branch):
            return i.if_true if self.value(i.condition) else i.if_false
        if isinstance(i, ins.Switch):
            v = _signed(self.value(i.value), i.value.type.bits)
            return dict(i.cases).get(v, i.default)
        if isinstance(i, ins.Return):
            return None
        raise AssertionError(f"unreachable executed in {i.block.name}")

    def execute(self, i):  # a flat dispatch
        v = self.value
        if isinstance(i, ins.BinaryOp):
            return _binary(i.opcode, i.type, v(i.lhs), v(i.rhs))
        if isinstance(i, ins.Compare):
            return _compare(i.predicate, i.lhs.type, v(i.lhs), v(i.rhs))
        if isinstance(i, ins.Cast):
            return _cast(i.opcode, v(i.value), i.value.type, i.type)
        if isinstance(i, ins.Select):
            return v(i.if_true) if v(i.condition) else v(i.if_false)
        if isinstance(i, ins.Alloca):
            return (np.zeros(i.allocated_type.size, np.uint8), 0)
        if isinstance(i, ins.Load):
            return Memory.load(i.type, v(i.pointer))
        if isinstance(i, ins.Store):
            Memory.store(i.value.type, v(i.pointer), v(i.value))
            return None
        if isinstance(i, ins.ElementPtr):
            array, offset = v(i.base)
            return (array, offset + _signed(v(i.index), i.index.type.bits) * i.element_type.size)
        if isinstance(i, ins.AtomicRMW):
            old = Memory.load(i.type, v(i.pointer))
            Memory.store(i.type, v(i.pointer), _binary(Op.ADD, i.type, old, v(i.value)))
            return old
        if isinstance(i, ins.MathCall):
            args = [v(a) for a in i.args]
            f = i.math_function
            if f is ins.MathFunction.SMIN:
                return min(args, key=lambda a: _signed(a, i.type.bits))
            if f is ins.MathFunction.SMAX:
                return max(args, key=lambda a: _signed(a, i.type.bits))
            if f is ins.MathFunction.UMIN:
                return min(args)
            if f is ins.MathFunction.UMAX:
                return max(args)
            raise NotImplementedError(f)
        if isinstance(i, ins.WorkItemQuery):
            Q = ins.Query
            if i.query is Q.LOCAL_ID:
                return self.local_id[i.dim]
            if i.query in (Q.LOCAL_SIZE, Q.ENQUEUED_LOCAL_SIZE):
                return self.local_size[i.dim]
            if i.query is Q.GROUP_ID:
                return self.group_id[i.dim]
            if i.query is Q.NUM_GROUPS:
                return self.num_groups[i.dim]
            if i.query is Q.GLOBAL_SIZE:
                return self.num_groups[i.dim] * self.local_size[i.dim]
            return 0
        if isinstance(i, ins.Fence):
            return None
        raise NotImplementedError(type(i).__name__)


def _arguments(args):
    return [(a.view(np.uint8).reshape(-1), 0) if isinstance(a, np.ndarray) else a for a in args]


def _local_storage(function):
    return {var: (np.zeros(var.value_type.size, np.uint8), 0) for var in function.local_variables}


def _groups(num_groups):
    for z in range(num_groups[2]):
        for y in range(num_groups[1]):
            for x in range(num_groups[0]):
                yield (x, y, z)


def run_work_items(function, args, num_groups, local_size):
    """OpenCL semantics: every work-item a generator, all advanced to each barrier in turn."""
    num_groups = tuple(num_groups) + (1,) * (3 - len(num_groups))
    local_size = tuple(local_size) + (1,) * (3 - len(local_size))
    args = _arguments(args)
    for group in _groups(num_groups):
        locals_ = _local_storage(function)
        items = [Frame(function, args, group, locals_, (x, y, z), local_size, num_groups).run()
                 for z in range(local_size[2]) for y in range(local_size[1]) for x in range(local_size[0])]
        live = items
        while live:
            still = []
            for item in live:
                try:
                    next(item)
                    still.append(item)
                except StopIteration:
                    pass
            assert not still or len(still) == len(items), "barrier divergence: some work-items returned"
            live = still


def run_work_groups(function, args, num_groups):
    """Run a work-group-form function once per group."""
    num_groups = tuple(num_groups) + (1,) * (3 - len(num_groups))
    args = _arguments(args)
    steps = 0
    for group in _groups(num_groups):
        frame = Frame(function, args, group, _local_storage(function), local_size=function.local_size,
                      num_groups=num_groups)
        for _ in frame.run():
            raise AssertionError("barrier left in a work-group function")
        steps += frame.steps
    return steps
