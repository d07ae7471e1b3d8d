"""The compiler driver: OpenCL C source to native work-group functions, one stage after another.

    source ─ frontend.parse_program ─► typed AST ─ lower.lower_program ─► module (work-item form)
           ─ transforms.pipeline.work_group_function ─► function (work-group form, one local size)
           ─ backend.compile_work_group ─► native entry point (codegen writes LLVM IR, jit compiles, caches
             and loads it)

`build()` runs the front half once per program; the back half runs lazily, once per (kernel, local
size), because a work-group function is specialized for its local size (constant trip counts).
Separate compilation splits the front half: `compile_unit()` takes one unit to a module that may
call functions other units define, and `link()` merges units into a program (driver/linker.py says why
this happens in the kernel IR, before work-group formation).
Loomcl-specific build options (`-loomcl-...`, loomcl/options.py) choose pipeline and codegen variants
so that the benchmark can show what each technique is worth; they are parsed once, here, into the
frozen `CompilerOptions` that both halves read.

A build raises only loomcl's own errors: any other exception out of a stage is a bug of loomcl and
becomes an `InternalCompilerError` (a build failure whose log says so). An optional pass that fails
inside is left out instead (transforms/pipeline.py), and its warning joins the program's notes.
"""
from __future__ import annotations

import dataclasses
import sys
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field

import numpy as np

from .. import frontend, jit
from ..abi.kernel import KernelParam, KernelSignature, ParamKind, WorkGroupFunction
from ..frontend import ast
from ..frontend import types as ft
from ..options import LLVM_FLAG_ORDER, CompilerOptions, math_flags
from . import frontend_cache
from .compile_stages import timed
from .gc_pause import collector_paused

# What a failed build raises: a source error (with its diagnostics) or LLVM's failure (its message); both
# carry `.log`, the build log.
BUILD_FAILURES = (frontend.CompileError, jit.LLVMFailure)

_KIND_OF_SPACE = {
    ft.AddressSpace.GLOBAL: ParamKind.GLOBAL_POINTER,
    ft.AddressSpace.CONSTANT: ParamKind.CONSTANT_POINTER,
    ft.AddressSpace.LOCAL: ParamKind.LOCAL_POINTER,
}


def scalar_dtype(t: ft.Type) -> np.dtype | None:
    """The numpy dtype holding a scalar OpenCL type, or None for non-scalars."""
    if isinstance(t, ft.IntegerType):
        return np.dtype(f"{'i' if t.signed and not t.is_bool else 'u'}{t.size}")
    if isinstance(t, ft.FloatType):
        return np.dtype(f"f{t.size}")
    return None


def kernel_param(param: ast.ParamDecl) -> KernelParam:
    t = param.type
    info = {"info_type_name": info_type_name(t), "type_qualifiers": type_qualifiers(t)}
    if t.is_image:  # the address of its descriptor (abi/image.py)
        return KernelParam(param.name, ParamKind.IMAGE, str(t.unqualified()), None, 8, **info)
    if t.is_sampler:  # its bits
        return KernelParam(param.name, ParamKind.SAMPLER, "sampler_t", None, 4, **info)
    if isinstance(t, ft.PointerType):
        kind = _KIND_OF_SPACE.get(t.pointee_address_space, ParamKind.GLOBAL_POINTER)
        return KernelParam(param.name, kind, str(t), scalar_dtype(t.pointee.unqualified()), 8, **info)
    dtype = scalar_dtype(t.unqualified())
    kind = ParamKind.SCALAR if dtype is not None and t.size <= 8 else ParamKind.BY_VALUE
    if t.is_vector:  # numbers given for a vector argument are converted to its element type
        dtype = np.dtype((scalar_dtype(t.element), t.count))
    return KernelParam(param.name, kind, str(t), dtype, t.size, **info)


def info_type_name(t: ft.Type) -> str:
    """The type as clGetKernelArgInfo names it: no address space or qualifier ("float*", "uint4")."""
    if isinstance(t, ft.PointerType):
        return info_type_name(t.pointee) + "*"
    if t.is_image:
        return t.name  # "image2d_t": the access qualifier is CL_KERNEL_ARG_ACCESS_QUALIFIER
    return str(t.unqualified())


