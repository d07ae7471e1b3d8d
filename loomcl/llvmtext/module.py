"""One LLVM module under construction, as text.

We emit textual LLVM IR rather than build it with `llvmlite.ir`: the work-item loops need metadata that
`llvmlite.ir` makes awkward (a `distinct` access group per loop, a self-referential `llvm.loop` node),
instruction flags such as `trunc nuw nsw` (../shared/LLVMLITE.md, index width) and attributes are
plain text, the text is the object-cache key as it stands, and `--emit llvm` shows it unchanged.

`ModuleText` collects named types, program-scope `__constant` data, intrinsic declarations, function
definitions and numbered metadata, and joins them under the host's triple and data layout.
"""
from __future__ import annotations

import numpy as np

from ..ir import types as ty
from ..ir.values import GlobalVariable
from .types import format_float, llvm_type, scalar_leaves

LAUNCH_TYPE = "%loomcl.launch"


class ModuleText:
    def __init__(self) -> None:
        self.types: list[str] = []
        self.globals: list[str] = []
        self.declarations: dict[str, str] = {}
        self.functions: list[str] = []
        self.metadata: list[str] = []
        self.global_names: dict[GlobalVariable, str] = {}
        self._taken: set[str] = set()

    # -- symbols --------------------------------------------------------------------------------------

    def unique_symbol(self, hint: str) -> str:
        name, n = hint, 1
        while name in self._taken:
            name, n = f"{hint}.{n}", n + 1
        self._taken.add(name)
        return name

    def declare(self, name: str, declaration: str) -> None:
        self.declarations.setdefault(name, declaration)

    def define_once(self, symbol: str, make_definition) -> str:
        """`@symbol` of a helper function that several instructions share; `make_definition()`
        gives its text, called only the first time."""
        if symbol not in self._taken:
            self._taken.add(symbol)
            self.functions.append(make_definition())
        return "@" + quote(symbol)

    def constant_global(self, gv: GlobalVariable) -> str:
        """`@name` of a program-scope __constant variable, emitted on first reference, so only the
        data a kernel uses enters its module."""
        if gv not in self.global_names:
            name = "@" + quote(self.unique_symbol(f"loomcl.const.{gv.name or 'anon'}"))
            self.global_names[gv] = name
            self.globals.append(f"{name} = private unnamed_addr constant {initializer(gv)}, "
                                f"align {max(gv.value_type.alignment, 16)}")
        return self.global_names[gv]

    # -- metadata -------------------------------------------------------------------------------------

    def add_metadata(self, body: str) -> str:
        """Append a metadata node and give its reference `!N`."""
        self.metadata.append(body)
        return f"!{len(self.metadata) - 1}"

    def add_self_referential(self, parts: list[str]) -> str:
        """A `distinct !{!self, parts...}` node, as `llvm.loop` requires."""
        ref = f"!{len(self.metadata)}"
        self.metadata.append("distinct !{" + ", ".join([ref, *parts]) + "}")
        return ref

    # -- the text -------------------------------------------------------------------------------------

    def text(self, triple: str, datalayout: str) -> str:
        parts = [f'target triple = "{triple}"', f'target datalayout = "{datalayout}"', ""]
        parts += self.types + [""] + self.globals + [""] + self.functions
        parts += sorted(self.declarations.values())
        parts += [""] + [f"!{i} = {body}" for i, body in enumerate(self.metadata)]
        return "\n".join(parts) + "\n"


def quote(name: str) -> str:
    """A symbol name as LLVM accepts it: bare when it is a plain identifier, quoted otherwise."""
    if name and all(ch.isalnum() or ch in "._$-" for ch in name) and not name[0].isdigit():
        return name
    return '"' + name.replace("\\", "\\5C").replace('"', "\\22") + '"'


# -- initializers of __constant data ------------------------------------------------------------------


def initializer(gv: GlobalVariable) -> str:
    """`type value` for a global's storage. Arrays and vectors of scalars keep their element type
    (readable `--emit llvm`, and LLVM folds loads from them); structs, whose padding the IR lays out,
    become their exact bytes."""
    t = gv.value_type
    leaves = list(scalar_leaves(t))
    values = list(gv.initializer or [])
    values += [0] * (len(leaves) - len(values))
    if gv.initializer is None:
        return f"{llvm_type(t)} zeroinitializer"
    if _has_struct(t):
        return f"[{t.size} x i8] c\"{_bytes(t, leaves, values)}\""
    text, _ = _typed(t, values, 0)
    return f"{llvm_type(t)} {text}"


def _has_struct(t: ty.Type) -> bool:
    if isinstance(t, ty.StructType):
        return True
    return isinstance(t, (ty.ArrayType, ty.VectorType)) and _has_struct(t.element)


def _typed(t: ty.Type, values: list, at: int) -> tuple[str, int]:
    """Text of the value of type `t` taken from `values[at:]`, and the next position."""
    if isinstance(t, (ty.ArrayType, ty.VectorType)):
        items = []
        for _ in range(t.count):
            text, at = _typed(t.element, values, at)
            items.append(f"{llvm_type(t.element)} {text}")
        open_, close = ("[", "]") if isinstance(t, ty.ArrayType) else ("<", ">")
        return open_ + ", ".join(items) + close, at
    return _scalar_text(t, values[at]), at + 1


def _scalar_text(t: ty.Type, value) -> str:
    if isinstance(t, ty.FloatType):
        return format_float(t, value)
    if isinstance(t, ty.PointerType):
        return "null"
    value = int(value) & ((1 << t.bits) - 1)
    if t.bits == 1:
        return "true" if value else "false"
    return str(value - (1 << t.bits) if value >> (t.bits - 1) else value)


def _bytes(t: ty.Type, leaves, values) -> str:
    data = bytearray(t.size)
    for (offset, leaf), value in zip(leaves, values):
        raw = _scalar_bytes(leaf, value)
        data[offset:offset + len(raw)] = raw
    return "".join(f"\\{b:02X}" for b in data)


def _scalar_bytes(t: ty.Type, value) -> bytes:
    if isinstance(t, ty.FloatType):
        return np.array(value, dtype=f"<f{t.size}").tobytes()
    if isinstance(t, ty.PointerType):
        return bytes(8)
    return (int(value) & ((1 << (8 * t.size)) - 1)).to_bytes(t.size, "little")
