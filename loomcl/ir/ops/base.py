"""The instruction base class: operands with use-lists, placement in a block, and the meaning that
every instruction kind owns (in the manner of xdsl's `Operation`).

A kind is one subclass. Besides its constructor and typed operand properties it says:

* its operands, by name (`operand_names`: each becomes a read-only property);
* its traits, as class attributes: `is_pure` (no effect, reads no memory, its result a function of
  its operands and of the work-item: dead when unused, and free to be recomputed or merged with an
  equal one), `reads_memory`, `writes_memory`, `has_other_effects` (synchronization, a printf
  record, a check that may stop the work-group), `is_barrier`, `is_terminator`, `is_lanewise` (on
  vectors it works lane by lane) and `uniformity`, the rule that gives its result's shape across
  the work-items from its operands' shapes (shapes.py; none declared: varying). `has_side_effects`
  follows from them;
* its text form: the `keywords` it is printed with (the reader's dispatch table is built from them),
  `keyword` (the one this instance prints), `print_operands` (the text after the keyword) and the
  class method `parse`, which reads that text back;
* its type rules: `verify` yields one message per broken rule; the verifier adds where it happened;
* its non-operand state: `fields`, which `clone` copies (lists are copied, not shared).

Terminators also say where control goes (`successors`, `replace_successor`) and on what (`selector`:
the value that picks the successor, None when there is no choice); every kind that names blocks
remaps them in `remap_blocks`. Printer and reader talk to an instruction only through the two small
protocols below, so neither knows any kind. Passes ask these traits rather than test for classes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterator, Protocol

from .. import types as ty
from ..values import Value
from .shapes import NO_VALUE, UniformityRule

if TYPE_CHECKING:
    from ..function import Block, Function


class TextWriter(Protocol):
    """What an instruction may ask of the printer."""

    def operand(self, value: Value) -> str: ...  # `%name`, `@global` or a typed constant

    def operands(self, values) -> str: ...  # comma-separated operands

    def label(self, block: Block) -> str: ...


class TextReader(Protocol):
    """What an instruction may ask of the reader: the tokens of its line after the keyword."""

    def next(self) -> str: ...

    def expect(self, token: str) -> None: ...

    def accept(self, token: str) -> bool: ...

    @property
    def done(self) -> bool: ...

    def type(self) -> ty.Type: ...

    def int(self) -> int: ...

    def operand(self) -> Value: ...

    def operand_list(self) -> list[Value]: ...

    def block(self) -> Block: ...

    def callee(self) -> Function: ...


class Instruction(Value):
    keywords: ClassVar[tuple[str, ...]] = ()
    """Every opcode word this kind is printed with (one per opcode of a family)."""
    fields: ClassVar[tuple[str, ...]] = ()
    """Attributes besides type, name and operands that make up the instruction (cloned with it)."""
    defined_before_operands: ClassVar[bool] = False
    """The reader creates it from the header of its line, before any value exists, and reads the
    rest in `parse_late` (phis: they break the use-before-definition cycles of loops)."""

    operand_names: ClassVar[tuple[str, ...]] = ()
    """The operands in order, each a read-only property of that name; a last name ending in `*`
    names the remaining operands (a tuple: a call's arguments). Kinds whose operands have no fixed
    roles (phis) name none."""

    address_operand: ClassVar[str | None] = None
    """The operand holding the one address a memory access reads or writes (loads, stores,
    atomics); `address` and `accessed_type` then describe the access. None: no such access."""

    is_terminator: ClassVar[bool] = False
    """Ends its block; `successors` says where control goes next."""
    reads_memory: ClassVar[bool] = False
    """Its result depends on memory, so it does not move across writes."""
    writes_memory: ClassVar[bool] = False
    """Changes memory that other instructions (or work-items) may read."""
    has_other_effects: ClassVar[bool] = False
    """An effect besides memory and control: synchronization, a printf record, a check that may stop
    the work-group."""
    is_barrier: ClassVar[bool] = False
    """A work-group barrier: work-group formation splits the CFG at it."""
    has_side_effects: ClassVar[bool] = False
    """Writes memory, transfers control, synchronizes or has another effect: never deleted,
    duplicated or moved freely. Derived from the traits above (`__init_subclass__`)."""
    is_pure: ClassVar[bool] = False
    """No effect, reads no memory, result a function of the operands (and of the work-item): dead
    when unused, free to be recomputed elsewhere (rematerialized) or merged with an equal one."""
    is_lanewise: ClassVar[bool] = False
    """On vectors it computes lane by lane: lane k of the result is the same kind, with the same
    fields, applied to lane k of each vector operand (and to each scalar operand as it is)."""
    uniformity: ClassVar[UniformityRule | None] = None
    """How the result's shape across work-items follows from the operands' shapes (shapes.py).
    None: no rule; the uniformity analysis takes the result as varying."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.has_side_effects = cls.writes_memory or cls.has_other_effects or cls.is_terminator or cls.is_barrier
        for index, name in enumerate(cls.__dict__.get("operand_names", ())):
            if name.endswith("*"):
                name, getter = name[:-1], (lambda i: lambda self: tuple(self._operands[i:]))(index)
            else:
                getter = (lambda i: lambda self: self._operands[i])(index)
            if name not in cls.__dict__:
                setattr(cls, name, property(getter))

    def __init__(self, type: ty.Type, operands: list[Value], name: str = "") -> None:
        super().__init__(type, name)
        self.block: Block | None = None
        self.loc = None
        self._operands: list[Value] = list(operands)
        for operand in self._operands:  # _add_operand's work, inline: every instruction made passes here
            if operand.tracks_users:
                operand.users.append(self)

    # -- operands and use-lists -------------------------------------------------------------

    @property
    def operands(self) -> tuple[Value, ...]:
        return tuple(self._operands)

    def _add_operand(self, value: Value) -> None:
        self._operands.append(value)
        if value.tracks_users:
            value.users.append(self)

    def set_operand(self, index: int, value: Value) -> None:
        old = self._operands[index]
        if old.tracks_users:
            old.users.remove(self)
        self._operands[index] = value
        if value.tracks_users:
            value.users.append(self)

    def replace_uses_of(self, old: Value, new: Value) -> None:
        for i, operand in enumerate(self._operands):
            if operand is old:
                self.set_operand(i, new)

    def drop_operands(self) -> None:
        for operand in self._operands:
            if operand.tracks_users:
                operand.users.remove(self)
        self._operands = []

    @property
    def address_origin(self) -> Value | None:
        """For address arithmetic and pointer casts: the pointer into whose object this one points
        (an elementptr's or fieldptr's base, a bitcast's or addrspacecast's operand); else None."""
        return None

    def use_blocks(self, value: Value) -> list[Block]:
        """Where it reads its operand `value`: in its own block (a phi reads at the end of each
        incoming block that supplies `value`)."""
        return [self.block]

    @property
    def address(self) -> Value | None:
        """The address it accesses (`address_operand`), or None."""
        return getattr(self, self.address_operand) if self.address_operand else None

    @property
    def accessed_type(self) -> ty.Type:
        """The type of the memory at `address` it reads or writes: its result's, by default."""
        return self.type

    # -- placement ---------------------------------------------------------------------------

    def erase(self) -> None:
        """Remove from its block and drop its operands; it must have no users left."""
        assert not self.users, f"erasing {type(self).__name__} that still has users"
        if self.block is not None:
            self.block.instructions.remove(self)
            self.block = None
        self.drop_operands()

    def detach(self) -> None:
        """Remove from its block, keeping operands (to re-insert elsewhere)."""
        if self.block is not None:
            self.block.instructions.remove(self)
            self.block = None

    @property
    def function(self) -> Function | None:
        return self.block.function if self.block is not None else None

    # -- cloning -----------------------------------------------------------------------------

    def clone(self, operands: list[Value] | None = None) -> Instruction:
        """A new, unplaced instruction of this kind with the same operands (or `operands`, one for
        each: a copy in another function takes that function's values), type, name, source
        location and fields; nothing uses it yet."""
        new = object.__new__(type(self))
        Instruction.__init__(new, self.type, self._operands if operands is None else operands, self.name)
        new.loc = self.loc
        for field in self.fields:
            value = getattr(self, field)
            setattr(new, field, list(value) if isinstance(value, list) else value)
        return new

    def with_operands(self, operands: list[Value], type: ty.Type | None = None) -> Instruction:
        """A new, unplaced instruction of this kind with these operands (and type, if given) and this
        one's name, source location and fields: one lane of a lane-wise operation, or its widened
        form. Nothing new uses this one's operands."""
        new = object.__new__(self.__class__)  # (`type` is the parameter here)
        Instruction.__init__(new, self.type if type is None else type, operands, self.name)
        new.loc = self.loc
        for field in self.fields:
            value = getattr(self, field)
            setattr(new, field, list(value) if isinstance(value, list) else value)
        return new

    def remap_blocks(self, blocks: dict) -> None:
        """Replace every block it names (successors, a phi's predecessors) found in `blocks`."""

    # -- text form ---------------------------------------------------------------------------

    @property
    def keyword(self) -> str:
        return self.keywords[0]

    def print_operands(self, p: TextWriter) -> str:
        """The text after the keyword; by default the operands, comma-separated."""
        return p.operands(self._operands)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Instruction:
        """Read back what `print_operands` wrote after `keyword`; `name` is the result's name."""
        raise NotImplementedError(f"{cls.__name__} has no text form")

    def parse_late(self, r: TextReader) -> None:
        """For `defined_before_operands` kinds: the rest of the line, once every value exists."""

    # -- verification ------------------------------------------------------------------------

    def verify(self) -> Iterator[str]:
        """The type rules of this kind: one message for each rule it breaks."""
        return iter(())


class Terminator(Instruction):
    is_terminator = True
    uniformity = NO_VALUE

    @property
    def successors(self) -> list[Block]:
        return []

    @property
    def selector(self) -> Value | None:
        """The value that picks the successor (a branch's condition, a switch's value); None when
        control has no choice."""
        return None

    def replace_successor(self, old: Block, new: Block) -> None:
        raise NotImplementedError

    def print_operands(self, p: TextWriter) -> str:
        return ""


def read_operands(r: TextReader, count: int) -> list[Value]:
    """Exactly `count` comma-separated operands."""
    values = [r.operand()]
    for _ in range(count - 1):
        r.expect(",")
        values.append(r.operand())
    return values


def origin_of(value: Value) -> Value | None:
    """`value.address_origin` for an instruction; None for constants, arguments and globals."""
    return value.address_origin if isinstance(value, Instruction) else None


def defined_in(value: Value, blocks) -> bool:
    """Whether `value` is an instruction placed in one of `blocks` (constants, arguments and globals
    are defined nowhere: loop-invariant, region-independent)."""
    return isinstance(value, Instruction) and value.block in blocks


# -- type rules shared by several kinds -----------------------------------------------------------


def is_int_scalar(t: ty.Type) -> bool:
    return isinstance(t, ty.IntType)


def same_type(lhs: Value, rhs: Value) -> Iterator[str]:
    if lhs.type is not rhs.type:
        yield f"operand types differ: {lhs.type} and {rhs.type}"


def address(pointer: Value, role: str = "address") -> Iterator[str]:
    if not isinstance(pointer.type, ty.PointerType):
        yield f"{role} is {pointer.type}, not a pointer"


def integer_index(index: Value, role: str = "index") -> Iterator[str]:
    if not is_int_scalar(index.type):
        yield f"{role} is {index.type}, not an integer"


def result_is(inst: Instruction, want: ty.Type, why: str) -> Iterator[str]:
    if inst.type is not want:
        yield f"result is {inst.type}, but {why} {want}"


def has_size(t: ty.Type) -> bool:
    try:
        t.size
    except (TypeError, AttributeError):
        return False
    return True
