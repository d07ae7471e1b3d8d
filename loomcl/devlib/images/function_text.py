"""A writer of LLVM function bodies as SSA text for the image helpers (llvm_image*.py): fresh names,
blocks, descriptor fields, the float intrinsics they use, and the definition's header."""
from __future__ import annotations

from ...abi.image import ImageDescriptor
from ...llvmtext.module import ModuleText, quote

F4, I4 = "<4 x float>", "<4 x i32>"


def field_offset(name: str) -> int:
    return getattr(ImageDescriptor, name).offset


class FunctionText:
    def __init__(self, module: ModuleText) -> None:
        self.module = module
        self.lines: list[str] = []
        self.count = 0

    def op(self, text: str, hint: str = "t") -> str:
        self.count += 1
        name = f"%{hint}{self.count}"
        self.lines.append(f"  {name} = {text}")
        return name

    def emit(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def label(self, hint: str) -> str:
        self.count += 1
        return f"{hint}{self.count}"

    def block(self, label: str) -> None:
        self.lines.append(f"{label}:")

    def field(self, desc: str, name: str, t: str = "i64") -> str:
        """A descriptor field, loaded (the descriptor does not change while the kernel runs)."""
        address = self.op(f"getelementptr inbounds i8, ptr {desc}, i64 {field_offset(name)}", "addr")
        return self.op(f"load {t}, ptr {address}, align {4 if t == 'i32' else 8}, !invariant.load !{{}}", name)

    def intrinsic(self, name: str, t: str, *args: str) -> str:
        """`llvm.<name>` at type t (`float`, `<4 x float>`, `i32`, ...)."""
        suffix = {"float": "f32", "i32": "i32", "i64": "i64", F4: "v4f32", I4: "v4i32"}[t]
        full = f"llvm.{name}.{suffix}"
        self.module.declare(full, f"declare {t} @{full}({', '.join([t] * len(args))})")
        return self.op(f"call {t} @{full}({', '.join(f'{t} {a}' for a in args)})")

    def clamp(self, t: str, value: str, low: str, high: str, signed: bool = True) -> str:
        s = "s" if signed else "u"
        return self.intrinsic(f"{s}min", t, self.intrinsic(f"{s}max", t, value, low), high)

    def fclamp(self, t: str, value: str, low: str, high: str) -> str:
        """A NaN becomes `low` (maxnum returns the number)."""
        return self.intrinsic("minnum", t, self.intrinsic("maxnum", t, value, low), high)

    def select(self, condition: str, t: str, a: str, b: str) -> str:
        return self.op(f"select i1 {condition}, {t} {a}, {t} {b}")

    def phi(self, t: str, incoming: list[tuple[str, str]]) -> str:
        return self.op(f"phi {t} " + ", ".join(f"[ {v}, %{b} ]" for v, b in incoming))

    def definition(self, symbol: str, result: str, params: str, inline: bool = True) -> str:
        """The function's text: `alwaysinline` (#0) unless `inline` is False, then `noinline`
        (#1 and the attribute: one copy that every call shares)."""
        body = "\n".join(self.lines)
        attributes = "#0" if inline else "noinline #1"
        return f"define internal {result} @{quote(symbol)}({params}) {attributes} {{\nentry:\n{body}\n}}"


def vector(t: str, lanes: list[str], element: str) -> str:
    """Text of a constant vector of type t."""
    return "<" + ", ".join(f"{element} {x}" for x in lanes) + ">"
