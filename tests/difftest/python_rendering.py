"""A generated program rendered as Python kernels (`@cl.kernel`, `@cl.func`) with the same meaning.

The program's representation is the typed AST that the OpenCL C front-end gives for the
generator's text (`frontend.parse_program`): every statement, expression, barrier, local array,
loop and helper call the generator writes, with C's types and implicit conversions made explicit.
The C rendering stays the generator's own text (the campaign's seeds and the regression files keep
their meaning); this module is the second rendering of the same tree.

Every value is rendered with its exact C type, so Python-kernel typing (first assignment, usual
conversions) gives the C types at every node: literals are `np.uint32(7)` (an `int` one is a
plain Python literal, an int32 in a Python kernel as in C), every conversion C
makes (implicit ones included) is a numpy scalar call, work-item functions are converted to C's
`size_t`. Where the operators differ, C's meaning is written in Python-kernel terms:

* C's `/` and `%` on signed integers truncate; Python kernels' `//` and `%` floor. They become the
  `_c_div` / `_c_mod` helpers below; on unsigned integers `//` and `%` are C's; `/` on floats is `/`.
* `x++`, `x += y` (C: computed in the promoted type, converted back) are `x = T(x + y)` in C's
  computation type; the switch is a chain of `if`s on a matched/running/done flag (breaks at the
  end of a case); `for` is a `while` whose `continue`s run the step first; `do` is `while True`
  whose `continue`s test the condition first.
* a vector `?:` is `cl.select(b, a, c)` (C defines it so); `convert_T[_sat]` and `as_T` of vectors
  are lane by lane; `abs` is converted to C's unsigned result.

A construct without a Python-kernel form raises `NotRendered(reason)`: the program is then checked
in C only, and the tester counts the reasons.
"""
from __future__ import annotations

import keyword

import loomcl
from loomcl.frontend import ast as A
from loomcl.frontend import parse_program
from loomcl.frontend import types as T

HEADER = '''"""Generated from difftest seed {seed}: the Python-kernel rendering of its OpenCL C program."""
import numpy as np

import loomcl as cl


@cl.func
def _c_div(a, b):  # C's truncating division (b != 0)
    q = a // b
    return q + 1 if (q * b != a) and ((a < 0) != (b < 0)) else q


@cl.func
def _c_mod(a, b):  # C's remainder: the sign of the dividend
    r = a % b
    return r - b if (r != 0) and ((a < 0) != (b < 0)) else r
'''

_WORK_ITEM = {"get_global_id": "global_id", "get_local_id": "local_id", "get_group_id": "group_id",
              "get_global_size": "global_size", "get_local_size": "local_size", "get_num_groups": "num_groups",
              "get_global_offset": "global_offset", "get_work_dim": "work_dim"}
_ATOMICS = {"atomic_add", "atomic_sub", "atomic_xchg", "atomic_min", "atomic_max", "atomic_and", "atomic_or",
            "atomic_xor", "atomic_inc", "atomic_dec", "atomic_cmpxchg"}
_PYTHON_BUILTINS = {"min", "max"}  # cl.min would shadow Python's; pyfront maps min/max to OpenCL's
_LANES = "0123456789abcdef"
_NOT_CHILDREN = {"loc", "type", "decl", "function", "builtin", "overload", "computation_type"}


class NotRendered(Exception):
    """The program uses a construct that Python kernels cannot express (the reason is the text)."""


def render(source: str, seed: int = 0) -> str:
    """The Python module (text) of an OpenCL C program: its functions as @cl.func helpers and
    @cl.kernel kernels, with the same names (Python keywords get a trailing '_')."""
    unit = parse_program(source, filename="<difftest>")
    parts = [HEADER.format(seed=seed)]
    for function in unit.functions:
        parts.append(FunctionRenderer(function).render())
    return "\n\n".join(parts) + "\n"


def name_of(name: str) -> str:
    return name + "_" if keyword.iskeyword(name) or name in ("np", "cl") else name


def scalar_type(t: T.Type) -> str:
    """`np.uint32` for C's uint, `cl.uint4` for a vector."""
    t = t.unqualified()
    if t.is_vector:
        return f"cl.{t.element.base_spelling()}{t.count}"
    if t.is_integer and not t.is_bool:
        return f"np.{'' if t.signed else 'u'}int{t.bits}"
    if t.is_floating:
        return f"np.float{t.bits}"
    raise NotRendered(f"type {t}")


