"""printf calls to LLVM IR: each format gets a helper function that appends one record to the
launch's printf buffer (printf/record.py), and the call site calls it.

    define internal i32 @loomcl.printf.<id>(ptr %launch, <the arguments>)

The helper reserves the record with one atomic add on the buffer's cursor, so concurrent
work-items (on any worker thread) write disjoint bytes, then stores the arguments at the offsets
`record_layout` gives, the size, and the format id last (the runtime zeroes used bytes between
launches, so a record cut short by a fault reads as the end). A record that does not fit is counted as dropped
and, where its header fits, marked as the end of the buffer; the call then gives -1. A launch
without a buffer (`printf_buffer` 0: native code called directly, not through the runtime) prints
nothing and gives -1. The helper has its own control flow, so the emitter's blocks stay as the IR's.
"""
from __future__ import annotations

from ..abi.kernel import LAUNCH_FIELDS
from ..ir import instructions as ins
from ..ir import types as ty
from ..llvmtext.module import LAUNCH_TYPE, ModuleText
from ..llvmtext.types import llvm_type
from ..printf.record import CAPACITY_OFFSET, DATA_OFFSET, DROPPED_OFFSET, END_MARKER, record_layout


def printf_helper(module: ModuleText, inst: ins.Printf) -> str:
    """`@symbol` of the record-writing helper of this call's format (defined on first use)."""
    return module.define_once(f"loomcl.printf.{inst.format_id}", lambda: _helper_text(inst))


def _lanes(t: ty.Type) -> tuple[int, int]:
    if isinstance(t, ty.VectorType):
        return t.element.size, t.count
    return t.size, 1


def _helper_text(inst: ins.Printf) -> str:
    types = [a.type for a in inst.args]
    offsets, size = record_layout([_lanes(t) for t in types])
    params = ", ".join(["ptr %launch"] + [f"{llvm_type(t)} %arg{i}" for i, t in enumerate(types)])
    stores = []
    for i, (t, offset) in enumerate(zip(types, offsets)):
        stores += [f"  %arg{i}.addr = getelementptr inbounds i8, ptr %record, i64 {offset}",
                   f"  store {llvm_type(t)} %arg{i}, ptr %arg{i}.addr, align {_lanes(t)[0]}"]
    return "\n".join([
        f"define internal i32 @loomcl.printf.{inst.format_id}({params}) #1 {{",
        "entry:",
        f"  %slot = getelementptr inbounds {LAUNCH_TYPE}, ptr %launch, i64 0, i32 "
        f"{LAUNCH_FIELDS.index('printf_buffer')}",
        "  %bits = load i64, ptr %slot, align 8",
        "  %none = icmp eq i64 %bits, 0",
        "  br i1 %none, label %fail, label %reserve",
        "reserve:",
        "  %buffer = inttoptr i64 %bits to ptr",
        f"  %capacity.addr = getelementptr inbounds i8, ptr %buffer, i64 {CAPACITY_OFFSET}",
        "  %capacity = load i64, ptr %capacity.addr, align 8",
        f"  %start = atomicrmw add ptr %buffer, i64 {size} monotonic, align 8",
        f"  %end = add i64 %start, {size}",
        f"  %record.offset = add i64 %start, {DATA_OFFSET}",
        "  %record = getelementptr inbounds i8, ptr %buffer, i64 %record.offset",
        "  %fits = icmp ule i64 %end, %capacity",
        "  br i1 %fits, label %write, label %full",
        "write:",
        *stores,
        "  %size.addr = getelementptr inbounds i8, ptr %record, i64 4",
        f"  store i32 {size}, ptr %size.addr, align 4",
        f"  store i32 {inst.format_id}, ptr %record, align 8",
        "  ret i32 0",
        "full:",
        f"  %dropped.addr = getelementptr inbounds i8, ptr %buffer, i64 {DROPPED_OFFSET}",
        "  %dropped = atomicrmw add ptr %dropped.addr, i64 1 monotonic, align 8",
        "  %header.fits = icmp ult i64 %start, %capacity",
        "  br i1 %header.fits, label %mark, label %fail",
        "mark:",
        f"  store i32 {END_MARKER}, ptr %record, align 8",
        "  br label %fail",
        "fail:",
        "  ret i32 -1",
        "}",
        "",
    ])
