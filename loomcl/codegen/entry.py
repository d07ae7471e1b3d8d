"""The LLVM module of one kernel specialization: the work-group body and the entry wrapper of abi/kernel.py.

    define void @loomcl_wg_<kernel>(ptr %args, ptr %launch, i64 %begin, i64 %end, ptr %arena)

The wrapper reads each kernel parameter from its 64-bit argument slot once, decodes the first group
index of [begin, end) into (x, y, z) with x innermost, then walks the groups, stepping x and carrying
into y and z (two compares and selects per group, no division; for 2D work-groups in tiles of
groups, group_walk.py), and calls the body with
`region_origin + (x, y, z)`. The body is an internal `alwaysinline` function, so after inlining the
launch loads and parameter decoding are hoisted out of the group loop.

`__local` variables get byte offsets in the arena, each aligned to min(LOCAL_ALIGN, max(its alignment,
64)), then private allocations of PRIVATE_ARENA_THRESHOLD bytes or more (the context arrays of
private arrays: L copies would overflow a worker's stack); the runtime places local-pointer
arguments after `static_local_bytes`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..abi.kernel import (
    LAUNCH_FIELDS, LAUNCH_SCALAR_FIELDS, LOCAL_ALIGN, PRIVATE_ARENA_THRESHOLD, KernelSignature, ParamKind,
)
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Function
from ..llvmtext.errors import CodegenError
from ..llvmtext.module import LAUNCH_TYPE, ModuleText, quote
from ..llvmtext.types import llvm_type
from ..options import CompilerOptions
from .check_ranges import group_test
from .group_walk import tiled_decode, tiled_step
from .llvm_emitter import BodyEnvironment, FunctionEmitter, callee_symbol
from .llvm_group_test import dispatcher_text
from .streaming_stores import streaming_lines

_ATTRIBUTES = [
    "attributes #0 = { alwaysinline nounwind DENORMALS}",
    "attributes #1 = { nounwind DENORMALS}",
]
# -cl-denorms-are-zero: LLVM folds and optimizes as if subnormals flush to a zero of the same sign,
# and the entry makes the CPU do so (x86: MXCSR's flush-to-zero and denormals-are-zero bits, set for
# the launch and restored after, so the caller's own arithmetic is untouched).
_DENORMALS_FLUSHED = '"denormal-fp-math"="preserve-sign,preserve-sign" '
_MXCSR_FTZ_DAZ = (1 << 15) | (1 << 6)


@dataclass(frozen=True)
class KernelModule:
    """LLVM IR text of one kernel specialization, before optimization."""

    text: str
    entry_symbol: str
    local_size: tuple[int, int, int]
    static_local_bytes: int
    private_bytes: int
    group_tile: int | None = None  # the entry walks its groups in tiles of this many (group_walk.py)


def entry_symbol(function: Function) -> str:
    return f"loomcl_wg_{function.name}"


def build_kernel_module(function: Function, params: KernelSignature | list[ParamKind] | None,
                        options: CompilerOptions, triple: str, datalayout: str) -> KernelModule:
    if function.local_size is None:
        raise CodegenError(f"@{function.name} is not in work-group form: its local_size is not set")
    kinds = param_kinds(function, params)
    offsets, private_offsets, static_bytes, private_bytes = layout_arena(function)
    module = ModuleText()
    module.types.append(f"{LAUNCH_TYPE} = type {{ {', '.join(_launch_field_types())} }}")
    body_symbol = f"loomcl_body_{function.name}"
    _emit_body(function, module, options, offsets, private_offsets, body_symbol)
    symbol = entry_symbol(function)
    flush = options.denormals_are_zero
    module.functions.append(_entry_text(function, kinds, symbol, body_symbol,
                                        _flush_denormals(module) if flush and _is_x86(triple) else None,
                                        options.checked, function.group_tile,
                                        streaming_lines(module, options.streaming)))
    attributes = "\n".join(_ATTRIBUTES).replace("DENORMALS", _DENORMALS_FLUSHED if flush else "")
    text = module.text(triple, datalayout) + attributes + "\n"
    return KernelModule(text, symbol, tuple(function.local_size), static_bytes, private_bytes, function.group_tile)


def _launch_field_types() -> list[str]:
    return ["i64" if name in LAUNCH_SCALAR_FIELDS else "[3 x i64]" for name in LAUNCH_FIELDS]


# -- parameters and __local layout ------------------------------------------------------------------


def param_kinds(function: Function, params) -> list[ParamKind]:
    """The ABI kind of each parameter: given by the kernel signature or a list, or read off the IR
    types (local pointer, other pointer, scalar, vector by value)."""
    if isinstance(params, KernelSignature):
        kinds = [p.kind for p in params.params]
    elif params is not None:
        kinds = list(params)
    else:
        kinds = [_kind_of(p.type) for p in function.params]
    if len(kinds) != len(function.params):
        raise CodegenError(f"@{function.name} has {len(function.params)} parameters, "
                           f"the signature {len(kinds)}")
    return kinds


def _kind_of(t: ty.Type) -> ParamKind:
    if isinstance(t, ty.PointerType):
        return ParamKind.LOCAL_POINTER if t.address_space == ty.AddressSpace.LOCAL else ParamKind.GLOBAL_POINTER
    if isinstance(t, (ty.IntType, ty.FloatType)):
        return ParamKind.SCALAR
    return ParamKind.BY_VALUE


def _place(items, end: int) -> tuple[dict, int]:
    """Byte offsets for (key, type) items from `end` on, each aligned to min(LOCAL_ALIGN, max(its
    alignment, 64)), and the end rounded up to LOCAL_ALIGN."""
    offsets = {}
    for key, t in items:
        align = min(LOCAL_ALIGN, max(t.alignment, 64))
        end = -(-end // align) * align
        offsets[key] = end
        end += t.size
    return offsets, -(-end // LOCAL_ALIGN) * LOCAL_ALIGN


def local_variable_bytes(function: Function) -> int:
    """The arena bytes a kernel's own __local variables take (clGetKernelWorkGroupInfo's LOCAL_MEM_SIZE
    before its local arguments)."""
    return _place(((gv, gv.value_type) for gv in function.local_variables), 0)[1]


def layout_arena(function: Function) -> tuple[dict, dict, int, int]:
    """Arena offsets of the __local variables and then of the large private allocations (abi/kernel.py):
    (local offsets, private offsets, static bytes in all, of which private)."""
    local_offsets, local_end = _place(((gv, gv.value_type) for gv in function.local_variables), 0)
    large = [(inst, inst.allocated_type) for inst in function.instructions()
             if isinstance(inst, ins.Alloca) and inst.allocated_type.size >= PRIVATE_ARENA_THRESHOLD]
    private_offsets, end = _place(large, local_end)
    return local_offsets, private_offsets, end, end - local_end


# -- the body and its callees -----------------------------------------------------------------------


def _emit_body(function: Function, module: ModuleText, options: CompilerOptions, offsets: dict,
               private_offsets: dict, symbol: str) -> None:
    env = BodyEnvironment(local_offsets=offsets, private_offsets=private_offsets,
                          args="%args" if options.checked else None)
    extra = ("i64 %group.x", "i64 %group.y", "i64 %group.z", "ptr noalias %launch", "ptr noalias %arena")
    if options.checked:
        extra += ("ptr noalias readonly %args",)
    test = group_test(function) if options.checked else None
    if test is not None:  # checked mode's fast path: a second body without the checks a group test proves
        fast, checked = f"{symbol}.fast", f"{symbol}.checked"
        _emit_one_body(function, module, options, env, fast, extra, {p.check for p in test.proven})
        _emit_one_body(function, module, options, env, checked, extra, set())
        module.functions.append(dispatcher_text(function, test, symbol, fast, checked, extra))
    else:
        _emit_one_body(function, module, options, env, symbol, extra, set())


def _emit_one_body(function: Function, module: ModuleText, options: CompilerOptions, env: BodyEnvironment,
                   symbol: str, extra: tuple[str, ...], proven: set) -> None:
    emitter = FunctionEmitter(function, module, options, env, proven)
    emitter.emit(symbol, extra_params=extra)
    _emit_callees(emitter.callees, module, options)


def _emit_callees(pending: list[Function], module: ModuleText, options: CompilerOptions) -> None:
    """Functions still called after inlining (not expected, but legal): internal and always inlined."""
    done: set[str] = set()
    while pending:
        callee = pending.pop()
        if callee.name in done:
            continue
        done.add(callee.name)
        emitter = FunctionEmitter(callee, module, options)
        emitter.emit(callee_symbol(callee))
        pending.extend(emitter.callees)


# -- the entry wrapper ------------------------------------------------------------------------------


def _entry_text(function: Function, kinds: list[ParamKind], symbol: str, body_symbol: str,
                float_mode: tuple[list[str], list[str]] | None = None, checked: bool = False,
                tile: int | None = None, streaming: tuple[list[str], list[str]] = ([], [])) -> str:
    """The wrapper; `float_mode` is (lines that set the CPU's floating-point mode, lines that
    restore it), run around the group loop; `checked`: the body takes the argument block too;
    `streaming`: (lines after the arguments are decoded, lines before the return) of streaming stores."""
    set_mode, restore_mode = float_mode or ([], [])
    lines = [f"define void @{quote(symbol)}(ptr noalias readonly %args, ptr noalias readonly %launch, "
             f"i64 %begin, i64 %end, ptr noalias align {LOCAL_ALIGN} %arena) #1 {{", "entry:"] + set_mode
    args = [_param_from_slot(lines, i, p.type, kind) for i, (p, kind) in enumerate(zip(function.params, kinds))]
    lines += streaming[0]
    restore_mode = streaming[1] + restore_mode
    loop = _group_loop(args, body_symbol, ["ptr %args"] if checked else [], tile)
    if checked:
        loop = _stop_on_violation(lines, loop, 2 * len(function.params))
    lines += loop
    lines[-1:-1] = restore_mode  # before the `ret void`
    return "\n".join(lines + ["}", ""])


def _stop_on_violation(lines: list[str], loop: list[str], record_slot: int) -> list[str]:
    """Checked mode: take no further group once a check of the launch failed (abi.CheckRecord)."""
    lines.append(f"  %record.addr = getelementptr inbounds i64, ptr %args, i64 {record_slot}")
    lines.append("  %record = load ptr, ptr %record.addr, align 8")
    more = "  %more = icmp slt i64 %g.next, %end"
    return [line if line != more else "\n".join([
        "  %more.groups = icmp slt i64 %g.next, %end",
        "  %status = load atomic i64, ptr %record monotonic, align 8",
        "  %clean = icmp eq i64 %status, 0",
        "  %more = and i1 %more.groups, %clean"]) for line in loop]


def _is_x86(triple: str) -> bool:
    return triple.startswith(("x86_64", "i686", "i386"))


def _flush_denormals(module: ModuleText) -> tuple[list[str], list[str]]:
    """x86: save MXCSR, set flush-to-zero and denormals-are-zero; restore the saved value."""
    for name in ("llvm.x86.sse.stmxcsr", "llvm.x86.sse.ldmxcsr"):
        module.declare(name, f"declare void @{name}(ptr)")
    set_mode = [
        "  %mxcsr.saved = alloca i32, align 4",
        "  %mxcsr.flush = alloca i32, align 4",
        "  call void @llvm.x86.sse.stmxcsr(ptr %mxcsr.saved)",
        "  %mxcsr = load i32, ptr %mxcsr.saved, align 4",
        f"  %mxcsr.ftz.daz = or i32 %mxcsr, {_MXCSR_FTZ_DAZ}",
        "  store i32 %mxcsr.ftz.daz, ptr %mxcsr.flush, align 4",
        "  call void @llvm.x86.sse.ldmxcsr(ptr %mxcsr.flush)",
    ]
    return set_mode, ["  call void @llvm.x86.sse.ldmxcsr(ptr %mxcsr.saved)"]


def _param_from_slot(lines: list[str], i: int, t: ty.Type, kind: ParamKind) -> str:
    """Decode slot i (abi/kernel.py) into a typed argument; returns `type value` text."""
    lines.append(f"  %slot{i}.addr = getelementptr inbounds i64, ptr %args, i64 {i}")
    lines.append(f"  %slot{i} = load i64, ptr %slot{i}.addr, align 8")
    slot, name, lt = f"%slot{i}", f"%param{i}", llvm_type(t)
    if kind == ParamKind.LOCAL_POINTER:
        lines.append(f"  {name} = getelementptr inbounds i8, ptr %arena, i64 {slot}")
    elif kind in (ParamKind.GLOBAL_POINTER, ParamKind.CONSTANT_POINTER, ParamKind.IMAGE):
        lines.append(f"  {name} = inttoptr i64 {slot} to ptr")
    elif kind == ParamKind.BY_VALUE:
        lines.append(f"  {name}.ptr = inttoptr i64 {slot} to ptr")
        if isinstance(t, ty.PointerType):
            return f"ptr {name}.ptr"
        lines.append(f"  {name} = load {lt}, ptr {name}.ptr, align 1")
    else:
        return f"{lt} {_scalar_from_slot(lines, slot, name, t)}"
    return f"{lt} {name}"


def _scalar_from_slot(lines: list[str], slot: str, name: str, t: ty.Type) -> str:
    """A scalar's bits are the low bytes of the slot: truncate, then reinterpret if not an integer.
    Gives the name of the decoded value."""
    if t.size > 8:
        raise CodegenError(f"a scalar argument of type {t} does not fit its 64-bit slot")
    bits = "i1" if t == ty.i1 else f"i{8 * t.size}"
    value = slot
    if bits != "i64":
        value = f"{name}.bits"
        lines.append(f"  {value} = trunc i64 {slot} to {bits}")
    if llvm_type(t) == bits:
        return value
    cast = "inttoptr" if isinstance(t, ty.PointerType) else "bitcast"
    lines.append(f"  {name} = {cast} {bits} {value} to {llvm_type(t)}")
    return name


def _launch_load(lines: list[str], name: str, field: str, dim: int) -> str:
    index = LAUNCH_FIELDS.index(field)
    lines.append(f"  %{name}.addr = getelementptr inbounds {LAUNCH_TYPE}, ptr %launch, i64 0, i32 {index}, i64 {dim}")
    lines.append(f"  %{name} = load i64, ptr %{name}.addr, align 8")
    return f"%{name}"


def _group_loop(args: list[str], body_symbol: str, extra: list[str], tile: int | None = None) -> list[str]:
    """The walk over groups [begin, end): row order, or tiles of `tile` groups (group_walk.py)."""
    lines: list[str] = []
    for d in range(3):
        _launch_load(lines, f"groups{d}", "region_groups", d)
        _launch_load(lines, f"origin{d}", "region_origin", d)
    tiles = ["x0", "y0"] if tile else []
    lines += ["  %any = icmp slt i64 %begin, %end", "  br i1 %any, label %decode, label %done", "decode:"]
    lines += tiled_decode(tile) if tile else [
        "  %x.first = urem i64 %begin, %groups0",
        "  %yz.first = udiv i64 %begin, %groups0",
        "  %y.first = urem i64 %yz.first, %groups1",
        "  %z.first = udiv i64 %yz.first, %groups1"]
    lines += ["  br label %group", "group:", "  %g = phi i64 [ %begin, %decode ], [ %g.next, %group ]"]
    lines += [f"  %{v} = phi i64 [ %{v}.first, %decode ], [ %{v}.next, %group ]" for v in ["x", "y", "z"] + tiles]
    lines += [
        "  %id.x = add i64 %origin0, %x",
        "  %id.y = add i64 %origin1, %y",
        "  %id.z = add i64 %origin2, %z",
        f"  call void @{quote(body_symbol)}({', '.join(args + ['i64 %id.x', 'i64 %id.y', 'i64 %id.z', 'ptr %launch', 'ptr %arena'] + extra)})"]
    lines += tiled_step(tile) if tile else [
        "  %x.inc = add i64 %x, 1",
        "  %x.wrap = icmp eq i64 %x.inc, %groups0",
        "  %x.next = select i1 %x.wrap, i64 0, i64 %x.inc",
        "  %y.inc = add i64 %y, 1",
        "  %y.carry = select i1 %x.wrap, i64 %y.inc, i64 %y",
        "  %y.wrap = icmp eq i64 %y.carry, %groups1",
        "  %y.next = select i1 %y.wrap, i64 0, i64 %y.carry",
        "  %z.inc = add i64 %z, 1",
        "  %z.next = select i1 %y.wrap, i64 %z.inc, i64 %z"]
    lines += [
        "  %g.next = add nsw i64 %g, 1",
        "  %more = icmp slt i64 %g.next, %end",
        "  br i1 %more, label %group, label %done",
        "done:",
        "  ret void",
    ]
    return lines
