"""A stand-in for loomcl.driver.compiler: kernels written by hand in LLVM IR (through llvmlite.ir) that follow
abi/kernel.py, so the runtime is tested without the real compiler.

A fake kernel is a signature plus a list of *phases*; each phase is a Python function that emits the
body of one work-item, and the generated work-group function runs each phase in its own work-item
loop nest (x innermost), which is what a barrier between phases means. `FakeCompiledProgram`
compiles one function per (kernel, local size) with MCJIT and records every compile request.
"""
from __future__ import annotations

from dataclasses import dataclass

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir

from loomcl.abi.kernel import KernelParam, KernelSignature, ParamKind, WorkGroupFunction
from loomcl.options import DEFAULT_OPTIONS

I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
F32 = ir.FloatType()
PTR = ir.PointerType()
LAUNCH = ir.LiteralStructType([I64] + [ir.ArrayType(I64, 3)] * 6)
FIELDS = ("work_dim", "global_size", "global_offset", "enqueued_local_size", "num_groups",
          "region_origin", "region_groups")


def const(value: int, ty=I64):
    return ir.Constant(ty, value)


class WorkItem:
    """What a phase body sees: the builder, the work-item's ids and sizes, and the argument slots."""

    def __init__(self, builder, args, launch, arena, group_id, local_id, local_size):
        self.b = builder
        self._args, self._launch, self.arena = args, launch, arena
        self.group_id, self.local_id, self.local_size = group_id, local_id, local_size
        b = builder
        self.global_size = [self.launch_field("global_size", d) for d in range(3)]
        self.global_offset = [self.launch_field("global_offset", d) for d in range(3)]
        self.enqueued_local_size = [self.launch_field("enqueued_local_size", d) for d in range(3)]
        self.num_groups = [self.launch_field("num_groups", d) for d in range(3)]
        self.global_id = [
            b.add(b.add(b.mul(group_id[d], self.enqueued_local_size[d]), local_id[d]), self.global_offset[d])
            for d in range(3)
        ]

    def launch_field(self, name: str, dim: int):
        index = FIELDS.index(name)
        pointer = self.b.gep(self._launch, [const(0, I32), const(index, I32), const(dim, I32)], source_etype=LAUNCH)
        return self.b.load(pointer, typ=I64)

    def slot(self, index: int):
        pointer = self.b.gep(self._args, [const(index)], source_etype=I64)
        return self.b.load(pointer, typ=I64)

    def global_ptr(self, index: int):
        return self.b.inttoptr(self.slot(index), PTR)

    def local_ptr(self, index: int):
        return self.b.gep(self.arena, [self.slot(index)], source_etype=I8)

    def element(self, base, index, ty):
        return self.b.gep(base, [index], source_etype=ty)

    def linear_global(self):
        """(gid - offset) flattened with x fastest, over the whole global size."""
        b = self.b
        rel = [b.sub(self.global_id[d], self.global_offset[d]) for d in range(3)]
        return b.add(rel[0], b.mul(self.global_size[0], b.add(rel[1], b.mul(self.global_size[1], rel[2]))))

    def linear_local(self):
        b, ls = self.b, self.local_size
        return b.add(self.local_id[0], b.mul(const(ls[0]), b.add(self.local_id[1], b.mul(const(ls[1]), self.local_id[2]))))

    def linear_group(self):
        b, ng = self.b, self.num_groups
        return b.add(self.group_id[0], b.mul(ng[0], b.add(self.group_id[1], b.mul(ng[1], self.group_id[2]))))


@dataclass
class FakeKernel:
    name: str
    params: tuple[KernelParam, ...]
    phases: list  # each: callable(WorkItem) emitting one work-item's code
    reqd_work_group_size: tuple[int, int, int] | None = None
    static_local_bytes: int = 0

    @property
    def signature(self) -> KernelSignature:
        return KernelSignature(self.name, self.params, self.reqd_work_group_size)


def _counted_loop(builder, count, body, name: str):
    """for (i = start; i < end; ++i) body(i); `count` is (start, end) i64 values."""
    start, end = count
    entry = builder.block
    head = builder.append_basic_block(f"{name}.head")
    loop = builder.append_basic_block(f"{name}.body")
    done = builder.append_basic_block(f"{name}.done")
    builder.branch(head)
    builder.position_at_end(head)
    index = builder.phi(I64, name=name)
    index.add_incoming(start, entry)
    builder.cbranch(builder.icmp_signed("<", index, end), loop, done)
    builder.position_at_end(loop)
    body(index)
    index.add_incoming(builder.add(index, const(1)), builder.block)
    builder.branch(head)
    builder.position_at_end(done)


