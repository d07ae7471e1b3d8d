"""Loading native code into this process.

Each compiled kernel becomes one MCJIT engine made from an empty module plus the kernel's object file,
whether the object was just produced or read from the disk cache: one path for both, so a cache hit
runs no optimizer and no code generator. Engines are kept for the life of the process (`_ENGINES`):
freeing one would unmap code that the runtime may still call through a raw address.
"""
from __future__ import annotations

import llvmlite.binding as llvm

from .errors import CodegenError
from .target import LLVM_LOCK, new_target_machine, parse

_ENGINES: list[llvm.ExecutionEngine] = []


def load_object(data: bytes, symbol: str, opt_level: int = 3) -> int:
    """Map an object file into the process and give the address of `symbol` in it."""
    with LLVM_LOCK:
        engine = llvm.create_mcjit_compiler(parse(""), new_target_machine(opt_level))
        engine.add_object_file(llvm.ObjectFileRef.from_data(data))
        engine.finalize_object()
        address = engine.get_function_address(symbol)
        if not address:
            raise CodegenError(f"symbol {symbol} not found in its object file")
        _ENGINES.append(engine)
        return address
