"""The instructions of the kernel IR: one class per kind, operands as typed properties.

Opcode families that share a shape (binary arithmetic, comparisons, casts, math functions, atomics) are
one class each with an enum member saying which; everything else is its own class. Barriers and
work-item queries are instructions, never calls recognized by name. Every instruction may carry a
source location (`loc`) for diagnostics and for `--emit` output.

Each class owns its meaning: traits, text form, type rules and cloning (ops/base.py). The classes
live in `ops/`, one module per family; this module gathers them, so passes write `ins.BinaryOp`.
"""
from __future__ import annotations

from .ops import *  # noqa: F401,F403
from .ops import __all__  # noqa: F401