def annotation(t: T.Type) -> str:
    if t.is_pointer:
        pointee = t.pointee
        space = pointee.address_space
        kind = {T.AddressSpace.GLOBAL: "global_ptr", T.AddressSpace.LOCAL: "local_ptr",
                T.AddressSpace.CONSTANT: "constant_ptr"}.get(space)
        if kind is None:
            raise NotRendered(f"parameter type {t}")
        const = ", const=True" if pointee.quals.const and kind == "global_ptr" else ""
        return f"cl.{kind}({scalar_type(pointee)}{const})"
    return scalar_type(t)


class FunctionRenderer:
    """One function's Python text: statements line by line, expressions as strings."""

    def __init__(self, function: A.FunctionDecl) -> None:
        self.function = function
        self.lines: list[str] = []
        self.indent = 0
        self.declared: dict[str, T.Type] = {}
        self.loops: list = []  # the enclosing loops and switches: what `break`/`continue` mean
        self.counter = 0
        self.pending: list[str] = []  # values hoisted out of the current statement (evaluated once)
        self.hoisting = False  # where an expression may be hoisted (statement level, no short circuit)

    def render(self) -> str:
        f = self.function
        params = []
        for p in f.params:
            self.declared[p.name] = p.type
            params.append(f"{name_of(p.name)}: {annotation(p.type)}")
        head = "@cl.kernel" if f.is_kernel else "@cl.func"
        self.block(f.body)
        return "\n".join([head, f"def {name_of(f.name)}({', '.join(params)}):"] + self.lines)

    # -- statements ------------------------------------------------------------------------------

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def fresh(self, hint: str) -> str:
        self.counter += 1
        return f"_{hint}{self.counter}"

    def block(self, stmt) -> None:
        """A nested block's statements (at least `pass`)."""
        self.indent += 1
        start = len(self.lines)
        self.statement(stmt)
        if len(self.lines) == start:
            self.emit("pass")
        self.indent -= 1

    def statement(self, s) -> None:
        method = getattr(self, "st_" + type(s).__name__, None)
        if method is None:
            raise NotRendered(f"statement {type(s).__name__}")
        method(s)

    def st_CompoundStmt(self, s) -> None:
        for item in s.items:
            self.statement(item)

    def st_NullStmt(self, s) -> None:
        pass

    def simple(self, text_of) -> None:
        """A statement whose expressions may hoist values computed once before it."""
        self.hoisting = True
        try:
            text = text_of()
        finally:
            self.hoisting = False
        for line in self.pending:
            self.emit(line)
        self.pending = []
        self.emit(text)

    def st_DeclStmt(self, s) -> None:
        for d in s.decls:
            self.declare(d)

    def declare(self, d: A.VarDecl) -> None:
        t, name = d.type, name_of(d.name)
        if self.declared.get(d.name, t) != t:
            raise NotRendered(f"'{d.name}' declared twice with different types")
        first = d.name not in self.declared
        self.declared[d.name] = t
        if t.is_array:
            self.declare_array(d, name)
            return
        if d.init is None:
            raise NotRendered(f"'{d.name}' declared without a value")
        typed = f": {scalar_type(t)}" if first else ""
        self.simple(lambda: f"{name}{typed} = {self.value(d.init)}")

    def declare_array(self, d: A.VarDecl, name: str) -> None:
        t = d.type
        if not isinstance(t.length, int) or t.element.is_array:
            raise NotRendered("an array of arrays or of unknown length")
        local = t.address_space == T.AddressSpace.LOCAL
        self.emit(f"{name} = cl.{'local' if local else 'private'}_array({scalar_type(t.element)}, {t.length})")
        if d.init is None:
            return
        if not isinstance(d.init, A.InitList) or any(isinstance(i, A.Designation) for i in d.init.items):
            raise NotRendered("an array initializer other than a list")
        zero = f"{scalar_type(t.element)}(0)"
        for k in range(t.length):
            item = d.init.items[k] if k < len(d.init.items) else None
            self.simple(lambda: f"{name}[{k}] = {self.value(item) if item is not None else zero}")

    def st_ExprStmt(self, s) -> None:
        self.simple(lambda: self.effect(s.expr))

    def st_IfStmt(self, s) -> None:
        self.simple(lambda: f"if {self.condition(s.cond)}:")
        self.block(s.then)
        if s.else_ is not None:
            self.emit("else:")
            self.block(s.else_)

    def st_WhileStmt(self, s) -> None:
        self.emit(f"while {self.condition(s.cond)}:")
        self.loop(s, s.body, [])

    def st_ForStmt(self, s) -> None:
        counted = _counted_loop(s)
        if counted is not None:
            variable, start, stop = counted
            self.statement(s.init)  # declares the counter with C's type; the range counts in it
            self.emit(f"for {name_of(variable.name)} in range({self.value(start)}, {self.value(stop)}):")
            self.loop(s, s.body, [])
            return
        if s.init is not None:
            self.statement(s.init)
        self.emit(f"while {self.condition(s.cond) if s.cond is not None else 'True'}:")
        step = [self.effect(s.step)] if s.step is not None else []
        self.loop(s, s.body, step, step)

    def st_DoWhileStmt(self, s) -> None:
        self.emit("while True:")
        test = [f"if not {self.condition(s.cond)}:", "    break"]
        self.loop(s, s.body, test, test)

    def loop(self, s, body, before_continue: list, after_body: list = ()) -> None:
        """The body; `before_continue` runs before each `continue` (a for's step, a do's test)."""
        self.loops.append(("loop", s, before_continue))
        self.indent += 1
        start = len(self.lines)
        try:
            self.statement(body)
            for line in after_body:
                self.emit(line)
            if len(self.lines) == start:
                self.emit("pass")
        finally:
            self.indent -= 1
            self.loops.pop()

    def st_BreakStmt(self, s) -> None:
        kind, target, extra = self.loops[-1]
        if kind == "switch":
            raise NotRendered("a break out of a switch before the end of its case")
        self.emit("break")

    def st_ContinueStmt(self, s) -> None:
        loop = next(entry for entry in reversed(self.loops) if entry[0] == "loop")
        for line in loop[2]:
            self.emit(line)
        self.emit("continue")

    def st_ReturnStmt(self, s) -> None:
        if s.value is None:
            self.emit("return")
        else:
            self.simple(lambda: f"return {self.value(s.value)}")

    def st_SwitchStmt(self, s) -> None:
        """Fallthrough kept: `state` is 0 before the matching label, 1 running, 2 after a break."""
        value, state = self.fresh("switch"), self.fresh("state")
        segments = self.switch_segments(s.body)
        cases = [c for labels, _ in segments for c in labels if c is not None]
        t = scalar_type(s.cond.type)
        self.simple(lambda: f"{value} = {self.value(s.cond)}")
        self.emit(f"{state} = 0")
        default = " and ".join(f"{value} != {t}({c})" for c in cases) or "True"
        self.loops.append(("switch", s, None))
        try:
            for labels, items in segments:
                tests = [f"{value} == {t}({c})" if c is not None else f"({default})" for c in labels]
                self.emit(f"if {state} == 0 and ({' or '.join(tests)}):")
                self.emit(f"    {state} = 1")
                self.emit(f"if {state} == 1:")
                self.indent += 1
                for k, item in enumerate(items):
                    if isinstance(item, A.BreakStmt) and k == len(items) - 1:
                        self.emit(f"{state} = 2")
                    else:
                        self.statement(item)
                if self.lines[-1].endswith(f"if {state} == 1:"):
                    self.emit("pass")
                self.indent -= 1
        finally:
            self.loops.pop()

    @staticmethod
    def switch_segments(body) -> list:
        """[(label values, None for default), statements up to the next label] of a switch body."""
        items = body.items if isinstance(body, A.CompoundStmt) else [body]
        segments = []
        for item in items:
            if isinstance(item, (A.CaseStmt, A.DefaultStmt)):
                labels = []
                while isinstance(item, (A.CaseStmt, A.DefaultStmt)):
                    labels.append(item.value if isinstance(item, A.CaseStmt) else None)
                    item = item.body
                segments.append((labels, [item]))
            elif segments:
                segments[-1][1].append(item)
            else:
                raise NotRendered("a statement before a switch's first label")
        return segments

    # -- expressions with effects (statement level) -----------------------------------------------

    def effect(self, e) -> str:
        if isinstance(e, A.Cast) and e.kind == A.CastKind.TO_VOID:
            return self.effect(e.operand)
        if isinstance(e, A.Assign):
            return f"{self.target(e.target)} = {self.value(e.value)}"
        if isinstance(e, A.CompoundAssign):
            return self.compound(e)
        if isinstance(e, A.IncDec):
            t = e.operand.type.unqualified()
            op = "+" if e.op.is_increment else "-"
            if t.is_integer and t.rank >= T.INT.rank:  # no promotion: Python's `+= 1` is C's `++`
                return f"{self.target(e.operand)} {op}= {'1' if t == T.INT else scalar_type(t) + '(1)'}"
            return f"{self.target(e.operand)} = {scalar_type(t)}({self.value(e.operand)} {op} {scalar_type(t)}(1))"
        return self.value(e)

    def compound(self, e: A.CompoundAssign) -> str:
        """`x op= y`: C computes `x op y` in the computation type and converts back to x's;
        Python's `op=` where no conversion is involved."""
        t = e.target.type.unqualified()
        computation = (e.computation_type or t).unqualified()
        if (t.is_vector or computation == t == e.value.type.unqualified()) and \
                e.op not in (A.BinaryOp.DIV, A.BinaryOp.MOD):
            return f"{self.target(e.target)} {e.op.value}= {self.value(e.value)}"
        current = f"{scalar_type(computation)}({self.value(e.target)})"
        result = self.binary_text(e.op, current, self.value(e.value), computation)
        return f"{self.target(e.target)} = {scalar_type(t)}({result})"

    def target(self, e) -> str:
        if isinstance(e, (A.VarRef, A.Index, A.Swizzle)):
            return self.value(e)
        raise NotRendered(f"assignment to {type(e).__name__}")

    # -- values ------------------------------------------------------------------------------------

    def value(self, e) -> str:
        method = getattr(self, "ex_" + type(e).__name__, None)
        if method is None:
            raise NotRendered(f"expression {type(e).__name__}")
        return method(e)

    def condition(self, e) -> str:
        """A truth value: Python kernels test `!= 0` themselves."""
        if isinstance(e, A.Cast) and e.kind in (A.CastKind.INT_TO_BOOL, A.CastKind.FLOAT_TO_BOOL):
            e = e.operand
        return self.value(e)

    def ex_IntLiteral(self, e) -> str:
        if e.type.unqualified() == T.INT:  # a Python int literal that fits is an int32 too
            return str(e.value)
        return f"{scalar_type(e.type)}({e.value})"

    def ex_FloatLiteral(self, e) -> str:
        if not e.type.is_floating or e.type.bits != 32:
            raise NotRendered(f"a {e.type} literal")
        return repr(float(e.value))

    def ex_VarRef(self, e) -> str:
        if isinstance(e.decl, (A.VarDecl, A.ParamDecl)):
            return name_of(e.name)
        raise NotRendered(f"a reference to {e.name}")

    def ex_Cast(self, e) -> str:
        kind, operand = e.kind, e.operand
        if kind in (A.CastKind.LOAD, A.CastKind.NOOP, A.CastKind.ARRAY_TO_POINTER, A.CastKind.TO_VOID,
                    A.CastKind.POINTER_TO_POINTER):
            return self.value(operand)
        if kind in (A.CastKind.INT_TO_BOOL, A.CastKind.FLOAT_TO_BOOL):
            return f"({self.value(operand)} != {scalar_type(operand.type)}(0))"
        if kind == A.CastKind.SCALAR_TO_VECTOR:
            return f"{scalar_type(e.type)}({self.value(operand)})"
        if kind in (A.CastKind.INTEGRAL, A.CastKind.INT_TO_FLOAT, A.CastKind.FLOAT_TO_INT,
                    A.CastKind.FLOAT_TO_FLOAT) and not e.type.is_vector:
            if e.type.is_bool:
                return f"({self.value(operand)} != {scalar_type(operand.type)}(0))"
            return f"{scalar_type(e.type)}({self.value(operand)})"
        raise NotRendered(f"a {kind.value} conversion to {e.type}")

    def ex_Unary(self, e) -> str:
        x = self.value(e.operand)
        if e.op == A.UnaryOp.PLUS:
            return x
        if e.op == A.UnaryOp.LOGICAL_NOT:
            if e.operand.type.is_vector:
                raise NotRendered("! of a vector")
            return f"(not {x})"
        return f"({'-' if e.op == A.UnaryOp.MINUS else '~'}{x})"

    def ex_Binary(self, e) -> str:
        if e.op.is_logical:
            saved, self.hoisting = self.hoisting, False  # the right side may not run
            try:
                left, right = self.value(e.left), self.value(e.right)
            finally:
                self.hoisting = saved
            return f"({left} {'and' if e.op == A.BinaryOp.LOGICAL_AND else 'or'} {right})"
        return self.binary_text(e.op, self.value(e.left), self.value(e.right), e.left.type.unqualified())

    @staticmethod
    def binary_text(op: A.BinaryOp, left: str, right: str, t: T.Type) -> str:
        """C's `left op right` on operands of type t (converted as C's sema converted them)."""
        integer = T.element_of(t).is_integer
        if op in (A.BinaryOp.DIV, A.BinaryOp.MOD) and integer:
            if t.is_vector:
                raise NotRendered("integer division of vectors")
            if t.signed:
                return f"_c_{'div' if op == A.BinaryOp.DIV else 'mod'}({left}, {right})"
            return f"({left} {'//' if op == A.BinaryOp.DIV else '%'} {right})"
        return f"({left} {op.value} {right})"

    def ex_Conditional(self, e) -> str:
        saved, self.hoisting = self.hoisting, False
        try:
            cond, then, else_ = self.condition(e.cond), self.value(e.then), self.value(e.else_)
        finally:
            self.hoisting = saved
        if e.cond.type.is_vector:
            return f"cl.select({else_}, {then}, {cond})"
        return f"({then} if {cond} else {else_})"

    def ex_Index(self, e) -> str:
        return f"{self.value(e.base)}[{self.value(e.index)}]"

    def ex_Swizzle(self, e) -> str:
        return f"{self.value(e.base)}.s{''.join(_LANES[k] for k in e.lanes)}"

    def ex_VectorLiteral(self, e) -> str:
        return f"{scalar_type(e.type)}({', '.join(self.value(i) for i in e.items)})"

    def ex_Call(self, e) -> str:
        if e.function is None:
            raise NotRendered("a call of an unknown function")
        return f"{name_of(e.function.name)}({', '.join(self.value(a) for a in e.args)})"

    def ex_BuiltinCall(self, e) -> str:
        name = e.overload.name
        if name in _WORK_ITEM:
            args = ", ".join(self.value(a) for a in e.args)
            return f"{scalar_type(e.type)}(cl.{_WORK_ITEM[name]}({args}))"
        if name in ("barrier", "work_group_barrier"):
            return f"cl.barrier({self.fence_flags(e.args[0])})"
        atomic = "atomic_" + name[5:] if name.startswith("atom_") else name
        if atomic in _ATOMICS:
            return self.atomic(atomic, e)
        if name == "abs":
            return f"{scalar_type(e.type)}(abs({self.value(e.args[0])}))"
        if name.startswith("convert_") or name.startswith("as_"):
            return self.lanes_converted(name, e)
        args = ", ".join(self.value(a) for a in e.args)
        if name in _PYTHON_BUILTINS:
            return f"{name}({args})"
        if not hasattr(loomcl, name):
            raise NotRendered(f"the builtin {name}")
        return f"cl.{name}({args})"

    def fence_flags(self, e) -> str:
        while isinstance(e, A.Cast):
            e = e.operand
        value = _constant(e)
        flags = [f for bit, f in ((1, "cl.LOCAL_MEM_FENCE"), (2, "cl.GLOBAL_MEM_FENCE")) if value & bit]
        if value & ~3 or not flags:
            raise NotRendered(f"barrier flags {value}")
        return " | ".join(flags)

    def atomic(self, name: str, e) -> str:
        address = e.args[0]
        while isinstance(address, A.Cast):
            address = address.operand
        if not isinstance(address, A.AddressOf) or not isinstance(address.operand, A.Index):
            raise NotRendered("an atomic on something other than &a[i]")
        element = address.operand
        args = [self.value(element.base), self.value(element.index)] + [self.value(a) for a in e.args[1:]]
        return f"cl.{name}({', '.join(args)})"

    def lanes_converted(self, name: str, e) -> str:
        """convert_T[_sat](v) and as_T(v) of vectors, lane by lane (Python kernels have neither)."""
        (arg,) = e.args
        source, target = arg.type.unqualified(), e.type.unqualified()
        if not (source.is_vector and target.is_vector and source.count == target.count):
            raise NotRendered(f"{name} of {source}")
        if name.startswith("as_") and (source.element.is_floating or target.element.is_floating
                                       or source.element.bits != target.element.bits):
            raise NotRendered(f"{name} of {source}: a reinterpretation")
        saturate = name.endswith("_sat")
        if not saturate and "_rt" in name:
            raise NotRendered(f"{name}: a rounding mode")
        vector = self.once(arg)
        lanes = [self.lane_converted(f"{vector}.s{_LANES[k]}", source.element, target.element, saturate)
                 for k in range(source.count)]
        return f"{scalar_type(target)}({', '.join(lanes)})"

    @staticmethod
    def lane_converted(lane: str, source: T.Type, target: T.Type, saturate: bool) -> str:
        to = scalar_type(target)
        if not saturate or target.is_floating:
            return f"{to}({lane})"
        if source.is_floating:  # the values the generator makes (|x| <= 4096) need no upper clamp past 2**24
            low, high = max(target.min_value, -(1 << 24)), min(target.max_value, 1 << 24)
            return f"{to}(cl.fmin(cl.fmax({lane}, {float(low)!r}), {float(high)!r}))"
        low, high = max(target.min_value, source.min_value), min(target.max_value, source.max_value)
        if (low, high) == (source.min_value, source.max_value):
            return f"{to}({lane})"
        s = scalar_type(source)
        return f"{to}(cl.clamp({lane}, {s}({low}), {s}({high})))"

    def once(self, e) -> str:
        """e's value where it is used more than once: a variable, or hoisted into one."""
        if isinstance(e, A.Cast) and e.kind == A.CastKind.LOAD and isinstance(e.operand, A.VarRef):
            return self.value(e)
        if not self.hoisting:
            raise NotRendered("a value used lane by lane outside a plain statement")
        name = self.fresh("v")
        self.pending.append(f"{name} = {self.value(e)}")
        return name


