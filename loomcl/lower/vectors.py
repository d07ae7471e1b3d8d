"""OpenCL vectors in the IR: literals, swizzles, lane-wise logic and selection, widening a scalar.

Vectors are IR vector values (`<4 x f32>`); arithmetic, comparisons and casts on them are the scalar
operations applied to vector operands. What needs lanes by name lives here:

* A literal is built lane by lane (`insertelement`), or is a `VectorConstant` when every part is a
  constant; a single scalar is copied into every lane (a splat).
* Reading a swizzle is a `shufflevector` (or `extractelement` for one lane). Writing one in global or
  local memory stores each named lane on its own (`elementptr` to the lane), never the whole vector:
  another work-item may own the other lanes. In private memory it updates the whole vector
  (`insertelement`), which keeps the variable promotable to a register.
* `v[i]` is the same with a lane index known only at run time: `extractelement`/`insertelement` on
  a private vector, a load or store of the one lane (`elementptr`) in global, local or constant memory.
* `&&`, `||` and `?:` with vector operands evaluate both sides (spec 6.3.h, 6.3.i); `?:` picks by the
  most significant bit of each condition lane.
"""
from __future__ import annotations

from ..frontend import ast as A
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant, Undef, Value, VectorConstant
from .casts import zero
from .types import memory_type, value_type


class VectorLowering:
    """Mixin of FunctionLowerer: needs `self.b`, `self.value`, `self.address`, `self.truth`."""

    # -- building and taking apart ---------------------------------------------------------------

    def lane(self, vector: Value, index: int) -> Value:
        if isinstance(vector, VectorConstant):
            return vector.lanes[index]
        return self.b.insert(ins.ExtractElement(vector, Constant(ty.i32, index)))

    def lanes_of(self, v: Value) -> list[Value]:
        return [self.lane(v, i) for i in range(v.type.count)] if isinstance(v.type, ty.VectorType) else [v]

    def build_vector(self, t: ty.VectorType, lanes: list[Value]) -> Value:
        if all(isinstance(v, Constant) for v in lanes):
            return VectorConstant(t, lanes)
        result: Value = Undef(t)
        for i, v in enumerate(lanes):
            result = self.b.insert(ins.InsertElement(result, v, Constant(ty.i32, i)))
        return result

    def splat_value(self, scalar: Value, t: ty.VectorType) -> Value:
        return self.build_vector(t, [scalar] * t.count)

    def _vector_literal(self, e: A.VectorLiteral) -> Value:
        t = value_type(e.type)
        parts = [self.value(item) for item in e.items]
        if len(parts) == 1 and not isinstance(parts[0].type, ty.VectorType):
            return self.splat_value(parts[0], t)
        return self.build_vector(t, [lane for part in parts for lane in self.lanes_of(part)])

    # -- swizzles --------------------------------------------------------------------------------

    def _swizzle(self, e: A.Swizzle) -> Value:
        return self._swizzle_of(self.value(e.base), e)

    def _swizzle_of(self, base: Value, e: A.Swizzle) -> Value:
        count = base.type.count
        lanes = [lane if lane < count else -1 for lane in e.lanes]  # lane 3 of a 3-vector: undefined
        if len(lanes) == 1:
            return self.lane(base, max(lanes[0], 0))
        return self.b.insert(ins.ShuffleVector(base, base, lanes))

    def store_swizzle(self, target: A.Swizzle, value: Value, vector_address: Value) -> None:
        vector_type = target.base.type
        count = vector_type.count
        parts = self.lanes_of(value)
        if vector_address.type.address_space is ty.AddressSpace.PRIVATE:
            # Nobody else sees private memory: a whole-vector update keeps the variable promotable.
            vector = self.load_from(vector_address, vector_type)
            for part, lane in zip(parts, target.lanes):
                if lane < count:
                    vector = self.b.insert(ins.InsertElement(vector, part, Constant(ty.i32, lane)))
            self.store_to(vector, vector_address, vector_type)
            return
        element = memory_type(vector_type.element)
        for part, lane in zip(parts, target.lanes):
            if lane < count:
                pointer = self.b.element_ptr(element, vector_address, Constant(ty.i64, lane))
                self.b.store(self.to_memory(part), pointer)

    # -- v[i] ---------------------------------------------------------------------------------------

    def _vector_index(self, e: A.VectorIndex) -> Value:
        """An rvalue `v[i]` (an lvalue one is read through its place)."""
        if e.lvalue:
            return self._load(e)
        vector = self.value(e.base)
        return self.b.insert(ins.ExtractElement(vector, self.value(e.index)))

    def read_lane(self, vector_address: Value, vector_type, lane: Value) -> Value:
        if vector_address.type.address_space is ty.AddressSpace.PRIVATE:
            vector = self.load_from(vector_address, vector_type)
            return self.b.insert(ins.ExtractElement(vector, lane))
        element = vector_type.element
        return self.load_from(self.b.element_ptr(memory_type(element), vector_address, lane), element)

    def write_lane(self, vector_address: Value, vector_type, lane: Value, value: Value) -> None:
        if vector_address.type.address_space is ty.AddressSpace.PRIVATE:
            vector = self.load_from(vector_address, vector_type)
            vector = self.b.insert(ins.InsertElement(vector, value, lane))
            self.store_to(vector, vector_address, vector_type)
            return
        pointer = self.b.element_ptr(memory_type(vector_type.element), vector_address, lane)
        self.store_to(value, pointer, vector_type)

    # -- lane-wise logic ---------------------------------------------------------------------------

    def vector_logical(self, e: A.Binary) -> Value:
        left = self.truth(self.value(e.left))
        right = self.truth(self.value(e.right))
        opcode = ins.BinaryOpcode.AND if e.op is A.BinaryOp.LOGICAL_AND else ins.BinaryOpcode.OR
        return self.bool_to_int(self.b.binary(opcode, left, right), e.type)

    def vector_select(self, e: A.Conditional) -> Value:
        cond = self.value(e.cond)
        negative = self.b.compare(ins.Predicate.SLT, cond, zero(cond.type))
        return self.b.select(negative, self.value(e.then), self.value(e.else_))
