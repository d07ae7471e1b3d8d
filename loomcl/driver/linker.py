"""The linker: units compiled on their own (clCompileProgram) into one program (clLinkProgram).

Why the kernel IR and not LLVM: loomcl turns each kernel into a work-group function by inlining
every call first (barriers must be visible to the transforms, transforms/pipeline.py), so a kernel
and every function it calls must be in one module *before* work-group formation. Linking LLVM
modules (llvmlite's `link_in`) would come after that stage, when a call into another unit is an
opaque external call that may hide a barrier: too late. So a compiled unit is the lowered module in
work-item form (lower/program.py), and linking merges such modules, as a C linker merges objects:

- every unit's functions and `__constant` data are copied (a compiled unit may be linked into
  several programs, so it is never changed);
- a static function (Linkage.INTERNAL) is private to its unit: it is renamed `name.N` where another
  unit uses the name too, so two units' helpers of one name do not clash; so is a C99 inline
  definition (Linkage.INLINE: `inline` without `static` or `extern`, as in a header that several
  units include), which other units' declarations resolve to only if no unit defines the function
  externally (C leaves that case undefined; loomcl links it);
- `__constant` data is external unless static (as in C): one definition of a name in all units
  together, which other units' `extern` declarations resolve to (their types must agree); static
  data, and the data the compiler makes (string literals), is private to its unit, renamed on a clash;
- every other function is external: one definition in all units together (a second is a duplicate
  symbol), and each unit's declarations (`module.declarations`, calls of functions it does not
  define) are resolved to it by name; the declaration and the definition must have the same
  signature in the IR, since the call is rewritten to call the definition directly;
- printf formats are renumbered into the program's one table;
- the call graph of the linked program must have no cycle: each unit's sema rejects recursion
  within it, and a cycle through several units (OpenCL C forbids recursion, 6.9(k)) is reported
  here, before the inliner would meet it.

A problem raises `LinkError` naming the symbol and the units involved (numbered from 0 in the order
given), which the runtime reports as LINK_PROGRAM_FAILURE with the message in the build log.
"""
from __future__ import annotations

from ..ir import instructions as ins
from ..ir.function import Function, Linkage, Module
from ..ir.values import GlobalVariable
from ..transforms.clone import clone_function


class LinkError(Exception):
    """Units that do not make a program; the message is the linker's build log."""


def link_modules(modules: list[Module], require_all: bool = True) -> Module:
    """One module of `modules` (compiled units). `require_all`: every called function must be
    defined (an executable); without it the result may keep declarations (a library)."""
    linked = Module()
    values, errors = _copy_globals(modules, linked, require_all)
    if errors:
        raise LinkError("\n".join(errors))
    copies = [_copy_unit(module, index, modules, linked, values[index]) for index, module in enumerate(modules)]
    owners = {copy: callees for callees in copies for copy in callees.values()}
    definitions = _external_definitions(modules, copies)
    errors = []
    for index, (module, callees) in enumerate(zip(modules, copies)):
        errors += _resolve_declarations(module, index, callees, definitions, linked, require_all)
    if errors:
        raise LinkError("\n".join(errors))
    _retarget_calls(linked, owners)
    cycle = _call_cycle(linked)
    if cycle:
        raise LinkError(f"error: recursive call across units: {' -> '.join(cycle)} (recursion is not "
                        f"allowed in OpenCL)")
    return linked


def _copy_globals(modules: list[Module], linked: Module, require_all: bool) -> tuple[list[dict], list[str]]:
    """Copy every unit's `__constant` data into `linked`: external definitions under their names,
    private data renamed where names clash, and each `extern` declaration mapped to the definition
    of its name. Gives each unit's {original: copy} and the errors found."""
    values: list[dict] = [{} for _ in modules]
    defined: dict[str, tuple[int, GlobalVariable]] = {}
    errors = []
    for index, module in enumerate(modules):
        for variable in module.globals:
            if variable.linkage != "external":
                continue
            if variable.name in defined:
                errors.append(f"error: duplicate symbol '{variable.name}': defined in unit "
                              f"{defined[variable.name][0]} and in unit {index}")
                continue
            defined[variable.name] = (index, _copy_variable(variable, variable.name, linked))
            values[index][variable] = defined[variable.name][1]
    for index, module in enumerate(modules):
        for variable in module.globals:
            if variable.linkage == "internal":
                taken = {g.name for g in linked.globals} | set(defined)
                values[index][variable] = _copy_variable(variable, _unique(variable.name, taken), linked)
            elif variable.linkage == "declaration":
                errors += _resolve_variable(variable, index, defined, values[index], linked, require_all)
    return values, errors


def _copy_variable(variable: GlobalVariable, name: str, linked: Module) -> GlobalVariable:
    copy = GlobalVariable(name, variable.value_type, variable.address_space,
                          None if variable.initializer is None else list(variable.initializer), variable.linkage)
    linked.globals.append(copy)
    return copy


