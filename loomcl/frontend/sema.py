"""Semantic analysis: the parser's AST to the fully typed AST described in ast.py.

One walk over the translation unit in source order, with a stack of scopes (dicts from name to
declaration). Declarations get their final types here: array lengths are folded, unwritten address
spaces are filled in (private for function-scope variables; generic -- OpenCL C 2.0 -- or private
-- 1.x -- for unqualified pointees), and OpenCL's placement rules are checked (program-scope
variables in __constant, __local only in kernels, kernel pointer parameters in global, constant or
local memory). Expressions are checked by sema_expr, initializers by sema_init, builtin calls are
resolved with overload.py.

After the walk: every call is linked to the function's definition, and the call graph is searched
for cycles, because OpenCL C forbids recursion (6.9(k)) -- every call will be inlined. A unit
compiled on its own (clCompileProgram, `separate`) may call functions that another unit defines:
their calls keep no definition here and are resolved when the units are linked (loomcl/driver/linker.py).
"""
from __future__ import annotations


from . import ast as A
from . import types as T
from .builtins import builtin_names, is_builtin, overloads
from .constfold import fold_int
from .diagnostics import Diagnostics
from .options import BuildOptions
from .overload import resolve
from .sema_expr import ExpressionChecker
from .sema_image import IMAGE_FUNCTIONS, ImageChecker
from .sema_init import InitializerChecker
from .sema_printf import PrintfChecker
from .sema_record import RecordChecker
from .sema_string import StringLiteralChecker
from .sema_warnings import WarningChecker
from .spelling import closest_name
from . import unsupported

_TAG_DECLS = (A.RecordDecl, A.EnumDecl)   # checked where they stand, then dropped from the AST
_KERNEL_POINTER_SPACES = (T.AddressSpace.GLOBAL, T.AddressSpace.CONSTANT, T.AddressSpace.LOCAL)