def _counted_loop(s: A.ForStmt):
    """(counter, start, stop) of `for (T i = start; i < stop; i++)` whose body assigns neither i
    nor stop, with stop a constant or a variable: Python's `for i in range(start, stop)`."""
    init, cond, step = s.init, s.cond, s.step
    if not (isinstance(init, A.DeclStmt) and len(init.decls) == 1 and isinstance(step, A.IncDec)
            and step.op in (A.IncDecOp.POST_INC, A.IncDecOp.PRE_INC)):
        return None
    variable = init.decls[0]
    t = variable.type.unqualified()
    if not (t.is_integer and t.rank >= T.INT.rank and variable.init is not None):
        return None
    cond = cond.operand if isinstance(cond, A.Cast) and cond.kind == A.CastKind.INT_TO_BOOL else cond
    if not (isinstance(cond, A.Binary) and cond.op == A.BinaryOp.LT and _refers(cond.left, variable)
            and _refers(step.operand, variable) and cond.right.type.unqualified() == t):
        return None
    stop = cond.right
    bare = stop.operand if isinstance(stop, A.Cast) and stop.kind == A.CastKind.LOAD else stop
    if not isinstance(bare, (A.IntLiteral, A.VarRef)):
        return None
    assigned = _assigned(s.body)
    if any(d is variable or isinstance(bare, A.VarRef) and d is bare.decl for d in assigned):
        return None
    return variable, variable.init, stop


