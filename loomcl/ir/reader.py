"""Read the printer's text form back into IR, so transform tests can start from IR text.

The grammar is the one `printer.py` writes (see its docstring): a module is a list of program-scope
globals (`constant @name : type = [..]`) and functions; a function is a header line, `local` lines for
its kernel-scope __local variables, then labelled blocks of one instruction per line.

Values may be used before their definition (a phi's incoming value from a loop latch, or any operand
in a block printed before its definer's block). Every instruction line is first parsed into a pending
record; instructions are then built on demand, an operand's definer first (recursively, memoized).
Phis (kinds that are `defined_before_operands`) are built upfront, because their type is written out
and they break every cycle of the dependence graph in valid SSA; their incoming values are filled in
last. `call` lines may name functions defined later in the module, so all function headers are read
before any body. Each line's opcode keyword picks the instruction class (a table built from the
classes' `keywords`), which parses the rest of the line through `_InstructionCursor`; a line must
be used up.

Names are kept exactly as printed (`%x.1` becomes a value named `x.1`), which makes
`print(read(print(f))) == print(f)`. Work-item loops (`work_item_loop x, counter %c, latch L` after a
header label) come back as `WorkItemLoop`s.
Struct types are not printed with their fields, so a text with `%struct` types needs them passed in.
"""
from __future__ import annotations

import re

from . import instructions as ins
from . import types as ty
from .function import DIMENSION_NAMES, Block, Function, Module, WorkItemLoop
from .values import Constant, GlobalVariable, Undef, Value, VectorConstant

_TOKEN = re.compile(r"""
      (?P<string>"[^"]*")
    | (?P<local>%[\w.\-]+)
    | (?P<global>@[\w.\-]+)
    | (?P<number>[-+]?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?(?![\w.])|inf\b|nan\b))
    | (?P<label>\d[\w.\-]*)
    | (?P<word>[A-Za-z_][\w.]*)
    | (?P<punct>[()\[\]<>{},:=])
""", re.VERBOSE)

_ADDRESS_SPACES = {space.spelling: space for space in ty.AddressSpace}
_SCALARS = {"void": ty.void, "i1": ty.i1, "i8": ty.i8, "i16": ty.i16, "i32": ty.i32, "i64": ty.i64,
            "f16": ty.f16, "f32": ty.f32, "f64": ty.f64}


class ReadError(Exception):
    pass


def _instruction_table() -> dict[str, type[ins.Instruction]]:
    """Opcode keyword to instruction class, from the classes' own `keywords`."""
    table: dict[str, type[ins.Instruction]] = {}
    for cls in ins.instruction_classes():
        for keyword in cls.keywords:
            if keyword in table:
                raise AssertionError(f"{keyword!r} names both {table[keyword].__name__} and {cls.__name__}")
            table[keyword] = cls
    return table


_INSTRUCTIONS = _instruction_table()


def _instruction_class(keyword: str | None, line: str) -> type[ins.Instruction]:
    if keyword is None:
        raise ReadError(f"unexpected end of line: {line!r}")
    if keyword not in _INSTRUCTIONS:
        raise ReadError(f"unknown instruction {keyword!r} in {line!r}")
    return _INSTRUCTIONS[keyword]


