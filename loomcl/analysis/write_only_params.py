"""The kernel's write-only `__global` pointer parameters: memory the kernel stores to and never reads.

A parameter is write-only when every use of it, followed through address arithmetic (`elementptr`,
`fieldptr`, pointer casts) and through the private variable that holds it in work-item form (an
`alloca` only stored to and loaded from: the lowering keeps every parameter in one), is the address
operand of a `store`. Anything else that could read through it or let it escape -- a load, an
atomic, a call, a pointer stored anywhere else, compared, selected, or turned into an integer --
makes it not write-only: the answer is conservative, and a kernel that passes the pointer to a
helper function is read as "may read".

The runtime uses it to choose streaming (non-temporal) stores for large output buffers
(codegen/streaming_stores.py): bypassing the cache is only right for memory the kernel will not read
back. The analysis never changes the IR.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.function import Function


def write_only_params(function: Function) -> tuple[int, ...]:
    """Indices of the `__global` pointer parameters of `function` that are only stored through."""
    return tuple(p.index for p in function.params
                 if isinstance(p.type, ty.PointerType) and p.type.address_space == ty.AddressSpace.GLOBAL
                 and p.users and _only_stored_through(p))


def _only_stored_through(pointer) -> bool:
    pending, seen = [pointer], set()
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        for user in value.users:
            if isinstance(user, ins.Store) and user.value is value:
                if not _is_private_variable(user.pointer):
                    return False  # stored where something else may read it: it escapes
                pending.extend(u for u in user.pointer.users if isinstance(u, ins.Load))
            elif isinstance(user, ins.Store):
                continue  # stored through: what write-only means
            elif user.address_origin is value:  # address arithmetic, pointer casts
                pending.append(user)
            else:
                return False
    return True


def _is_private_variable(address) -> bool:
    """An alloca whose address is only stored to and loaded from (it does not escape)."""
    return isinstance(address, ins.Alloca) and all(
        isinstance(u, ins.Load) or (isinstance(u, ins.Store) and u.pointer is address and u.value is not address)
        for u in address.users)
