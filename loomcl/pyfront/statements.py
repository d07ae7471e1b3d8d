"""Python statements to OpenCL C statements (a mixin of FunctionTranslator).

* `x = e` declares x where it is first assigned (function.py); `x: T = e` declares it with type T;
  `a[i] = e`, `v.x = e`, and tuple assignment `a, b = b, a` (the values are read first);
* `x op= e`: a name or an element, read once;
* `tile = cl.local_array(np.float32, (16, 17))` declares a `__local` array (a kernel's; shared by
  the work-group), `acc = cl.private_array(np.float32, 8)` a private one; shapes are constants;
* `if`/`elif`/`else`, `while`, `for x in range(...)` with one to three arguments and a step of
  either sign (the bounds are read once, before the loop, as Python reads them; the loop variable
  holds the last value taken after the loop, as in Python), `break`, `continue`, `return` anywhere
  (a helper's value too), `pass`, calls as statements, docstrings.
`for`/`while` with `else`, `try`, `with`, `raise`, `assert`, `del`, `global`, `import`, nested
definitions and the rest are refused with the reason.
"""
from __future__ import annotations

import ast

from ..frontend import ast as A
from ..frontend import types as T
from . import lang, names
from .sema import checked
from .types import annotation_type, element_type

_COMPOUND = {ast.Add: A.BinaryOp.ADD, ast.Sub: A.BinaryOp.SUB, ast.Mult: A.BinaryOp.MUL,
             ast.LShift: A.BinaryOp.SHL, ast.RShift: A.BinaryOp.SHR, ast.BitAnd: A.BinaryOp.BIT_AND,
             ast.BitOr: A.BinaryOp.BIT_OR, ast.BitXor: A.BinaryOp.BIT_XOR}
_REFUSED = {"Try": "try/except", "TryStar": "try/except*", "With": "with", "Raise": "raise",
            "Assert": "assert", "Delete": "del", "Global": "global", "Nonlocal": "nonlocal",
            "Import": "import", "ImportFrom": "import", "FunctionDef": "a nested def",
            "ClassDef": "a class", "AsyncFunctionDef": "async def", "AsyncFor": "async for",
            "AsyncWith": "async with", "Match": "match"}


