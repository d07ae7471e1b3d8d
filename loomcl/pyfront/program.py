"""Python kernels to one program: typed OpenCL C AST, then the kernel IR lower/ makes of it.

    compiled = build_program([(kernel, param_types), ...], options)   # a compiler.CompiledProgram

The kernels are translated one after another (function.py); a helper (@cl.func) is translated
when a call first needs it, once per list of argument types (a specialization, as numba and C++
templates make them), and Python's `//` and `%` bring in their OpenCL C functions (prelude.py).
The checks that span functions are sema's own (calls linked to definitions, recursion refused:
every call is inlined). Then `lower.lower_program` gives the module in work-item form, and
`driver.compiler.build_from_module` the CompiledProgram: from there on nothing knows that the source was
Python (work-group formation, vectorization, checked mode, code generation, cache, launches).
"""
from __future__ import annotations

from ..frontend import ast as A
from ..frontend import types as T
from ..frontend.diagnostics import Diagnostics
from ..frontend.options import BuildOptions
from .function import FunctionTranslator
from .prelude import helper_functions, helper_names
from .sema import PythonSema


class ProgramTranslator:
    """The functions of one program and the checker they share."""

    def __init__(self) -> None:
        self.diags = Diagnostics()
        self.sema = PythonSema(BuildOptions(), self.diags)
        self.functions: list[A.FunctionDecl] = []
        self.specializations: dict = {}   # (helper, argument types) -> FunctionDecl
        self.arithmetic: dict = {}        # C type name -> (floordiv, mod) FunctionDecls
        self.kernel_names: set[str] = set()  # kept for the kernels: helpers take other names

    # -- functions -------------------------------------------------------------------------------

    def add_kernel(self, kernel, param_types: list[T.Type]) -> A.FunctionDecl:
        source = kernel.source
        params = [A.ParamDecl(source.location(arg), arg.arg, t) for arg, t in zip(source.tree.args.args, param_types)]
        decl = A.FunctionDecl(source.location(source.tree), kernel.name, T.VOID, params, is_kernel=True)
        if kernel.name in self.sema.scopes[0]:
            self.diags.error(decl.loc, f"two kernels named '{kernel.name}' in one program")
        self.sema.check_signature(decl)
        decl.reqd_work_group_size = kernel.reqd_work_group_size
        return self.translate(kernel, decl)

    def specialize(self, helper, arg_types: list[T.Type], caller: FunctionTranslator, node) -> A.FunctionDecl:
        """The helper's function for these argument types (translated on first use)."""
        source = helper.source
        args = source.tree.args
        if len(args.args) != len(arg_types) or args.vararg or args.kwarg or args.kwonlyargs:
            raise caller.fail(node, f"{helper.name}() takes {len(args.args)} argument"
                                    f"{'s' if len(args.args) != 1 else ''}, not {len(arg_types)} (helpers take "
                                    f"positional parameters only)")
        types = tuple(helper.parameter_type(i) or _parameter_type(t) for i, t in enumerate(arg_types))
        key = (helper, types)
        found = self.specializations.get(key)
        if found is not None:
            if found.body is None:
                raise caller.fail(node, f"recursive call of '{helper.name}': kernels cannot recurse (every "
                                        f"call is inlined)")
            return found
        params = [A.ParamDecl(source.location(arg), arg.arg, t) for arg, t in zip(args.args, types)]
        decl = A.FunctionDecl(source.location(source.tree), self.unique_name(helper.name), T.VOID, params)
        self.sema.check_signature(decl)
        self.specializations[key] = decl
        return self.translate(helper, decl)

    def translate(self, python, decl: A.FunctionDecl) -> A.FunctionDecl:
        self.sema.scopes[0][decl.name] = decl
        saved = self.sema.scopes, self.sema.function
        self.sema.scopes = [self.sema.scopes[0]]
        try:
            FunctionTranslator(self, python.source, python.function, decl).translate()
        finally:
            self.sema.scopes, self.sema.function = saved
        self.functions.append(decl)
        return decl

    def unique_name(self, name: str) -> str:
        taken = self.sema.scopes[0]
        unique, n = name, 2
        while unique in taken or unique in self.kernel_names:
            unique, n = f"{name}_{n}", n + 1
        return unique

    def python_arithmetic(self, t: T.Type) -> tuple[A.FunctionDecl, A.FunctionDecl]:
        """Python's floor division and modulo for a scalar type (prelude.py)."""
        name = str(t.unqualified())
        found = self.arithmetic.get(name)
        if found is None:
            decls = helper_functions(name, t.is_floating)
            for decl in decls:
                self.sema.scopes[0][decl.name] = decl
            self.functions[:0] = decls
            by_name = {d.name: d for d in decls}
            floordiv, mod = helper_names(name)
            found = self.arithmetic[name] = (by_name.get(floordiv), by_name[mod])
        return found

    # -- the program -----------------------------------------------------------------------------

    def translation_unit(self) -> A.TranslationUnit:
        """The typed translation unit; raises frontend.CompileError with every error found."""
        self.sema.link_calls()
        self.sema.check_recursion()
        self.diags.raise_if_errors()
        return A.TranslationUnit(list(self.functions))


def _parameter_type(t: T.Type) -> T.Type:
    """A helper parameter's type for an argument of type t: its value's type (arrays decayed)."""
    t = t.unqualified()
    return T.pointer_to(t.element) if t.is_array else t


def build_program(kernels, options: str = ""):
    """A CompiledProgram of Python kernels: `kernels` lists (PythonKernel, parameter types).
    Raises frontend.CompileError (with every error of the sources) or OptionError."""
    from ..driver.compiler import on_deep_stack

    return on_deep_stack(lambda: _build_program(kernels, options))


def _build_program(kernels, options: str):
    from ..driver import compiler
    from ..lower import lower_program

    compiler.parse_build_options(options)  # a bad option fails before any translating
    program = ProgramTranslator()
    program.kernel_names = {kernel.name for kernel, _ in kernels}
    for kernel, types in kernels:
        program.add_kernel(kernel, types)
    unit = program.translation_unit()
    module = lower_program(unit)
    signatures = {decl.name: compiler.kernel_signature(decl, module) for decl in unit.kernels}
    return compiler.build_from_module(module, signatures, options)