def build_work_group_function(kernel: FakeKernel, local_size: tuple[int, int, int]) -> ir.Module:
    module = ir.Module(name=f"{kernel.name}_{local_size}")
    module.triple = llvm.get_process_triple()
    fn_type = ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, I64, PTR])
    function = ir.Function(module, fn_type, name="entry")
    args, launch, begin, end, arena = function.args
    builder = ir.IRBuilder(function.append_basic_block("entry"))

    def field(name, dim):
        index = FIELDS.index(name)
        pointer = builder.gep(launch, [const(0, I32), const(index, I32), const(dim, I32)], source_etype=LAUNCH)
        return builder.load(pointer, typ=I64)

    def group_body(g):
        rg0, rg1 = field("region_groups", 0), field("region_groups", 1)
        gx = builder.srem(g, rg0)
        gy = builder.srem(builder.sdiv(g, rg0), rg1)
        gz = builder.sdiv(g, builder.mul(rg0, rg1))
        group = [builder.add(field("region_origin", d), v) for d, v in enumerate((gx, gy, gz))]
        for number, phase in enumerate(kernel.phases):
            def z_body(lz, phase=phase):
                def y_body(ly):
                    def x_body(lx):
                        phase(WorkItem(builder, args, launch, arena, group, [lx, ly, lz], local_size))
                    _counted_loop(builder, (const(0), const(local_size[0])), x_body, f"lx{number}")
                _counted_loop(builder, (const(0), const(local_size[1])), y_body, f"ly{number}")
            _counted_loop(builder, (const(0), const(local_size[2])), z_body, f"lz{number}")

    _counted_loop(builder, (begin, end), group_body, "g")
    builder.ret_void()
    return module


class FakeCompiledProgram:
    """What loomcl.driver.compiler.build returns, for hand-written kernels."""

    _engines: list = []
    options = DEFAULT_OPTIONS  # the kernels are hand-written: never checked mode

    def __init__(self, kernels: list[FakeKernel], build_log: str = "") -> None:
        self._fake = {k.name: k for k in kernels}
        self.kernels = {k.name: k.signature for k in kernels}
        self.build_log = build_log
        self.arg_info = False  # as without -cl-kernel-arg-info
        self.compiled_sizes: list[tuple[str, tuple[int, int, int]]] = []
        self._cache: dict = {}

    def local_variable_bytes(self, kernel_name: str) -> int:
        return self._fake[kernel_name].static_local_bytes

    def write_only_params(self, kernel_name: str) -> tuple[int, ...]:
        return ()  # hand-written kernels never stream

    def take_notes(self) -> list[str]:
        return []  # no passes run on hand-written kernels, so none falls back

    def work_group_function(self, kernel_name: str, local_size, ids_fit_int: bool = False,
                            image_formats: tuple = (), streaming: tuple = ()) -> WorkGroupFunction:
        local_size = tuple(local_size)
        assert len(local_size) == 3, local_size
        key = (kernel_name, local_size)
        if key not in self._cache:
            self.compiled_sizes.append(key)
            kernel = self._fake[kernel_name]
            address = _jit(build_work_group_function(kernel, local_size))
            self._cache[key] = WorkGroupFunction(address, local_size, kernel.static_local_bytes)
        return self._cache[key]


_machine = None


def _jit(module: ir.Module) -> int:
    global _machine
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    if _machine is None:
        target = llvm.Target.from_default_triple()
        _machine = target.create_target_machine(cpu=llvm.get_host_cpu_name(), opt=2)
    parsed = llvm.parse_assembly(str(module))
    parsed.verify()
    tuning = llvm.create_pipeline_tuning_options(speed_level=2)
    passes = llvm.create_pass_builder(_machine, tuning)
    passes.getModulePassManager().run(parsed, passes)
    engine = llvm.create_mcjit_compiler(parsed, _machine)
    engine.finalize_object()
    FakeCompiledProgram._engines.append(engine)  # keep the code alive for the whole test session
    return engine.get_function_address("entry")


# ---- parameters -------------------------------------------------------------------------------

def global_ptr(name: str, dtype=np.float32, type_name: str | None = None) -> KernelParam:
    spelled = type_name or f"__global {np.dtype(dtype).name} *"
    return KernelParam(name, ParamKind.GLOBAL_POINTER, spelled, np.dtype(dtype), 8)


def local_ptr(name: str, dtype=np.float32) -> KernelParam:
    return KernelParam(name, ParamKind.LOCAL_POINTER, f"__local {np.dtype(dtype).name} *", np.dtype(dtype), 8)


def scalar(name: str, dtype, type_name: str) -> KernelParam:
    return KernelParam(name, ParamKind.SCALAR, type_name, np.dtype(dtype), np.dtype(dtype).itemsize)


def by_value(name: str, dtype, type_name: str, size: int | None = None) -> KernelParam:
    dtype = np.dtype(dtype)
    return KernelParam(name, ParamKind.BY_VALUE, type_name, dtype, size or dtype.itemsize)