def type_qualifiers(t: ft.Type) -> frozenset[str]:
    """clGetKernelArgInfo's qualifiers (as clang records them): a pointer's restrict, and const and
    volatile of what it points to (__constant memory counts as const). An argument passed by value
    has none: its own const or volatile is the kernel's business, not the caller's (CTS test_api
    get_kernel_arg_info)."""
    if not isinstance(t, ft.PointerType):
        return frozenset()
    pointee = t.pointee.quals
    return frozenset(name for name, on in (
        ("const", pointee.const or pointee.address_space is ft.AddressSpace.CONSTANT),
        ("restrict", t.quals.restrict), ("volatile", pointee.volatile)) if on)


def kernel_signature(decl: ast.FunctionDecl, module=None) -> KernelSignature:
    uses_printf = module is not None and calls_printf(module, module.functions[decl.name])
    return KernelSignature(decl.name, tuple(kernel_param(p) for p in decl.params), decl.reqd_work_group_size,
                           uses_printf, kernel_attributes(decl))


_REPORTED_ATTRIBUTES = ("reqd_work_group_size", "work_group_size_hint", "vec_type_hint")


def kernel_attributes(decl: ast.FunctionDecl) -> str:
    """CL_KERNEL_ATTRIBUTES: the kernel's OpenCL C attributes as written in its source, space-separated
    (`vec_type_hint(float4) reqd_work_group_size(8,1,1)`); the spec leaves out the others."""
    from ..frontend.constfold import fold_int

    written = []
    for attr in decl.attributes:
        if attr.name not in _REPORTED_ATTRIBUTES:
            continue
        if attr.type_arg is not None:
            written.append(f"{attr.name}({attr.type_arg})")
        else:
            written.append(f"{attr.name}({','.join(str(fold_int(a)) for a in attr.args)})")
    return " ".join(written)


def calls_printf(module, function) -> bool:
    """Whether `function` or a function it calls (all are inlined later) calls printf."""
    from ..ir import instructions as ins

    seen, pending = set(), [function]
    while pending:
        f = pending.pop()
        if f.name in seen:
            continue
        seen.add(f.name)
        for inst in f.instructions():
            if isinstance(inst, ins.Printf):
                return True
            if isinstance(inst, ins.Call):
                pending.append(inst.callee)
    return False


class InternalCompilerError(frontend.CompileError):
    """A bug of loomcl met while compiling, never the kernel's fault: a build failure whose log names
    the stage (and the pass, from the error's notes) and asks for a report. The error is the cause."""

    def __init__(self, where: str, error: BaseException) -> None:
        notes = "".join(f" ({note})" for note in getattr(error, "__notes__", ()))
        self.diagnostics = []
        self.log = (f"internal compiler error {where}{notes}: {type(error).__name__}: {error}\n"
                    "This is a bug in loomcl, not in the kernel: please report it with the kernel and its "
                    "build options.")
        Exception.__init__(self, self.log)


def _own_errors() -> tuple[type, ...]:
    from .linker import LinkError

    return (*BUILD_FAILURES, frontend.OptionError, LinkError)


def internal_errors_reported(where: str, work):
    """work(), with any exception but loomcl's own raised as an InternalCompilerError."""
    try:
        return work()
    except _own_errors():
        raise
    except Exception as error:
        raise InternalCompilerError(where, error) from error


MAX_IMAGE_FORMAT_VARIANTS = 4


