"""The work-group pipeline: one kernel of a work-item-form module -> one work-group function.

The pipeline first clones the kernel's call tree: it runs once per (kernel, local size) and rewrites
in place; the frontend's module must stay as lowering made it. Then it runs the passes of `PIPELINE` in order,
each `run(function, analyses) -> bool` (passes.py). Why they are in this order:

 1. inline          Barriers and work-item queries inside helpers must be visible in one CFG before
                    anything reasons about barriers; mem2reg then sees the callees' allocas too.
 2. mem2reg         Uniformity analysis works on SSA values, and fewer allocas means fewer context
                    arrays. Needs inlining first (a callee's variables are only local once inlined).
 2a. insert-checks (option `checked`)   Bounds checks before every access. After 1 (one CFG holds
                    every access) and 2 (promoted variables need none); before everything else, so
                    the checks' operands are ordinary values that later passes carry across barriers.
 2b. scalarize-vectors (option `scalarize`)   One scalar per lane of every vector value: LLVM's loop
                    vectorizer refuses loops that compute on vector types. On SSA (after 2, so
                    promoted vector variables are values), before uniformity and context arrays
                    reason about the values (each lane on its own).
 3. simplify        Folds what inlining and mem2reg expose (constant arguments, trivial phis) and
                    removes unreachable blocks, which sub-CFG formation must not see.
 3b. narrow-work-item-ids (option `ids_fit_int`)   Marks `(int)get_global_id(d)` exact when the
                    launch promises ids fit in an int. Pattern-matches lowering's id arithmetic, so it
                    runs on SSA (after 2) and before 4 hoists the queries away from their uses.
 3c. implicit-loop-barriers (option `horizontal_loops`, structured form only)   Adds barriers to
                    barrier-free uniform inner loops so that the work-item loop goes inside them
                    (pocl 4.6). Needs SSA and the uniformity of it (after 2 and 3, which also fold the
                    constant trip counts its heuristic reads), and must run before 4, which isolates
                    the barriers it adds, and before 5, which turns those loops into group-level
                    scalar loops; without 5 (the plain CBS form) the loop would become a dispatcher
                    loop instead, which costs more than it gains, so it is off there.
 3d. group-order (option `tiled_group_order`)   Chooses row or tiled order of the work-groups from
                    the strides of the accesses along the group ids; reads SSA in work-item form
                    (after 2 and 3, before 4 hoists the queries), changes no instruction.
 4. canonicalize-barriers   Puts barriers in blocks of their own, adds entry/exit barriers and
                    hoists queries to the prologue: the shape sub-CFG formation and the structured
                    form rely on. Nothing may merge blocks between this and sub-CFG formation, so
                    simplify does not run in between.
 5. structurize-uniform-barriers (option `structured`, off with `context_all`)   Chooses the blocks
                    of uniform control flow around barriers to run at group level. Needs canonical
                    barriers (it reasons about barrier blocks) and the uniformity analysis of the
                    final SSA.
 6. subcfg-formation   The continuation-based work-group function; needs 4 (and 5's choice).
 7. simplify-final  Cleans what 6 leaves (empty blocks, jump chains, dead slot loads, constant
                    dispatch) so codegen and readers see a compact function; it also merges each
                    work-item loop's header with the region's first block, where 8 looks for guards.
 8. fold-local-id-guards (option `fold_guards`)   Narrows work-item loops whose body is guarded by
                    `local_id < uniform` or `local_id == uniform`; needs the loops of 6 in 7's shape.
 9. simplify-folded (with 8)   Removes the guard's now unreachable skip path.
10. hoist-invariants   Moves work-item-invariant pure code (divisions included) out of the work-item
                    loops. Not a switch: it is what keeps LLVM's vectorizer from predicating a
                    uniform division on lane 0 (see the pass); runs last, on the final loops.
11. register-blocking, transpose-private-arrays: see their rows.
12. vectorize-work-items (option `wfv`)   Whole-function vectorization of innermost x loops with loops
                    inside (which LLVM's loop vectorizer leaves scalar). Needs the final loop shapes and
                    bounds (after 8), the invariants hoisted (after 10), which then stay scalar, and
                    the private arrays' final layout (after 11: unit-stride accesses become lane loads).

A row's switch names the option (loomcl/options.py) that must be true for the pass to run, so its
effect can be measured (`context_all=True` keeps every value that crosses a barrier in a context
array, i.e. no uniform slots, and implies the plain CBS form; `structured=False` and
`fold_guards=False` give the plain CBS form; `horizontal_loops=False` leaves barrier-free loops
inside the work-item loops). Rows without a switch are the work-group form's contract. Adding a pass
is one module (passes.py gives its shape) and one row.

Optional passes fall back. An internal error (any exception) inside a pass with a switch (all but
insert-checks, which the user asked for) leaves that pass out: the pipeline starts again from the
work-item form with the pass's option off, and `on_fallback` gets a warning naming the pass (the
compiler driver puts it in the build log). With `options.strict` (LOOMCL_STRICT=1: the test suite
and the differential tester) the error is raised instead. An error in a pass of the contract is
raised, with a note naming the pass; the driver reports it as an internal compiler error.

After a pass that reports a change, the cached analyses it does not preserve are dropped. With
`verify_each` the IR verifier runs after every pass, and a pass that reports no change must have
made none (otherwise later passes would read stale analyses). `print_after` names passes (or
"all") whose output is printed to stderr, headed `; IR after NAME`.
"""
from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from ..ir.function import Function, Module
from ..ir.printer import print_function
from ..ir.verifier import VerificationError, verify_function
from ..options import DEFAULT_OPTIONS, CompilerOptions
from . import group_order
from . import (canonicalize_barriers, fold_local_id_guards, hoist_invariants, implicit_loop_barriers, inline, insert_checks,
               mem2reg, narrow_work_item_ids, register_blocking, scalarize_vectors, simplify, structurize_uniform_barriers,
               subcfg_formation, transpose_private_arrays, vectorize_work_items)
