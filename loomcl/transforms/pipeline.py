"""The work-group pipeline: one kernel of a work-item-form module -> one work-group function.

The ordered pass list, and why it is in this order:

 1. clone           The pipeline runs once per (kernel, local size) and rewrites in place; the
                    frontend's module must stay as lowering made it.
 2. inline          Barriers and work-item queries inside helpers must be visible in one CFG before
                    anything reasons about barriers; mem2reg then sees the callees' allocas too.
 3. mem2reg         Uniformity analysis works on SSA values, and fewer allocas means fewer context
                    arrays. Needs inlining first (a callee's variables are only local once inlined).
 4. simplify        Folds what inlining and mem2reg expose (constant arguments, trivial phis) and
                    removes unreachable blocks, which sub-CFG formation must not see.
 4b. narrow-work-item-ids (option `ids_fit_int`)   Marks `(int)get_global_id(d)` exact when the
                    launch promises ids fit in an int. Pattern-matches lowering's id arithmetic, so it
                    runs on SSA (after 3) and before 5 hoists the queries away from their uses.
 4c. implicit-loop-barriers (option `horizontal_loops`, structured form only)   Adds barriers to
                    barrier-free uniform inner loops so that the work-item loop goes inside them
                    (pocl 4.6). Needs SSA and the uniformity of it (after 3 and 4, which also fold the
                    constant trip counts its heuristic reads), and must run before 5, which isolates
                    the barriers it adds, and before 6, which turns those loops into group-level
                    scalar loops; without 6 (the plain CBS form) the loop would become a dispatcher
                    loop instead, which costs more than it gains, so it is off there.
 5. canonicalize-barriers   Puts barriers in blocks of their own, adds entry/exit barriers and
                    hoists queries to the prologue: the shape sub-CFG formation and the structured
                    form rely on. Nothing may merge blocks between this and sub-CFG formation, so
                    simplify does not run in between.
 6. structurize-uniform-barriers (option `structured`)   Chooses the blocks of uniform control
                    flow around barriers to run at group level. Needs canonical barriers (it reasons
                    about barrier blocks) and the uniformity analysis of the final SSA.
 7. subcfg-formation   The continuation-based work-group function; needs 5 (and 6's choice).
 8. simplify        Cleans what 7 leaves (empty blocks, jump chains, dead slot loads, constant
                    dispatch) so codegen and readers see a compact function; it also merges each
                    work-item loop's header with the region's first block, where 9 looks for guards.
 9. fold-local-id-guards (option `fold_guards`)   Narrows work-item loops whose body is guarded by
                    `local_id < uniform` or `local_id == uniform`; needs the loops of 7 in 8's shape.
10. simplify        Removes the guard's now unreachable skip path.
11. hoist-invariants   Moves work-item-invariant pure code (divisions included) out of the work-item
                    loops. Not a switch: it is what keeps LLVM's vectorizer from predicating a
                    uniform division on lane 0 (see the pass); runs last, on the final loops.

`PipelineOptions` switches passes off to measure them (`context_all=True` keeps every value that
crosses a barrier in a context array, i.e. no uniform slots; `structured=False` and
`fold_guards=False` give the plain CBS form; `horizontal_loops=False` leaves barrier-free loops
inside the work-item loops), `verify=True` runs the IR verifier after every pass,
and `print_after` names passes whose output is printed (to `dump`, stderr by default).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from ..analysis.uniformity import Uniformity
from ..ir.function import Function, Module
from ..ir.printer import print_function
from ..ir.verifier import verify_function
from . import (canonicalize_barriers, fold_local_id_guards, hoist_invariants, implicit_loop_barriers, inline, mem2reg,
               narrow_work_item_ids,
               simplify, structurize_uniform_barriers, subcfg_formation)
from .clone import clone_module

PASS_NAMES = ("inline", "mem2reg", "simplify", "narrow-work-item-ids", "implicit-loop-barriers",
              "canonicalize-barriers", "structurize-uniform-barriers",
              "subcfg-formation", "simplify-final", "fold-local-id-guards", "simplify-folded", "hoist-invariants")


@dataclass(frozen=True)
class PipelineOptions:
    context_all: bool = False
    structured: bool = True
    fold_guards: bool = True
    horizontal_loops: bool = True  # implicit barriers in uniform inner loops (structured form only)
    ids_fit_int: bool = False  # the launch's global ids fit in a C int (the runtime checks)
    verify: bool = False
    print_after: tuple[str, ...] = ()
    dump: object = None  # a file-like object for print_after; stderr when None


class _Runner:
    def __init__(self, function: Function, options: PipelineOptions) -> None:
        self.function = function
        self.options = options

    def after(self, name: str) -> None:
        if self.options.verify:
            verify_function(self.function)
        if name in self.options.print_after or "all" in self.options.print_after:
            out = self.options.dump or sys.stderr
            print(f"; IR after {name}\n{print_function(self.function)}", file=out)


def work_group_module(module: Module, kernel_name: str, local_size, options: PipelineOptions = PipelineOptions()) -> Module:
    """A new module holding the kernel in work-group form (and copies of the program-scope
    globals it may reference); `module` is not changed."""
    local_size = tuple(local_size) + (1,) * (3 - len(local_size))
    if kernel_name not in module.functions or not module.functions[kernel_name].is_kernel:
        raise KeyError(f"no kernel named {kernel_name!r} in the module")
    copy = clone_module(module)
    function = copy.functions[kernel_name]
    run = _Runner(function, options)
    inline.run(copy, [kernel_name])
    run.after("inline")
    mem2reg.run(function)
    run.after("mem2reg")
    simplify.run(function)
    run.after("simplify")
    if options.ids_fit_int:
        narrow_work_item_ids.run(function)
        run.after("narrow-work-item-ids")
    if options.horizontal_loops and options.structured and not options.context_all:
        implicit_loop_barriers.run(function, local_size)
        run.after("implicit-loop-barriers")
    canonicalize_barriers.run(function)
    run.after("canonicalize-barriers")
    uniformity = Uniformity(function)
    group_blocks = set()
    if options.structured and not options.context_all:
        group_blocks = structurize_uniform_barriers.run(function, uniformity)
        uniformity = Uniformity(function)
        run.after("structurize-uniform-barriers")
    subcfg_formation.run(function, local_size, uniformity, options.context_all, group_blocks)
    run.after("subcfg-formation")
    simplify.run(function)
    run.after("simplify-final")
    if options.fold_guards:
        fold_local_id_guards.run(function)
        run.after("fold-local-id-guards")
        simplify.run(function)
        run.after("simplify-folded")
    hoist_invariants.run(function)
    run.after("hoist-invariants")
    return copy


def work_group_function(module: Module, kernel_name: str, local_size,
                        options: PipelineOptions = PipelineOptions()) -> Function:
    """The kernel `kernel_name` of `module` (work-item form) as a work-group function for
    `local_size` (see transforms/__init__.py for the form). `module` is not changed; program-scope
    globals the result references are copies (same names and initializers)."""
    return work_group_module(module, kernel_name, local_size, options).functions[kernel_name]
