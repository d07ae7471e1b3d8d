"""The one owner of LLVM in this process: every llvmlite.binding call loomcl makes is made here, under
one lock, `LOCK`.

What goes through here: initialization, the host's CPU and features, the target machine, parsing IR
text, turning hand-written IR into an object (the worker pool's, engine/native_pool.py), loading
object files into MCJIT engines and resolving symbols. Kernels are optimized and compiled elsewhere:
in compile servers, processes with an LLVM of their own (compile_server.py).

Why one lock: llvmlite objects are not thread-safe, and LLVM is reached from several threads (the
user's builds, micro-profiling's background compiles, the first launch booting the pool).

Why a door: at interpreter exit (`atexit`, which runs before Python tears modules and their objects
down) `close()` takes the lock and closes it. A thread that reaches LLVM later, such as a background
variant compile still running when the program ends, gets `LLVMClosed` instead of touching an LLVM
whose objects are being freed (clpeak --compute-dp once aborted after its output with MCJIT's
"DataLayout Mismatch" assertion). The engines, whose code may still be running or called, and the
target machines are never freed: they live until the process does.

Facts this rests on (../shared/LLVMLITE.md): llvmlite 0.50 wants `initialize_native_target()` and
`initialize_native_asmprinter()` (`initialize()` raises); a target machine made without the host's CPU
name and feature string emits SSE-only code; only the new pass manager exists, driven by pipeline
tuning options.
"""
from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import threading
from collections.abc import Iterable

import llvmlite.binding as binding

from ..options import CompilerOptions
from .errors import JITError

LOCK = threading.RLock()
_open = True
_KEPT: list = []  # engines and target machines: never freed (see the module's docstring)

# Tuning on top of the host's features. `prefer-no-gather`: LLVM 22's SLP vectorizer, when it turns
# loads from a private context array into a masked gather, schedules the gather above a store to the
# same array (difftest seeds 31446 and 31981: a work-item read its private array before writing it).
# Without gathers SLP keeps those loads scalar and in place. The loop vectorizer then scalarizes
# gathers too, which measured neutral on the benchmark (Zen 4's gathers are microcoded).
X86_TUNING = ("+prefer-no-gather",)
# `prefer-no-scatter` (CompilerOptions.scalar_scatters): a work-item loop whose stores go to addresses
# it computes (bitonic sort's pairs, a butterfly's halves) becomes scattered vector stores; Zen 4's
# vpscatterdd is microcoded, and 16 extracted scalar stores are faster (bench --config scatter).
SCATTER_TUNING = "+prefer-no-scatter"


class LLVMClosed(JITError):
    """LLVM was reached after the interpreter began to exit."""


@contextlib.contextmanager
def _llvm():
    """Hold the lock for LLVM work; refuse it once the door is closed."""
    with LOCK:
        if not _open:
            raise LLVMClosed("LLVM is closed: the interpreter is exiting")
        yield


def close() -> None:
    """No LLVM from now on (atexit). Waits for the LLVM work under way, then keeps what it made."""
    global _open
    with LOCK:
        _open = False
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(_KEPT))  # the list outlives the interpreter's teardown


atexit.register(close)


@functools.cache
def _initialize() -> None:
    binding.initialize_native_target()
    binding.initialize_native_asmprinter()
    binding.initialize_native_asmparser()


def _is_x86(triple: str) -> bool:
    return triple.startswith(("x86_64", "i686"))


@functools.cache
def _host() -> tuple[str, str, str, str]:
    """(triple, data layout, CPU name, features with loomcl's tuning), read once (under the lock)."""
    _initialize()
    triple = binding.get_process_triple()
    tuning = X86_TUNING if _is_x86(triple) else ()
    features = ",".join(f for f in (binding.get_host_cpu_features().flatten(), *tuning) if f)
    cpu = binding.get_host_cpu_name()
    machine = _new_target_machine(triple, cpu, features, 3)
    _KEPT.append(machine)
    return triple, str(machine.target_data), cpu, features


def host() -> tuple[str, str, str, str]:
    with _llvm():
        return _host()


def host_cpu() -> tuple[str, str]:
    """(CPU name, feature string) of this machine as LLVM sees them, plus loomcl's tuning."""
    return host()[2:]