@dataclass
class CompiledProgram:
    """A built program: its kernels' signatures, and their work-group functions on demand."""

    module: object  # ir.Module in work-item form
    kernels: dict[str, KernelSignature]
    options: CompilerOptions
    build_log: str = ""
    arg_info: bool = False
    """Built with -cl-kernel-arg-info: clGetKernelArgInfo may answer."""
    _functions: dict = field(default_factory=dict)
    _image_formats: dict = field(default_factory=dict)  # kernel name -> the format tuples specialized for
    _inlined_kernels: dict = field(default_factory=dict)  # kernel name -> Future of its inlined module
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _notes: list = field(default_factory=list)  # warnings of the back half not yet in the program's log

    def take_notes(self) -> list[str]:
        """The back half's warnings (an optional pass left out) since the last call, for the build log."""
        with self._lock:
            notes, self._notes[:] = list(self._notes), []
        return notes

    def _note(self, text: str) -> None:
        with self._lock:
            self._notes.append(text)

    def local_variable_bytes(self, kernel_name: str) -> int:
        from ..codegen.entry import local_variable_bytes

        return local_variable_bytes(self.module.functions[kernel_name])

    def write_only_params(self, kernel_name: str) -> tuple[int, ...]:
        """The kernel's `__global` pointer parameters that it only stores through."""
        from ..analysis.write_only_params import write_only_params

        return write_only_params(self.module.functions[kernel_name])

    def work_group_ir(self, kernel_name: str, local_size: tuple[int, int, int], ids_fit_int: bool = False):
        """The kernel in work-group form for one local size. `ids_fit_int`: the launch promises that
        every global id fits in a C int (the runtime checks offset + global size)."""
        options = self.options.replace(ids_fit_int=ids_fit_int)
        return internal_errors_reported(f"in the work-group pipeline of kernel '{kernel_name}'",
                                        lambda: self._work_group_ir(kernel_name, local_size, options))

    def _work_group_ir(self, kernel_name: str, local_size, options: CompilerOptions):
        from ..jit.llvm import vector_registers
        from ..transforms.pipeline import work_group_function

        return work_group_function(self._inlined(kernel_name), kernel_name, tuple(local_size), options,
                                   self._note, vector_registers())

    def _inlined(self, kernel_name: str):
        """A module holding the kernel with every call inlined and its variables in SSA form (and
        the program's globals): the pipeline's first two steps, the same for every local size,
        variant and option, so done once per kernel; each compile then clones this one function
        (the pipeline's inline and mem2reg find nothing left to do)."""
        from ..transforms.inline import inlined_kernel
        from ..transforms.mem2reg import promote

        if kernel_name not in self.module.functions:
            return self.module  # the pipeline reports the unknown kernel
        with self._lock:
            found = self._inlined_kernels.get(kernel_name)
            owner = found is None
            if owner:
                found = self._inlined_kernels[kernel_name] = Future()
        if owner:
            try:
                module = inlined_kernel(self.module, kernel_name)
                promote(module.functions[kernel_name])
                found.set_result(module)
            except BaseException as exc:
                with self._lock:
                    del self._inlined_kernels[kernel_name]
                found.set_exception(exc)
        return found.result()

    def work_group_function(self, kernel_name: str, local_size: tuple[int, int, int],
                            ids_fit_int: bool = False, image_formats: tuple = (),
                            streaming: tuple[int, ...] = (), variant: tuple[str, ...] = ()) -> WorkGroupFunction:
        """`image_formats`: ((parameter index, channel order, data type), ...) of the launch's
        images; the image code is specialized for them (no dispatch on the format per texel), for
        the first MAX_IMAGE_FORMAT_VARIANTS combinations a kernel meets: the generic code serves
        the rest, so a program that runs a kernel on every format compiles it a few times only.
        `streaming`: parameters whose vector stores stream past the caches (engine/streaming.py).
        `variant`: `-loomcl-*` switches applied over the program's options (engine/variants.py).

        Compiles run outside the program's lock, one per key: a variant compiled in the
        background (engine/microprofile.py) never holds up another kernel's first launch."""
        with self._lock:
            seen = self._image_formats.setdefault(kernel_name, set())
            if image_formats and tuple(image_formats) not in seen:
                if len(seen) >= MAX_IMAGE_FORMAT_VARIANTS:
                    image_formats = ()
                else:
                    seen.add(tuple(image_formats))
            key = (kernel_name, tuple(local_size), ids_fit_int, tuple(image_formats), tuple(streaming),
                   tuple(variant))
            found = self._functions.get(key)
            if found is None:
                found = self._functions[key] = Future()
                owner = True
            else:
                owner = False
        if owner:
            try:
                found.set_result(internal_errors_reported(
                    f"compiling kernel '{kernel_name}' for local size {tuple(local_size)}", lambda: self._compile(*key)))
            except BaseException as exc:
                with self._lock:  # a later call tries again (an interrupted compile may succeed then)
                    del self._functions[key]
                found.set_exception(exc)
        return found.result()

    def _compile(self, kernel_name: str, local_size: tuple[int, int, int], ids_fit_int: bool,
                 image_formats: tuple, streaming: tuple[int, ...], variant: tuple[str, ...]) -> WorkGroupFunction:
        from .backend import compile_work_group

        options = self.options.with_switches(variant)
        with collector_paused(), timed("transforms"):
            function = self._work_group_ir(kernel_name, local_size, options.replace(ids_fit_int=ids_fit_int))
        options = options.replace(image_formats=image_formats, streaming=streaming)
        return compile_work_group(function, self.kernels[kernel_name], options)


