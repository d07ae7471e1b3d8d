"""Async work-group copies (OpenCL C 1.2 6.12.10): async_work_group_copy,
async_work_group_strided_copy, wait_group_events and prefetch.

Every work-item of a group calls a copy with the same arguments, and every one calls
wait_group_events before it uses the copied data. loomcl copies synchronously, once per group:

* A copy is a work-group barrier followed by `if (local id == (0,0,0)) for k < n: dst[k] = src[k]`
  (with the stride on the global side for the strided form). The barrier makes what the group wrote
  before the call (a __local tile, typically) visible to the work-item that copies; the copy is one
  plain loop, which LLVM turns into memcpy or vector moves, and fold-local-id-guards runs the guarded
  region once per group instead of testing every work-item.
* wait_group_events is a work-group barrier: after it every work-item sees the copy.
  Both barriers are real `barrier` instructions, so the work-group transforms split regions there;
  like barriers, the calls must be reached by all work-items (spec), in uniform control flow.
* The event handed back is the one passed in: a copy is complete by the next barrier, so an event
  has nothing to track, and sharing one between copies (spec) needs nothing either.
* prefetch is a hint and does nothing (its arguments are still evaluated).
"""
from __future__ import annotations

from contextlib import contextmanager

from ..frontend import ast as A
from ..frontend import types as T
from ..frontend.builtins import Builtin
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.values import Constant, Value
from .types import memory_type

_LOCAL_AND_GLOBAL_FENCE = 3     # CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE


class AsyncCopyLowering:
    """Mixin of FunctionLowerer: needs `self.b`, `self.value`, `self.slot`, `self.new_block`,
    `self.enter`."""

    def _async_copy(self, e: A.BuiltinCall) -> Value:
        args = [self.value(a) for a in e.args]
        dst, src, count, event = args[0], args[1], args[2], args[-1]
        one = Constant(ty.i64, 1)
        dst_stride = src_stride = one
        if e.builtin is Builtin.ASYNC_STRIDED_COPY:
            # the stride steps through the global side (spec 6.12.10)
            if e.args[0].type.pointee.address_space is T.AddressSpace.LOCAL:
                src_stride = args[3]
            else:
                dst_stride = args[3]
        element = memory_type(e.args[0].type.pointee.unqualified())
        self.b.barrier(_LOCAL_AND_GLOBAL_FENCE)
        with self._first_work_item():
            self._copy_loop(element, dst, dst_stride, src, src_stride, count)
        return event

    def _wait_group_events(self, e: A.BuiltinCall) -> None:
        for a in e.args:
            self.effect(a)
        self.b.barrier(_LOCAL_AND_GLOBAL_FENCE)

    def _prefetch(self, e: A.BuiltinCall) -> None:
        for a in e.args:
            self.effect(a)

    @contextmanager
    def _first_work_item(self):
        """Code that only the work-item with local id (0, 0, 0) runs."""
        ids = [self.b.query(ins.Query.LOCAL_ID, d, f"lid{d}") for d in range(3)]
        OR = ins.BinaryOpcode.OR
        any_id = self.b.binary(OR, self.b.binary(OR, ids[0], ids[1]), ids[2])
        first, rest = self.new_block("copy.first"), self.new_block("copy.after")
        self.b.branch(self.b.compare(ins.Predicate.EQ, any_id, Constant(ty.i64, 0)), first, rest)
        self.enter(first)
        yield
        self.b.jump(rest)
        self.enter(rest)

    def _copy_loop(self, element: ty.Type, dst: Value, dst_stride: Value, src: Value, src_stride: Value,
                   count: Value) -> None:
        """for (k = 0; k < count; k++) dst[k * dst_stride] = src[k * src_stride];"""
        counter = self.slot(ty.i64, "copy.k")
        self.b.store(Constant(ty.i64, 0), counter)
        head, body, done = (self.new_block(f"copy.{n}") for n in ("head", "body", "done"))
        self.b.jump(head)
        self.enter(head)
        k = self.b.load(ty.i64, counter)
        self.b.branch(self.b.compare(ins.Predicate.ULT, k, count), body, done)
        self.enter(body)
        source = self.b.element_ptr(element, src, self.b.mul(k, src_stride))
        target = self.b.element_ptr(element, dst, self.b.mul(k, dst_stride))
        self.b.store(self.b.load(element, source), target)
        self.b.store(self.b.add(k, Constant(ty.i64, 1)), counter)
        self.b.jump(head)
        self.enter(done)
