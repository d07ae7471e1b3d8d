"""transpose-private-arrays: lay out the context array of a private array element-major, so that
element j of consecutive work-items is consecutive in memory.

Sub-CFG formation gives a private array `T p[K]` the context array `[N x [K x T]]`: work-item i's
array at i * K. An access `p[j]` with the same j in every work-item (dgemmBlocked's `acc[w]`, a
kernel loop's counter) is then strided by K elements across the x work-item loop, so LLVM either
vectorizes it with interleaved accesses and shuffles or, as in dgemmBlocked, vectorizes across j
instead (4 doubles where x offered 16). Transposed, `[K x [N x T]]` with element j of work-item i at
j * N + i, the same access is unit-stride along x: a plain vector load or store, and the x loop
vectorizes at full width with each element's values in registers.

Applies to a context array whose only uses are `%p = elementptr [K x T], %ctx, %i` (the work-item's
array) each used only by `elementptr T, %p, %j`, each used only as the address of loads and stores of
T (scalar T). Any other use (pointer arithmetic that walks the array, a cast, a vector load, checked
mode's bounds checks, an escape into memory) keeps the array as it is. Then each access becomes
`elementptr T, (elementptr [N x T], %ctx', %j), %i`. In-bounds accesses address the same element
as before; out-of-bounds ones were undefined behaviour already.

Expects: the final work-group form. Guarantees: same behaviour for every in-bounds access; the
transposed arrays are `[K x [N x T]]` allocas of the prologue (work_group_verifier accepts them).
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir import types as ty
from ..ir.builder import Builder
from ..ir.function import Function
from .passes import PassContext

NAME = "transpose-private-arrays"


def _element_accesses(pointer: ins.Instruction, element: ty.Type) -> bool:
    """Every use of `pointer` is the address of a load or store of `element`."""
    for user in pointer.users:
        if isinstance(user, ins.Load) and user.pointer is pointer and user.type == element:
            continue
        if isinstance(user, ins.Store) and user.pointer is pointer and user.value is not pointer \
                and user.value.type == element:
            continue
        return False
    return True


def transposable(alloca: ins.Alloca, group_size: int) -> bool:
    t = alloca.allocated_type
    if not (isinstance(t, ty.ArrayType) and t.count == group_size and isinstance(t.element, ty.ArrayType)):
        return False
    array, element = t.element, t.element.element
    if not isinstance(element, (ty.IntType, ty.FloatType)):
        return False
    for user in alloca.users:
        if not (isinstance(user, ins.ElementPtr) and user.base is alloca and user.element_type == array):
            return False
        for access in user.users:
            if not (isinstance(access, ins.ElementPtr) and access.base is user and access.element_type == element
                    and _element_accesses(access, element)):
                return False
    return True


def transpose(alloca: ins.Alloca, group_size: int) -> None:
    array = alloca.allocated_type.element
    element, count = array.element, array.count
    b = Builder()
    b.position_before(alloca)
    row_type = ty.ArrayType(element, group_size)
    new = b.alloca(ty.ArrayType(row_type, count), alloca.name)
    for work_item_array in list(alloca.users):
        for access in list(work_item_array.users):
            b.position_before(access)
            row = b.element_ptr(row_type, new, access.index, (access.name or "elem") + ".row")
            moved = b.element_ptr(element, row, work_item_array.index, access.name)
            access.replace_all_uses_with(moved)
            access.erase()
        work_item_array.erase()
    alloca.erase()


def run(function: Function, analyses: PassContext) -> bool:
    size = function.local_size
    group_size = size[0] * size[1] * size[2]
    if group_size == 1:
        return False
    chosen = [i for i in function.entry.instructions
              if isinstance(i, ins.Alloca) and transposable(i, group_size)]
    for alloca in chosen:
        transpose(alloca, group_size)
    return bool(chosen)