from .clone import clone_module
from .passes import VECTOR_REGISTERS, Pass, PassContext, run_pass


@dataclass(frozen=True)
class Step:
    """One row of the pipeline: a pass, the option that must be true for it to run (None: always),
    and why it sits where it does (the docstring above says it at length)."""

    pass_: Pass
    switch: str | None
    why: str
    name: str = ""  # the pass's NAME unless it runs more than once

    @property
    def pass_name(self) -> str:
        return self.name or self.pass_.NAME

    def enabled(self, options: CompilerOptions) -> bool:
        return self.switch is None or bool(getattr(options, self.switch))

    @property
    def fallback_option(self) -> str | None:
        """The option that leaves this pass out after an internal error in it (None: not optional)."""
        if self.switch in (None, "checked"):
            return None
        return _OPTION_OF_SWITCH.get(self.switch, self.switch)


# The options behind the switches that combine several (loomcl/options.py's `uses_*` properties).
_OPTION_OF_SWITCH = {"uses_structured_form": "structured", "uses_horizontal_loops": "horizontal_loops",
                     "uses_register_blocking": "register_blocking", "uses_transpose_private": "transpose_private"}


PIPELINE: tuple[Step, ...] = (
    Step(inline, None, "callees' barriers and queries must be visible; mem2reg then sees their allocas"),
    Step(mem2reg, None, "uniformity works on SSA; a callee's variables are local only once inlined"),
    Step(insert_checks, "checked", "every access in one CFG, after promotion; its values are then ordinary"),
    Step(scalarize_vectors, "scalarize", "on SSA, before anything reasons about values: one value per lane"),
    Step(simplify, None, "folds what inline and mem2reg expose; no unreachable blocks for subcfg-formation"),
    Step(narrow_work_item_ids, "ids_fit_int",
         "matches lowering's id arithmetic on SSA, before canonicalize-barriers hoists the queries"),
    Step(group_order, "tiled_group_order", "reads the strides of the work-item form (SSA, before 4)"),
    Step(implicit_loop_barriers, "uses_horizontal_loops",
         "needs SSA, its uniformity and folded trip counts; its barriers are canonicalized next"),
    Step(canonicalize_barriers, None, "the shape the next two rely on; nothing may merge blocks until then"),
    Step(structurize_uniform_barriers, "uses_structured_form", "reasons about barrier blocks and final SSA"),
    Step(subcfg_formation, None, "the work-group function, from canonical barriers and the chosen blocks"),
    Step(simplify, None, "compacts the result; merges loop headers into the shape fold-local-id-guards matches",
         name="simplify-final"),
    Step(fold_local_id_guards, "fold_guards", "needs the work-item loops in simplify-final's shape"),
    Step(simplify, "fold_guards", "removes the folded guards' unreachable skip paths", name="simplify-folded"),
    Step(hoist_invariants, None, "on the final loops: no uniform division left for LLVM to predicate"),
    Step(register_blocking, "uses_register_blocking", "needs 3c's loops and the final nests, after guard folding"),
    Step(transpose_private_arrays, "uses_transpose_private", "rewrites the final form's context-array accesses"),
    Step(vectorize_work_items, "wfv", "on the final x loops, hoisted invariants outside: they stay scalar"),
)

