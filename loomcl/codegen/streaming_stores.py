"""Streaming (non-temporal) stores to large write-only buffers.

A store to a line that is not in the cache first reads the line from memory (write-allocate), so a
kernel that writes a large output moves it twice; a non-temporal store (`vmovntps`) writes whole lines
past the caches, and a copy then moves 2 bytes per byte copied instead of 3. It only pays for memory
the kernel does not read back and that will not fit in the cache anyway, so the runtime chooses it per
launch (engine/streaming.py): `CompilerOptions.streaming` names the parameters, and the work-group
function is specialized for them.

Three pieces, because LLVM's loop vectorizer refuses a loop whose scalar stores carry `!nontemporal`
at element alignment (x86 has no unaligned vector streaming store):
  * the entry tells LLVM what the runtime checked: each streaming parameter is 64-byte aligned, and
    the dimension-0 global offset and enqueued local size are multiples of 64 (`llvm.assume`), so
    the vector stores of a work-item loop get provably line-aligned;
  * after the O3 pipeline (in the compile server), jit/nontemporal.py adds `!nontemporal` to the
    vector stores, of 32 bytes or more and aligned to their size, whose address is computed from a
    streaming parameter; any other store is left as it was (an unaligned streaming store would be
    split into 8-byte ones, slower than a cached store);
  * the entry ends with `sfence`: streaming stores are weakly ordered, and the thread that waits for
    the launch must see them once the group counter says the work is done.
"""
from __future__ import annotations

from ..abi.kernel import STREAM_ALIGN
from ..llvmtext.module import ModuleText


def streaming_lines(module: ModuleText, params: tuple[int, ...]) -> tuple[list[str], list[str]]:
    """(lines after the entry decodes its arguments, lines before it returns) for `params`."""
    if not params:
        return [], []
    module.declare("llvm.assume", "declare void @llvm.assume(i1 noundef)")
    module.declare("llvm.x86.sse.sfence", "declare void @llvm.x86.sse.sfence()")
    aligned = [f'  call void @llvm.assume(i1 true) ["align"(ptr %param{i}, i64 {STREAM_ALIGN})]' for i in params]
    return aligned, ["  call void @llvm.x86.sse.sfence()"]


def launch_value_lines(module: ModuleText, value: str) -> list[str]:
    """Lines (unindented) that tell LLVM the launch value `value` (an i64) is a multiple of STREAM_ALIGN."""
    module.declare("llvm.assume", "declare void @llvm.assume(i1 noundef)")
    low, zero = f"{value}.low", f"{value}.aligned"
    return [f"{low} = and i64 {value}, {STREAM_ALIGN - 1}", f"{zero} = icmp eq i64 {low}, 0",
            f"call void @llvm.assume(i1 {zero})"]
