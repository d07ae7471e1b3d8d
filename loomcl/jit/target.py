"""The host as an LLVM target: initialization, the target machine, a compile server's job for it.

Facts this module rests on (../shared/LLVMLITE.md): llvmlite 0.50 wants `initialize_native_target()`
and `initialize_native_asmprinter()` (`initialize()` raises); a target machine made without the host's
CPU name and feature string emits SSE-only code; only the new pass manager exists, driven by pipeline
tuning options. All LLVM work is serialized by `LLVM_LOCK`: llvmlite objects are not thread-safe, and
programs may be built from several threads.
"""
from __future__ import annotations

import functools
import threading

import llvmlite.binding as llvm

from ..options import CompilerOptions
from .errors import JITError

LLVM_LOCK = threading.RLock()


@functools.cache
def _initialize() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.initialize_native_asmparser()


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


@functools.cache
def host_cpu() -> tuple[str, str]:
    """(CPU name, feature string) of this machine as LLVM sees them, plus loomcl's tuning."""
    _initialize()
    tuning = X86_TUNING if llvm.get_process_triple().startswith(("x86_64", "i686")) else ()
    features = [llvm.get_host_cpu_features().flatten(), *tuning]
    return llvm.get_host_cpu_name(), ",".join(f for f in features if f)


def features(options: CompilerOptions) -> str:
    """The feature string a kernel is compiled with: the host's, and the tuning its options ask for."""
    cpu, host = host_cpu()
    if options.scalar_scatters and llvm.get_process_triple().startswith(("x86_64", "i686")):
        return f"{host},{SCATTER_TUNING}"
    return host


def new_target_machine(opt_level: int = 3) -> llvm.TargetMachine:
    """A host target machine with all its features. Position-independent code, so an object file
    from the disk cache can be loaded at any address. An MCJIT engine takes ownership of (and frees)
    the machine it is given, so each engine needs a fresh one."""
    cpu, host_features = host_cpu()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(cpu=cpu, features=host_features, opt=opt_level, reloc="pic",
                                        codemodel="default")


@functools.cache
def target_machine(opt_level: int = 3) -> llvm.TargetMachine:
    """The shared machine for optimization and object emission (never handed to an engine)."""
    return new_target_machine(opt_level)


def triple_and_datalayout() -> tuple[str, str]:
    return llvm.get_process_triple(), str(target_machine().target_data)


def parse(text: str) -> llvm.ModuleRef:
    """Parse and verify LLVM IR text; a failure is our bug, so the message carries the text's head."""
    _initialize()
    try:
        module = llvm.parse_assembly(text)
        module.verify()
    except RuntimeError as error:
        raise JITError(f"LLVM rejected the emitted module: {error}\n{numbered_lines(text)}") from error
    return module


def numbered_lines(text: str, limit: int = 400) -> str:
    lines = text.splitlines()[:limit]
    return "\n".join(f"{i + 1:4d} {line}" for i, line in enumerate(lines))


def server_job(options: CompilerOptions, emit: str) -> dict:
    """A compile server's request header: this host's target and the options' pipeline."""
    return {"triple": llvm.get_process_triple(), "cpu": host_cpu()[0], "features": features(options), "emit": emit,
            "opt_level": options.opt_level, "vectorize": options.vectorize, "interleave": options.interleave,
            "unroll": options.unroll, "streaming": list(options.streaming)}


def llvm_version() -> str:
    return ".".join(map(str, llvm.llvm_version_info))