PASS_NAMES = tuple(step.pass_name for step in PIPELINE)


def unknown_pass_names(names) -> list[str]:
    """Those of `names` that are neither a pass of the pipeline nor "all"."""
    return [name for name in names if name != "all" and name not in PASS_NAMES]


def check_pass_names(names) -> None:
    """Raise ValueError naming the valid passes if any of `names` is neither a pass nor "all"."""
    unknown = unknown_pass_names(names)
    if unknown:
        raise ValueError(f"unknown pass {', '.join(map(repr, unknown))}; "
                         f"the passes are {', '.join(PASS_NAMES)} (or all)")


def run_pipeline(function: Function, analyses: PassContext) -> None:
    """Run every enabled pass of `PIPELINE` on `function`, in order."""
    for step in PIPELINE:
        if step.enabled(analyses.options):
            _run_step(step, function, analyses)


class PassFailed(Exception):
    """An optional pass failed inside (its error is the cause); the pipeline leaves it out."""

    def __init__(self, step: Step, error: Exception) -> None:
        super().__init__(f"{step.pass_name}: {type(error).__name__}: {error}")
        self.step = step


def _run_step(step: Step, function: Function, analyses: PassContext) -> None:
    options = analyses.options
    try:
        before = print_function(function, remarks=False) if options.verify_each else None
        changed = run_pass(step.pass_, function, analyses)
        if options.verify_each:
            _verify_after(step, function, changed, before)
    except Exception as error:
        if step.fallback_option is not None and not options.strict:
            raise PassFailed(step, error) from error
        error.add_note(f"in pass {step.pass_name} on @{function.name}")
        raise
    if options.prints_after(step.pass_name):
        print(f"; IR after {step.pass_name}\n{print_function(function)}", file=sys.stderr)


def _verify_after(step: Step, function: Function, changed: bool, before: str) -> None:
    try:
        verify_function(function)
    except VerificationError as error:
        raise VerificationError(f"after {step.pass_name}:\n{error}") from None
    if not changed and print_function(function, remarks=False) != before:
        raise VerificationError(f"{step.pass_name} reported no change but changed @{function.name}")


class FallbackWarning(UserWarning):
    """An optional pass failed inside and was left out (a bug of loomcl: the code still runs right)."""


def warn_fallback(message: str) -> None:
    warnings.warn(message, FallbackWarning, stacklevel=2)


def work_group_module(module: Module, kernel_name: str, local_size,
                      options: CompilerOptions = DEFAULT_OPTIONS,
                      on_fallback: Callable[[str], None] = warn_fallback,
                      vector_registers: int = VECTOR_REGISTERS) -> Module:
    """A new module holding the kernel in work-group form (and copies of the program-scope
    globals it may reference); `module` is not changed. `on_fallback` gets the warning of each
    optional pass left out after an internal error; `vector_registers` is the target's SIMD
    register count."""
    check_pass_names(options.print_after)
    if kernel_name not in module.functions or not module.functions[kernel_name].is_kernel:
        raise KeyError(f"no kernel named {kernel_name!r} in the module")
    while True:
        copy = clone_module(module, roots=[kernel_name])
        function = copy.functions[kernel_name]
        try:
            run_pipeline(function, PassContext(function, options, local_size, copy, vector_registers))
            return copy
        except PassFailed as failed:  # again, from the work-item form, without the pass
            on_fallback(fallback_warning(failed, kernel_name, local_size))
            options = options.replace(**{failed.step.fallback_option: False})


def fallback_warning(failed: PassFailed, kernel_name: str, local_size) -> str:
    return (f"warning: loomcl's optional pass {failed.step.pass_name} failed on kernel '{kernel_name}' "
            f"(local size {tuple(local_size)}) and was left out; the kernel runs without it. This is a "
            f"bug in loomcl: please report it with the kernel and its build options. The error: "
            f"{type(failed.__cause__).__name__}: {failed.__cause__}")


def work_group_function(module: Module, kernel_name: str, local_size,
                        options: CompilerOptions = DEFAULT_OPTIONS,
                        on_fallback: Callable[[str], None] = warn_fallback,
                        vector_registers: int = VECTOR_REGISTERS) -> Function:
    """The kernel `kernel_name` of `module` (work-item form) as a work-group function for
    `local_size` (see transforms/__init__.py for the form). `module` is not changed; program-scope
    globals the result references are copies (same names and initializers)."""
    return work_group_module(module, kernel_name, local_size, options, on_fallback,
                             vector_registers).functions[kernel_name]
