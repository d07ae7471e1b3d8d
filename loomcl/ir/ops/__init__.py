"""The instruction kinds of the kernel IR, one family per module; `loomcl.ir.instructions` gathers
them under one name (`ins.BinaryOp`, `ins.Phi`, ...).

Each kind is a class that owns its meaning (base.py says what that is): operands as typed properties,
traits, text form (print and parse), type rules, cloning. The printer, reader, verifier and cloning
ask the instruction, so a new kind is one class in one of these modules (listed in its `__all__`; a
new family module is also named in `FAMILIES` below):

    class Popcount(Instruction):
        keywords = ("popcount",)            # printed as `%n = popcount %x`; the reader finds it by this
        is_pure = True

        def __init__(self, value, name=""):
            super().__init__(value.type, [value], name)

        value = property(lambda self: self._operands[0])

        @classmethod
        def parse(cls, keyword, r, name):
            return cls(r.operand(), name)

        def verify(self):
            if not ty.is_int(self.value.type):
                yield f"popcount of {self.value.type}, not an integer"

Code generation, uniformity and the test interpreter still dispatch on the class where they give it
a meaning of their own.
"""
from . import arithmetic, calls, checks, control, images, lanes, memory, vectors, work_items
from .arithmetic import *  # noqa: F401,F403
from .base import Instruction, TextReader, TextWriter
from .calls import *  # noqa: F401,F403
from .checks import *  # noqa: F401,F403
from .control import *  # noqa: F401,F403
from .images import *  # noqa: F401,F403
from .lanes import *  # noqa: F401,F403
from .memory import *  # noqa: F401,F403
from .vectors import *  # noqa: F401,F403
from .work_items import *  # noqa: F401,F403

FAMILIES = (arithmetic, memory, calls, work_items, vectors, lanes, control, checks, images)

__all__ = ["Instruction", "TextReader", "TextWriter", "instruction_classes"] + [
    name for family in FAMILIES for name in family.__all__]


def instruction_classes() -> list[type[Instruction]]:
    """Every concrete instruction kind: the classes that have a text form."""
    found, stack = [], [Instruction]
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if cls.keywords:
            found.append(cls)
    return sorted(set(found), key=lambda c: c.__name__)
