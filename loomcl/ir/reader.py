"""Read the printer's text form back into IR, so transform tests can start from IR text.

The grammar is the one `printer.py` writes (see its docstring): a module is a list of program-scope
globals (`constant @name : type = [..]`) and functions; a function is a header line, `local` lines for
its kernel-scope __local variables, then labelled blocks of one instruction per line.

Values may be used before their definition (a phi's incoming value from a loop latch, or any operand
in a block printed before its definer's block). Every instruction line is first parsed into a pending
record; instructions are then built on demand, an operand's definer first (recursively, memoized).
Phis are built upfront, because their type is written out and they break every cycle of the
dependence graph in valid SSA; their incoming values are filled in last. `call` lines may name
functions defined later in the module, so all function headers are read before any body.

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
      (?P<local>%[\w.\-]+)
    | (?P<global>@[\w.\-]+)
    | (?P<number>[-+]?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?(?![\w.])|inf\b|nan\b))
    | (?P<label>\d[\w.\-]*)
    | (?P<word>[A-Za-z_][\w.]*)
    | (?P<punct>[()\[\]<>{},:=])
""", re.VERBOSE)

_ADDRESS_SPACES = {space.spelling: space for space in ty.AddressSpace}
_SCALARS = {"void": ty.void, "i1": ty.i1, "i8": ty.i8, "i16": ty.i16, "i32": ty.i32, "i64": ty.i64,
            "f16": ty.f16, "f32": ty.f32, "f64": ty.f64}
_BINARY = {op.value: op for op in ins.BinaryOpcode}
_CASTS = {op.value: op for op in ins.CastOpcode}
_QUERIES = {q.value: q for q in ins.Query}
_MATH = {m.value: m for m in ins.MathFunction}


