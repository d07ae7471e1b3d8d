"""The lowering's entry point: a checked translation unit to an IR module in work-item form.

Two steps, so that calls can refer to functions defined later in the source: first every function
definition gets its IR signature (`ir.Function`, kernels flagged with their reqd_work_group_size)
and every program-scope `__constant` variable its `GlobalVariable`; then each body is lowered by a
`FunctionLowerer`. The module keeps source order, so `--emit ir` reads like the program. A call of a
function that the unit declares but does not define (allowed when it is compiled to be linked)
calls a declaration in `module.declarations`; static and inline functions are marked in `module.linkage`.
"""
from __future__ import annotations

from ..frontend import ast as A
from ..ir import Function, GlobalVariable, KernelAttributes, Module
from ..ir.function import Linkage
from ..ir import instructions as ins
from ..ir import types as ty
from .errors import LoweringError, unsupported
from .function import FunctionLowerer
from .initializers import flat_initializer
from .types import memory_type, value_type

# __constant data is embedded in the LLVM module element by element: a bound keeps a mistyped size
# (a table of 2^32 floats) a diagnostic instead of hours and gigabytes. 16 MiB is far above the 64 KiB
# that OpenCL promises and GPUs offer.
MAX_CONSTANT_BYTES = 16 << 20


def lower_program(tu: A.TranslationUnit, reachable_only: bool = False) -> Module:
    """Lower every function definition and `__constant` variable of tu (see the package doc).
    `reachable_only`: only the kernels and the functions they call (a whole program, not a unit
    to be linked: nothing else can call the rest; hashcat's headers define hundreds of helpers
    that one file's kernels never use)."""
    program = ProgramLowerer(tu)
    return program.lower(reachable_only)


class ProgramLowerer:
    """What all functions of one program share: the module, signatures, program-scope storage."""

    def __init__(self, tu: A.TranslationUnit) -> None:
        self.tu = tu
        self.module = Module()
        self.functions: dict[A.FunctionDecl, Function] = {}
        self.globals: dict[A.VarDecl, GlobalVariable] = {}

    def lower(self, reachable_only: bool = False) -> Module:
        for decl in self.tu.globals:
            if decl.address_space is not A.AddressSpace.CONSTANT:
                raise unsupported(f"program-scope variable '{decl.name}' outside __constant", decl.loc)
            if decl.storage == "extern" and decl.init is None:  # another unit defines it
                if decl.type.is_record and not decl.type.record.is_complete:
                    continue  # `extern constant struct bar b;` naming a struct this unit never defines
                variable = GlobalVariable(decl.name, memory_type(decl.type), ty.AddressSpace.CONSTANT,
                                          linkage="declaration")
                self.module.globals.append(variable)
                self.globals[decl] = variable
                continue
            self.globals[decl] = self.constant(decl, decl.name)
            if decl.storage != "static" and decl.name.isidentifier():  # not a string literal's
                self.globals[decl].linkage = "external"
        for decl in self.tu.functions:
            self.functions[decl] = self.module.add_function(signature(decl))
            if decl.is_static:
                self.module.linkage[decl.name] = Linkage.INTERNAL
            elif decl.is_inline and not decl.is_kernel:
                self.module.linkage[decl.name] = Linkage.INLINE
        if not reachable_only:
            for decl, function in self.functions.items():
                FunctionLowerer(self, decl, function).lower()
            return self.module
        decls = {function: decl for decl, function in self.functions.items()}
        pending = [f for f in self.functions.values() if f.is_kernel]
        lowered = set()
        while pending:
            function = pending.pop()
            if function in lowered:
                continue
            lowered.add(function)
            FunctionLowerer(self, decls[function], function).lower()
            pending += [inst.callee for inst in function.instructions()
                        if isinstance(inst, ins.Call) and inst.callee in decls]
        self.module.functions = {name: f for name, f in self.module.functions.items() if f in lowered}
        return self.module

    def constant(self, decl: A.VarDecl, name: str) -> GlobalVariable:
        """A `__constant` variable as module data (also used for kernel-scope __constant)."""
        taken = {g.name for g in self.module.globals}
        unique, n = name, 1
        while unique in taken:
            unique, n = f"{name}.{n}", n + 1
        if decl.type.size > MAX_CONSTANT_BYTES:
            raise LoweringError(f"__constant variable '{decl.name}' takes {decl.type.size} bytes; a "
                                f"program embeds at most {MAX_CONSTANT_BYTES} bytes of constant data",
                                decl.loc)
        variable = GlobalVariable(unique, memory_type(decl.type), ty.AddressSpace.CONSTANT,
                                  flat_initializer(decl.type, decl.init))
        self.module.globals.append(variable)
        return variable

    def global_storage(self, decl) -> GlobalVariable:
        found = self.globals.get(decl)
        if found is None:
            raise LoweringError(f"'{decl.name}' has no storage (used outside its scope?)", decl.loc)
        return found

    def function_for(self, decl: A.FunctionDecl, loc) -> Function:
        definition = decl.definition or decl
        found = self.functions.get(definition)
        if found is None:
            found = next((f for d, f in self.functions.items() if d.name == decl.name), None)
        if found is None:
            found = self.external_function(decl)
        return found

    def external_function(self, decl: A.FunctionDecl) -> Function:
        """A function that another unit defines (sema allowed it: a unit compiled to be linked):
        a declaration the linker replaces by the definition."""
        found = self.module.declarations.get(decl.name)
        if found is None:
            found = self.module.declarations[decl.name] = signature(decl)
        return found


def signature(decl: A.FunctionDecl) -> Function:
    function = Function(decl.name, value_type(decl.result_type),
                        [value_type(p.type) for p in decl.params],
                        [p.name for p in decl.params], is_kernel=decl.is_kernel)
    function.attributes = KernelAttributes(decl.reqd_work_group_size)
    return function
