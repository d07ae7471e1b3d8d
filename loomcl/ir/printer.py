"""The stable text form of the kernel IR (tests compare it; users read it through `--emit ir|wg`).

    kernel @scale(ptr.global %x, f32 %a) {
      local @tile : [64 x f32]
    entry:
      %gid = group_id 0
      %p = elementptr f32, %x, %gid
      %v = load f32, %p
      %r = fmul %v, %a
      store %r, %p
      ret
    }

Operands print as `%name`, constants with their type (`i32 7`, `f32 0.5`, `ptr.global null`). Names
are made unique per function by suffixing `.N`; unnamed values are numbered. The printer writes the
function-level structure and each instruction's `%name = keyword`; the instruction writes its own
operands (`Instruction.print_operands`, through the `TextWriter` methods `operand`, `operands` and
`label`).
"""
from __future__ import annotations

from . import instructions as ins
from . import types as ty
from .function import Block, Function, Module
from .values import Constant, GlobalVariable, Undef, Value, VectorConstant


class _Namer:
    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.taken: set[str] = set()
        self.suffixes: dict[str, int] = {}  # hint -> the N to try first for the next `hint.N`
        self.counter = 0

    def unique(self, hint: str) -> str:
        if not hint:
            hint = str(self.counter)
            self.counter += 1
            while hint in self.taken:
                hint = str(self.counter)
                self.counter += 1
        name = hint
        if name in self.taken:  # the first free `hint.N`, from the last one given (see llvm_emitter's)
            n = self.suffixes.get(hint, 1)
            while f"{hint}.{n}" in self.taken:
                n += 1
            name = f"{hint}.{n}"
            self.suffixes[hint] = n + 1
        self.taken.add(name)
        return name

    def of(self, obj) -> str:
        key = id(obj)
        if key not in self.names:
            self.names[key] = self.unique(getattr(obj, "name", ""))
        return self.names[key]


def format_constant(c: Value) -> str:
    if isinstance(c, Undef):
        return f"undef {c.type}"
    if isinstance(c, VectorConstant):
        return f"{c.type} <" + ", ".join(format_constant(lane).split(" ", 1)[1] for lane in c.lanes) + ">"
    if isinstance(c.type, ty.PointerType):
        return f"{c.type} null"
    if isinstance(c.type, ty.FloatType):
        return f"{c.type} {c.value!r}"
    return f"{c.type} {c.signed_value if c.type.bits > 1 else c.value}"


class FunctionPrinter:
    def __init__(self, function: Function, remarks: bool = True) -> None:
        self.function = function
        self.remarks = remarks
        self.values = _Namer()
        self.blocks = _Namer()

    def operand(self, v: Value) -> str:
        if isinstance(v, GlobalVariable):
            return f"@{v.name}"
        if isinstance(v, (Constant, Undef, VectorConstant)):
            return format_constant(v)
        return f"%{self.values.of(v)}"

    def operands(self, values) -> str:
        return ", ".join(self.operand(v) for v in values)

    def label(self, block: Block) -> str:
        return self.blocks.of(block)

    def print(self) -> str:
        f = self.function
        for p in f.params:
            self.values.of(p)
        for b in f.blocks:
            self.label(b)
        params = ", ".join(f"{p.type} %{self.values.of(p)}" for p in f.params)
        head = "kernel" if f.is_kernel else f"func {f.return_type}"
        attrs = ""
        if f.attributes.reqd_work_group_size:
            attrs += " reqd_work_group_size(%d, %d, %d)" % f.attributes.reqd_work_group_size
        if f.local_size:
            attrs += " local_size(%d, %d, %d)" % f.local_size
        lines = [f"{head} @{f.name}({params}){attrs} {{"]
        lines += [f"  ; {remark}" for remark in f.remarks if self.remarks]
        lines += [f"  local @{v.name} : {v.value_type}" for v in f.local_variables]
        loop_headers = {loop.header: loop for loop in f.work_item_loops}
        for block in f.blocks:
            note = ""
            if block in loop_headers:
                loop = loop_headers[block]
                note = (f"  work_item_loop {loop.name}, counter {self.operand(loop.counter)}, "
                        f"latch {self.label(loop.latch)}" + (f"  ; {loop.note}" if loop.note else ""))
            elif block.comment:
                note = f"  ; {block.comment}"
            lines.append(f"{self.label(block)}:{note}")
            lines += ["  " + self.instruction(inst) for inst in block.instructions]
        lines.append("}")
        return "\n".join(lines)

    def instruction(self, inst: ins.Instruction) -> str:
        """`%name = keyword operands`; the instruction writes its own operands."""
        operands = inst.print_operands(self)
        text = f"{inst.keyword} {operands}" if operands else inst.keyword
        if inst.type is not ty.void and not inst.is_terminator:
            text = f"%{self.values.of(inst)} = {text}"
        return text


def print_function(function: Function, remarks: bool = True) -> str:
    """The function's text; `remarks` (passes' `; ` notes on their choices) are not IR."""
    return FunctionPrinter(function, remarks).print()


def print_module(module: Module) -> str:
    parts = []
    for g in module.globals:
        init = "" if g.initializer is None else " = [" + ", ".join(map(repr, g.initializer)) + "]"
        parts.append(f"{g.address_space.spelling} @{g.name} : {g.value_type}{init}")
    parts += [print_function(f) for f in module.functions.values()]
    return "\n\n".join(parts) + "\n"