def _resolve_variable(declaration: GlobalVariable, index: int, defined: dict, values: dict, linked: Module,
                      require_all: bool) -> list[str]:
    found = defined.get(declaration.name)
    if found is None:
        if require_all:
            return [f"error: undefined variable '{declaration.name}', declared extern in unit {index}, is "
                    f"defined in no unit"]
        kept = next((g for g in linked.globals if g.name == declaration.name), None)  # a library's
        values[declaration] = kept or _copy_variable(declaration, declaration.name, linked)
        return []
    if found[1].value_type != declaration.value_type:
        return [f"error: conflicting types for '{declaration.name}': unit {index} declares "
                f"{declaration.value_type}, unit {found[0]} defines {found[1].value_type}"]
    values[declaration] = found[1]
    return []


def _copy_unit(module: Module, index: int, modules: list[Module], linked: Module, values: dict) -> dict:
    """Copy `module`'s functions into `linked` (its globals are copied: `values`), renaming its
    private names where they clash; gives {original function: copy}, to retarget calls."""
    others = {name for other in modules if other is not module for name in _names(other)}
    callees = {}
    for name, function in module.functions.items():
        new_name = name
        if name in linked.functions or (_is_private(module, name) and name in others):
            new_name = _unique(f"{name}.{index}", set(linked.functions) | others)  # external: a duplicate
        copy = callees[function] = clone_function(function, new_name, dict(values))
        linked.add_function(copy)
        _renumber_printf(copy, module, linked)
    return callees


def _is_private(module: Module, name: str) -> bool:
    return module.linkage.get(name, Linkage.EXTERNAL) is not Linkage.EXTERNAL


def _names(module: Module) -> set[str]:
    return set(module.functions) | set(module.declarations)


def _unique(name: str, taken: set[str]) -> str:
    unique, n = name, 1
    while unique in taken:
        unique, n = f"{name}.{n}", n + 1
    return unique


def _external_definitions(modules: list[Module], copies: list[dict]) -> dict[str, tuple[int, Function]]:
    """Every external function's definition: name -> (unit index, the copy); an inline definition
    where no unit has an external one."""
    definitions: dict[str, tuple[int, Function]] = {}
    for linkage in (Linkage.EXTERNAL, Linkage.INLINE):
        for index, (module, callees) in enumerate(zip(modules, copies)):
            for name, function in module.functions.items():
                if module.linkage.get(name, Linkage.EXTERNAL) is linkage:
                    definitions.setdefault(name, (index, callees[function]))
    return definitions


def _resolve_declarations(module: Module, index: int, callees: dict, definitions: dict, linked: Module,
                          require_all: bool) -> list[str]:
    """Map `module`'s declarations to their definitions (in `callees`); the errors found."""
    errors = [f"error: duplicate symbol '{name}': defined in unit {definitions[name][0]} and in unit {index}"
              for name in module.functions if not _is_private(module, name) and definitions[name][0] != index]
    for name, declaration in module.declarations.items():
        found = definitions.get(name)
        if found is None:
            if require_all:
                errors.append(f"error: undefined function '{name}', called in unit {index}, is defined "
                              f"in no unit")
            else:
                callees[declaration] = linked.declarations.setdefault(name, declaration)
            continue
        definition = found[1]
        if not _same_signature(declaration, definition):
            errors.append(f"error: conflicting types for '{name}': unit {index} declares "
                          f"{_signature(declaration)}, unit {found[0]} defines {_signature(definition)}")
        callees[declaration] = definition
    return errors


def _same_signature(a: Function, b: Function) -> bool:
    return a.return_type is b.return_type and [p.type for p in a.params] == [p.type for p in b.params]


def _signature(function: Function) -> str:
    return f"{function.return_type} ({', '.join(str(p.type) for p in function.params)})"


def _retarget_calls(linked: Module, owners: dict) -> None:
    """Calls in each copied function still call its unit's originals and declarations: point them
    at the copies and definitions (`owners`: copy -> its unit's map)."""
    for function in linked.functions.values():
        callees = owners[function]
        for inst in function.instructions():
            if isinstance(inst, ins.Call):
                inst.callee = callees[inst.callee]


def _renumber_printf(function: Function, module: Module, linked: Module) -> None:
    for inst in function.instructions():
        if isinstance(inst, ins.Printf):
            inst.format_id = linked.printf_format_id(module.printf_formats[inst.format_id])


def _call_cycle(module: Module) -> list[str]:
    """Function names along a cycle of calls (first name repeated last), or [] if there is none."""
    state: dict[Function, str] = {}
    path: list[Function] = []
    defined = set(module.functions.values())  # a library keeps declarations: no calls to follow

    def visit(function: Function) -> list[str]:
        state[function], found = "active", []
        path.append(function)
        for inst in function.instructions():
            if found or not isinstance(inst, ins.Call) or inst.callee not in defined:
                continue
            if state.get(inst.callee) == "active":
                found = [f.name for f in path[path.index(inst.callee):]] + [inst.callee.name]
            elif inst.callee not in state:
                found = visit(inst.callee)
        path.pop()
        state[function] = "done"
        return found

    for function in module.functions.values():
        if function not in state:
            cycle = visit(function)
            if cycle:
                return cycle
    return []
