"""Kernel IR function -> LLVM IR function text, one instruction class at a time.

`FunctionEmitter` walks the blocks in order and dispatches on the instruction's class (a flat table).
What it guarantees of the output:

* all allocas sit in an LLVM entry block of their own, ahead of the IR's entry block, so they are
  allocated once and the IR's entry block may have predecessors;
* accesses to global, constant and local memory in the blocks of a `WorkItemLoop` carry that loop's
  `distinct` access group (private memory is left to LLVM's own analysis), and the
  loop's latch branch carries `llvm.loop` with `parallel_accesses` (not `mustprogress`: a C99 loop
  inside may legally never end; pocl 4.2;
  ../shared/LLVMLITE.md): LLVM vectorizes the work-item loop without proving the work-items
  independent. A short kernel loop inside an x loop carries `unroll.full`, and a rolled x loop of
  16 doubles a width of 16 (unroll_hints.py, option `vectorize_x`). `vectorize.enable` is left out: across the benchmark's 31 kernels it changed no
  vectorization decision, and where LLVM declines it made LLVM print "loop not vectorized" warnings
  to the user's stderr. Atomics get no access group: work-items do race on them; nor do volatile
  accesses, which LLVM must not widen. An x loop of at most ROLLED_X_LOOP_TRIPS work-items also
  carries `llvm.loop.unroll.disable` (option `roll_small_x_loops`): LLVM's full unroll runs before
  its loop vectorizer, and turned the 16 work-items of a 16x16 group into straight-line scalar code
  (the vectorizer then took the y loop, guarded by `width == 1`); kept rolled, the x loop becomes
  one vector iteration. Measured (one thread, CPU time, against `-loomcl-unroll-small-x-loops`):
  sgemmNaive 9.8x, floydWarshall 3.4x, transpose 2x, sgemmTiled 1.65x, dct8x8 1.15x faster, the
  rest of the suite unchanged;
* group ids, launch fields (printf's buffer too) and `__local` variables come from a `BodyEnvironment` (the work-group body)
  and raise in plain functions; `local_id`, `local_size` and `barrier` must not reach code generation.

Value names follow the IR's names where they are plain identifiers, numbered `%vN` otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..abi.kernel import LAUNCH_FIELDS
from ..devlib.math import fmod
from ..devlib.printf import printf_helper
from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Block, Function
from ..ir.values import Constant, GlobalVariable, Undef, Value, VectorConstant
from ..llvmtext.errors import CodegenError
from ..llvmtext.module import LAUNCH_TYPE, ModuleText, quote
from ..llvmtext.types import format_constant, llvm_type
from ..options import CompilerOptions
from . import unroll_hints
from .llvm_checks import CheckEmitter
from .llvm_image import HANDLERS as IMAGE_HANDLERS
from .llvm_lanes import HANDLERS as LANE_HANDLERS
from .llvm_math import emit_math
from .streaming_stores import launch_value_lines

ROLLED_X_LOOP_TRIPS = 64
"""The largest x loop kept from LLVM's full unroll (larger ones it does not fully unroll anyway)."""

_QUERY_FIELDS = {
    ins.Query.ENQUEUED_LOCAL_SIZE: "enqueued_local_size",
    ins.Query.NUM_GROUPS: "num_groups",
    ins.Query.GLOBAL_SIZE: "global_size",
    ins.Query.GLOBAL_OFFSET: "global_offset",
    ins.Query.WORK_DIM: "work_dim",
}

# What the runtime checks of a launch with streaming stores (streaming_stores.py).
_STREAM_ALIGNED_QUERIES = (ins.Query.ENQUEUED_LOCAL_SIZE, ins.Query.GLOBAL_OFFSET)

# A work-group runs on one thread, work-item after work-item, in a local arena no other thread sees:
# atomics on __local memory need no lock prefix. They become plain read-modify-write sequences
# (kept out of the work-item loop's access group, so LLVM still sees their cross-item dependences).
_LOCAL_RMW = {
    ins.AtomicOpcode.ADD: "add", ins.AtomicOpcode.SUB: "sub", ins.AtomicOpcode.AND: "and",
    ins.AtomicOpcode.OR: "or", ins.AtomicOpcode.XOR: "xor", ins.AtomicOpcode.SMIN: "@llvm.smin",
    ins.AtomicOpcode.SMAX: "@llvm.smax", ins.AtomicOpcode.UMIN: "@llvm.umin", ins.AtomicOpcode.UMAX: "@llvm.umax",
}