class ReadError(Exception):
    pass


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
        self.pending: dict[str, tuple[_Cursor, Block]] = {}
        self.building: set[str] = set()
        self.order: list[tuple[Block, str | None, _Cursor]] = []
        self.phi_lines: list[tuple[ins.Phi, _Cursor]] = []
        self.loop_notes: list[tuple[Block, str, str, str]] = []  # header, dimension, counter, latch

    # -- first pass: blocks and pending lines -------------------------------------------------

    def block(self, label: str) -> Block:
        if label not in self.blocks:
            self.blocks[label] = Block(label)
        return self.blocks[label]

    def read(self, lines: list[str]) -> None:
        current = None
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("local "):
                self.read_local(stripped)
            elif stripped.endswith(":") or re.match(r"^[\w.\-]+:\s*(;|work_item_loop )", stripped):
                current = self.read_label(stripped)
            elif stripped:
                self.read_instruction_line(stripped, current)
        for label, _ in list(self.pending.items()):
            self.build(label)
        self.place_instructions()
        self.fill_phis()
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
        m = re.fullmatch(r"\s*work_item_loop ([xyz]), counter %(\S+), latch (\S+)\s*", note)
        if m:
            self.loop_notes.append((block, *m.groups()))
        elif note.strip() and not note.strip().startswith(";"):
            raise ReadError(f"unexpected text after label {label.strip()!r}: {note.strip()!r}")
        return block

    def read_instruction_line(self, line: str, block: Block | None) -> None:
        if block is None:
            raise ReadError(f"instruction before the first label: {line!r}")
        c = _Cursor(line, self.module.structs)
        name = None
        if c.peek(1) == "=" and c.peek().startswith("%"):
            name = c.next()[1:]
            c.expect("=")
            if name in self.pending or name in self.values:
                raise ReadError(f"%{name} defined twice")
            if c.peek() == "phi":
                c.next()
                phi = ins.Phi(c.type(), name)
                self.values[name] = phi
                self.phi_lines.append((phi, c))
            else:
                self.pending[name] = (c, block)
        self.order.append((block, name, c))

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

    def operand(self, c: _Cursor) -> Value:
        tok = c.peek()
        if tok == "undef":
            c.next()
            return Undef(c.type())
        if c.is_type_start() and not tok.startswith("%"):
            type = c.type()
            if isinstance(type, ty.VectorType):
                c.expect("<")
                lanes = [_scalar_constant(type.element, c.next())]
                while c.accept(","):
                    lanes.append(_scalar_constant(type.element, c.next()))
                c.expect(">")
                return VectorConstant(type, lanes)
            return _scalar_constant(type, c.next())
        return self.value(c.next())

    def operand_list(self, c: _Cursor) -> list[Value]:
        values = [self.operand(c)]
        while c.accept(","):
            values.append(self.operand(c))
        return values

    def build(self, name: str) -> None:
        if name in self.values:
            return
        if name in self.building:
            raise ReadError(f"%{name} depends on itself outside a phi")
        self.building.add(name)
        c, _ = self.pending[name]
        self.values[name] = self.instruction(c, name)
        self.building.discard(name)

    def place_instructions(self) -> None:
        for block, name, c in self.order:
            inst = self.values[name] if name is not None else self.instruction(c, "")
            block.append(inst)

    def fill_phis(self) -> None:
        for phi, c in self.phi_lines:
            while not c.done:
                c.expect("[")
                value = self.operand(c)
                c.expect(",")
                phi.add_incoming(value, self.block(c.next()))
                c.expect("]")
                c.accept(",")

    def make_loops(self) -> None:
        for header, dim, counter, latch in self.loop_notes:
            phi = self.values.get(counter)
            if not isinstance(phi, ins.Phi):
                raise ReadError(f"work-item loop at {header.name}: counter %{counter} is not a phi")
            loop = WorkItemLoop(DIMENSION_NAMES.index(dim), header, self.blocks[latch], phi)
            self.function.work_item_loops.append(loop)

    def instruction(self, c: _Cursor, name: str) -> ins.Instruction:  # a flat dispatch
        op = c.next()
        if op in _BINARY:
            lhs = self.operand(c)
            c.expect(",")
            return ins.BinaryOp(_BINARY[op], lhs, self.operand(c), name)
        if op in _CASTS:
            no_wrap = c.peek() == "nuw"
            if no_wrap:
                c.expect("nuw")
                c.expect("nsw")
            value = self.operand(c)
            c.expect("to")
            return ins.Cast(_CASTS[op], value, c.type(), name, no_wrap)
        if op in _QUERIES:
            return ins.WorkItemQuery(_QUERIES[op], int(c.next()), name)
        if op.startswith("math."):
            function = _MATH[op[5:]]
            type = c.type()
            return ins.MathCall(function, self.operand_list(c), type, name)
        return getattr(self, "read_" + op)(c, name)

    def read_fneg(self, c, name):
        return ins.FNeg(self.operand(c), name)

    def read_cmp(self, c, name):
        predicate = ins.Predicate(c.next())
        lhs = self.operand(c)
        c.expect(",")
        return ins.Compare(predicate, lhs, self.operand(c), name)

    def read_select(self, c, name):
        return ins.Select(*self.operand_list(c), name=name)

    def read_alloca(self, c, name):
        return ins.Alloca(c.type(), name)

    def read_load(self, c, name):
        type = c.type()
        c.expect(",")
        load = ins.Load(type, self.operand(c), name)
        load.volatile = c.accept("volatile")
        return load

    def read_store(self, c, name):
        value = self.operand(c)
        c.expect(",")
        store = ins.Store(value, self.operand(c))
        store.volatile = c.accept("volatile")
        return store

    def read_elementptr(self, c, name):
        element = c.type()
        c.expect(",")
        base = self.operand(c)
        c.expect(",")
        return ins.ElementPtr(element, base, self.operand(c), name)

    def read_fieldptr(self, c, name):
        struct = c.type()
        c.expect(",")
        base = self.operand(c)
        c.expect(",")
        return ins.FieldPtr(struct, base, int(c.next()), name)

    def read_atomic(self, c, name):
        opcode = ins.AtomicOpcode(c.next())
        pointer = self.operand(c)
        c.expect(",")
        return ins.AtomicRMW(opcode, pointer, self.operand(c), name)

    def read_cmpxchg(self, c, name):
        return ins.AtomicCmpXchg(*self.operand_list(c), name=name)

    def read_call(self, c, name):
        callee = self.module.function(c.next())
        c.expect("(")
        args = [] if c.peek() == ")" else self.operand_list(c)
        c.expect(")")
        return ins.Call(callee, args, name)

    def read_barrier(self, c, name):
        return ins.Barrier(int(c.next()))

    def read_fence(self, c, name):
        return ins.Fence(int(c.next()))

    def read_extractelement(self, c, name):
        vector = self.operand(c)
        c.expect(",")
        return ins.ExtractElement(vector, self.operand(c), name)

    def read_insertelement(self, c, name):
        return ins.InsertElement(*self.operand_list(c), name=name)

    def read_shufflevector(self, c, name):
        a = self.operand(c)
        c.expect(",")
        b = self.operand(c)
        c.expect(",")
        c.expect("<")
        mask = [int(c.next())]
        while c.accept(","):
            mask.append(int(c.next()))
        c.expect(">")
        return ins.ShuffleVector(a, b, mask, name)

    def read_jump(self, c, name):
        return ins.Jump(self.block(c.next()))

    def read_branch(self, c, name):
        condition = self.operand(c)
        c.expect(",")
        if_true = self.block(c.next())
        c.expect(",")
        return ins.Branch(condition, if_true, self.block(c.next()))

    def read_switch(self, c, name):
        value = self.operand(c)
        c.expect(",")
        default = self.block(c.next())
        c.expect("[")
        cases = []
        while not c.accept("]"):
            case = int(c.next())
            c.expect(":")
            cases.append((case, self.block(c.next())))
            c.accept(",")
        return ins.Switch(value, default, cases)

    def read_ret(self, c, name):
        return ins.Return(None if c.done else self.operand(c))

    def read_unreachable(self, c, name):
        return ins.Unreachable()


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
