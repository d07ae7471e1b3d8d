"""Work-item loop nests: the scaffolding that runs a barrier-free region once per work-item.

Not a pass: sub-CFG formation (and the structured form) build one nest per region with
`WorkItemNest`. For a local size (Lx, Ly, Lz) a nest is

    pre:      (uniform snapshot loads)          ; runs once per region execution
              jump header.z
    header.z: %z = phi i64 [0, pre], [%z.next, latch.z]        (only dimensions of size > 1)
      header.y, header.x likewise, x innermost (pocl 4.1: constant trip counts)
    body:     %lid.linear = (z * Ly + y) * Lx + x              ; context array index
              (context loads) jump <region entry>
    ...region...  each exit of the region jumps to latch.x, noting its target
    latch.x:  %next = phi i32 [id, exit block]...              ; where the work-items go next
              %x.next = add %x, 1; branch (%x.next < Lx), header.x, latch.y
      latch.y, latch.z likewise
    after:    (dispatch on %next)

The loops are bottom-tested (every group has at least one work-item), the ids are i64 so that
`get_local_id` needs no truncation (LLVMLITE.md: a plain trunc hid affine accesses from the
vectorizer), and the loops are registered in `function.work_item_loops` (`WorkItemLoop`) so that codegen
marks it parallel (pocl 4.2). A dimension of size 1 gets no loop: its id is the constant 0.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.function import Block, Function, WorkItemLoop
from ..ir.values import Constant, Value

_DIM_NAMES = "xyz"


class WorkItemNest:
    """Builds the blocks around one region. After construction: `pre` (entry of the nest),
    `body` (jump target into the region is set by `enter`), `ids[d]` (i64 local id values),
    `linear` (i64 linear local id), `latch` (where region exits go), `after` (exit of the nest)."""

    def __init__(self, function: Function, local_size: tuple[int, int, int], name: str) -> None:
        self.function = function
        self.local_size = local_size
        self.name = name
        self.pre = function.add_block(f"{name}.pre")
        self.loop_dims = [d for d in (2, 1, 0) if local_size[d] > 1]
        self.ids: list[Value] = [Constant(ty.i64, 0)] * 3
        self.headers: dict[int, Block] = {}
        self.latches: dict[int, Block] = {}
        self._build_headers()
        self.body = function.add_block(f"{name}.body")
        self.headers_end.append(ins.Jump(self.body))
        self.linear = self._linear_id()
        self.latch = function.add_block(f"{name}.latch")
        self.after = self._build_latches()

    def _build_headers(self) -> None:
        previous = self.pre
        for d in self.loop_dims:
            header = self.function.add_block(f"{self.name}.header.{_DIM_NAMES[d]}")
            previous.append(ins.Jump(header))
            phi = ins.Phi(ty.i64, f"lid.{_DIM_NAMES[d]}")
            header.append(phi)
            phi.add_incoming(Constant(ty.i64, 0), previous)
            self.ids[d] = phi
            self.headers[d] = header
            previous = header
        self.headers_end = previous

    def _linear_id(self) -> Value:
        b = Builder(self.body)
        lx, ly, _ = self.local_size
        linear = self.ids[2]
        for d, size in ((1, ly), (0, lx)):
            linear = _multiply_add(b, linear, size, self.ids[d])
        return linear

    def _build_latches(self) -> Block:
        block = self.latch
        for d in reversed(self.loop_dims):  # innermost (x) first
            self.latches[d] = block
            b = Builder(block)
            next_id = b.add(self.ids[d], Constant(ty.i64, 1), f"lid.{_DIM_NAMES[d]}.next")
            more = b.compare(ins.Predicate.ULT, next_id, Constant(ty.i64, self.local_size[d]))
            self.ids[d].add_incoming(next_id, block)
            outer = self.function.add_block(f"{self.name}.latch.{_DIM_NAMES[d]}.exit")
            b.branch(more, self.headers[d], outer)
            block = outer
        return block

    def enter(self, region_entry: Block) -> None:
        self.body.append(ins.Jump(region_entry))

    def register_loops(self) -> None:
        """Make the nest's loops part of the function's work-group structure (outer first)."""
        for d in self.loop_dims:
            self.function.work_item_loops.append(WorkItemLoop(d, self.headers[d], self.latches[d], self.ids[d]))


def _is_zero(v: Value) -> bool:
    return isinstance(v, Constant) and v.value == 0


def _multiply_add(b: Builder, a: Value, size: int, c: Value) -> Value:
    """a * size + c, without emitting arithmetic on the constant 0 of a dimension without loop."""
    if _is_zero(a):
        return c
    scaled = b.mul(a, Constant(ty.i64, size)) if size != 1 else a
    return scaled if _is_zero(c) else b.add(scaled, c, "lid.linear")