class StatementTranslator:
    def block(self, nodes) -> list[A.Stmt]:
        items = []
        for node in nodes:
            try:
                items.extend(self.statement(node))
            except self.Error as error:
                self.report(error)
        return items

    def statement(self, node) -> list[A.Stmt]:
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            what = _REFUSED.get(type(node).__name__, type(node).__name__)
            raise self.fail(node, f"{what} is not supported in a kernel")
        with_loc = method(node)
        return with_loc if isinstance(with_loc, list) else [with_loc]

    # -- simple statements -----------------------------------------------------------------------

    def stmt_Pass(self, node) -> list:
        return []

    def stmt_Expr(self, node: ast.Expr) -> list:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return []  # a docstring
        return A.ExprStmt(self.loc(node), self.expr(node.value))

    def stmt_Return(self, node: ast.Return) -> A.Stmt:
        value = None if node.value is None else self.rvalue(node.value)
        if value is not None and self.decl.is_kernel:
            raise self.fail(node.value, "a kernel returns nothing (write results to a buffer)")
        ret = A.ReturnStmt(self.loc(node), value)
        self.returns.append(ret)
        return ret

    def stmt_Break(self, node) -> A.Stmt:
        return A.BreakStmt(self.loc(node), self.loops[-1])

    def stmt_Continue(self, node) -> A.Stmt:
        return A.ContinueStmt(self.loc(node), self.loops[-1])

    # -- assignments -----------------------------------------------------------------------------

    def stmt_Assign(self, node: ast.Assign) -> list:
        if len(node.targets) != 1:
            raise self.fail(node, "chained assignment (a = b = ...) is not supported in a kernel")
        target = node.targets[0]
        if isinstance(target, ast.Tuple):
            return self.tuple_assignment(target, node.value, node)
        if isinstance(target, ast.Name):
            return self.assign_name(target, node.value, node)
        return self.assignment(self.target(target), self.rvalue(node.value), node)

    def target(self, node) -> A.Expr:
        if isinstance(node, ast.Name) and node.id not in self.variables:
            raise self.fail(node, f"'{node.id}' is used before it is assigned")
        if not isinstance(node, (ast.Name, ast.Subscript, ast.Attribute)):
            raise self.fail(node, "only names, elements a[i] and vector lanes v.x can be assigned in a kernel")
        return self.expr(node)

    def assign_name(self, target: ast.Name, value_node, node) -> list:
        array = self.array_declaration(value_node)
        if array is not None:
            if target.id in self.variables:
                raise self.fail(target, f"'{target.id}' is already a variable; an array needs a name of its own")
            self.declare(target.id, array, target)
            return []
        value = self.rvalue(value_node)
        decl = self.variables.get(target.id)
        if decl is None:
            if value.type.is_error:
                return []
            if value.type.is_void:
                raise self.fail(value_node, "this call returns no value")
            decl = self.declare(target.id, value.type.unqualified(), target)
        elif decl.type.is_array:
            raise self.fail(target, f"'{target.id}' is an array; assign its elements")
        else:
            self.check_type_kept(decl, value, value_node)
        return [self.assignment(self.variable_ref(decl, target), value, node)]

    def check_type_kept(self, decl, value: A.Expr, node) -> None:
        """A float value cannot go into an integer variable silently: Python would change its type."""
        t, vt = decl.type.unqualified(), value.type.unqualified()
        if T.element_of(t).is_integer and T.element_of(vt).is_floating:
            raise self.fail(node, f"'{decl.name}' is {_spell(t)} (from its first assignment, line "
                                  f"{decl.loc.line}); this value is {_spell(vt)}. Make the first assignment a "
                                  f"float (e.g. {decl.name} = 0.0) or convert the value with int(...)")

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> list:
        if not isinstance(node.target, ast.Name):
            raise self.fail(node.target, "only a name can be annotated in a kernel")
        name = node.target.id
        if name in self.variables:
            raise self.fail(node.target, f"'{name}' already has a type (from line {self.variables[name].loc.line})")
        t = annotation_type(self.annotation_object(node.annotation))
        if t is None or t.is_pointer:
            raise self.fail(node.annotation, f"'{ast.unparse(node.annotation)}' is not a variable type (use a "
                                             f"numpy scalar type, int, float or a vector type such as cl.float4)")
        decl = self.declare(name, t, node.target)
        if node.value is None:
            return []
        return self.assignment(self.variable_ref(decl, node.target), self.rvalue(node.value), node)

    def annotation_object(self, node):
        try:
            if isinstance(node, ast.Call):  # cl.global_ptr(np.float32) and the like
                function = self.global_object(node.func)
                return function(*[self.constant_value(arg) for arg in node.args])
            if isinstance(node, ast.Subscript):
                return self.global_object(node.value)[self.constant_value(node.slice)]
            found = self.global_object(node)
            if found is names.MISSING:
                raise self.fail(node, f"'{ast.unparse(node)}' is not a type")
            return found
        except TypeError as exc:
            raise self.fail(node, str(exc)) from None

    def tuple_assignment(self, target: ast.Tuple, value_node, node) -> list:
        if not isinstance(value_node, ast.Tuple) or len(value_node.elts) != len(target.elts):
            raise self.fail(node, "a tuple assignment in a kernel needs a tuple of as many values "
                                  "(a, b = b, a)")
        statements, temporaries = [], []
        for item in value_node.elts:
            value = self.rvalue(item)
            temp = self.temporary(value, item)
            statements.append(self.assignment(self.variable_ref(temp, item), value, item))
            temporaries.append(temp)
        for name, temp in zip(target.elts, temporaries):
            if isinstance(name, ast.Name):
                value = ast.Name(temp.name, ast.Load(), **_position(name))
                statements += self.assign_name(name, value, node)
            else:
                statements.append(self.assignment(self.target(name), self.variable_ref(temp, name), node))
        return statements

    def stmt_AugAssign(self, node: ast.AugAssign) -> list:
        target = self.target(node.target)
        value = self.rvalue(node.value)
        if target.type.is_error or value.type.is_error:
            return []
        decl = getattr(target, "decl", None)
        if type(node.op) in _COMPOUND and not (T.element_of(target.type).is_integer and
                                               T.element_of(value.type).is_floating):
            expr = self.sema.check(A.CompoundAssign(self.loc(node), _COMPOUND[type(node.op)], checked(target),
                                                    checked(value)))
            return A.ExprStmt(self.loc(node), expr)
        if isinstance(node.target, ast.Subscript) and not _read_once(node.target):
            raise self.fail(node.target, "this element's index calls a function; compute the index into a "
                                         "variable first")
        result = self.binary(node.op, self.sema.to_rvalue(target), value, node)
        if decl is not None and isinstance(node.target, ast.Name):
            self.check_type_kept(decl, result, node)
        elif T.element_of(target.type).is_integer and T.element_of(result.type).is_floating:
            raise self.fail(node, f"the element is {_spell(target.type.unqualified())}; this value is "
                                  f"{_spell(result.type)}: convert it with int(...)")
        return self.assignment(self.target(node.target), result, node)

    # -- arrays ----------------------------------------------------------------------------------

    def array_declaration(self, node) -> T.Type | None:
        """The array type of `cl.local_array(dtype, shape)` / `cl.private_array(...)`, else None."""
        if not isinstance(node, ast.Call):
            return None
        function = self.global_object(node.func)
        if function is not lang.local_array and function is not lang.private_array:
            return None
        if len(node.args) != 2 or node.keywords:
            raise self.fail(node, f"cl.{function.name}(dtype, shape) takes a type and a shape")
        try:
            element = element_type(self.annotation_object(node.args[0]))
        except TypeError as exc:
            raise self.fail(node.args[0], str(exc)) from None
        shape = self.constant_value(node.args[1])
        shape = shape if isinstance(shape, tuple) else (shape,)
        if not shape or not all(isinstance(n, (int,)) and n > 0 for n in shape):
            raise self.fail(node.args[1], "an array's shape is a positive integer constant or a tuple of them")
        t = element
        for n in reversed(shape):
            t = T.array_of(t, int(n))
        if function is lang.local_array:
            if not self.decl.is_kernel:
                raise self.fail(node, "cl.local_array is declared in a kernel (a helper takes it as an argument)")
            t = T.with_address_space(t, T.AddressSpace.LOCAL)
        return t

    def constant_value(self, node):
        """A compile-time constant: a literal, a global or closure value, a module attribute, or
        arithmetic and tuples of them (array shapes, annotations)."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Tuple):
            return tuple(self.constant_value(item) for item in node.elts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.constant_value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _CONSTANT_OPS:
            return _CONSTANT_OPS[type(node.op)](self.constant_value(node.left), self.constant_value(node.right))
        if isinstance(node, (ast.Name, ast.Attribute)):
            value = self.global_object(node)
            if value is not names.MISSING:
                return int(value) if isinstance(value, (int,)) or names.is_number(value) and \
                    float(value).is_integer() and not isinstance(value, float) else value
        raise self.fail(node, "this must be a constant (a number, or a global or closure variable holding one)")

    # -- control flow ----------------------------------------------------------------------------

    def stmt_If(self, node: ast.If) -> A.Stmt:
        cond = self.sema.condition(checked(self.expr(node.test)))
        then = A.CompoundStmt(self.loc(node), self.block(node.body))
        else_ = A.CompoundStmt(self.loc(node.orelse[0]), self.block(node.orelse)) if node.orelse else None
        return A.IfStmt(self.loc(node), cond, then, else_)

    def stmt_While(self, node: ast.While) -> A.Stmt:
        if node.orelse:
            raise self.fail(node.orelse[0], "while ... else is not supported in a kernel")
        cond = self.sema.condition(checked(self.expr(node.test)))
        loop = A.WhileStmt(self.loc(node), cond, None)
        loop.body = self.loop_body(loop, node.body, node)
        return loop

    def loop_body(self, loop: A.Stmt, body, node, prefix=()) -> A.Stmt:
        self.loops.append(loop)
        try:
            items = list(prefix) + self.block(body)
        finally:
            self.loops.pop()
        return A.CompoundStmt(self.loc(node), items)

    def stmt_For(self, node: ast.For) -> list:
        if node.orelse:
            raise self.fail(node.orelse[0], "for ... else is not supported in a kernel")
        if not isinstance(node.target, ast.Name):
            raise self.fail(node.target, "a kernel's for loop has one loop variable")
        bounds = node.iter
        if not (isinstance(bounds, ast.Call) and self.global_object(bounds.func) is range):
            raise self.fail(bounds, "a kernel's for loop runs over range(...) (no other iterables)")
        if bounds.keywords or not 1 <= len(bounds.args) <= 3:
            raise self.fail(bounds, "range() takes one to three arguments")
        return self.range_loop(node, bounds.args)

    def range_loop(self, node: ast.For, args) -> list:
        start_node, stop_node, step_node = _range_parts(args, node)
        step_value = self.constant_value(step_node) if _is_constant_int(self, step_node) else None
        if step_value == 0:
            raise self.fail(step_node, "range() step must not be zero")
        start, stop, step = (self.rvalue(n) for n in (start_node, stop_node, step_node))
        if any(not (e.type.is_integer and e.type.is_scalar) for e in (start, stop, step) if not e.type.is_error):
            raise self.fail(node.iter, "range() takes integers")
        counter_type = _counter_type(start, stop, step)
        statements = []
        stop_ref = self.loop_bound(stop, stop_node, statements)
        step_ref = self.loop_bound(step, step_node, statements)
        name = node.target.id
        variable = self.variables.get(name)
        if variable is None:
            variable = self.declare(name, counter_type, node.target)
        counter = variable
        if variable.type.unqualified() != counter_type or self.needs_copy(name, node):
            counter = self.temporary(A.IntLiteral(self.loc(node), 0, type=counter_type), node)
        statements.append(self.assignment(self.variable_ref(counter, node), start, node))
        compare = self.loop_test(counter, stop_ref, step_ref, step_value, node)
        increment = self.sema.check(A.CompoundAssign(self.loc(node), A.BinaryOp.ADD,
                                                     checked(self.variable_ref(counter, node)), checked(step_ref())))
        loop = A.ForStmt(self.loc(node), None, compare, increment, None)
        prefix = []
        if counter is not variable:  # the loop variable is a copy: assigning it leaves the count alone
            prefix.append(self.assignment(self.variable_ref(variable, node.target), self.sema.to_rvalue(
                self.variable_ref(counter, node)), node))
        loop.body = self.loop_body(loop, node.body, node, prefix)
        statements.append(loop)
        return statements

    def needs_copy(self, name: str, loop: ast.For) -> bool:
        """Whether the loop variable must be a copy of a hidden counter: the body assigns it (the
        count goes on from the range, as in Python), or the function reads it outside every loop
        over it (after the loop it holds the last value taken, not C's first value past the end;
        another loop over the same name assigns it before reading it)."""
        if name in assigned_in(loop.body):
            return True
        inside = {id(sub) for other in ast.walk(self.source.tree) if isinstance(other, ast.For)
                  and isinstance(other.target, ast.Name) and other.target.id == name for sub in ast.walk(other)}
        return any(isinstance(sub, ast.Name) and sub.id == name and id(sub) not in inside
                   for sub in ast.walk(self.source.tree))

    def loop_bound(self, value: A.Expr, node, statements: list):
        """A function giving the bound's value: the constant itself, or a variable read once."""
        if isinstance(node, ast.Constant) or value.type.is_error:
            return lambda: value
        temp = self.temporary(value, node)
        statements.append(self.assignment(self.variable_ref(temp, node), value, node))
        return lambda: self.sema.to_rvalue(self.variable_ref(temp, node))

    def loop_test(self, counter, stop, step, step_value, node) -> A.Expr:
        def compare(op):
            return self.comparison(op, self.sema.to_rvalue(self.variable_ref(counter, node)), stop(), node)

        if step_value is not None:
            return self.sema.condition(checked(compare(A.BinaryOp.LT if step_value > 0 else A.BinaryOp.GT)))
        positive = self.comparison(A.BinaryOp.GT, step(), self.literal(0, node), node)
        test = self.sema.check(A.Conditional(self.loc(node), checked(positive), checked(compare(A.BinaryOp.LT)),
                                             checked(compare(A.BinaryOp.GT))))
        return self.sema.condition(checked(test))