_RACE_FREE_SPACES = (ty.AddressSpace.GLOBAL, ty.AddressSpace.CONSTANT, ty.AddressSpace.LOCAL)


def _is_volatile(inst: ins.Load | ins.Store) -> bool:
    """Volatile as LLVM sees it. `volatile __local` is dropped: a work-group's local memory is seen by
    the one thread that runs the group, work-item after work-item, so no one could observe the
    difference, and GPU-style warp-synchronous reductions (`volatile __local` partial sums) keep
    their vectorized work-item loops. Global (other threads run other groups) and private stay volatile."""
    return inst.volatile and getattr(inst.pointer.type, "address_space", None) is not ty.AddressSpace.LOCAL

_ATOMIC_OPS = {
    ins.AtomicOpcode.ADD: "add", ins.AtomicOpcode.SUB: "sub", ins.AtomicOpcode.XCHG: "xchg",
    ins.AtomicOpcode.SMIN: "min", ins.AtomicOpcode.SMAX: "max", ins.AtomicOpcode.UMIN: "umin",
    ins.AtomicOpcode.UMAX: "umax", ins.AtomicOpcode.AND: "and", ins.AtomicOpcode.OR: "or",
    ins.AtomicOpcode.XOR: "xor",
}


@dataclass
class BodyEnvironment:
    """What a work-group body sees beyond its parameters (names of LLVM values in its function)."""

    group_ids: tuple[str, str, str] = ("%group.x", "%group.y", "%group.z")
    launch: str = "%launch"
    arena: str = "%arena"
    local_offsets: dict[GlobalVariable, int] = field(default_factory=dict)
    private_offsets: dict[ins.Alloca, int] = field(default_factory=dict)  # large allocas placed in the arena
    args: str | None = None  # checked mode: the argument block (extents and the check record follow the slots)


class _Namer:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.names: dict[int, str] = {}
        self.taken: set[str] = set()
        self.suffixes: dict[str, int] = {}  # hint -> the N to try first for the next `hint.N`
        self.counter = 0

    def fresh(self, hint: str = "") -> str:
        plain = hint and all(ch.isalnum() or ch in "._" for ch in hint) and not hint[0].isdigit()
        base = hint if plain else f"v{self.counter}"
        if not plain:
            self.counter += 1
        name = base
        if name in self.taken:
            # the first free `base.N`; every N below the remembered one is taken already (names are
            # never given back), and a kernel of inlined helpers has thousands of one hint's values
            n = self.suffixes.get(base, 1)
            while f"{base}.{n}" in self.taken:
                n += 1
            name = f"{base}.{n}"
            self.suffixes[base] = n + 1
        self.taken.add(name)
        return self.prefix + name

    def of(self, obj, hint: str = "") -> str:
        if id(obj) not in self.names:
            self.names[id(obj)] = self.fresh(hint)
        return self.names[id(obj)]