def vector_registers() -> int:
    """SIMD registers the host's code has: 32 with AVX-512 (and on AArch64), 16 with AVX or SSE.
    The work-group passes size what they keep live in registers by it."""
    triple, _, _, features = host()
    if not _is_x86(triple):
        return 32
    return 32 if "+avx512f" in features.split(",") else 16


def triple_and_datalayout() -> tuple[str, str]:
    """The host's triple and data layout: every module this process compiles or loads carries them."""
    return host()[:2]


def features(options: CompilerOptions) -> str:
    """The feature string a kernel is compiled with: the host's, and the tuning its options ask for."""
    triple, _, _, host_features = host()
    if options.scalar_scatters and _is_x86(triple):
        return f"{host_features},{SCATTER_TUNING}"
    return host_features


def server_job(options: CompilerOptions, emit: str) -> dict:
    """A compile server's request header: this host's target and the options' pipeline."""
    triple, _, cpu, _ = host()
    return {"triple": triple, "cpu": cpu, "features": features(options), "emit": emit,
            "opt_level": options.opt_level, "vectorize": options.vectorize, "interleave": options.interleave,
            "unroll": options.unroll, "streaming": list(options.streaming)}


def llvm_version() -> str:
    return ".".join(map(str, binding.llvm_version_info))


def _new_target_machine(triple: str, cpu: str, features: str, opt_level: int):
    """A host target machine with all its features. Position-independent code, so an object file from
    the disk cache can be loaded at any address."""
    target = binding.Target.from_triple(triple)
    return target.create_target_machine(cpu=cpu, features=features, opt=opt_level, reloc="pic", codemodel="default")


@functools.cache
def _target_machine(opt_level: int):
    """The shared machine for emitting objects here (never handed to an engine)."""
    triple, _, cpu, features = _host()
    machine = _new_target_machine(triple, cpu, features, opt_level)
    _KEPT.append(machine)
    return machine


def _parse(text: str):
    """Parse and verify LLVM IR text; a failure is our bug, so the message carries the text's head."""
    _initialize()
    try:
        module = binding.parse_assembly(text)
        module.verify()
    except RuntimeError as error:
        raise JITError(f"LLVM rejected the emitted module: {error}\n{numbered_lines(text)}") from error
    return module


def numbered_lines(text: str, limit: int = 400) -> str:
    lines = text.splitlines()[:limit]
    return "\n".join(f"{i + 1:4d} {line}" for i, line in enumerate(lines))


def load_object(data: bytes, symbol: str, opt_level: int = 3) -> int:
    """Map an object file into the process and give the address of `symbol` in it."""
    return load_symbols(data, (symbol,), opt_level)[symbol]


def load_symbols(data: bytes, symbols: Iterable[str], opt_level: int = 3) -> dict[str, int]:
    """Map an object file into the process, by an MCJIT engine of its own made from an empty module
    (it takes the fresh target machine it is given), and give the address of each of `symbols`."""
    with _llvm():
        triple, _, cpu, features = _host()
        engine = binding.create_mcjit_compiler(_parse(""), _new_target_machine(triple, cpu, features, opt_level))
        engine.add_object_file(binding.ObjectFileRef.from_data(data))
        engine.finalize_object()
        addresses = {symbol: engine.get_function_address(symbol) for symbol in symbols}
        missing = [symbol for symbol, address in addresses.items() if not address]
        if missing:
            raise JITError(f"symbol {', '.join(missing)} not found in its object file")
        _KEPT.append(engine)
        return addresses


def compile_ir(text: str, symbols: Iterable[str], opt_level: int = 3) -> dict[str, int]:
    """JIT LLVM IR text as written (the code generator at `opt_level`, no IR pipeline) for the host,
    and give the address of each of `symbols`. Symbols the IR declares but does not define are
    resolved in the process (or from `provide_symbols`) when the object is loaded."""
    with _llvm():
        module = _parse(text)
        module.triple, module.data_layout = _host()[:2]
        data = _target_machine(opt_level).emit_object(module)
        return load_symbols(data, symbols, opt_level)


def provide_symbols(addresses: dict[str, int]) -> None:
    """Make process addresses known to the JIT's symbol resolver by name (a name it resolves already
    keeps its address), for code that calls functions the process has but does not export."""
    with _llvm():
        for name, address in addresses.items():
            if not binding.address_of_symbol(name):
                binding.add_symbol(name, address)


def engine_count() -> int:
    """Engines made so far (each loaded object has one)."""
    return sum(isinstance(item, binding.ExecutionEngine) for item in _KEPT)
