"""The instruction kinds of the kernel IR, one family per module; `loomcl.ir.instructions` gathers
them under one name (`ins.BinaryOp`, `ins.Phi`, ...).

Each kind is a class that owns its meaning (base.py says what that is): operands by name, traits,
uniformity rule (shapes.py), text form (print and parse), type rules, cloning. The printer, reader,
verifier, cloning and every pass ask the instruction, so a new kind is one class in one of these
modules (listed in its `__all__`; a new family module is also named in `FAMILIES` below):

    class Popcount(Instruction):
        keywords = ("popcount",)            # printed as `%n = popcount %x`; the reader finds it by this
        operand_names = ("value",)          # `inst.value`
        is_pure = True                      # dead when unused, free to hoist, rematerialize, merge
        is_lanewise = True                  # scalarize-vectors and WFV split or widen it lane by lane
        uniformity = OPERANDS               # uniform where its operand is (none declared: varying)

        def __init__(self, value, name=""):
            super().__init__(value.type, [value], name)

        @classmethod
        def parse(cls, keyword, r, name):
            return cls(r.operand(), name)

        def verify(self):
            if not ty.is_int(self.value.type):
                yield f"popcount of {self.value.type}, not an integer"

Besides the class, a new kind needs its LLVM emission (codegen's handler table), its rule in the
test interpreter (tests/transforms/interp.py) and the lowering that makes it; nothing else. A kind
with effects (`writes_memory`, `has_other_effects`) that whole-function vectorization does not know
is left to LLVM there (wfv_shapes.py), and one with an `address_operand` is bounds-checked in
checked mode (insert_checks.py).
"""
from . import arithmetic, calls, checks, control, images, lanes, memory, vectors, work_items
from .arithmetic import *  # noqa: F401,F403
from .base import Instruction, TextReader, TextWriter, defined_in, origin_of
from .calls import *  # noqa: F401,F403
from .checks import *  # noqa: F401,F403
from .control import *  # noqa: F401,F403
from .images import *  # noqa: F401,F403
from .lanes import *  # noqa: F401,F403
from .memory import *  # noqa: F401,F403
from .vectors import *  # noqa: F401,F403
from .work_items import *  # noqa: F401,F403

FAMILIES = (arithmetic, memory, calls, work_items, vectors, lanes, control, checks, images)

__all__ = ["Instruction", "TextReader", "TextWriter", "defined_in", "origin_of", "instruction_classes"] + [
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