class FunctionEmitter:
    """Emits one IR function as an LLVM `define`. `env` is None for a plain (non-body) function."""

    def __init__(self, function: Function, module: ModuleText, options: CompilerOptions,
                 env: BodyEnvironment | None = None, proven: set = frozenset()) -> None:
        self.function = function
        self.module = module
        self.options = options
        self.env = env
        self.values = _Namer("%")
        self.entry_lines: list[str] = []
        self.lines: list[str] = []
        self.access_groups: dict[Block, str] = {}
        self.loop_ids: dict[Block, str] = {}
        self.callees: list[Function] = []
        self.values.taken.update({"group.x", "group.y", "group.z", "launch", "arena", "args", "alloca.block"})
        self.checks = CheckEmitter(self, proven) if options.checked and env is not None and env.args else None

    # -- operands ---------------------------------------------------------------------------------------

    def ref(self, v: Value) -> str:
        """The operand text of a value (no type)."""
        if isinstance(v, (Constant, Undef, VectorConstant)):
            return format_constant(v)
        if isinstance(v, GlobalVariable):
            return self.global_ref(v)
        if isinstance(v, ins.Cast) and self.is_noop_cast(v):
            return self.ref(v.value)
        if isinstance(v, ins.WorkItemQuery) and v.query == ins.Query.GROUP_ID and self.env is not None \
                and 0 <= v.dim < 3:
            return self.env.group_ids[v.dim]
        return self.values.of(v, v.name)

    def typed(self, v: Value) -> str:
        return f"{llvm_type(v.type)} {self.ref(v)}"

    def global_ref(self, gv: GlobalVariable) -> str:
        if gv.address_space != ty.AddressSpace.LOCAL:
            return self.module.constant_global(gv)
        if self.env is None or gv not in self.env.local_offsets:
            raise CodegenError(f"__local variable @{gv.name} used outside its kernel's work-group body")
        return self.values.of(gv, f"local.{gv.name}")

    def temp(self, hint: str = "t") -> str:
        return self.values.fresh(hint)

    def label(self, block: Block) -> str:
        """Blocks share the function's local namespace with values in LLVM, so one namer serves both."""
        return self.values.of(block, block.name or "bb")[1:]

    def exit_label(self, block: Block) -> str:
        """The label of the LLVM block that ends `block` (its checks split it; llvm_checks.py)."""
        return self.checks.exit_label(block) if self.checks else self.label(block)

    @staticmethod
    def is_noop_cast(cast: ins.Cast) -> bool:
        """Casts between types that are the same in LLVM (all pointers are `ptr`) emit nothing."""
        if cast.opcode not in (ins.CastOpcode.BITCAST, ins.CastOpcode.ADDRSPACECAST):
            return False
        return llvm_type(cast.value.type) == llvm_type(cast.type)

    def emit_line(self, text: str) -> None:
        self.lines.append("  " + text)

    # -- the function -----------------------------------------------------------------------------------

    def emit(self, symbol: str, linkage: str = "internal", attributes: str = "#0",
             extra_params: tuple[str, ...] = ()) -> str:
        """The whole `define` text; also registers it with the module."""
        self._mark_loops()
        params = [f"{llvm_type(p.type)} {self.ref(p)}" for p in self.function.params]
        self._emit_entry_prologue()
        for block in self.function.blocks:
            self.lines.append(f"{self.label(block)}:")
            for inst in block.instructions:
                self.emit_instruction(inst)
        head = (f"define {linkage} {llvm_type(self.function.return_type)} @{quote(symbol)}"
                f"({', '.join(params + list(extra_params))}) {attributes} {{")
        body = [head, "alloca.block:"] + self.entry_lines
        body.append(f"  br label %{self.label(self.function.entry)}")
        text = "\n".join(body + self.lines + ["}", ""])
        self.module.functions.append(text)
        return text

    def _emit_entry_prologue(self) -> None:
        """Allocas and __local variable addresses, computed once at the top of the function."""
        for inst in self.function.instructions():
            if isinstance(inst, ins.Alloca) and self.env is not None and inst in self.env.private_offsets:
                self.entry_lines.append(f"  {self.ref(inst)} = getelementptr inbounds i8, ptr {self.env.arena}, "
                                        f"i64 {self.env.private_offsets[inst]}")
            elif isinstance(inst, ins.Alloca):
                align = max(inst.allocated_type.alignment, 64 if inst.allocated_type.size >= 64 else 1)
                self.entry_lines.append(
                    f"  {self.ref(inst)} = alloca {llvm_type(inst.allocated_type)}, align {align}")
        if self.env is not None:
            for gv, offset in self.env.local_offsets.items():
                self.entry_lines.append(
                    f"  {self.global_ref(gv)} = getelementptr inbounds i8, ptr {self.env.arena}, i64 {offset}")

    def _mark_loops(self) -> None:
        """One distinct access group per work-item loop; a block in nested loops lists all of them.
        The latches' loop ids also carry the unroll hints: rolled x loops (`_keep_rolled`) and those
        of `unroll_hints` (option `vectorize_x`)."""
        parts_of: dict[Block, list[str]] = {}
        unrolled = unroll_hints.kernel_loops_unrolled(self.function) if self.options.vectorize_x else []
        if self.options.parallel_metadata:
            self._add_access_groups(parts_of)
            for loop in self.function.work_item_loops if self.options.vectorize_x else ():
                width = self._keep_rolled(loop) and unroll_hints.whole_loop_width(loop, unrolled)
                if width:
                    parts_of[loop.latch].append(
                        self.module.add_metadata(f'!{{!"llvm.loop.vectorize.width", i32 {width}}}'))
        for block, parts in parts_of.items():
            self.loop_ids[block] = self.module.add_self_referential(parts)
        if unrolled:
            full = self.module.add_metadata('!{!"llvm.loop.unroll.full"}')
            for loop in unrolled:
                loop_id = self.module.add_self_referential([full])
                for latch in loop.latches:
                    self.loop_ids.setdefault(latch, loop_id)

    def _add_access_groups(self, parts_of: dict[Block, list[str]]) -> None:
        groups_of: dict[Block, list[str]] = {}
        for loop in self.function.work_item_loops:
            group = self.module.add_metadata("distinct !{}")
            for block in loop.blocks:
                groups_of.setdefault(block, []).append(group)
            parts = parts_of.setdefault(loop.latch, [])
            parts.append(self.module.add_metadata(f'!{{!"llvm.loop.parallel_accesses", {group}}}'))
            if self._keep_rolled(loop):
                parts.append(self.module.add_metadata('!{!"llvm.loop.unroll.disable"}'))
        for block, groups in groups_of.items():
            self.access_groups[block] = groups[0] if len(groups) == 1 else \
                self.module.add_metadata("!{" + ", ".join(groups) + "}")

    def _keep_rolled(self, loop) -> bool:
        size = self.function.local_size
        return self.options.roll_small_x_loops and loop.dim == 0 and size is not None and size[0] <= ROLLED_X_LOOP_TRIPS

    def access_group(self, inst: ins.Instruction) -> str:
        """The access group of `inst`'s work-item loops. Only memory that OpenCL's race-freedom rule
        covers is marked (global, constant, local; math calls read constant tables): private storage
        (context arrays, uniform slots, private arrays) is ours, LLVM analyzes allocas exactly, and
        marking it let LLVM 22's interleaved-access grouping mis-stride `pa[lid][lid & 3]`
        (tests/difftest/reported/workgroup/fuzz_122 and others). Volatile accesses (as `_is_volatile` sees
        them) are not marked either: a loop annotated parallel skips LLVM's refusal of volatile
        accesses, and LLVM 22's loop vectorizer then asserts on a predicated volatile load ("underlying
        instruction may write to memory", tests/codegen/test_volatile.py); unmarked, LLVM keeps them
        scalar and in order, as C asks."""
        group = self.access_groups.get(inst.block)
        if group and isinstance(inst, (ins.Load, ins.Store)):
            race_free = getattr(inst.pointer.type, "address_space", None) in _RACE_FREE_SPACES
            group = group if race_free and not _is_volatile(inst) else None
        return f", !llvm.access.group {group}" if group else ""

    def emit_instruction(self, inst: ins.Instruction) -> None:
        handler = _HANDLERS.get(type(inst))
        if handler is None:
            raise CodegenError(f"code generation does not support {type(inst).__name__} "
                               f"in @{self.function.name}")
        handler(self, inst)

    # -- arithmetic -------------------------------------------------------------------------------------

    def float_flags(self) -> str:
        """The fast-math flags the build options allow, as text to follow a floating-point opcode
        (" nsz contract"); empty by default, so the arithmetic is IEEE-exact."""
        return "".join(f" {flag}" for flag in self.options.fast_math_flags)

    def binary(self, inst: ins.BinaryOp) -> None:
        if inst.opcode == ins.BinaryOpcode.FREM and fmod.supports(inst.type):
            callee = fmod.fmod_function(self.module, inst.type)
            self.emit_line(f"{self.ref(inst)} = call {llvm_type(inst.type)} {callee}({self.typed(inst.lhs)}, "
                           f"{self.typed(inst.rhs)})")
            return
        rhs = self.safe_divisor(inst) if inst.opcode in _INTEGER_DIVISIONS else self.ref(inst.rhs)
        # Checked mode checks the address the machine computes, so signed overflow wraps there (no nsw).
        wraps = not inst.no_signed_wrap or self.options.checked or not self.options.nsw
        flags = self.float_flags() if inst.opcode.is_float else "" if wraps else " nsw"
        if _divides_by_sqrt(inst):
            # no hardware rsqrt estimate (see llvm_math): LLVM forms it from arcp or afn on the division
            flags = flags.replace(" afn", "").replace(" arcp", "")
        self.emit_line(f"{self.ref(inst)} = {inst.opcode.value}{flags} {self.typed(inst.lhs)}, {rhs}")

    def safe_divisor(self, inst: ins.BinaryOp) -> str:
        """OpenCL leaves integer division by zero (and INT_MIN / -1) undefined but not trapping; x86's
        idiv traps and would kill the user's Python process. Such a divisor becomes 1 (any result is
        allowed), at the cost of a compare and select; other constant divisors need nothing."""
        d, signed = inst.rhs, inst.opcode in (ins.BinaryOpcode.SDIV, ins.BinaryOpcode.SREM)
        if isinstance(d, Constant) and d.value != 0 and not (signed and d.signed_value == -1):
            return self.ref(d)
        t, flags = llvm_type(inst.type), _i1_like(inst.type)
        bad, safe = self.temp("div.bad"), self.temp("div.safe")
        self.emit_line(f"{bad} = icmp eq {t} {self.ref(d)}, {_splat(inst.type, 0)}")
        if signed:
            smallest = -(1 << (ty.scalar_of(inst.type).bits - 1))
            is_min, is_minus_one, overflow = self.temp("div.min"), self.temp("div.m1"), self.temp("div.ovf")
            self.emit_line(f"{is_min} = icmp eq {self.typed(inst.lhs)}, {_splat(inst.type, smallest)}")
            self.emit_line(f"{is_minus_one} = icmp eq {t} {self.ref(d)}, {_splat(inst.type, -1)}")
            self.emit_line(f"{overflow} = and {flags} {is_min}, {is_minus_one}")
            merged = self.temp("div.bad")
            self.emit_line(f"{merged} = or {flags} {bad}, {overflow}")
            bad = merged
        self.emit_line(f"{safe} = select {flags} {bad}, {t} {_splat(inst.type, 1)}, {t} {self.ref(d)}")
        return safe

    def fneg(self, inst: ins.FNeg) -> None:
        self.emit_line(f"{self.ref(inst)} = fneg{self.float_flags()} {self.typed(inst.value)}")

    def compare(self, inst: ins.Compare) -> None:
        op = f"fcmp{self.float_flags()}" if inst.predicate.is_float else "icmp"
        self.emit_line(f"{self.ref(inst)} = {op} {inst.predicate.value} {self.typed(inst.lhs)}, "
                       f"{self.ref(inst.rhs)}")

    def cast(self, inst: ins.Cast) -> None:
        if self.is_noop_cast(inst):
            return
        flags = " nuw nsw" if inst.opcode == ins.CastOpcode.TRUNC and inst.no_wrap else ""
        self.emit_line(f"{self.ref(inst)} = {inst.opcode.value}{flags} {self.typed(inst.value)} "
                       f"to {llvm_type(inst.type)}")

    def select(self, inst: ins.Select) -> None:
        self.emit_line(f"{self.ref(inst)} = select {self.typed(inst.condition)}, {self.typed(inst.if_true)}, "
                       f"{self.typed(inst.if_false)}")

    def phi(self, inst: ins.Phi) -> None:
        incoming = ", ".join(f"[ {self.ref(v)}, %{self.exit_label(b)} ]" for v, b in inst.incoming)
        self.emit_line(f"{self.ref(inst)} = phi {llvm_type(inst.type)} {incoming}")

    # -- memory -----------------------------------------------------------------------------------------

    def alloca(self, inst: ins.Alloca) -> None:
        pass  # emitted in the entry prologue

    def load(self, inst: ins.Load) -> None:
        volatile = " volatile" if _is_volatile(inst) else ""
        align = getattr(inst, "alignment", None) or inst.type.alignment
        self.emit_line(f"{self.ref(inst)} = load{volatile} {llvm_type(inst.type)}, ptr {self.ref(inst.pointer)}, "
                       f"align {align}{self.access_group(inst)}")

    def store(self, inst: ins.Store) -> None:
        volatile = " volatile" if _is_volatile(inst) else ""
        align = getattr(inst, "alignment", None) or inst.value.type.alignment
        self.emit_line(f"store{volatile} {self.typed(inst.value)}, ptr {self.ref(inst.pointer)}, "
                       f"align {align}{self.access_group(inst)}")

    def index64(self, index: Value) -> str:
        """An index as i64: OpenCL indices are signed, so narrower ones are sign-extended."""
        if isinstance(index, Constant):
            return str(index.signed_value)
        if index.type == ty.i64:
            return self.ref(index)
        wide = self.temp("idx")
        self.emit_line(f"{wide} = sext {self.typed(index)} to i64")
        return wide

    def element_ptr(self, inst: ins.ElementPtr) -> None:
        index = self.index64(inst.index)
        inbounds = "" if self.options.checked else " inbounds"  # checked: a wild address is checked, not poison
        self.emit_line(f"{self.ref(inst)} = getelementptr{inbounds} {llvm_type(inst.element_type)}, "
                       f"ptr {self.ref(inst.base)}, i64 {index}")

    def field_ptr(self, inst: ins.FieldPtr) -> None:
        offset = inst.struct_type.offsets[inst.field]
        inbounds = "" if self.options.checked else " inbounds"
        self.emit_line(f"{self.ref(inst)} = getelementptr{inbounds} i8, ptr {self.ref(inst.base)}, i64 {offset}")

    def atomic_rmw(self, inst: ins.AtomicRMW) -> None:
        if _is_local(inst.pointer):
            return self.local_rmw(inst)
        self.emit_line(f"{self.ref(inst)} = atomicrmw {_ATOMIC_OPS[inst.opcode]} ptr {self.ref(inst.pointer)}, "
                       f"{self.typed(inst.value)} seq_cst, align {inst.type.alignment}")

    def local_rmw(self, inst: ins.AtomicRMW) -> None:
        t, pointer, align = llvm_type(inst.type), self.ref(inst.pointer), inst.type.alignment
        self.emit_line(f"{self.ref(inst)} = load {t}, ptr {pointer}, align {align}")
        if inst.opcode is ins.AtomicOpcode.XCHG:
            self.emit_line(f"store {self.typed(inst.value)}, ptr {pointer}, align {align}")
            return
        op, new = _LOCAL_RMW[inst.opcode], self.temp("rmw")
        if op.startswith("@"):
            self.module.declare(f"{op[1:]}.{t}", f"declare {t} {op}.{t}({t}, {t})")
            self.emit_line(f"{new} = call {t} {op}.{t}({t} {self.ref(inst)}, {self.typed(inst.value)})")
        else:
            self.emit_line(f"{new} = {op} {t} {self.ref(inst)}, {self.ref(inst.value)}")
        self.emit_line(f"store {t} {new}, ptr {pointer}, align {align}")

    def local_cmpxchg(self, inst: ins.AtomicCmpXchg) -> None:
        t, pointer, align = llvm_type(inst.type), self.ref(inst.pointer), inst.type.alignment
        same, new = self.temp("cx.same"), self.temp("cx.new")
        self.emit_line(f"{self.ref(inst)} = load {t}, ptr {pointer}, align {align}")
        equal = "fcmp oeq" if isinstance(inst.type, ty.FloatType) else "icmp eq"
        self.emit_line(f"{same} = {equal} {t} {self.ref(inst)}, {self.ref(inst.expected)}")
        self.emit_line(f"{new} = select i1 {same}, {self.typed(inst.new)}, {t} {self.ref(inst)}")
        self.emit_line(f"store {t} {new}, ptr {pointer}, align {align}")

    def atomic_cmpxchg(self, inst: ins.AtomicCmpXchg) -> None:
        """cmpxchg takes integers only: a float exchange goes through its bit pattern."""
        if _is_local(inst.pointer):
            return self.local_cmpxchg(inst)
        t = inst.type
        as_int = f"i{t.size * 8}" if isinstance(t, ty.FloatType) else llvm_type(t)
        expected, new = (self._bits(inst.expected, as_int), self._bits(inst.new, as_int))
        pair, old = self.temp("cx"), self.temp("cx.old")
        self.emit_line(f"{pair} = cmpxchg ptr {self.ref(inst.pointer)}, {as_int} {expected}, {as_int} {new} "
                       f"seq_cst seq_cst, align {t.alignment}")
        if as_int == llvm_type(t):
            self.emit_line(f"{self.ref(inst)} = extractvalue {{ {as_int}, i1 }} {pair}, 0")
        else:
            self.emit_line(f"{old} = extractvalue {{ {as_int}, i1 }} {pair}, 0")
            self.emit_line(f"{self.ref(inst)} = bitcast {as_int} {old} to {llvm_type(t)}")

    def _bits(self, v: Value, as_int: str) -> str:
        if llvm_type(v.type) == as_int:
            return self.ref(v)
        bits = self.temp("bits")
        self.emit_line(f"{bits} = bitcast {self.typed(v)} to {as_int}")
        return bits

    def fence(self, inst: ins.Fence) -> None:
        """OpenCL 1.2 mem_fence orders one work-item's own loads and stores: acquire-release suffices,
        and on x86 it costs no instruction, only a compiler barrier."""
        self.emit_line("fence acq_rel")

    # -- calls, builtins, work-items --------------------------------------------------------------------

    def call(self, inst: ins.Call) -> None:
        if inst.callee not in self.callees:
            self.callees.append(inst.callee)
        args = ", ".join(self.typed(a) for a in inst.args)
        result = "" if inst.type == ty.void else f"{self.ref(inst)} = "
        self.emit_line(f"{result}call {llvm_type(inst.type)} @{quote(callee_symbol(inst.callee))}({args})")

    def math(self, inst: ins.MathCall) -> None:
        emit_math(self, inst)

    def query(self, inst: ins.WorkItemQuery) -> None:
        if inst.query in (ins.Query.LOCAL_ID, ins.Query.LOCAL_SIZE):
            raise CodegenError(f"{inst.query.value} query reached code generation in @{self.function.name}: "
                               "the work-group transforms must replace it")
        if self.env is None:
            raise CodegenError(f"{inst.query.value} query in @{self.function.name}, outside a work-group body")
        if not 0 <= inst.dim < 3:
            raise CodegenError(f"{inst.query.value} query of dimension {inst.dim}")
        if inst.query == ins.Query.GROUP_ID:
            return  # the body's group-id parameter stands for it (see `ref`)
        name = _QUERY_FIELDS[inst.query]
        index = LAUNCH_FIELDS.index(name)
        dims = "" if name == "work_dim" else f", i64 {inst.dim}"
        address = self.temp(f"{name}.addr")
        self.emit_line(f"{address} = getelementptr inbounds {LAUNCH_TYPE}, ptr {self.env.launch}, "
                       f"i64 0, i32 {index}{dims}")
        self.emit_line(f"{self.ref(inst)} = load i64, ptr {address}, align 8, !invariant.load !{{}}")
        if self.options.streaming and inst.dim == 0 and inst.query in _STREAM_ALIGNED_QUERIES:
            for line in launch_value_lines(self.module, self.ref(inst)):
                self.emit_line(line)

    def checked(self, inst: ins.Instruction) -> None:
        if self.checks is None:
            raise CodegenError(f"{type(inst).__name__} in @{self.function.name}, which is not compiled in checked mode")
        {ins.ArgumentExtent: self.checks.argument_extent, ins.CheckAccess: self.checks.access,
         ins.CheckBarrier: self.checks.barrier}[type(inst)](inst)

    def printf(self, inst: ins.Printf) -> None:
        if self.env is None:
            raise CodegenError(f"printf in @{self.function.name}, outside a work-group body")
        helper = printf_helper(self.module, inst)
        args = ", ".join([f"ptr {self.env.launch}"] + [self.typed(a) for a in inst.args])
        self.emit_line(f"{self.ref(inst)} = call i32 {helper}({args})")

    def barrier(self, inst: ins.Barrier) -> None:
        raise CodegenError(f"barrier reached code generation in @{self.function.name}: "
                           "the work-group transforms must remove every barrier")

    # -- vectors ----------------------------------------------------------------------------------------

    def extract_element(self, inst: ins.ExtractElement) -> None:
        self.emit_line(f"{self.ref(inst)} = extractelement {self.typed(inst.vector)}, {self.typed(inst.index)}")

    def insert_element(self, inst: ins.InsertElement) -> None:
        self.emit_line(f"{self.ref(inst)} = insertelement {self.typed(inst.vector)}, {self.typed(inst.value)}, "
                       f"{self.typed(inst.index)}")

    def shuffle_vector(self, inst: ins.ShuffleVector) -> None:
        mask = ", ".join("i32 poison" if m < 0 else f"i32 {m}" for m in inst.mask)
        self.emit_line(f"{self.ref(inst)} = shufflevector {self.typed(inst.operands[0])}, "
                       f"{self.typed(inst.operands[1])}, <{len(inst.mask)} x i32> <{mask}>")

    # -- terminators ------------------------------------------------------------------------------------

    def loop_id(self, inst: ins.Terminator) -> str:
        loop = self.loop_ids.get(inst.block)
        return f", !llvm.loop {loop}" if loop else ""

    def jump(self, inst: ins.Jump) -> None:
        self.emit_line(f"br label %{self.label(inst.target)}{self.loop_id(inst)}")

    def branch(self, inst: ins.Branch) -> None:
        self.emit_line(f"br {self.typed(inst.condition)}, label %{self.label(inst.if_true)}, "
                       f"label %{self.label(inst.if_false)}{self.loop_id(inst)}")

    def switch(self, inst: ins.Switch) -> None:
        t = llvm_type(inst.value.type)
        cases = " ".join(f"{t} {Constant(inst.value.type, v).signed_value}, label %{self.label(b)}"
                         for v, b in inst.cases)
        self.emit_line(f"switch {self.typed(inst.value)}, label %{self.label(inst.default)} [ {cases} ]"
                       f"{self.loop_id(inst)}")

    def ret(self, inst: ins.Return) -> None:
        self.emit_line("ret void" if inst.value is None else f"ret {self.typed(inst.value)}")

    def unreachable(self, inst: ins.Unreachable) -> None:
        self.emit_line("unreachable")