def assigned_in(nodes) -> set[str]:
    return {sub.id for node in nodes for sub in ast.walk(node)
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)}


def _counter_type(*bounds: A.Expr) -> T.Type:
    """The type a range loop counts in: the widest of its bounds' types (constants of at least zero
    fit any), or int64 when signed and unsigned bounds mix (`range(u, -1, -1)` must reach -1)."""
    typed = [e.type.unqualified() for e in bounds if not (isinstance(e, A.IntLiteral) and e.value >= 0)]
    if not typed:
        return T.INT
    widest = max(typed, key=lambda t: t.rank)
    if len({t.signed for t in typed}) > 1:
        return T.LONG if widest.rank <= T.LONG.rank else widest
    return widest


def _range_parts(args, node):
    one = ast.Constant(1, **_position(node.iter))
    zero = ast.Constant(0, **_position(node.iter))
    if len(args) == 1:
        return zero, args[0], one
    if len(args) == 2:
        return args[0], args[1], one
    return args[0], args[1], args[2]


def _is_constant_int(translator, node) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return True
    if isinstance(node, ast.Name) and node.id not in translator.variables and node.id not in translator.source_assigned:
        return isinstance(names.global_value(translator.python_function, node.id), int)
    return False


def _spell(t: T.Type) -> str:
    numpy_names = {"char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16", "int": "int32",
                   "uint": "uint32", "long": "int64", "ulong": "uint64", "float": "float32", "double": "float64"}
    return numpy_names.get(str(t), f"'{t}'")


def _read_once(node) -> bool:
    return all(not isinstance(sub, ast.Call) for sub in ast.walk(node))


def _position(node) -> dict:
    return {k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")
            if hasattr(node, k)}


_CONSTANT_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                 ast.FloorDiv: lambda a, b: a // b}
