"""The interpreter's meaning of the lane operations (loomcl/ir/ops/lanes.py) that whole-function
vectorization adds: a masked lane touches no memory, so a lane past a buffer's end is no error."""
from __future__ import annotations

from loomcl.ir import instructions as ins


def lane_compilers(getter, memory):
    """Closures for the lane operations; `getter(value)` reads an operand, `memory` is Memory."""

    def broadcast(i):
        v, count = getter(i.value), i.type.count
        return lambda fr: (v(fr),) * count

    def lane_load(i):
        p, m, t = getter(i.pointer), getter(i.mask), i.type.element
        size = t.size

        def load(fr):
            buffer, offset = p(fr)
            return tuple(memory.load(t, (buffer, offset + k * size)) if on else _zero(t)
                         for k, on in enumerate(m(fr)))

        return load

    def lane_store(i):
        v, p, m, t = getter(i.value), getter(i.pointer), getter(i.mask), i.value.type.element
        size = t.size

        def store(fr):
            buffer, offset = p(fr)
            for k, (lane, on) in enumerate(zip(v(fr), m(fr), strict=True)):
                if on:
                    memory.store(t, (buffer, offset + k * size), lane)

        return store

    def gather(i):
        b, o, m, t = getter(i.base), getter(i.offsets), getter(i.mask), i.type.element

        def load(fr):
            buffer, offset = b(fr)
            return tuple(memory.load(t, (buffer, offset + _signed64(d))) if on else _zero(t)
                         for d, on in zip(o(fr), m(fr), strict=True))

        return load

    def scatter(i):
        v, b, o, m, t = getter(i.value), getter(i.base), getter(i.offsets), getter(i.mask), i.value.type.element

        def store(fr):
            buffer, offset = b(fr)
            for lane, d, on in zip(v(fr), o(fr), m(fr), strict=True):
                if on:
                    memory.store(t, (buffer, offset + _signed64(d)), lane)

        return store

    def any_lane(i):
        m = getter(i.mask)
        return lambda fr: int(any(m(fr)))

    return {ins.Broadcast: broadcast, ins.LaneLoad: lane_load, ins.LaneStore: lane_store,
            ins.Gather: gather, ins.Scatter: scatter, ins.AnyLane: any_lane}


def _signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _zero(t):
    return 0.0 if t.__class__.__name__ == "FloatType" else 0
