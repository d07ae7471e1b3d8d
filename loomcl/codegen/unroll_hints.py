"""Which loops LLVM is told to unroll or not (and how wide to vectorize), so that its loop vectorizer works across x work-items.

LLVM's loop vectorizer takes innermost loops only, and its full unroller runs before it. Left alone it
often picks the wrong loop of a work-group function:

* an x work-item loop of few trips (16) inside a y loop is unrolled away, and the y loop is then
  vectorized across rows: gathers and scatters where x was unit-stride (sgemmTiled's tile loads).
  Such x loops are kept rolled (llvm_emitter.py's `_keep_rolled`, option `roll_small_x_loops`);
* a short kernel loop inside an x loop whose body is too big for the unroller's threshold
  (dgemmBlocked's `for (k < 16) for (w < 4)`) stays a loop, innermost, so the x loop around it is
  not vectorized at all, and its accumulators become a floating-point reduction the vectorizer may
  not reorder. Kernel loops with a constant trip count of at most MAX_TRIPS (with their nested
  ones, at most MAX_UNROLLED_INSTRUCTIONS instructions once unrolled) get `llvm.loop.unroll.full`.
  implicit-loop-barriers already counts on such loops being unrolled (analysis/trip_count.py's MAX_UNROLLED_TRIPS).

* a rolled x loop of WHOLE_LOOP_TRIPS (16) trips over 8-byte elements would be vectorized 8 wide (one
  AVX-512 register of doubles) and run twice; LLVM then hoists what is invariant across x out of it
  and, out of registers, spills it to a table it reloads (dgemmBlocked's 64 broadcasts of a_tile per
  row: 18.5 -> 24.5 GFLOP/s on one core with the hint). Such loops get `llvm.loop.vectorize.width`
  16: one vector iteration, the broadcasts folded into the multiplies.

The last two are the option `vectorize_x` (`-loomcl-no-vectorize-x`).
"""
from __future__ import annotations

from ..analysis.loops import Loop, LoopInfo
from ..analysis.trip_count import MAX_UNROLLED_TRIPS, unrolled_loops
from ..ir import instructions as ins
from ..ir.function import Function, WorkItemLoop
from ..ir.values import Constant

MAX_TRIPS = MAX_UNROLLED_TRIPS
WHOLE_LOOP_TRIPS = 16


def whole_loop_width(loop: WorkItemLoop, unrolled: list[Loop]) -> int | None:
    """The vectorization width that runs a rolled x loop in one vector iteration, where LLVM would
    otherwise take two (16 trips, the widest element accessed 8 bytes); None elsewhere. A width
    forces vectorization, and LLVM prints a warning on the user's stderr where it then cannot (an
    early exit, a branch it cannot predicate), so only a body that is straight-line once the
    `unrolled` kernel loops are gone gets one: its only branches are their exit tests."""
    lower, upper = loop.lower, loop.upper
    if not (isinstance(lower, Constant) and lower.value == 0 and isinstance(upper, Constant)
            and upper.value == WHOLE_LOOP_TRIPS):
        return None
    loop_tests = {block for inner in unrolled for block, _ in inner.exits()}
    blocks = loop.blocks
    for block in blocks:
        term = block.terminator
        if block is not loop.latch and not isinstance(term, ins.Jump) and block not in loop_tests:
            return None
        if any(i.reads_memory and i.writes_memory for i in block.instructions):  # atomics
            return None
    sizes = [i.accessed_type.size for b in blocks for i in b.instructions if i.address is not None]
    return WHOLE_LOOP_TRIPS if sizes and max(sizes) == 8 else None


def kernel_loops_unrolled(function: Function) -> list[Loop]:
    """Kernel loops inside an x work-item loop with a small constant trip count, outermost first."""
    x_blocks = [loop.blocks for loop in function.work_item_loops if loop.dim == 0]
    if not x_blocks:
        return []
    headers = {loop.header for loop in function.work_item_loops}

    def inside(loop: Loop) -> bool:
        return loop.header not in headers and any(loop.header in blocks and loop.blocks <= blocks for blocks in x_blocks)
    return list(unrolled_loops(LoopInfo(function), inside, function.local_size))
