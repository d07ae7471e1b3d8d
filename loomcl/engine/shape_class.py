"""The argument shape class of a launch, and the key a variant choice is remembered under.

Launches of one class are expected to favour the same kernel variant (engine/microprofile.py):
the global size rounded up to powers of two, the regions' local sizes, the number of threads that
share the groups, and per argument its kind and, for buffers and local memory, its size rounded up
to a power of two (a scalar's value is not part of it: a loop bound that changes every launch would
otherwise never meet its choice again).

The key adds what the code depends on: the object-cache keys of the kernel's default code for each
region (jit/cache.py: its LLVM IR, options, CPU, LLVM and loomcl versions) and the variant table.
"""
from __future__ import annotations

import hashlib

from ..abi.kernel import ParamKind
from . import variants

KEY_FORMAT = "loomcl-microprofile-1"
_POINTERS = (ParamKind.GLOBAL_POINTER, ParamKind.CONSTANT_POINTER)
_PLAIN = {ParamKind.SCALAR: "s", ParamKind.BY_VALUE: "v", ParamKind.IMAGE: "i", ParamKind.SAMPLER: "m"}


def power_of_two(n: int) -> int:
    """The smallest power of two >= n (n itself for 0 and 1)."""
    return n if n <= 1 else 1 << (n - 1).bit_length()


def shape_class(plan, batch, args, threads: int) -> str:
    sizes = "x".join(str(power_of_two(g)) for g in plan.global_size)
    local = ";".join("x".join(map(str, size)) for size in batch.local_sizes)
    kinds = ".".join(_argument_class(args, index, param.kind) for index, param in enumerate(args.params))
    return f"global={sizes} local={local} threads={threads} args={kinds}"


def _argument_class(args, index: int, kind: ParamKind) -> str:
    if kind in _POINTERS:
        held = args.held[index]
        return "n" if held is None else f"b{power_of_two(getattr(held, 'nbytes', 0))}"
    if kind is ParamKind.LOCAL_POINTER:
        return f"l{power_of_two(args.local_sizes.get(index, 0))}"
    return _PLAIN.get(kind, "?")


def choice_key(shape: str, default_functions) -> str:
    """The remembered choice's key: the shape class, the default code of each region in the batch's
    order, and the variant table."""
    digest = hashlib.sha256()
    for part in (KEY_FORMAT, variants.table_signature(), shape, *(f.code_key for f in default_functions)):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()
