"""Lane operations (ir/ops/lanes.py) as LLVM IR: splats, llvm.masked.* and llvm.vector.reduce.or.

A mask that is the all-true constant gives a plain vector load or store, which LLVM would make of the
masked intrinsic anyway; a masked access names the element's alignment (LLVM 22 takes it as a
parameter attribute of the pointer operand)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import instructions as ins
from ..ir.values import VectorConstant
from ..llvmtext.types import intrinsic_suffix, llvm_type

if TYPE_CHECKING:
    from .llvm_emitter import FunctionEmitter


def _all_true(mask) -> bool:
    return isinstance(mask, VectorConstant) and all(lane.value for lane in mask.lanes)


def broadcast(e: FunctionEmitter, inst: ins.Broadcast) -> None:
    t, one = llvm_type(inst.type), e.temp("splat")
    e.emit_line(f"{one} = insertelement {t} poison, {e.typed(inst.value)}, i64 0")
    e.emit_line(f"{e.ref(inst)} = shufflevector {t} {one}, {t} poison, <{inst.type.count} x i32> zeroinitializer")


def lane_load(e: FunctionEmitter, inst: ins.LaneLoad) -> None:
    t, align = llvm_type(inst.type), inst.type.element.alignment
    if _all_true(inst.mask):
        e.emit_line(f"{e.ref(inst)} = load {t}, ptr {e.ref(inst.pointer)}, align {align}")
        return
    name = f"llvm.masked.load.{intrinsic_suffix(inst.type)}.p0"
    e.module.declare(name, f"declare {t} @{name}(ptr, {llvm_type(inst.mask.type)}, {t})")
    e.emit_line(f"{e.ref(inst)} = call {t} @{name}(ptr align {align} {e.ref(inst.pointer)}, "
                f"{e.typed(inst.mask)}, {t} zeroinitializer)")


def lane_store(e: FunctionEmitter, inst: ins.LaneStore) -> None:
    t, align = llvm_type(inst.value.type), inst.value.type.element.alignment
    if _all_true(inst.mask):
        e.emit_line(f"store {e.typed(inst.value)}, ptr {e.ref(inst.pointer)}, align {align}")
        return
    name = f"llvm.masked.store.{intrinsic_suffix(inst.value.type)}.p0"
    e.module.declare(name, f"declare void @{name}({t}, ptr, {llvm_type(inst.mask.type)})")
    e.emit_line(f"call void @{name}({e.typed(inst.value)}, ptr align {align} {e.ref(inst.pointer)}, "
                f"{e.typed(inst.mask)})")


def _addresses(e: FunctionEmitter, base, offsets) -> tuple[str, str]:
    count = offsets.type.count
    pointers = e.temp("lanes.ptr")
    e.emit_line(f"{pointers} = getelementptr i8, ptr {e.ref(base)}, {e.typed(offsets)}")
    return pointers, f"<{count} x ptr>"


def gather(e: FunctionEmitter, inst: ins.Gather) -> None:
    t, align = llvm_type(inst.type), inst.type.element.alignment
    pointers, pt = _addresses(e, inst.base, inst.offsets)
    name = f"llvm.masked.gather.{intrinsic_suffix(inst.type)}.v{inst.type.count}p0"
    e.module.declare(name, f"declare {t} @{name}({pt}, {llvm_type(inst.mask.type)}, {t})")
    e.emit_line(f"{e.ref(inst)} = call {t} @{name}({pt} align {align} {pointers}, {e.typed(inst.mask)}, "
                f"{t} zeroinitializer)")


def scatter(e: FunctionEmitter, inst: ins.Scatter) -> None:
    t, align = llvm_type(inst.value.type), inst.value.type.element.alignment
    pointers, pt = _addresses(e, inst.base, inst.offsets)
    name = f"llvm.masked.scatter.{intrinsic_suffix(inst.value.type)}.v{inst.value.type.count}p0"
    e.module.declare(name, f"declare void @{name}({t}, {pt}, {llvm_type(inst.mask.type)})")
    e.emit_line(f"call void @{name}({e.typed(inst.value)}, {pt} align {align} {pointers}, {e.typed(inst.mask)})")


def any_lane(e: FunctionEmitter, inst: ins.AnyLane) -> None:
    t = llvm_type(inst.mask.type)
    name = f"llvm.vector.reduce.or.{intrinsic_suffix(inst.mask.type)}"
    e.module.declare(name, f"declare i1 @{name}({t})")
    e.emit_line(f"{e.ref(inst)} = call i1 @{name}({e.typed(inst.mask)})")


HANDLERS = {
    ins.Broadcast: broadcast, ins.LaneLoad: lane_load, ins.LaneStore: lane_store,
    ins.Gather: gather, ins.Scatter: scatter, ins.AnyLane: any_lane,
}