class Sema(StringLiteralChecker, ExpressionChecker, InitializerChecker, RecordChecker, PrintfChecker, WarningChecker, ImageChecker):
    def __init__(self, options: BuildOptions, diags: Diagnostics):
        self.diags = diags
        # An explicit -cl-std is strict: unqualified pointees are private (OpenCL C 1.x, and 3.0
        # without __opencl_c_generic_address_space, which loomcl lacks). Without it they are generic
        # (OpenCL C 2.0), which loomcl accepts in its default 1.2 mode: every valid 1.2 program
        # means the same, since all address spaces are one memory on a CPU.
        self.pointee_default = T.AddressSpace.PRIVATE if options.cl_std is not None \
            else T.AddressSpace.GENERIC
        self.separate = False  # a unit of a program linked later: its functions may be external
        self.scopes: list[dict[str, object]] = [{}]
        self.function: A.FunctionDecl | None = None
        self.targets: list[A.Stmt] = []        # enclosing loops and switches, innermost last
        self.switches: list[A.SwitchStmt] = []
        self.calls: list[tuple[A.FunctionDecl, A.Call]] = []   # (caller, call) for linking
        self.labels: dict[str, A.LabelStmt] = {}   # of the function being checked
        self.gotos: list[A.GotoStmt] = []
        self.used: set = set()        # declarations some expression names (sema_warnings)
        self.string_constants: dict[bytes, A.VarDecl] = {}   # sema_string

    # ---- scopes -------------------------------------------------------------------------------
    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def declare(self, name: str, decl, loc) -> None:
        if name in self.scopes[-1]:
            self.diags.error(loc, f"redefinition of '{name}'")
        self.scopes[-1][name] = decl

    # ---- types --------------------------------------------------------------------------------
    def resolve_type(self, t: T.Type, loc) -> T.Type:
        """t with array lengths folded and pointee address spaces defaulted."""
        if self.refuse_image_container(t, loc):
            return T.ERROR
        if isinstance(t, T.ArrayType):
            element = self.resolve_type(t.element, loc)
            if element.is_array and element.length is None:
                self.diags.error(loc, f"array has incomplete element type '{element}'")
                element = T.array_of(element.element, 1, element.quals)  # carry on with a size
            return T.array_of(element, self.array_length(t, loc), t.quals)
        if isinstance(t, T.PointerType):
            pointee = self.resolve_type(t.pointee, loc)
            if pointee.address_space is None:
                pointee = T.with_address_space(pointee, self.pointee_default)
            return T.pointer_to(pointee, t.quals)
        if isinstance(t, T.RecordType):
            self.complete_record(t.record)
        return t

    def array_length(self, t: T.ArrayType, loc) -> int | None:
        if t.length is None or isinstance(t.length, int):
            length = t.length
        else:
            expr = self.rvalue(t.length)
            length = fold_int(expr)
            if length is None and not expr.type.is_error:
                self.diags.error(expr.loc, "array size is not an integer constant expression "
                                           "(variable-length arrays are not allowed in OpenCL)")
        if length is not None and length <= 0:
            self.diags.error(loc, "array size must be greater than zero")
            return 1
        return length

    # ---- translation unit ---------------------------------------------------------------------
    def translation_unit(self, tu: A.TranslationUnit) -> A.TranslationUnit:
        for decl in tu.decls:
            if isinstance(decl, A.FunctionDecl):
                self.function_decl(decl)
            elif isinstance(decl, _TAG_DECLS):
                self.tag_decl(decl)
            else:
                self.var_decl(decl, program_scope=True)
        tu.decls = [*self.string_constants.values(),
                    *(d for d in tu.decls if not isinstance(d, _TAG_DECLS) and not _is_sampler_variable(d))]
        self.link_calls()
        self.check_recursion()
        return tu

    def function_decl(self, f: A.FunctionDecl) -> None:
        self.check_signature(f)
        previous = self.scopes[0].get(f.name)
        if isinstance(previous, A.FunctionDecl):
            self.merge_declarations(previous, f)
        elif previous is not None:
            self.diags.error(f.loc, f"redefinition of '{f.name}' as a different kind of symbol")
        if not isinstance(previous, A.FunctionDecl) or f.body is not None:
            self.scopes[0][f.name] = f
        if f.body is not None:
            self.function_body(f)

    def merge_declarations(self, previous: A.FunctionDecl, f: A.FunctionDecl) -> None:
        if previous.type != f.type:
            self.diags.error(f.loc, f"conflicting types for '{f.name}'")
        if previous.body is not None and f.body is not None:
            self.diags.error(f.loc, f"redefinition of '{f.name}'")
        f.is_kernel = f.is_kernel or previous.is_kernel
        f.is_static = f.is_static or previous.is_static  # C 6.2.2: the first declaration's linkage
        f.is_inline = f.is_inline and previous.is_inline  # C99 6.7.4: else an external definition

    def check_signature(self, f: A.FunctionDecl) -> None:
        f.result_type = self.resolve_type(f.result_type, f.loc)
        self.refuse_half_declaration(f.result_type, f.loc, "function return value")
        if f.result_type.is_image or f.result_type.is_sampler:
            self.diags.error(f.loc, f"declaring function return value of type '{f.result_type}' is "
                                    f"not allowed")
        for p in f.params:
            if f.is_kernel:
                self.check_kernel_param(p)
            p.type = self.resolve_type(p.type, p.loc)
            self.check_param_type(p, f.body is not None)
            self.refuse_half_declaration(p.type, p.loc, "function parameter")
        if f.is_kernel and not f.result_type.is_void:
            self.diags.error(f.loc, "function with '__kernel' attribute must have a void return "
                                    "type")
        if f.is_kernel and f.is_static:
            self.diags.error(f.loc, "kernel functions cannot be declared static")
        f.reqd_work_group_size = self.work_group_size_attribute(f)

    def check_param_type(self, p: A.ParamDecl, defined: bool) -> None:
        if p.type.is_void:
            self.diags.error(p.loc, "argument may not have 'void' type")
            p.type = T.ERROR
        elif defined and p.type.is_record and not p.type.record.is_complete:
            self.diags.error(p.loc, f"variable has incomplete type '{p.type.base_spelling()}'")
            p.type = T.ERROR

    def check_kernel_param(self, p: A.ParamDecl) -> None:
        if p.type.is_pointer and p.type.pointee.address_space not in _KERNEL_POINTER_SPACES \
                and not (p.type.pointee.is_image or p.type.pointee.is_sampler):  # resolve_type reports those
            self.diags.error(p.loc, "pointer arguments to kernel functions must reside in "
                                    "'__global', '__constant', or '__local' address space")
        elif p.type.unqualified() == T.BOOL:
            self.diags.error(p.loc, "kernel parameter cannot be declared as a bool")
        elif p.type.is_event:
            self.diags.error(p.loc, "kernel parameter cannot be declared as an event_t")

    def work_group_size_attribute(self, f: A.FunctionDecl) -> tuple[int, int, int] | None:
        result = None
        for attr in f.attributes:
            if attr.name != "reqd_work_group_size":
                continue
            values = [fold_int(self.rvalue(a)) for a in attr.args]
            if len(values) != 3 or any(v is None or v <= 0 for v in values):
                self.diags.error(attr.loc, "'reqd_work_group_size' attribute requires three "
                                           "positive integer constants")
            else:
                result = tuple(values)
        return result

    def function_body(self, f: A.FunctionDecl) -> None:
        self.function = f
        self.scopes.append({})
        for p in f.params:
            if not p.name:
                self.diags.error(p.loc, "parameter name omitted")
            else:
                self.declare(p.name, p, p.loc)
        for item in f.body.items:
            self.stmt(item)
        self.pop_scope()
        self.link_gotos()
        self.function = None

    def link_gotos(self) -> None:
        for goto in self.gotos:
            goto.target = self.labels.get(goto.name)
            if goto.target is None:
                self.diags.error(goto.loc, f"use of undeclared label '{goto.name}'")
        self.labels, self.gotos = {}, []

    # ---- variables ----------------------------------------------------------------------------
    def var_decl(self, d: A.VarDecl, program_scope: bool = False) -> None:
        d.type = self.resolve_type(d.type, d.loc)
        if self.image_variable(d, program_scope):
            self.declare(d.name, d, d.loc)
            return
        space = self.variable_space(d, program_scope)
        if space is not None:
            d.type = T.with_address_space(d.type, space)
        constant = space is T.AddressSpace.CONSTANT
        external = program_scope and d.storage == "extern" and d.init is None
        if external and not self.separate:
            self.diags.error(d.loc, f"'{d.name}' is declared extern: a program built from one source "
                                    f"must define it (clCompileProgram and clLinkProgram take it from "
                                    f"another unit)")
        if d.init is not None and not d.type.is_error:
            d.init, d.type = self.check_initializer(d.type, d.init, constant)
        elif constant and not d.type.is_error and not external:
            self.diags.error(d.loc, "variable in constant address space must be initialized")
        if d.type.is_array and d.type.length is None:
            self.diags.error(d.loc, f"definition of variable with array type needs an explicit "
                                    f"size or an initializer")
        if d.type.is_void or (d.type.is_record and not d.type.record.is_complete and not external):
            self.diags.error(d.loc, f"variable has incomplete type '{d.type.base_spelling()}'")
        self.refuse_half_declaration(d.type, d.loc, "variable")
        self.declare(d.name, d, d.loc)

    def variable_space(self, d: A.VarDecl, program_scope: bool) -> T.AddressSpace | None:
        """The address space of a variable, after checking OpenCL C 6.5's placement rules."""
        if d.type.is_error:
            return None  # its type was reported (such as a sampler, which has rules of its own)
        space = d.type.address_space
        if program_scope:
            if space is not T.AddressSpace.CONSTANT:
                self.diags.error(d.loc, "program scope variable must reside in constant address "
                                        "space")
            return T.AddressSpace.CONSTANT
        if space is T.AddressSpace.LOCAL:
            if not self.function.is_kernel:
                self.diags.error(d.loc, "non-kernel function variable cannot be declared in local "
                                        "address space")
            if d.init is not None:
                self.diags.error(d.init.loc, "'__local' variable cannot have an initializer")
                d.init = None
            return space
        if space in (T.AddressSpace.GLOBAL, T.AddressSpace.GENERIC):
            self.diags.error(d.loc, f"function scope variable cannot be declared in "
                                    f"{space.value} address space")
        return space if space is T.AddressSpace.CONSTANT else T.AddressSpace.PRIVATE

    # ---- statements ---------------------------------------------------------------------------
    def stmt(self, s: A.Stmt) -> None:
        getattr(self, "stmt_" + type(s).__name__)(s)

    def stmt_CompoundStmt(self, s: A.CompoundStmt) -> None:
        self.scopes.append({})
        for item in s.items:
            self.stmt(item)
        self.pop_scope()

    def stmt_DeclStmt(self, s: A.DeclStmt) -> None:
        for d in s.decls:
            if isinstance(d, A.FunctionDecl):
                self.diags.error(d.loc, "function declarations inside a function are not supported")
            elif isinstance(d, _TAG_DECLS):
                self.tag_decl(d)
            else:
                self.var_decl(d)
        s.decls = [d for d in s.decls if not isinstance(d, _TAG_DECLS) and not _is_sampler_variable(d)]

    def stmt_ExprStmt(self, s: A.ExprStmt) -> None:
        s.expr = self.check(s.expr)
        if s.expr.lvalue:
            s.expr = self.refuse_half_load(s.expr) or s.expr   # `*p;` reads *p, as clang sees it
        self.warn_unused_result(s.expr)

    def stmt_NullStmt(self, s: A.NullStmt) -> None:
        pass

    def stmt_IfStmt(self, s: A.IfStmt) -> None:
        s.cond = self.condition(s.cond)
        self.stmt(s.then)
        if s.else_ is not None:
            self.stmt(s.else_)

    def loop_body(self, s: A.Stmt, body: A.Stmt) -> None:
        self.targets.append(s)
        self.stmt(body)
        self.targets.pop()

    def stmt_WhileStmt(self, s: A.WhileStmt) -> None:
        s.cond = self.condition(s.cond)
        self.loop_body(s, s.body)

    def stmt_DoWhileStmt(self, s: A.DoWhileStmt) -> None:
        self.loop_body(s, s.body)
        s.cond = self.condition(s.cond)

    def stmt_ForStmt(self, s: A.ForStmt) -> None:
        self.scopes.append({})
        if s.init is not None:
            self.stmt(s.init)
        if s.cond is not None:
            s.cond = self.condition(s.cond)
        if s.step is not None:
            s.step = self.check(s.step)
        self.loop_body(s, s.body)
        self.pop_scope()

    def stmt_SwitchStmt(self, s: A.SwitchStmt) -> None:
        s.cond = self.rvalue(s.cond)
        if not s.cond.type.is_error and not s.cond.type.is_integer:
            self.diags.error(s.cond.loc, f"statement requires expression of integer type "
                                         f"('{s.cond.type}' invalid)")
        elif s.cond.type.is_integer:
            s.cond = self.convert(s.cond, T.INT if s.cond.type.rank < T.INT.rank else s.cond.type)
        self.switches.append(s)
        self.loop_body(s, s.body)
        self.switches.pop()

    def stmt_CaseStmt(self, s: A.CaseStmt) -> None:
        switch = self.switches[-1] if self.switches else None
        s.expr = self.rvalue(s.expr)
        value = fold_int(s.expr)
        if switch is None:
            self.diags.error(s.loc, "'case' statement not in switch statement")
        elif value is None:
            if not s.expr.type.is_error:
                self.diags.error(s.expr.loc, "case value is not an integer constant expression")
        else:
            self.add_case(switch, s, value)
        self.stmt(s.body)

    def add_case(self, switch: A.SwitchStmt, s: A.CaseStmt, value: int) -> None:
        t = switch.cond.type
        s.value = t.wrap(value) if t.is_integer else value
        if any(c.value == s.value for c in switch.cases):
            self.diags.error(s.expr.loc, f"duplicate case value '{s.value}'")
        switch.cases.append(s)

    def stmt_DefaultStmt(self, s: A.DefaultStmt) -> None:
        switch = self.switches[-1] if self.switches else None
        if switch is None:
            self.diags.error(s.loc, "'default' statement not in switch statement")
        elif switch.default is not None:
            self.diags.error(s.loc, "multiple default labels in one switch")
        else:
            switch.default = s
        self.stmt(s.body)

    def stmt_LabelStmt(self, s: A.LabelStmt) -> None:
        if s.name in self.labels:
            self.diags.error(s.loc, f"redefinition of label '{s.name}'")
        self.labels[s.name] = s
        self.stmt(s.body)

    def stmt_GotoStmt(self, s: A.GotoStmt) -> None:
        self.gotos.append(s)

    def stmt_BreakStmt(self, s: A.BreakStmt) -> None:
        if not self.targets:
            self.diags.error(s.loc, "'break' statement not in loop or switch statement")
        else:
            s.target = self.targets[-1]

    def stmt_ContinueStmt(self, s: A.ContinueStmt) -> None:
        loops = [t for t in self.targets if not isinstance(t, A.SwitchStmt)]
        if not loops:
            self.diags.error(s.loc, "'continue' statement not in loop statement")
        else:
            s.target = loops[-1]

    def stmt_ReturnStmt(self, s: A.ReturnStmt) -> None:
        f = self.function
        if s.value is None:
            if not f.result_type.is_void:
                self.diags.error(s.loc, f"non-void function '{f.name}' should return a value")
            return
        s.value = self.rvalue(s.value)
        if f.result_type.is_void:
            if not s.value.type.is_void and not s.value.type.is_error:
                self.diags.error(s.value.loc, f"void function '{f.name}' should not return a "
                                              f"value")
            return
        s.value = self.convert(s.value, f.result_type, "returning '{source}' from a function with "
                                                       "incompatible result type '{target}'")

    # ---- calls --------------------------------------------------------------------------------
    def check_call(self, e: A.Call) -> A.Expr:
        if not isinstance(e.callee, A.VarRef):
            return self.error(e, "called object is not a function")
        name = e.callee.name
        decl = self.lookup(name)
        if decl is None and name == "printf":
            return self.printf_call(e)
        args = [self.rvalue(a) for a in e.args]
        if isinstance(decl, A.FunctionDecl):
            return self.user_call(e, decl, args)
        if decl is None and name in IMAGE_FUNCTIONS:
            return self.image_call(e, name, args)
        if decl is None and is_builtin(name):
            return self.builtin_call(e, name, args)
        if decl is None:
            return self.undeclared_function(e, name)
        if decl.type.is_error:  # already reported where it was declared
            return _poisoned(e)
        return self.error(e, f"called object type '{decl.type}' is not a function")

    def undeclared_function(self, e: A.Call, name: str) -> A.Expr:
        """OpenCL C has no implicit declarations (6.9(e)); name the unimplemented feature the
        function belongs to, or suggest a near builtin or function."""
        feature = unsupported.function_feature(name)
        if feature is not None:
            return self.error(e, unsupported.message(name, feature))
        functions = [n for scope in self.scopes for n, d in scope.items()
                     if isinstance(d, A.FunctionDecl)]
        suggestion = closest_name(name, functions + builtin_names() + ["printf"])
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        return self.error(e, f"use of undeclared function '{name}'{hint}")

    def user_call(self, e: A.Call, f: A.FunctionDecl, args: list[A.Expr]) -> A.Expr:
        if len(args) != len(f.params):
            few = "few" if len(args) < len(f.params) else "many"
            return self.error(e, f"too {few} arguments to function call, expected "
                                 f"{len(f.params)}, have {len(args)}")
        e.args = [self.convert(a, p.type, "passing '{source}' to parameter of incompatible type "
                                          "'{target}'") for a, p in zip(args, f.params)]
        e.function, e.type = f, f.result_type.unqualified()
        e.callee.decl, e.callee.type = f, f.type
        self.calls.append((self.function, e))
        return e

    def builtin_call(self, e: A.Call, name: str, args: list[A.Expr]) -> A.Expr:
        if any(a.type.is_error for a in args):
            return _poisoned(e)
        found = resolve(overloads(name), [a.type for a in args])
        if found.chosen is None:
            return self.overload_error(e, name, args, found)
        chosen = found.chosen
        converted = [self.convert(a, p, "passing '{source}' to parameter of incompatible type '{target}'")
                     for a, p in zip(args, chosen.params)]
        return A.BuiltinCall(e.loc, chosen.builtin, chosen, converted, type=chosen.result)

    def overload_error(self, e: A.Call, name: str, args: list[A.Expr], found) -> A.Expr:
        types = ", ".join(f"'{a.type}'" for a in args) or "no arguments"
        if found.ambiguous:
            self.diags.error(e.loc, f"call to '{name}' is ambiguous (arguments: {types})")
            candidates = found.ambiguous
        else:
            self.diags.error(e.loc, f"no matching function for call to '{name}' (arguments: "
                                    f"{types})")
            candidates = found.candidates
        for c in candidates:
            self.diags.note(None, f"candidate function: {c}")
        return _poisoned(e)

    # ---- whole-program checks -----------------------------------------------------------------
    def link_calls(self) -> None:
        definitions = {f.name: f for f in self.scopes[0].values()
                       if isinstance(f, A.FunctionDecl) and f.body is not None}
        for caller, call in self.calls:
            call.function.definition = definitions.get(call.function.name)
            if call.function.definition is not None:
                continue
            if call.function.is_static:
                self.diags.error(call.loc, f"static function '{call.function.name}' is used but "
                                           f"never defined")
            elif not self.separate:
                self.diags.error(call.loc, f"function '{call.function.name}' is declared but "
                                           f"never defined")

    def check_recursion(self) -> None:
        graph: dict[str, list[A.Call]] = {}
        for caller, call in self.calls:
            if caller is not None:  # None: a call in a program-scope initializer, an error itself
                graph.setdefault(caller.name, []).append(call)
        state: dict[str, str] = {}
        for name in graph:
            self.visit_calls(name, graph, state)

    def visit_calls(self, name: str, graph, state) -> None:
        """Depth-first search; a call to a function still on the stack closes a cycle."""
        if state.get(name):
            return
        state[name] = "active"
        for call in graph.get(name, []):
            callee = call.function.name
            if state.get(callee) == "active":
                self.diags.error(call.loc, f"recursive call to '{callee}' is not allowed in "
                                           f"OpenCL")
            else:
                self.visit_calls(callee, graph, state)
        state[name] = "done"


def _is_sampler_variable(d) -> bool:
    """A `const sampler_t` or an image variable: no storage (its references are its constant)."""
    return isinstance(d, A.VarDecl) and (d.type.is_sampler or d.type.is_image or d.sampler_bits is not None)


def _poisoned(e: A.Expr) -> A.Expr:
    e.type, e.lvalue = T.ERROR, False
    return e


def analyze(tu: A.TranslationUnit, options: BuildOptions, diags: Diagnostics,
            separate: bool = False) -> A.TranslationUnit:
    """Type-check tu in place (see ast.py for what is guaranteed afterwards); `separate`: a unit
    compiled to be linked, which may call functions that it only declares."""
    sema = Sema(options, diags)
    sema.separate = separate
    return sema.translation_unit(tu)
