"""The instructions of the kernel IR: one class per kind, operands as typed properties.

Opcode families that share a shape (binary arithmetic, comparisons, casts, math functions, atomics) are
one class each with an enum member saying which; everything else is its own class. Barriers and
work-item queries are instructions, never calls recognized by name. Every instruction may carry a
source location (`loc`) for diagnostics and for `--emit` output.

Each class owns its meaning: traits, text form, type rules and cloning (ops/base.py). The classes
live in `ops/`, one module per family; this module gathers them, so passes write `ins.BinaryOp`.
"""
from __future__ import annotations

from .ops import arithmetic as _arithmetic
from .ops import calls as _calls
from .ops import control as _control
from .ops import memory as _memory
from .ops import vectors as _vectors
from .ops import work_items as _work_items
from .ops.arithmetic import *  # noqa: F401,F403
from .ops.base import Instruction, TextReader, TextWriter
from .ops.calls import *  # noqa: F401,F403
from .ops.control import *  # noqa: F401,F403
from .ops.memory import *  # noqa: F401,F403
from .ops.vectors import *  # noqa: F401,F403
from .ops.work_items import *  # noqa: F401,F403
from .ops import instruction_classes

__all__ = ["Instruction", "TextReader", "TextWriter", "instruction_classes"] + [
    name for family in (_arithmetic, _memory, _calls, _work_items, _vectors, _control) for name in family.__all__]
