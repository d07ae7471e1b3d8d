"""Control flow: SSA joins and the terminators that end every block.

A terminator says where control goes next (`successors`); the CFG's predecessors are derived from
them when asked (function.py). Blocks print as their labels.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .. import types as ty
from ..values import Constant, Value
from .base import Instruction, Terminator, TextReader, TextWriter
from .shapes import JOIN

if TYPE_CHECKING:
    from ..function import Block

__all__ = ["Phi", "Terminator", "Jump", "Branch", "Switch", "Return", "Unreachable"]


class Phi(Instruction):
    """An SSA join. `incoming_blocks[i]` is the predecessor that supplies `operands[i]`. That the
    incoming blocks are the predecessors, and that values dominate them, is the verifier's SSA rule."""

    keywords = ("phi",)
    fields = ("incoming_blocks",)
    defined_before_operands = True
    uniformity = JOIN

    def __init__(self, type: ty.Type, name: str = "") -> None:
        super().__init__(type, [], name)
        self.incoming_blocks: list[Block] = []

    def add_incoming(self, value: Value, block: Block) -> None:
        self._add_operand(value)
        self.incoming_blocks.append(block)

    @property
    def incoming(self) -> list[tuple[Value, Block]]:
        return list(zip(self._operands, self.incoming_blocks))

    def use_blocks(self, value: Value) -> list[Block]:
        return [b for v, b in self.incoming if v is value]

    def value_for(self, block: Block) -> Value:
        return self._operands[self.incoming_blocks.index(block)]

    def remove_incoming(self, block: Block) -> None:
        i = self.incoming_blocks.index(block)
        value = self._operands.pop(i)
        if value.tracks_users:
            value.users.remove(self)
        del self.incoming_blocks[i]

    def replace_incoming_block(self, old: Block, new: Block) -> None:
        self.incoming_blocks = [new if b is old else b for b in self.incoming_blocks]

    def remap_blocks(self, blocks: dict) -> None:
        self.incoming_blocks = [blocks.get(b, b) for b in self.incoming_blocks]

    def print_operands(self, p: TextWriter) -> str:
        pairs = ", ".join(f"[{p.operand(v)}, {p.label(b)}]" for v, b in self.incoming)
        return f"{self.type} {pairs}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Phi:
        return cls(r.type(), name)

    def parse_late(self, r: TextReader) -> None:
        while not r.done:
            r.expect("[")
            value = r.operand()
            r.expect(",")
            self.add_incoming(value, r.block())
            r.expect("]")
            r.accept(",")

    def verify(self) -> Iterator[str]:
        for value in self._operands:
            if value.type is not self.type:
                yield f"incoming value of type {value.type}, phi is {self.type}"


class Jump(Terminator):
    keywords = ("jump",)
    fields = ("target",)

    def __init__(self, target: Block) -> None:
        super().__init__(ty.void, [])
        self.target = target

    @property
    def successors(self) -> list[Block]:
        return [self.target]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.target is old:
            self.target = new

    def remap_blocks(self, blocks: dict) -> None:
        self.target = blocks.get(self.target, self.target)

    def print_operands(self, p: TextWriter) -> str:
        return p.label(self.target)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Jump:
        return cls(r.block())


class Branch(Terminator):
    keywords = ("branch",)
    fields = ("if_true", "if_false")
    operand_names = ("condition",)

    def __init__(self, condition: Value, if_true: Block, if_false: Block) -> None:
        super().__init__(ty.void, [condition])
        self.if_true = if_true
        self.if_false = if_false

    selector = property(lambda self: self._operands[0])

    @property
    def successors(self) -> list[Block]:
        return [self.if_true, self.if_false]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.if_true is old:
            self.if_true = new
        if self.if_false is old:
            self.if_false = new

    def remap_blocks(self, blocks: dict) -> None:
        self.if_true = blocks.get(self.if_true, self.if_true)
        self.if_false = blocks.get(self.if_false, self.if_false)

    def print_operands(self, p: TextWriter) -> str:
        return f"{p.operand(self.condition)}, {p.label(self.if_true)}, {p.label(self.if_false)}"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Branch:
        condition = r.operand()
        r.expect(",")
        if_true = r.block()
        r.expect(",")
        return cls(condition, if_true, r.block())

    def verify(self) -> Iterator[str]:
        if self.condition.type is not ty.i1:
            yield f"branch condition is {self.condition.type}, not i1"


class Switch(Terminator):
    """Jumps to the block of the case equal to `value` (an integer), else to `default`. Case values
    are Python ints, read as `value`'s type reads them (negative ones in two's complement)."""

    keywords = ("switch",)
    fields = ("default", "cases")
    operand_names = ("value",)

    def __init__(self, value: Value, default: Block, cases: list[tuple[int, Block]] | None = None) -> None:
        super().__init__(ty.void, [value])
        self.default = default
        self.cases: list[tuple[int, Block]] = list(cases or [])

    selector = property(lambda self: self._operands[0])

    def target_for(self, value: int) -> Block:
        """Where the switch goes when its value is `value` (either reading of the bits)."""
        mask = (1 << self.value.type.bits) - 1
        for case, block in self.cases:
            if case & mask == value & mask:
                return block
        return self.default

    @property
    def successors(self) -> list[Block]:
        return [self.default] + [block for _, block in self.cases]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.default is old:
            self.default = new
        self.cases = [(v, new if b is old else b) for v, b in self.cases]

    def remap_blocks(self, blocks: dict) -> None:
        self.default = blocks.get(self.default, self.default)
        self.cases = [(v, blocks.get(b, b)) for v, b in self.cases]

    def print_operands(self, p: TextWriter) -> str:
        cases = ", ".join(f"{v}: {p.label(b)}" for v, b in self.cases)
        return f"{p.operand(self.value)}, {p.label(self.default)} [{cases}]"

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Switch:
        value = r.operand()
        r.expect(",")
        default = r.block()
        r.expect("[")
        cases = []
        while not r.accept("]"):
            case = r.int()
            r.expect(":")
            cases.append((case, r.block()))
            r.accept(",")
        return cls(value, default, cases)

    def verify(self) -> Iterator[str]:
        t = self.value.type
        if not isinstance(t, ty.IntType):
            yield f"switch on {t}, not an integer"
            return
        seen = set()
        for case, _ in self.cases:
            if not isinstance(case, int) or not -(1 << (t.bits - 1)) <= case < (1 << t.bits):
                yield f"case {case!r} does not fit {t}"
                continue
            bits = Constant(t, case).value
            if bits in seen:
                yield f"case {case} appears twice"
            seen.add(bits)


class Return(Terminator):
    keywords = ("ret",)

    def __init__(self, value: Value | None = None) -> None:
        super().__init__(ty.void, [] if value is None else [value])

    @property
    def value(self) -> Value | None:
        return self._operands[0] if self._operands else None

    def print_operands(self, p: TextWriter) -> str:
        return "" if self.value is None else p.operand(self.value)

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Return:
        return cls(None if r.done else r.operand())

    def verify(self) -> Iterator[str]:
        function = self.function
        if function is None:
            return
        want = function.return_type
        got = self.value.type if self.value is not None else ty.void
        if got is not want:
            yield f"returns {got} from a function returning {want}"


class Unreachable(Terminator):
    keywords = ("unreachable",)

    def __init__(self) -> None:
        super().__init__(ty.void, [])

    @classmethod
    def parse(cls, keyword: str, r: TextReader, name: str) -> Unreachable:
        return cls()
