"""Values of the kernel IR and their use-lists.

Every value knows the instructions that use it (`users`, one entry per operand slot), so
replace-all-uses and dead-code checks are cheap, as in xdsl and LLVM. Constants are immutable and
shared; they do not track their users.

A use-list adds and removes a use in constant time (`UseList`): inlining and cloning rewrite every
operand of hundreds of thousands of instructions, and a value such as a `__constant` table or a
parameter may have thousands of users, so a Python list's linear `remove` made them quadratic.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import types as ty

if TYPE_CHECKING:
    from .instructions import Instruction


class UseList:
    """The users of a value, one entry per operand slot that holds it: an insertion-ordered multiset.

    A dict maps each user to its number of slots, so `append` and `remove` take constant time and
    iteration is deterministic (users in the order they first used the value; a user with several
    slots comes that many times in a row)."""

    __slots__ = ("_slots",)

    def __init__(self) -> None:
        self._slots: dict[Instruction, int] = {}

    def append(self, user: Instruction) -> None:
        slots = self._slots
        slots[user] = slots.get(user, 0) + 1

    def remove(self, user: Instruction) -> None:
        """Forget one use by `user` (ValueError if it has none, like a list's)."""
        slots = self._slots
        count = slots.get(user)
        if count is None:
            raise ValueError(f"{user!r} does not use this value")
        if count == 1:
            del slots[user]
        else:
            slots[user] = count - 1

    def clear(self) -> None:
        self._slots.clear()

    def __iter__(self):
        for user, count in self._slots.items():
            yield user
            for _ in range(count - 1):
                yield user

    def distinct(self) -> list[Instruction]:
        """Each user once, in order (a snapshot: safe to rewrite uses while walking it)."""
        return list(self._slots)

    def __len__(self) -> int:
        return sum(self._slots.values())

    def __bool__(self) -> bool:
        return bool(self._slots)

    def __contains__(self, user) -> bool:
        return user in self._slots

    def __repr__(self) -> str:
        return f"UseList({list(self)!r})"


class Value:
    """Anything an instruction can take as an operand."""

    tracks_users = True

    def __init__(self, type: ty.Type, name: str = "") -> None:
        self.type = type
        self.name = name
        self.users = UseList()

    def replace_all_uses_with(self, new: Value) -> None:
        for user in self.users.distinct():
            user.replace_uses_of(self, new)

    @property
    def has_users(self) -> bool:
        return bool(self.users)


class Constant(Value):
    """An integer, float or null-pointer constant. Integers are stored as their unsigned bits."""

    tracks_users = False

    def __init__(self, type: ty.Type, value: int | float) -> None:
        super().__init__(type)
        if isinstance(type, ty.IntType):
            value = int(value) & ((1 << type.bits) - 1)
        elif isinstance(type, ty.FloatType):
            value = float(value)
        self.value = value

    @property
    def signed_value(self) -> int:
        bits = self.type.bits
        v = self.value
        return v - (1 << bits) if v >> (bits - 1) else v

    def __eq__(self, other) -> bool:
        return isinstance(other, Constant) and self.type is other.type and self.value == other.value and (
            str(self.value) == str(other.value))  # distinguishes 0.0 and -0.0

    def __hash__(self) -> int:
        return hash((self.type, str(self.value)))

    def __repr__(self) -> str:
        return f"Constant({self.type}, {self.value!r})"


class VectorConstant(Value):
    """A constant vector: one Constant per lane."""

    tracks_users = False

    def __init__(self, type: ty.VectorType, lanes: list[Constant]) -> None:
        super().__init__(type)
        self.lanes = tuple(lanes)


class Undef(Value):
    """An unspecified value (e.g. an uninitialized private variable read before any write)."""

    tracks_users = False


class Argument(Value):
    """A function parameter."""

    def __init__(self, type: ty.Type, name: str, index: int) -> None:
        super().__init__(type, name)
        self.index = index


class GlobalVariable(Value):
    """Storage outside any function: program-scope `__constant` data (with an initializer) or a
    kernel-scope `__local` variable (owned by its kernel, placed in the work-group's local arena).
    Its value is a pointer in `address_space` to `value_type` storage."""

    def __init__(self, name: str, value_type: ty.Type, address_space: ty.AddressSpace,
                 initializer: list[int | float] | None = None, linkage: str = "internal") -> None:
        super().__init__(ty.pointer(address_space), name)
        self.value_type = value_type
        self.address_space = address_space
        self.initializer = initializer  # flat list of scalar element values, or None
        # how the linker (driver/linker.py) sees program-scope `__constant` data: "internal" (a
        # static, or compiler-made data), "external" (defined here, other units' extern declarations
        # resolve to it, by name) or "declaration" (`extern`: defined in another unit)
        self.linkage = linkage


def const_int(type: ty.IntType, value: int) -> Constant:
    return Constant(type, value)


def const_float(type: ty.FloatType, value: float) -> Constant:
    return Constant(type, value)


def const_bool(value: bool) -> Constant:
    return Constant(ty.i1, int(value))
