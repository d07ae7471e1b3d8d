"""group-order: whether the workers walk the work-groups row by row or in tiles (Kim ch. 5's
locality-centric scheduling of work-groups, decided from strides as in ch. 3).

Row order (x fastest) suits a kernel whose accesses continue from one group to the next along x:
a stencil's group x+1 reads the 256 bytes after group x's. A transpose-like kernel walks an array
down its columns instead: the 16x16-tile transpose's store `out[(bx + ly) * height + by + lx]`
moves 64*height bytes from group x to group x+1 (16 rows further) but 64 bytes from group y to
group y+1. Row order then writes 16 new rows (pages, DRAM rows, lines the prefetcher has not seen)
every group, and a row's next line only 256 groups later. Tiles of TILE x TILE groups (codegen/
group_walk.py) bring the groups that continue each other's lines close together in time.

Rule: tiles when some access to global memory moves by a page or more (or by a uniform unknown:
rows of a matrix) per group in x, and by a nonzero constant under a page per group in y. The
remark at the top of the work-group function names the access.

Measured (transpose 4096^2, one thread, CPU time, medians of 9): 23.4 ms with row order and LLVM's
full unroll of the x loops, 22.7 with the x loops vectorized (llvm_emitter.py) but row order, 12.3
with both. stencil5 (64x4 groups) keeps row order (its accesses continue along x): tiling it was
5% slower.

Expects: SSA in work-item form (strides); any position before code generation. Sets
`function.group_tile`; changes no instruction, so it reports no change.
"""
from __future__ import annotations

from ..analysis.stride_values import Class
from ..analysis.strides import Access, Group, access_pointer
from ..ir import types as ty
from ..ir.function import Function
from .passes import PassContext

NAME = "group-order"
TILE = 32
"""Groups per tile side: for 16x16 work-groups, 512 x 512 work-items."""
PAGE = 4096


def _far(access: Access, dim: int) -> bool:
    s = access.stride(Group(dim))
    return not s.is_irregular and (s.constant is None or abs(s.constant) >= PAGE)


def _near(access: Access, dim: int) -> bool:
    c = access.stride(Group(dim)).constant
    return c is not None and 0 < abs(c) < PAGE


def walks_columns(access: Access) -> bool:
    """Whether consecutive groups in x land far apart in this access while groups in y stay close."""
    pointer, _ = access_pointer(access.inst)
    if not isinstance(pointer.type, ty.PointerType) or pointer.type.address_space is not ty.AddressSpace.GLOBAL:
        return False
    return _far(access, 0) and _near(access, 1) and access.classify(0) is not Class.IRREGULAR


def run(function: Function, analyses: PassContext) -> bool:
    columns = [a for a in analyses.strides.accesses if walks_columns(a)]
    if columns:
        a = columns[0]
        function.group_tile = TILE
        function.remarks.append(f"group-order: tiles of {TILE}x{TILE} groups: {a.where()} moves "
                                f"{a.by_group_id[0]} bytes per group in x, {a.by_group_id[1]} per group in y")
    return False