def callee_symbol(function: Function) -> str:
    return f"loomcl.fn.{function.name}"


_HANDLERS = {
    ins.BinaryOp: FunctionEmitter.binary,
    ins.FNeg: FunctionEmitter.fneg,
    ins.Compare: FunctionEmitter.compare,
    ins.Cast: FunctionEmitter.cast,
    ins.Select: FunctionEmitter.select,
    ins.Phi: FunctionEmitter.phi,
    ins.Alloca: FunctionEmitter.alloca,
    ins.Load: FunctionEmitter.load,
    ins.Store: FunctionEmitter.store,
    ins.ElementPtr: FunctionEmitter.element_ptr,
    ins.FieldPtr: FunctionEmitter.field_ptr,
    ins.AtomicRMW: FunctionEmitter.atomic_rmw,
    ins.AtomicCmpXchg: FunctionEmitter.atomic_cmpxchg,
    ins.Fence: FunctionEmitter.fence,
    ins.Call: FunctionEmitter.call,
    ins.MathCall: FunctionEmitter.math,
    ins.WorkItemQuery: FunctionEmitter.query,
    ins.Barrier: FunctionEmitter.barrier,
    ins.ArgumentExtent: FunctionEmitter.checked,
    ins.CheckAccess: FunctionEmitter.checked,
    ins.CheckBarrier: FunctionEmitter.checked,
    ins.Printf: FunctionEmitter.printf,
    ins.ExtractElement: FunctionEmitter.extract_element,
    ins.InsertElement: FunctionEmitter.insert_element,
    ins.ShuffleVector: FunctionEmitter.shuffle_vector,
    ins.Jump: FunctionEmitter.jump,
    ins.Branch: FunctionEmitter.branch,
    ins.Switch: FunctionEmitter.switch,
    ins.Return: FunctionEmitter.ret,
    ins.Unreachable: FunctionEmitter.unreachable,
    **IMAGE_HANDLERS,
    **LANE_HANDLERS,
}


def _is_local(pointer: Value) -> bool:
    return isinstance(pointer.type, ty.PointerType) and pointer.type.address_space is ty.AddressSpace.LOCAL


_INTEGER_DIVISIONS = {ins.BinaryOpcode.SDIV, ins.BinaryOpcode.UDIV, ins.BinaryOpcode.SREM, ins.BinaryOpcode.UREM}


def _i1_like(t: ty.Type) -> str:
    return f"<{t.count} x i1>" if isinstance(t, ty.VectorType) else "i1"


def _splat(t: ty.Type, value: int) -> str:
    """An integer constant of type t (every lane of a vector)."""
    return f"splat ({llvm_type(t.element)} {value})" if isinstance(t, ty.VectorType) else str(value)


def _divides_by_sqrt(inst: ins.BinaryOp) -> bool:
    """x / sqrt(y): rsqrt's form, which LLVM turns into the rsqrt estimate under arcp or afn."""
    rhs = inst.rhs
    return (inst.opcode == ins.BinaryOpcode.FDIV and isinstance(rhs, ins.MathCall)
            and rhs.math_function == ins.MathFunction.SQRT)