@dataclass
class CompiledUnit:
    """A unit compiled to be linked (clCompileProgram): its module in work-item form, with
    declarations of the functions other units define, and what its compile options decided."""

    module: object  # ir.Module
    kernels: dict[str, KernelSignature]
    options: CompilerOptions  # the math options of its compile options applied
    build_log: str = ""
    arg_info: bool = False
    takes_link_options: bool = True
    """The math options given at link time apply to it (false in a library made without
    -enable-link-options)."""


def compile_unit(source: str, options: str = "", headers: dict[str, str] | None = None,
                 filename: str = "<kernel>") -> CompiledUnit:
    """Front half for one unit of a program linked later; raises frontend.CompileError /
    frontend.OptionError. `headers`: `#include` name -> text (clCompileProgram's headers)."""
    return internal_errors_reported(
        "compiling a unit", lambda: on_deep_stack(lambda: _paused(_compile_unit, source, options, headers or {}, filename)))


def _compile_unit(source: str, options: str, headers: dict[str, str], filename: str) -> CompiledUnit:
    from ..lower import lower_program

    compiler_options, rest = CompilerOptions.split(options or "")
    _check_pass_names(compiler_options)
    build_options = frontend.parse_options(rest)
    # hashcat compiles and links its programs, and makes them from their binaries at every start.
    cache_key = (frontend_cache.key(source, options, filename, "unit", *(f"{name}\0{text}" for name, text
                                    in sorted(headers.items()))) if frontend_cache.enabled() else None)

    def front_half(files: dict):
        with timed("frontend"):
            unit = frontend.parse_program(source, build_options, filename, headers, separate=True, files=files)
        with timed("lowering"):
            module = lower_program(unit)
        return module, {decl.name: kernel_signature(decl) for decl in unit.kernels}, unit.warnings

    module, kernels, build_log = _through_cache(cache_key, front_half)
    return CompiledUnit(module, kernels, compiler_options.with_build_options(build_options),
                        build_log=build_log, arg_info=build_options.kernel_arg_info)


def link(units: list[CompiledUnit], options: str = "") -> CompiledProgram | None:
    """Link units into a program (None for -create-library, after checking that the units do not
    clash); raises frontend.OptionError for a bad link option and linker.LinkError. loomcl's own
    switches (-loomcl-*) act where work-group functions are made, so they are taken from here."""
    return internal_errors_reported("linking", lambda: _link(units, options))


def _link(units: list[CompiledUnit], options: str) -> CompiledProgram | None:
    from .linker import link_modules

    compiler_options, rest = CompilerOptions.split(options or "")
    _check_pass_names(compiler_options)
    jit.expect_compiles(compiler_options)
    link_options = frontend.parse_link_options(rest)
    with collector_paused(), timed("link"):
        module = link_modules([unit.module for unit in units], require_all=not link_options.create_library)
    if link_options.create_library:
        return None
    kernels = {name: dataclasses.replace(signature, uses_printf=calls_printf(module, module.functions[name]))
               for unit in units for name, signature in unit.kernels.items()}
    log = "\n".join(unit.build_log for unit in units if unit.build_log)
    arg_info = all(unit.arg_info for unit in units if unit.kernels)
    return CompiledProgram(module, kernels, linked_options(compiler_options, units, link_options.math),
                           build_log=log, arg_info=arg_info)


def linked_options(options: CompilerOptions, units: list[CompiledUnit], link_math) -> CompilerOptions:
    """The code-generating options of a linked program: a math flag holds where every unit allows
    it (by its compile options, or by the link's where they apply to it), so no unit's arithmetic
    is relaxed beyond what its author asked; -cl-opt-disable in any unit disables optimization."""
    link_flags = set(math_flags(link_math))
    flags = [set(unit.options.fast_math_flags) | (link_flags if unit.takes_link_options else set())
             for unit in units]
    allowed = set.intersection(*flags) if flags else set()
    daz = all(unit.options.denormals_are_zero or (unit.takes_link_options and link_math.denorms_are_zero)
              for unit in units)
    return options.replace(fast_math_flags=tuple(f for f in LLVM_FLAG_ORDER if f in allowed),
                           denormals_are_zero=daz and bool(units),
                           opt_level=min((unit.options.opt_level for unit in units), default=options.opt_level))


