"""Loading native code into this process.

Everything this package JIT-s goes through one path: an object file mapped by its own MCJIT engine made
from an empty module. A compiled kernel's object comes from the O3 pipeline or from the disk cache (so a
cache hit runs no optimizer and no code generator); hand-written IR, such as the worker pool's
(engine/native_pool.py), is turned into an object by the code generator alone (`compile_ir`). Engines are kept
for the life of the process (`_ENGINES`): freeing one would unmap code that the runtime may still call
through a raw address, or that a worker thread is running.
"""
from __future__ import annotations

from collections.abc import Iterable

import llvmlite.binding as llvm

from .errors import JITError
from .target import LLVM_LOCK, new_target_machine, parse, target_machine, triple_and_datalayout

_ENGINES: list[llvm.ExecutionEngine] = []


def load_object(data: bytes, symbol: str, opt_level: int = 3) -> int:
    """Map an object file into the process and give the address of `symbol` in it."""
    return load_symbols(data, (symbol,), opt_level)[symbol]


def load_symbols(data: bytes, symbols: Iterable[str], opt_level: int = 3) -> dict[str, int]:
    """Map an object file into the process and give the address of each of `symbols` in it."""
    with LLVM_LOCK:
        engine = llvm.create_mcjit_compiler(parse(""), new_target_machine(opt_level))
        engine.add_object_file(llvm.ObjectFileRef.from_data(data))
        engine.finalize_object()
        addresses = {symbol: engine.get_function_address(symbol) for symbol in symbols}
        missing = [symbol for symbol, address in addresses.items() if not address]
        if missing:
            raise JITError(f"symbol {', '.join(missing)} not found in its object file")
        _ENGINES.append(engine)
        return addresses


def compile_ir(text: str, symbols: Iterable[str], opt_level: int = 3) -> dict[str, int]:
    """JIT LLVM IR text as written (the code generator at `opt_level`, no IR pipeline) for the host,
    and give the address of each of `symbols`. Symbols the IR declares but does not define are
    resolved in the process (or from llvm.add_symbol) when the object is loaded."""
    with LLVM_LOCK:
        module = parse(text)
        module.triple, module.data_layout = triple_and_datalayout()
        data = target_machine(opt_level).emit_object(module)
        return load_symbols(data, symbols, opt_level)


def provide_symbols(addresses: dict[str, int]) -> None:
    """Make process addresses known to the JIT's symbol resolver by name (a name it resolves already
    keeps its address), for code that calls functions the process has but does not export."""
    with LLVM_LOCK:
        for name, address in addresses.items():
            if not llvm.address_of_symbol(name):
                llvm.add_symbol(name, address)
