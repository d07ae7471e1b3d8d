"""Depth-first or breadth-first order of the work-items around a kernel loop (Kim ch. 3.1, 3.4).

DFO runs each work-item through the whole loop before the next one starts (the work-item loop
outside, the kernel's loop inside: the plain work-group function). BFO runs each iteration for all
work-items before the next iteration (the kernel loop outside, the work-item loop inside: pocl's
horizontal inner-loop parallelization, which implicit-loop-barriers builds when this module says
BFO). The choice is made per natural loop from the strides of its accesses (analysis/strides.py),
along x (the innermost work-item loop, the one LLVM vectorizes) and along the loop's iterations:

 1. Only innermost loops (as pocl; Kim gives inner loops priority): barriers in an inner loop make
    the uniform loops around it group-level loops anyway.
 2. DFO for a loop with a small constant trip count (at most MAX_UNROLLED_TRIPS once the local size
    is known): LLVM unrolls it inside the work-item loop, which then vectorizes across work-items
    with the loop's values in registers, where BFO would load and store their context arrays every
    iteration (sgemmTiled's and dct8x8's 16- and 8-trip loops).
 3. DFO for a loop with no varying instruction: nothing per work-item to order.
 4. Locality, Kim's Table 3.1: each access votes by its class along x (W) and along the loop (L),
    each 0, 1 (the element size, or less) or X (anything else): W0L1, W0LX and W1LX for BFO (the
    work-items of one iteration share a line, or walk one), W1L0, WXL0 and WXL1 for DFO (one
    work-item's iterations do). The majority wins.
 5. A tie (no votes at all included) is decided by the machine: BFO puts the work-item loop
    innermost, where it vectorizes across work-items, while DFO leaves each work-item's loop-carried
    chain (an accumulator, the FMA probe's chains) serial in scalar registers. So BFO when every
    access of the loop is uniform or unit-stride along x (a vector access, no gather or scatter) and
    DFO otherwise (Kim's tie-breaker: BFO's context-array round trips buy nothing there). The note
    says how many values the loop carries per work-item: each costs a context-array load and store
    per iteration under BFO.

Measured (2-core EPYC, one thread, CPU time, medians; depth-first everywhere is `--config nohoriz`):
sgemmNaive 512^2 with BFO (A[row*n+k] is W0L1, B[k*n+col] W1LX) 9.2 ms against 301 ms; nbody 8K
(tile[j] W0L1) 24.5 against 242 ms; colSums 4096^2 (A[r*cols+col] W1LX) 6.7 against 127 ms.
sgemvRow stays DFO: its `a[j]` with `a = A + row*n` is WXL1 and `x[j]` W0L1, a tie, and BFO would
gather a[j] across 16 rows 16 KB apart (a page, a TLB entry, per lane): 51 ms against 14.5 ms.
Its DFO time is the latency of the serial floating-point sum of each row (4 cycles an element; with
-cl-fast-relaxed-math LLVM vectorizes the row: 3.0 ms): the schedule that beats it runs rows as
independent lanes (unroll-and-jam / whole-function vectorization), not a different loop order.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ..analysis.loops import Loop, LoopInfo
from ..analysis.strides import Access, Strides
from ..analysis.trip_count import MAX_UNROLLED_TRIPS, constant_trip_count
from ..analysis.uniformity import Uniformity

X = 0  # the innermost work-item loop's dimension

_BFO_CLASSES = {("0", "1"), ("0", "X"), ("1", "X")}
_DFO_CLASSES = {("1", "0"), ("X", "0"), ("X", "1")}


class Order(enum.Enum):
    DFO = "DFO"
    BFO = "BFO"


@dataclass
class Decision:
    loop: Loop
    order: Order
    reason: str

    def note(self) -> str:
        return f"loop-order {self.loop.header.name}: {self.order.value}, {self.reason}"


def access_class(access: Access, loop: Loop) -> tuple[str, str]:
    """Kim's (work-item, loop) class of an access: each "0", "1" or "X"."""
    return access.classify(X).kim, access.classify(loop).kim


def votes(accesses: list[Access], loop: Loop) -> tuple[list[Access], list[Access]]:
    """The accesses preferring BFO and those preferring DFO (Kim's Subroutine 1)."""
    classes = [(a, access_class(a, loop)) for a in accesses]
    return [a for a, c in classes if c in _BFO_CLASSES], [a for a, c in classes if c in _DFO_CLASSES]


def _describe(accesses: list[Access], loop: Loop) -> str:
    return ", ".join(f"{a.where()} W{w}L{l}" for a in accesses for w, l in [access_class(a, loop)])


def _carried(loop: Loop, uniformity: Uniformity) -> int:
    return sum(1 for phi in loop.header.phis if not uniformity.is_uniform(phi))


def _has_varying_work(loop: Loop, uniformity: Uniformity) -> bool:
    return any(not uniformity.is_uniform(i) for b in loop.blocks for i in b.instructions)  # no value: uniform


def _vector_access(access: Access) -> bool:
    atomic = access.inst.reads_memory and access.inst.writes_memory
    return access.classify(X).kim in ("0", "1") and not atomic


def decide(loop: Loop, loops: LoopInfo, strides: Strides, uniformity: Uniformity, local_size,
           mode: str = "locality") -> Decision:
    """The order for one legal loop (implicit_loop_barriers.legal), and why. `mode` "bfo" (the
    option `loop_order`) takes BFO for every innermost loop with per-work-item work."""
    if any(other.parent is loop for other in loops.loops):
        return Decision(loop, Order.DFO, "not innermost: its inner loops choose")
    if mode == "bfo":
        work = _has_varying_work(loop, uniformity)
        return Decision(loop, Order.BFO if work else Order.DFO,
                        "-loomcl-loop-order-bfo" if work else "no per-work-item work")
    trips = constant_trip_count(loop, local_size, MAX_UNROLLED_TRIPS)
    if trips is not None:
        return Decision(loop, Order.DFO, f"{trips} trips: inside the work-item loop, its values in registers")
    if not _has_varying_work(loop, uniformity):
        return Decision(loop, Order.DFO, "no per-work-item work")
    accesses = strides.in_loop(loop)
    bfo, dfo = votes(accesses, loop)
    tally = f"votes BFO {len(bfo)} [{_describe(bfo, loop)}] DFO {len(dfo)} [{_describe(dfo, loop)}]"
    if len(bfo) != len(dfo):
        return Decision(loop, Order.BFO if len(bfo) > len(dfo) else Order.DFO, f"locality: {tally}")
    gathers = [a for a in accesses if not _vector_access(a)]
    if gathers:
        return Decision(loop, Order.DFO, f"tie ({tally}); BFO would gather: {_describe(gathers, loop)}")
    return Decision(loop, Order.BFO, f"tie ({tally}); BFO vectorizes across work-items, "
                                     f"{_carried(loop, uniformity)} carried values in context arrays")