def build(source: str, options: str = "", filename: str = "<kernel>") -> CompiledProgram:
    """Front half of the compiler; raises frontend.CompileError / frontend.OptionError."""
    return internal_errors_reported("building", lambda: on_deep_stack(lambda: _paused(_build, source, options, filename)))


def _through_cache(cache_key: str | None, front_half):
    """(module, kernels, build log): from the front-half cache under `cache_key`, else from
    `front_half(files)`, which records the files its include search read, then stored."""
    cached = frontend_cache.load(cache_key) if cache_key else None
    if cached is not None:
        return cached
    files: dict = {}
    built = front_half(files)
    if cache_key:
        frontend_cache.store(cache_key, files, built)
    return built


def _paused(stage, *args):
    with collector_paused():
        return stage(*args)


def _build(source: str, options: str, filename: str) -> CompiledProgram:
    from ..lower import lower_program

    compiler_options, build_options = parse_build_options(options)
    cache_key = frontend_cache.key(source, options, filename) if frontend_cache.enabled() else None

    def front_half(files: dict):
        with timed("frontend"):
            unit = frontend.parse_program(source, build_options, filename, files=files)
        with timed("lowering"):
            module = lower_program(unit, reachable_only=True)
        return module, {decl.name: kernel_signature(decl, module) for decl in unit.kernels}, unit.warnings

    module, kernels, build_log = _through_cache(cache_key, front_half)
    return CompiledProgram(module, kernels, compiler_options.with_build_options(build_options),
                           build_log=build_log, arg_info=build_options.kernel_arg_info)


def parse_build_options(options: str):
    """(CompilerOptions, frontend.BuildOptions) of a build-options string; raises OptionError."""
    compiler_options, rest = CompilerOptions.split(options or "")
    _check_pass_names(compiler_options)
    jit.expect_compiles(compiler_options)
    return compiler_options, frontend.parse_options(rest)


def build_from_module(module, kernels: dict[str, KernelSignature], options: str = "",
                      build_log: str = "") -> CompiledProgram:
    """The back half's entry for a front-end other than OpenCL C's (loomcl/pyfront/): a module in
    work-item form, as lower/ makes it, and its kernels' signatures. Raises OptionError."""
    compiler_options, build_options = parse_build_options(options)
    return CompiledProgram(module, kernels, compiler_options.with_build_options(build_options),
                           build_log=build_log, arg_info=build_options.kernel_arg_info)


def _check_pass_names(options: CompilerOptions) -> None:
    from ..transforms.pipeline import PASS_NAMES, unknown_pass_names

    unknown = unknown_pass_names(options.print_after)
    if unknown:
        raise frontend.OptionError(CompilerOptions.PRINT_AFTER + unknown[0],
                                   f"unknown pass (the passes are {', '.join(PASS_NAMES)}, or all)")


DEEP_STACK_BYTES = 512 << 20  # virtual; pages are touched only as deep as the recursion goes
DEEP_RECURSION_LIMIT = 200_000


def on_deep_stack(work):
    """Run `work()` on a thread with a large stack and recursion limit. The front-end recurses
    over the syntax tree, and generated kernels (unrolled sums of thousands of terms, deeply
    nested parentheses) go deeper than Python's default limit allows; past even this limit the
    build fails with a diagnostic instead of a RecursionError."""
    outcome = {}

    def run():
        try:
            outcome["value"] = work()
        except RecursionError:
            outcome["error"] = frontend.CompileError([_too_deep()])
        except BaseException as exc:  # noqa: BLE001 - re-raised on the caller's thread
            outcome["error"] = exc

    with _DEEP_LOCK:
        old_stack, old_limit = threading.stack_size(DEEP_STACK_BYTES), sys.getrecursionlimit()
        try:
            sys.setrecursionlimit(max(old_limit, DEEP_RECURSION_LIMIT))
            worker = threading.Thread(target=run, name="loomcl-build")
            worker.start()
            worker.join()
        finally:
            threading.stack_size(old_stack)
            sys.setrecursionlimit(old_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


_DEEP_LOCK = threading.Lock()


def _too_deep():
    from ..frontend.diagnostics import Diagnostic, Severity
    from ..frontend.source import Location

    return Diagnostic(Severity.ERROR, Location(None, 0, 0),
                      "program nested too deeply to compile (expressions or statements); split it up")
