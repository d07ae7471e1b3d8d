"""A builder that appends instructions at an insertion point, like llvmlite's IRBuilder."""
from __future__ import annotations

from contextlib import contextmanager

from . import instructions as ins
from . import types as ty
from .function import Block, Function
from .values import Constant, Value


class Builder:
    def __init__(self, block: Block | None = None) -> None:
        self.block = block
        self.index: int | None = None  # None: append at the end of the block
        self.loc = None  # source location stamped on every new instruction

    # -- insertion point ------------------------------------------------------------------------

    def position_at_end(self, block: Block) -> None:
        self.block, self.index = block, None

    def position_before(self, inst: ins.Instruction) -> None:
        self.block, self.index = inst.block, inst.block.instructions.index(inst)

    @contextmanager
    def at_end(self, block: Block):
        saved = self.block, self.index
        self.position_at_end(block)
        try:
            yield self
        finally:
            self.block, self.index = saved

    @property
    def function(self) -> Function:
        return self.block.function

    @property
    def is_terminated(self) -> bool:
        return self.block.terminator is not None

    def insert(self, inst: ins.Instruction) -> ins.Instruction:
        inst.loc = self.loc
        if self.index is None:
            self.block.append(inst)
        else:
            self.block.insert(self.index, inst)
            self.index += 1
        return inst

    # -- values ---------------------------------------------------------------------------------

    @staticmethod
    def const(type: ty.Type, value: int | float) -> Constant:
        return Constant(type, value)

    def binary(self, opcode: ins.BinaryOpcode, lhs: Value, rhs: Value, name: str = "") -> Value:
        return self.insert(ins.BinaryOp(opcode, lhs, rhs, name))

    def add(self, lhs, rhs, name=""):
        return self.binary(ins.BinaryOpcode.ADD, lhs, rhs, name)

    def sub(self, lhs, rhs, name=""):
        return self.binary(ins.BinaryOpcode.SUB, lhs, rhs, name)

    def mul(self, lhs, rhs, name=""):
        return self.binary(ins.BinaryOpcode.MUL, lhs, rhs, name)

    def fneg(self, value: Value, name: str = "") -> Value:
        return self.insert(ins.FNeg(value, name))

    def compare(self, predicate: ins.Predicate, lhs: Value, rhs: Value, name: str = "") -> Value:
        return self.insert(ins.Compare(predicate, lhs, rhs, name))

    def cast(self, opcode: ins.CastOpcode, value: Value, to: ty.Type, name: str = "") -> Value:
        return self.insert(ins.Cast(opcode, value, to, name))

    def select(self, condition: Value, if_true: Value, if_false: Value, name: str = "") -> Value:
        return self.insert(ins.Select(condition, if_true, if_false, name))

    def phi(self, type: ty.Type, name: str = "") -> ins.Phi:
        phi = ins.Phi(type, name)
        phi.loc = self.loc
        self.block.insert(self.block.first_non_phi_index, phi)
        if self.index is not None:
            self.index += 1
        return phi

    # -- memory ---------------------------------------------------------------------------------

    def alloca(self, allocated_type: ty.Type, name: str = "") -> ins.Alloca:
        """Allocas always go to the top of the entry block, so they are allocated once."""
        inst = ins.Alloca(allocated_type, name)
        inst.loc = self.loc
        entry = self.function.entry
        entry.insert(entry.first_non_phi_index, inst)
        if self.block is entry and self.index is not None:
            self.index += 1
        return inst

    def load(self, type: ty.Type, pointer: Value, name: str = "") -> Value:
        return self.insert(ins.Load(type, pointer, name))

    def store(self, value: Value, pointer: Value) -> ins.Store:
        return self.insert(ins.Store(value, pointer))

    def element_ptr(self, element_type: ty.Type, base: Value, index: Value, name: str = "") -> Value:
        return self.insert(ins.ElementPtr(element_type, base, index, name))

    def field_ptr(self, struct_type: ty.StructType, base: Value, field: int, name: str = "") -> Value:
        return self.insert(ins.FieldPtr(struct_type, base, field, name))

    def atomic_rmw(self, opcode: ins.AtomicOpcode, pointer: Value, value: Value, name: str = "") -> Value:
        return self.insert(ins.AtomicRMW(opcode, pointer, value, name))

    def atomic_cmpxchg(self, pointer: Value, expected: Value, new: Value, name: str = "") -> Value:
        return self.insert(ins.AtomicCmpXchg(pointer, expected, new, name))

    # -- calls, builtins, work-items ----------------------------------------------------------------

    def call(self, callee: Function, args: list[Value], name: str = "") -> Value:
        return self.insert(ins.Call(callee, args, name))

    def math(self, function: ins.MathFunction, args: list[Value], type: ty.Type | None = None,
             name: str = "") -> Value:
        return self.insert(ins.MathCall(function, args, type or args[0].type, name))

    def query(self, query: ins.Query, dim: int = 0, name: str = "") -> Value:
        return self.insert(ins.WorkItemQuery(query, dim, name))

    def barrier(self, flags: int) -> ins.Barrier:
        return self.insert(ins.Barrier(flags))

    def fence(self, flags: int) -> ins.Fence:
        return self.insert(ins.Fence(flags))

    # -- terminators ------------------------------------------------------------------------------

    def jump(self, target: Block) -> ins.Jump:
        return self.insert(ins.Jump(target))

    def branch(self, condition: Value, if_true: Block, if_false: Block) -> ins.Branch:
        return self.insert(ins.Branch(condition, if_true, if_false))

    def switch(self, value: Value, default: Block, cases=None) -> ins.Switch:
        return self.insert(ins.Switch(value, default, cases))

    def ret(self, value: Value | None = None) -> ins.Return:
        return self.insert(ins.Return(value))

    def unreachable(self) -> ins.Unreachable:
        return self.insert(ins.Unreachable())
