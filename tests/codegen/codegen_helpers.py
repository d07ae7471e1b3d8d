"""Helpers for codegen tests: build work-group-form kernels by hand and launch them through the ABI."""
from __future__ import annotations

import ctypes

import numpy as np

from loomcl import ir
from loomcl.abi import kernel as abi
from loomcl.ir import types as ty

GLOBAL = ty.pointer(ty.AddressSpace.GLOBAL)
LOCAL = ty.pointer(ty.AddressSpace.LOCAL)
CONSTANT = ty.pointer(ty.AddressSpace.CONSTANT)


def kernel(name: str, param_types, param_names, local_size=(64, 1, 1)):
    f = ir.Function(name, ty.void, list(param_types), list(param_names), is_kernel=True)
    f.local_size = tuple(local_size)
    b = ir.Builder(f.add_block("entry"))
    return f, b


def work_item_loop(b: ir.Builder, count: int, body, name: str = "lid") -> None:
    """Emit `for (lid = 0; lid < count; ++lid) body(b, lid)` and register it as a WorkItemLoop.
    `body` may add blocks; the builder ends after the loop."""
    f = b.function
    header = f.add_block(f"{name}.loop")
    pre = b.block
    b.jump(header)
    b.position_at_end(header)
    lid = b.phi(ty.i64, name)
    body(b, lid)
    latch = f.add_block(f"{name}.latch")
    b.jump(latch)
    b.position_at_end(latch)
    following = b.add(lid, ir.Constant(ty.i64, 1), f"{name}.next")
    more = b.compare(ir.Predicate.ULT, following, ir.Constant(ty.i64, count), f"{name}.more")
    exit_block = f.add_block(f"{name}.exit")
    b.branch(more, header, exit_block)
    lid.add_incoming(ir.Constant(ty.i64, 0), pre)
    lid.add_incoming(following, latch)
    f.work_item_loops.append(ir.WorkItemLoop(0, header, latch, lid))
    b.position_at_end(exit_block)


def global_id(b: ir.Builder, lid, local_size: int, dim: int = 0):
    group = b.query(ir.Query.GROUP_ID, dim, "group")
    base = b.mul(group, ir.Constant(ty.i64, local_size), "base")
    return b.add(base, lid, "gid")


def launch(compiled: abi.WorkGroupFunction, args, global_size, arena_bytes: int = 0,
           global_offset=(0, 0, 0), begin=None, end=None):
    """Run all groups of an NDRange (uniform local size) on this thread. `args` are numpy arrays
    (passed by address), ints/floats given as numpy scalars (passed by bits) or raw ints (slot value)."""
    global_size = tuple(global_size) + (1,) * (3 - len(global_size))
    local = compiled.local_size
    groups = [g // l for g, l in zip(global_size, local)]
    info = abi.LaunchInfo()
    info.work_dim = sum(1 for g in global_size if g > 1) or 1
    for d in range(3):
        info.global_size[d] = global_size[d]
        info.global_offset[d] = global_offset[d]
        info.enqueued_local_size[d] = local[d]
        info.num_groups[d] = groups[d]
        info.region_groups[d] = groups[d]
    slots = np.array([_slot(a) for a in args] or [0], dtype=np.uint64)
    arena = np.zeros(max(arena_bytes, compiled.static_local_bytes) + abi.LOCAL_ALIGN, np.uint8)
    arena_address = -(-arena.ctypes.data // abi.LOCAL_ALIGN) * abi.LOCAL_ALIGN
    entry = abi.ENTRY_CTYPE(compiled.address)
    total = groups[0] * groups[1] * groups[2]
    entry(slots.ctypes.data, ctypes.addressof(info), 0 if begin is None else begin,
          total if end is None else end, arena_address)


def _slot(value) -> int:
    if isinstance(value, np.ndarray):
        return value.ctypes.data
    if isinstance(value, np.generic):
        raw = value.tobytes()
        return int.from_bytes(raw + bytes(8 - len(raw)), "little")
    return int(value)
