"""Whole-function vectorization, part 2: one instruction of the x loop as W lanes, and the masks.

Each original value gets the form its shape asks (K&H 3.1): a UNIFORM value stays one scalar; a
CONSECUTIVE value is kept as its lane-0 scalar, and becomes `splat(lane 0) + stride * <0..W-1>` only
where a vector is needed; a VARYING value is a `<W x T>`; a VARYING pointer is a uniform base plus
`<W x i64>` byte offsets. Memory accesses pick the cheapest form their address allows: scalar (uniform),
`lane.load`/`lane.store` (consecutive with the element's stride), `gather`/`scatter` (anything else).

A mask is a pair (s, v): a scalar i1 (uniform conditions, kept scalar) and a `<W x i1>` (varying ones);
None stands for true. Conditions of uniform branches only ever touch `s`, so a uniform loop's
continuation test stays one scalar compare (K&H: uniform control flow stays control flow).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..analysis.uniformity import Kind
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function
from ..ir.values import Constant, Undef, Value, VectorConstant
from .wfv_shapes import LaneShapes


class Unsupported(Exception):
    """Something the vectorizer does not handle; the loop stays as it was."""


@dataclass(frozen=True)
class Mask:
    s: Value | None = None  # scalar part (None: true)
    v: Value | None = None  # vector part (None: every lane)


TRUE = Mask()


@dataclass(frozen=True)
class Widened:
    """An arm of a blend that is already a new `<W x T>` value (a loop's per-exit value)."""

    value: Value
Op, Cast = ins.BinaryOpcode, ins.CastOpcode


def zero_of(t: ty.Type) -> Value:
    if isinstance(t, ty.VectorType):
        return VectorConstant(t, [Constant(t.element, 0)] * t.count)
    if isinstance(t, ty.PointerType):
        return Constant(t, 0)
    return Constant(t, 0)


class Widener:
    def __init__(self, function: Function, shapes: LaneShapes, width: int, body: set[Block]) -> None:
        self.function = function
        self.shapes = shapes
        self.width = width
        self.body = body  # the original blocks of the x loop, latch excluded
        self.block: Block | None = None  # where new code goes
        self.new_blocks: list[Block] = []
        self.scalar: dict[Value, Value] = {}  # uniform values and lane 0 of consecutive ones
        self.vector: dict[Value, Value] = {}  # varying values
        self.pointer: dict[Value, tuple[Value, Value]] = {}  # varying pointers: (base, byte offsets)
        self.scopes: list[dict] = [{}]  # splats and materialized consecutive vectors, per guard
        self.nonempty: set[Value] = set()  # vector masks known to have an active lane
        self.next_region: dict[Value, Value] = {}  # the x latch's phis: their value after the vector loop
        self.loop_depth = 0  # of the code being emitted, in loops inside the body
        self.gathers_in_loops = 0  # gathers and scatters there (the cost model's input)
        self.vector_ops_in_loops = 0

    # -- placing code -------------------------------------------------------------------------------

    def new_block(self, name: str) -> Block:
        block = Block(f"wfv.{name}")
        block.function = self.function
        self.new_blocks.append(block)
        return block

    def emit(self, inst: ins.Instruction) -> ins.Instruction:
        if self.block.terminator is not None:
            raise AssertionError("emitting after a terminator")
        if self.loop_depth:
            if isinstance(inst, (ins.Gather, ins.Scatter)):
                self.gathers_in_loops += 1
            elif ty.is_float(inst.type) and isinstance(inst.type, ty.VectorType) and isinstance(
                    inst, (ins.BinaryOp, ins.MathCall, ins.FNeg)):
                self.vector_ops_in_loops += 1
        return self.block.append(inst)

    def vtype(self, t: ty.Type) -> ty.VectorType:
        return ty.VectorType(t, self.width)

    # -- values -------------------------------------------------------------------------------------

    def in_body(self, v: Value) -> bool:
        return ins.defined_in(v, self.body)

    def shape(self, v: Value):
        return self.shapes.shape(v)

    def sca(self, v: Value) -> Value:
        """The scalar of a uniform value, or lane 0 of a consecutive one."""
        if isinstance(v, Widened):
            raise Unsupported("a loop's per-lane value where one scalar is needed")
        if not self.in_body(v):
            return v
        if v not in self.scalar:
            raise Unsupported(f"no scalar form of {v.name or type(v).__name__}")
        return self.scalar[v]

    def cached(self, key, make):
        for scope in reversed(self.scopes):
            if key in scope:
                return scope[key]
        value = self.scopes[-1][key] = make()
        return value

    def splat(self, scalar: Value) -> Value:
        t = self.vtype(scalar.type)
        if isinstance(scalar, (Constant, Undef)):
            return VectorConstant(t, [scalar] * self.width) if isinstance(scalar, Constant) else Undef(t)
        return self.cached(("splat", scalar), lambda: self.emit(ins.Broadcast(scalar, self.width)))

    def iota(self, t: ty.Type, stride: int) -> VectorConstant:
        return VectorConstant(self.vtype(t), [Constant(t, k * stride) for k in range(self.width)])

    def vec(self, v: Value) -> Value:
        """`v` as a `<W x T>` value."""
        if isinstance(v, Widened):
            return v.value
        if self.in_body(v) and v in self.vector:
            return self.vector[v]
        shape = self.shape(v)
        if shape.kind is Kind.CONSECUTIVE:
            if isinstance(v.type, ty.PointerType):
                raise Unsupported("a pointer used as a value")
            lane0 = self.sca(v)
            return self.cached(("iota", lane0), lambda: self.emit(
                ins.BinaryOp(Op.ADD, self.splat(lane0), self.iota(v.type, shape.stride))))
        if shape.is_uniform:
            if isinstance(v.type, ty.PointerType):
                raise Unsupported("a pointer used as a lane value")
            return self.splat(self.sca(v))
        raise Unsupported(f"no vector form of {v.name or type(v).__name__}")

    def address(self, p: Value) -> tuple[str, Value, Value | int]:
        """('uniform', pointer, 0), ('consecutive', lane-0 pointer, stride) or ('varying', base, offsets)."""
        shape = self.shape(p)
        if shape.is_uniform:
            return "uniform", self.sca(p), 0
        if shape.kind is Kind.CONSECUTIVE:
            return "consecutive", self.sca(p), shape.stride
        if p not in self.pointer:
            raise Unsupported("a pointer of unknown lanes")
        base, offsets = self.pointer[p]
        return "varying", base, offsets

    def base_and_offsets(self, p: Value) -> tuple[Value, Value]:
        kind, base, extra = self.address(p)
        if kind == "varying":
            return base, extra
        return base, self.iota(ty.i64, extra) if kind == "consecutive" else zero_of(self.vtype(ty.i64))

    # -- masks --------------------------------------------------------------------------------------

    def logic(self, op: Op, a: Value | None, b: Value | None) -> Value | None:
        """a AND/OR b, where None is true."""
        if op is Op.AND:
            return b if a is None else a if b is None else a if a is b else self.emit(ins.BinaryOp(Op.AND, a, b))
        if a is None or b is None:
            return None
        return a if a is b else self.emit(ins.BinaryOp(Op.OR, a, b))

    def negate(self, c: Value) -> Value:
        ones = Constant(ty.i1, 1) if c.type is ty.i1 else VectorConstant(c.type, [Constant(ty.i1, 1)] * self.width)
        return self.emit(ins.BinaryOp(Op.XOR, c, ones))

    def and_uniform(self, m: Mask, c: Value) -> Mask:
        return Mask(self.logic(Op.AND, m.s, c), m.v)

    def and_varying(self, m: Mask, c: Value) -> Mask:
        return Mask(m.s, self.logic(Op.AND, m.v, c))

    def full(self, m: Mask) -> Value:
        """The mask as one `<W x i1>`."""
        if m.s is None and m.v is None:
            return VectorConstant(self.vtype(ty.i1), [Constant(ty.i1, 1)] * self.width)
        if m.s is None:
            return m.v
        s = self.splat(m.s)
        return s if m.v is None else self.emit(ins.BinaryOp(Op.AND, s, m.v))

    def union(self, masks: list[Mask]) -> Mask:
        if len(masks) == 1:
            return masks[0]
        if all(m.v is masks[0].v for m in masks):
            s = masks[0].s
            for m in masks[1:]:
                s = self.logic(Op.OR, s, m.s)
            return Mask(s, masks[0].v)
        v = self.full(masks[0])
        for m in masks[1:]:
            v = self.logic(Op.OR, v, self.full(m))
        return Mask(None, v)

    def any(self, m: Mask) -> Value | None:
        """Whether some lane is active (None: known true)."""
        v = None if m.v is None or m.v in self.nonempty else self.emit(ins.AnyLane(m.v))
        return self.logic(Op.AND, m.s, v)

    def lane_mask(self, m: Mask) -> Value:
        """The vector mask for an access in a block that runs only when `m.s` holds."""
        return self.full(Mask(None, m.v))

    # -- blends (phis of linearized joins) ----------------------------------------------------------

    def blend(self, phi: ins.Phi, arms: list[tuple[Value, Mask]]) -> None:
        """Map `phi` to the value of the arm whose mask holds (the last arm where none is known to)."""
        if len({id(v) for v, _ in arms}) == 1:
            return self.copy_value(phi, arms[0][0])
        shape = self.shape(phi)
        if isinstance(phi.type, ty.PointerType) and not shape.is_uniform and shape.kind is not Kind.CONSECUTIVE:
            bases = [self.base_and_offsets(v) for v, _ in arms]
            if any(b is not bases[0][0] for b, _ in bases):
                raise Unsupported("a pointer phi of different bases")
            offsets = bases[-1][1]
            for (b, o), (_, m) in zip(reversed(bases[:-1]), reversed(arms[:-1])):
                offsets = self.emit(ins.Select(self.full(m), o, offsets))
            self.pointer[phi] = (bases[0][0], offsets)
            return
        if shape.is_uniform or shape.kind is Kind.CONSECUTIVE:
            result = self.sca(arms[-1][0])
            for v, m in reversed(arms[:-1]):
                result = self.sca(v) if m.s is None else self.emit(ins.Select(m.s, self.sca(v), result))
            self.scalar[phi] = result
            return
        result = self.vec(arms[-1][0])
        for v, m in reversed(arms[:-1]):
            result = self.emit(ins.Select(self.full(m), self.vec(v), result))
        self.vector[phi] = result

    def copy_value(self, to: Value, src: Value) -> None:
        shape = self.shape(to)
        if isinstance(src, Widened):
            self.vector[to] = src.value
        elif shape.is_uniform or shape.kind is Kind.CONSECUTIVE:
            self.scalar[to] = self.sca(src)
        elif isinstance(to.type, ty.PointerType):
            self.pointer[to] = self.base_and_offsets(src)
        else:
            self.vector[to] = self.vec(src)

    # -- instructions -------------------------------------------------------------------------------

    def widen(self, inst: ins.Instruction, m: Mask) -> None:
        if isinstance(inst, ins.Load):
            return self.load(inst, m)
        if isinstance(inst, ins.Store):
            return self.store(inst, m)
        if isinstance(inst, ins.Fence):
            self.emit(inst.clone())
            return
        shape = self.shape(inst)
        if shape.is_uniform or shape.kind is Kind.CONSECUTIVE:
            self.scalar[inst] = self.emit(inst.with_operands([self.sca(v) for v in inst.operands]))
            return
        if isinstance(inst.type, ty.PointerType):
            return self.varying_pointer(inst)
        if not inst.is_lanewise:
            raise Unsupported(f"a varying {inst.keyword}")
        operands = [self.sca(v) if isinstance(inst, ins.Select) and k == 0 and self.shape(v).is_uniform
                    else self.vec(v) for k, v in enumerate(inst.operands)]
        self.vector[inst] = self.emit(inst.with_operands(operands, self.vtype(inst.type)))

    def varying_pointer(self, inst: ins.Instruction) -> None:
        if isinstance(inst, ins.ElementPtr):
            base, offsets = self.base_and_offsets(inst.base)
            index = self.vec(inst.index)
            if index.type.element is not ty.i64:
                index = self.emit(ins.Cast(Cast.SEXT, index, self.vtype(ty.i64)))
            scaled = self.emit(ins.BinaryOp(Op.MUL, index, self.splat(Constant(ty.i64, inst.element_type.size))))
            self.pointer[inst] = (base, self.emit(ins.BinaryOp(Op.ADD, offsets, scaled)))
        elif isinstance(inst, ins.FieldPtr):
            base, offsets = self.base_and_offsets(inst.base)
            delta = self.splat(Constant(ty.i64, inst.struct_type.offsets[inst.field]))
            self.pointer[inst] = (base, self.emit(ins.BinaryOp(Op.ADD, offsets, delta)))
        elif isinstance(inst, ins.Cast) and isinstance(inst.value.type, ty.PointerType):
            base, offsets = self.base_and_offsets(inst.value)
            if base.type is not inst.type:
                base = self.emit(ins.Cast(inst.opcode, base, inst.type))
            self.pointer[inst] = (base, offsets)
        elif isinstance(inst, ins.Select):
            arms = [self.base_and_offsets(inst.if_true), self.base_and_offsets(inst.if_false)]
            if arms[0][0] is not arms[1][0]:
                raise Unsupported("a pointer select of different bases")
            c = inst.condition
            cond = self.sca(c) if self.shape(c).is_uniform else self.vec(c)
            self.pointer[inst] = (arms[0][0], self.emit(ins.Select(cond, arms[0][1], arms[1][1])))
        else:
            raise Unsupported(f"a varying pointer from {inst.keyword}")

    def load(self, inst: ins.Load, m: Mask) -> None:
        kind, p, extra = self.address(inst.pointer)
        if self.shape(inst).is_uniform:
            new = ins.Load(inst.type, p)
            self.scalar[inst] = self.emit(new)
            return
        t, mask = self.vtype(inst.type), self.lane_mask(m)
        if kind == "consecutive" and extra == inst.type.size:
            self.vector[inst] = self.emit(ins.LaneLoad(t, p, mask))
        else:
            base, offsets = self.base_and_offsets(inst.pointer)
            self.vector[inst] = self.emit(ins.Gather(t, base, offsets, mask))

    def store(self, inst: ins.Store, m: Mask) -> None:
        if isinstance(inst.value.type, ty.PointerType) and not self.shape(inst.value).is_uniform:
            raise Unsupported("a store of a varying pointer")
        kind, p, extra = self.address(inst.pointer)
        if kind == "uniform" and self.shape(inst.value).is_uniform:
            self.emit(ins.Store(self.sca(inst.value), p))
            return
        value, mask = self.vec(inst.value), self.lane_mask(m)
        if kind == "consecutive" and extra == inst.value.type.size:
            self.emit(ins.LaneStore(value, p, mask))
        else:
            base, offsets = self.base_and_offsets(inst.pointer)
            self.emit(ins.Scatter(value, base, offsets, mask))

