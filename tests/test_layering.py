"""The layering of loomcl's packages is a test: the allowed imports are the table in docs/architecture.md.

The table is data in the page people read (between the `layering` markers), so the picture of the
architecture and the code cannot drift apart: change one, and this test makes you change the other.
A row names a unit (a package such as `engine`, a top-level module such as `options`, or one module
such as `runtime.engine_api`, whose row adds to its package's) and what it may import besides itself.
`llvmlite.binding` (LLVM itself) is a unit too: one module of the JIT owns it in this process, and the
compile server in its own.

Every import counts, wherever it stands: at module level, inside a function (a lazy import is still a
dependency), under `if TYPE_CHECKING:` (a type-only import still ties the layers).

Cycles. Among modules, no cycle of imports that run (module level or inside functions; type-only
imports never run, so they cannot make one). A function-level import delays an import, it does not
remove the dependency, so a cycle it closes is still a cycle; the few that remain are listed in
KNOWN_LAZY_CYCLES with the reason each is still there, and the test fails when a new one appears or
a listed one is gone (so the list only shrinks).
"""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "loomcl"
TABLE_PAGE = ROOT / "docs" / "architecture.md"
TRACKED_THIRD_PARTY = ("llvmlite",)

# Cycles closed by a function-level import that are not broken yet: frozenset of modules -> why.
KNOWN_LAZY_CYCLES = {
    frozenset({"loomcl.frontend.builtins", "loomcl.frontend.builtin_families"}):
        "builtins.py holds the Builtin and Overload types and asks builtin_families.py for the generated "
        "overloads, which are made of those types; the types belong in a module of their own",
    frozenset({"loomcl.runtime.program", "loomcl.runtime.program_link"}):
        "Program.build() of a linked binary links again, and linking makes Programs; the helpers both "
        "use belong in a module of their own",
}


def parse_table(text: str) -> dict[str, set[str]]:
    """{unit: units it may import} from the markdown table between the layering markers."""
    match = re.search(r"<!-- layering:begin -->(.*?)<!-- layering:end -->", text, re.S)
    assert match, f"{TABLE_PAGE} has no table between <!-- layering:begin --> and <!-- layering:end -->"
    table: dict[str, set[str]] = {}
    for line in match.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue  # the header, its rule, blank lines
        allowed = set(re.findall(r"`([\w.]+)`", cells[1]))
        for unit in re.findall(r"`([\w.]+)`", cells[0]):
            table[unit] = allowed
    return table


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


class Import:
    def __init__(self, source: str, target: str, line: int, lazy: bool, type_only: bool) -> None:
        self.source, self.target, self.line, self.lazy, self.type_only = source, target, line, lazy, type_only


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """The loomcl modules (and tracked third-party packages) that module `name` imports."""
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def add(target: str, node: ast.AST, lazy: bool, type_only: bool) -> None:
        top = target.split(".")[0]
        if top == "loomcl" or top in TRACKED_THIRD_PARTY:
            found.append(Import(name, target, node.lineno, lazy, type_only))

    def visit(node: ast.AST, lazy: bool, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name, child, lazy, type_only)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    package = package[: len(package) - (child.level - 1)]
                    base = ".".join(package + ([base] if base else []))
                for alias in child.names:
                    submodule = f"{base}.{alias.name}"
                    add(submodule if submodule in modules else base, child, lazy, type_only)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for statement in child.body:
                    visit(ast.Module(body=[statement], type_ignores=[]), lazy, True)
                for statement in child.orelse:
                    visit(ast.Module(body=[statement], type_ignores=[]), lazy, type_only)
            else:
                inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                visit(child, inner, type_only)

    visit(ast.parse(path.read_text(), str(path)), False, False)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def unit_of(module: str) -> str:
    """`loomcl.engine.pool` -> `engine`; `loomcl.options` -> `options`; `loomcl` -> `loomcl`;
    `llvmlite.binding` -> `llvmlite`."""
    parts = module.split(".")
    if parts[0] == "llvmlite":  # the package's name and version; its binding is LLVM itself
        return "llvmlite.binding" if parts[1:2] == ["binding"] else "llvmlite"
    if parts[0] != "loomcl":
        return parts[0]
    return parts[1] if len(parts) > 1 else "loomcl"


