"""`shuffle` and `shuffle2` (OpenCL C 6.15.12, miscellaneous vector functions) lowered to selects.

Each result lane i is the source lane that `mask[i]` names, counting only the mask's low bits that
index the sources (log2 of M lanes, or of 2M for shuffle2's two sources). The mask is a run-time
value, so each lane compares the index with every source lane and selects: only constant lane
indices reach the IR, which every vector pass handles.
"""
from __future__ import annotations

from ..frontend.builtins import Builtin, Overload
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.values import Constant, Undef, Value


def shuffle(b: Builder, args: list[Value], call: Overload) -> Value:
    *sources, mask = args
    lanes = [b.insert(ins.ExtractElement(s, Constant(ty.i32, i))) for s in sources for i in range(s.type.count)]
    index_type = mask.type.element
    result: Value = Undef(ty.VectorType(lanes[0].type, mask.type.count))
    for i in range(mask.type.count):
        index = b.binary(ins.BinaryOpcode.AND, b.insert(ins.ExtractElement(mask, Constant(ty.i32, i))),
                         Constant(index_type, len(lanes) - 1))
        picked = lanes[0]
        for j, lane in enumerate(lanes[1:], start=1):
            picked = b.select(b.compare(ins.Predicate.EQ, index, Constant(index_type, j)), lane, picked)
        result = b.insert(ins.InsertElement(result, picked, Constant(ty.i32, i)))
    return result


SHUFFLE_FUNCTIONS = {Builtin.SHUFFLE: shuffle, Builtin.SHUFFLE2: shuffle}
