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
are made unique per function by suffixing `.N`; unnamed values are numbered.
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
        self.counter = 0

    def unique(self, hint: str) -> str:
        if not hint:
            hint = str(self.counter)
            self.counter += 1
            while hint in self.taken:
                hint = str(self.counter)
                self.counter += 1
        name, n = hint, 1
        while name in self.taken:
            name = f"{hint}.{n}"
            n += 1
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
    def __init__(self, function: Function) -> None:
        self.function = function
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
        lines += [f"  local @{v.name} : {v.value_type}" for v in f.local_variables]
        loop_headers = {loop.header: loop for loop in f.work_item_loops}
        for block in f.blocks:
            note = ""
            if block in loop_headers:
                loop = loop_headers[block]
                note = (f"  work_item_loop {loop.name}, counter {self.operand(loop.counter)}, "
                        f"latch {self.label(loop.latch)}")
            lines.append(f"{self.label(block)}:{note}")
            lines += ["  " + self.instruction(inst) for inst in block.instructions]
        lines.append("}")
        return "\n".join(lines)

    def instruction(self, inst: ins.Instruction) -> str:
        text = self.body(inst)
        if inst.type is not ty.void and not inst.is_terminator:
            text = f"%{self.values.of(inst)} = {text}"
        return text

    def body(self, i: ins.Instruction) -> str:  # a flat dispatch over instruction kinds
        o = self.operand
        if isinstance(i, ins.BinaryOp):
            return f"{i.opcode.value} {o(i.lhs)}, {o(i.rhs)}"
        if isinstance(i, ins.FNeg):
            return f"fneg {o(i.value)}"
        if isinstance(i, ins.Compare):
            return f"cmp {i.predicate.value} {o(i.lhs)}, {o(i.rhs)}"
        if isinstance(i, ins.Cast):
            flags = " nuw nsw" if i.no_wrap else ""
            return f"{i.opcode.value}{flags} {o(i.value)} to {i.type}"
        if isinstance(i, ins.Select):
            return f"select {self.operands(i.operands)}"
        if isinstance(i, ins.Phi):
            pairs = ", ".join(f"[{o(v)}, {self.label(b)}]" for v, b in i.incoming)
            return f"phi {i.type} {pairs}"
        if isinstance(i, ins.Alloca):
            return f"alloca {i.allocated_type}"
        if isinstance(i, ins.Load):
            return f"load {i.type}, {o(i.pointer)}" + (" volatile" if i.volatile else "")
        if isinstance(i, ins.Store):
            return f"store {o(i.value)}, {o(i.pointer)}" + (" volatile" if i.volatile else "")
        if isinstance(i, ins.ElementPtr):
            return f"elementptr {i.element_type}, {o(i.base)}, {o(i.index)}"
        if isinstance(i, ins.FieldPtr):
            return f"fieldptr {i.struct_type}, {o(i.base)}, {i.field}"
        if isinstance(i, ins.AtomicRMW):
            return f"atomic {i.opcode.value} {o(i.pointer)}, {o(i.value)}"
        if isinstance(i, ins.AtomicCmpXchg):
            return f"cmpxchg {self.operands(i.operands)}"
        if isinstance(i, ins.Call):
            return f"call @{i.callee.name}({self.operands(i.args)})"
        if isinstance(i, ins.MathCall):
            return f"math.{i.math_function.value} {i.type} {self.operands(i.args)}"
        if isinstance(i, ins.WorkItemQuery):
            return f"{i.query.value} {i.dim}"
        if isinstance(i, ins.Barrier):
            return f"barrier {i.flags}"
        if isinstance(i, ins.Fence):
            return f"fence {i.flags}"
        if isinstance(i, ins.ExtractElement):
            return f"extractelement {o(i.vector)}, {o(i.index)}"
        if isinstance(i, ins.InsertElement):
            return f"insertelement {self.operands(i.operands)}"
        if isinstance(i, ins.ShuffleVector):
            return f"shufflevector {self.operands(i.operands)}, <{', '.join(map(str, i.mask))}>"
        if isinstance(i, ins.Jump):
            return f"jump {self.label(i.target)}"
        if isinstance(i, ins.Branch):
            return f"branch {o(i.condition)}, {self.label(i.if_true)}, {self.label(i.if_false)}"
        if isinstance(i, ins.Switch):
            cases = ", ".join(f"{v}: {self.label(b)}" for v, b in i.cases)
            return f"switch {o(i.value)}, {self.label(i.default)} [{cases}]"
        if isinstance(i, ins.Return):
            return "ret" if i.value is None else f"ret {o(i.value)}"
        if isinstance(i, ins.Unreachable):
            return "unreachable"
        raise TypeError(f"no text form for {type(i).__name__}")


def print_function(function: Function) -> str:
    return FunctionPrinter(function).print()


def print_module(module: Module) -> str:
    parts = []
    for g in module.globals:
        init = "" if g.initializer is None else " = [" + ", ".join(map(repr, g.initializer)) + "]"
        parts.append(f"{g.address_space.spelling} @{g.name} : {g.value_type}{init}")
    parts += [print_function(f) for f in module.functions.values()]
    return "\n\n".join(parts) + "\n"
