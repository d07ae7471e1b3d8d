"""LLVM IR as text: kernel IR types and constants spelled in LLVM, and a module under construction.

The common ground of codegen/ (kernel IR instructions) and devlib/ (the device library's functions):
both write text into a `ModuleText` (module.py) with the spellings of types.py. No llvmlite: the text
is parsed by LLVM only in the JIT.

May import: ir, abi.
"""