def allowed_for(module: str, table: dict[str, set[str]]) -> set[str] | None:
    """What `module` may import: its unit's row and the rows of the module and its packages."""
    parts = module.split(".")[1:]
    rows = [".".join(parts[:n]) for n in range(1, len(parts) + 1)] or ["loomcl"]
    if rows[0] not in table:
        return None
    return set().union(*(table[row] for row in rows if row in table))


def _collect():
    modules = all_modules()
    edges = [edge for name, path in modules.items() for edge in imports_of(name, path, modules)]
    return modules, edges


MODULES, EDGES = _collect()
TABLE = parse_table(TABLE_PAGE.read_text())


def test_every_package_has_a_row():
    units = {unit_of(name) for name in MODULES}
    missing = sorted(units - set(TABLE))
    assert not missing, f"add a row for {missing} to the allowed imports in {TABLE_PAGE.relative_to(ROOT)}"


def test_the_table_names_only_real_units():
    units = {unit_of(name) for name in MODULES} | set(TRACKED_THIRD_PARTY)
    named = set(TABLE) | {unit for allowed in TABLE.values() for unit in allowed}
    unknown = sorted(unit for unit in named if unit.split(".")[0] not in units
                     or "." in unit and f"loomcl.{unit}" not in MODULES and unit != "llvmlite.binding")
    assert not unknown, f"the table names units that do not exist: {unknown}"


def test_the_packages_form_layers():
    """The table itself has no cycle: packages stack, each above what it imports."""
    graph = {unit: {u.split(".")[0] for u in allowed} - {unit} for unit, allowed in TABLE.items() if "." not in unit}
    for unit, allowed in TABLE.items():
        if "." in unit:
            graph.setdefault(unit.split(".")[0], set()).update(u.split(".")[0] for u in allowed)
    cycles = [sorted(c) for c in strongly_connected(graph) if len(c) > 1]
    assert not cycles, f"the allowed imports go round in a circle: {cycles}"


def test_every_import_is_allowed_by_the_table():
    violations = []
    for edge in EDGES:
        source_unit, target_unit = unit_of(edge.source), unit_of(edge.target)
        if source_unit == target_unit:
            continue
        allowed = allowed_for(edge.source, TABLE)
        if allowed is not None and target_unit not in allowed:
            how = " (type-only)" if edge.type_only else " (inside a function)" if edge.lazy else ""
            violations.append(f"{MODULES[edge.source].relative_to(ROOT)}:{edge.line}: {edge.source} imports "
                              f"{edge.target}{how}; `{source_unit}` may import only {sorted(allowed)}")
    assert not violations, "imports outside docs/architecture.md's table:\n" + "\n".join(violations)


def test_no_module_level_import_cycle():
    graph = _graph(lazy=False)
    cycles = [sorted(c) for c in strongly_connected(graph) if len(c) > 1]
    assert not cycles, f"module-level import cycles: {cycles}"


def test_function_level_imports_close_only_the_known_cycles():
    cycles = {frozenset(c) for c in strongly_connected(_graph(lazy=True)) if len(c) > 1}
    new = [sorted(c) for c in cycles - set(KNOWN_LAZY_CYCLES)]
    gone = [sorted(c) for c in set(KNOWN_LAZY_CYCLES) - cycles]
    assert not new, f"new import cycles closed by a function-level import (move the shared concept down): {new}"
    assert not gone, f"these cycles are broken now: remove them from KNOWN_LAZY_CYCLES: {gone}"


def _graph(lazy: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for edge in EDGES:
        if edge.type_only or (edge.lazy and not lazy) or edge.target not in MODULES:
            continue
        graph[edge.source].add(edge.target)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (the module graph is deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(component)
    return components


def test_the_checker_finds_a_forbidden_lazy_import(tmp_path):
    """The walk sees an import inside a function, and the table refuses it."""
    source = tmp_path / "probe.py"
    source.write_text("def f():\n    from loomcl.driver import compiler\n")
    found = imports_of("loomcl.engine.probe", source, MODULES)
    assert [(e.target, e.lazy) for e in found] == [("loomcl.driver.compiler", True)]
    assert "driver" not in allowed_for("loomcl.engine.probe", TABLE)


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert sorted(sorted(c) for c in strongly_connected(graph) if len(c) > 1) == [["a", "b", "c"]]