def _refers(e, decl) -> bool:
    while isinstance(e, A.Cast) and e.kind in (A.CastKind.LOAD, A.CastKind.NOOP):
        e = e.operand
    return isinstance(e, A.VarRef) and e.decl is decl


def _assigned(node) -> list:
    """The declarations that assignments and increments under `node` write."""
    found = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (A.Assign, A.CompoundAssign)):
            target = n.target
        elif isinstance(n, A.IncDec):
            target = n.operand
        else:
            target = None
        if isinstance(target, A.VarRef):
            found.append(target.decl)
        if isinstance(n, list):
            stack.extend(n)
        elif isinstance(n, (A.Expr, A.Stmt)):
            jumps = isinstance(n, (A.BreakStmt, A.ContinueStmt, A.GotoStmt))  # their target is no child
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__
                         if f not in _NOT_CHILDREN and not (jumps and f == "target"))
    return found


def _constant(e) -> int:
    if isinstance(e, A.IntLiteral):
        return e.value
    if isinstance(e, A.Binary) and e.op == A.BinaryOp.BIT_OR:
        return _constant(e.left) | _constant(e.right)
    if isinstance(e, A.Cast):
        return _constant(e.operand)
    raise NotRendered(f"a non-constant {type(e).__name__} as barrier flags")