def tokenize(line: str) -> list[str]:
    tokens, pos = [], 0
    line = line.rstrip()
    while pos < len(line):
        if line[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(line, pos)
        if m is None:
            raise ReadError(f"cannot read {line[pos:]!r} in {line!r}")
        tokens.append(m.group())
        pos = m.end()
    return tokens


class _Cursor:
    """Tokens of one line, consumed left to right."""

    def __init__(self, line: str, structs: dict[str, ty.StructType]) -> None:
        self.line = line
        self.tokens = tokenize(line)
        self.pos = 0
        self.structs = structs

    def peek(self, ahead: int = 0) -> str | None:
        i = self.pos + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def next(self) -> str:
        if self.pos >= len(self.tokens):
            raise ReadError(f"unexpected end of line: {self.line!r}")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expect(self, token: str) -> None:
        got = self.next()
        if got != token:
            raise ReadError(f"expected {token!r}, got {got!r} in {self.line!r}")

    def accept(self, token: str) -> bool:
        if self.peek() == token:
            self.pos += 1
            return True
        return False

    @property
    def done(self) -> bool:
        return self.pos >= len(self.tokens)

    def type(self) -> ty.Type:
        tok = self.next()
        if tok in _SCALARS:
            return _SCALARS[tok]
        if tok.startswith("ptr."):
            return ty.pointer(_ADDRESS_SPACES[tok[4:]])
        if tok in ("<", "["):
            count = int(self.next())
            self.expect("x")
            element = self.type()
            self.expect(">" if tok == "<" else "]")
            return ty.VectorType(element, count) if tok == "<" else ty.ArrayType(element, count)
        if tok.startswith("%") and tok[1:] in self.structs:
            return self.structs[tok[1:]]
        raise ReadError(f"unknown type {tok!r} in {self.line!r}")

    def is_type_start(self) -> bool:
        tok = self.peek()
        return tok is not None and (tok in _SCALARS or tok.startswith("ptr.") or tok in ("<", "[")
                                    or (tok.startswith("%") and tok[1:] in self.structs))

    def int(self) -> int:
        tok = self.next()
        try:
            return int(tok)
        except ValueError:
            raise ReadError(f"expected an integer, got {tok!r} in {self.line!r}") from None

    def end(self) -> None:
        if not self.done:
            raise ReadError(f"unexpected {self.peek()!r} at the end of {self.line!r}")


class _InstructionCursor(_Cursor):
    """One instruction line: what an instruction's `parse` reads (ins.TextReader) besides tokens
    and types: operands (values defined anywhere in the function), blocks and callees."""

    def __init__(self, line: str, function: _FunctionReader) -> None:
        super().__init__(line, function.module.structs)
        self.function = function

    def operand(self) -> Value:
        tok = self.peek()
        if tok == "undef":
            self.next()
            return Undef(self.type())
        if self.is_type_start() and not tok.startswith("%"):
            type = self.type()
            if isinstance(type, ty.VectorType):
                self.expect("<")
                lanes = [_scalar_constant(type.element, self.next())]
                while self.accept(","):
                    lanes.append(_scalar_constant(type.element, self.next()))
                self.expect(">")
                return VectorConstant(type, lanes)
            return _scalar_constant(type, self.next())
        return self.function.value(self.next())

    def operand_list(self) -> list[Value]:
        values = [self.operand()]
        while self.accept(","):
            values.append(self.operand())
        return values

    def block(self) -> Block:
        return self.function.block(self.next())

    def callee(self) -> Function:
        return self.function.module.function(self.next())


def _scalar_constant(type: ty.Type, token: str) -> Constant:
    if isinstance(type, ty.FloatType):
        return Constant(type, float(token))
    if isinstance(type, ty.PointerType):
        if token != "null":
            raise ReadError(f"pointer constant {token!r} is not null")
        return Constant(type, 0)
    return Constant(type, int(token))


class _FunctionReader:
    """Builds one function's body from its lines (the header is read by `_ModuleReader`)."""

    def __init__(self, function: Function, module: _ModuleReader) -> None:
        self.function = function
        self.module = module
        self.values: dict[str, Value] = {p.name: p for p in function.params}
        self.blocks: dict[str, Block] = {}
        self.pending: dict[str, _InstructionCursor] = {}
        self.building: set[str] = set()
        self.order: list[tuple[Block, str | None, _InstructionCursor, ins.Instruction | None]] = []
        self.early: list[tuple[ins.Instruction, _InstructionCursor]] = []
        self.loop_notes: list[tuple[Block, str, str, str, str]] = []  # header, dimension, counter, latch, note

    # -- first pass: blocks and pending lines -------------------------------------------------

    def block(self, label: str) -> Block:
        if label not in self.blocks:
            self.blocks[label] = Block(label)
        return self.blocks[label]

    def read(self, lines: list[str]) -> None:
        current = None
        for line in lines:
            stripped = line.strip()
            if stripped.startswith(";"):
                continue  # a remark
            if stripped.startswith("local "):
                self.read_local(stripped)
            elif stripped.endswith(":") or re.match(r"^[\w.\-]+:\s*(;|work_item_loop )", stripped):
                current = self.read_label(stripped)
            elif stripped:
                self.read_instruction_line(stripped, current)
        for label, _ in list(self.pending.items()):
            self.build(label)
        self.place_instructions()
        self.read_late()
        self.make_loops()

    def read_local(self, line: str) -> None:
        c = _Cursor(line, self.module.structs)
        c.expect("local")
        name = c.next()[1:]
        c.expect(":")
        var = GlobalVariable(name, c.type(), ty.AddressSpace.LOCAL)
        self.function.local_variables.append(var)

    def read_label(self, line: str) -> Block:
        label, _, note = line.partition(":")
        block = self.block(label.strip())
        if block.function is not None:
            raise ReadError(f"block {label!r} defined twice")
        block.function = self.function
        self.function.blocks.append(block)
        m = re.fullmatch(r"\s*work_item_loop ([xyz]), counter %(\S+), latch (\S+)\s*(?:;\s*(.*?))?\s*", note)
        if m:
            self.loop_notes.append((block, *m.groups()))
        elif note.strip().startswith(";"):
            block.comment = note.strip()[1:].strip()
        elif note.strip():
            raise ReadError(f"unexpected text after label {label.strip()!r}: {note.strip()!r}")
        return block

    def read_instruction_line(self, line: str, block: Block | None) -> None:
        if block is None:
            raise ReadError(f"instruction before the first label: {line!r}")
        c = _InstructionCursor(line, self)
        name = None
        if c.peek(1) == "=" and c.peek().startswith("%"):
            name = c.next()[1:]
            c.expect("=")
            if name in self.pending or name in self.values:
                raise ReadError(f"%{name} defined twice")
        early = None
        if _instruction_class(c.peek(), line).defined_before_operands:
            early = self.parse(c, name or "")
            self.early.append((early, c))
            if name is not None:
                self.values[name] = early
        elif name is not None:
            self.pending[name] = c
        self.order.append((block, name, c, early))

    # -- second pass: build instructions on demand ---------------------------------------------

    def value(self, token: str) -> Value:
        if token.startswith("@"):
            name = token[1:]
            for var in self.function.local_variables:
                if var.name == name:
                    return var
            if name in self.module.globals:
                return self.module.globals[name]
            raise ReadError(f"unknown global {token}")
        name = token[1:]
        if name not in self.values:
            if name not in self.pending:
                raise ReadError(f"unknown value {token} in @{self.function.name}")
            self.build(name)
        return self.values[name]

    def build(self, name: str) -> None:
        if name in self.values:
            return
        if name in self.building:
            raise ReadError(f"%{name} depends on itself outside a phi")
        self.building.add(name)
        self.values[name] = self.parse(self.pending[name], name)
        self.building.discard(name)

    def parse(self, c: _InstructionCursor, name: str) -> ins.Instruction:
        """The instruction of line `c`, read by its class (found by its opcode keyword)."""
        keyword = c.next()
        inst = _instruction_class(keyword, c.line).parse(keyword, c, name)
        if not inst.defined_before_operands:
            c.end()
        return inst

    def place_instructions(self) -> None:
        for block, name, c, early in self.order:
            if early is not None:
                inst = early
            else:
                inst = self.values[name] if name is not None else self.parse(c, "")
            block.append(inst)

    def read_late(self) -> None:
        """The rest of the lines of instructions made before their operands (phis' incoming)."""
        for inst, c in self.early:
            inst.parse_late(c)
            c.end()

    def make_loops(self) -> None:
        for header, dim, counter, latch, note in self.loop_notes:
            phi = self.values.get(counter)
            if not isinstance(phi, ins.Phi):
                raise ReadError(f"work-item loop at {header.name}: counter %{counter} is not a phi")
            loop = WorkItemLoop(DIMENSION_NAMES.index(dim), header, self.blocks[latch], phi, note or "")
            self.function.work_item_loops.append(loop)


class _ModuleReader:
    def __init__(self, structs: dict[str, ty.StructType] | None) -> None:
        self.structs = dict(structs or {})
        self.globals: dict[str, GlobalVariable] = {}
        self.module = Module()

    def function(self, token: str) -> Function:
        name = token[1:]
        if name not in self.module.functions:
            raise ReadError(f"call of unknown function {token}")
        return self.module.functions[name]

    def read(self, text: str) -> Module:
        bodies = []
        lines = iter(text.splitlines())
        for line in lines:
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith(("kernel ", "func ")):
                function = self.read_header(stripped)
                body = []
                for inner in lines:
                    if inner.strip() == "}":
                        break
                    body.append(inner)
                bodies.append((function, body))
            else:
                self.read_global(stripped)
        for function, body in bodies:
            _FunctionReader(function, self).read(body)
        return self.module

    def read_global(self, line: str) -> None:
        c = _Cursor(line, self.structs)
        space = _ADDRESS_SPACES[c.next()]
        name = c.next()[1:]
        c.expect(":")
        value_type = c.type()
        initializer = None
        if c.accept("="):
            c.expect("[")
            initializer = []
            while not c.accept("]"):
                tok = c.next()
                initializer.append(float(tok) if re.search(r"[.eEn]", tok) else int(tok))
                c.accept(",")
        var = GlobalVariable(name, value_type, space, initializer)
        self.globals[name] = var
        self.module.globals.append(var)

    def read_header(self, line: str) -> Function:
        c = _Cursor(line, self.structs)
        is_kernel = c.next() == "kernel"
        return_type = ty.void if is_kernel else c.type()
        name = c.next()[1:]
        c.expect("(")
        types, names = [], []
        while not c.accept(")"):
            types.append(c.type())
            names.append(c.next()[1:])
            c.accept(",")
        function = Function(name, return_type, types, names, is_kernel)
        while not c.accept("{"):
            attribute = c.next()
            c.expect("(")
            sizes = tuple(int(v) for v in self.number_list(c))
            if attribute == "reqd_work_group_size":
                function.attributes = type(function.attributes)(reqd_work_group_size=sizes)
            elif attribute == "local_size":
                function.local_size = sizes
            else:
                raise ReadError(f"unknown function attribute {attribute!r}")
        return self.module.add_function(function)

    @staticmethod
    def number_list(c: _Cursor) -> list[str]:
        values = []
        while not c.accept(")"):
            values.append(c.next())
            c.accept(",")
        return values


def read_module(text: str, structs: dict[str, ty.StructType] | None = None) -> Module:
    """Parse `print_module` output (or any text in that form) into a new Module."""
    return _ModuleReader(structs).read(text)


def read_function(text: str, structs: dict[str, ty.StructType] | None = None) -> Function:
    """Parse a module text holding exactly one function and return that function."""
    module = read_module(text, structs)
    if len(module.functions) != 1:
        raise ReadError(f"expected one function, found {len(module.functions)}")
    return next(iter(module.functions.values()))
