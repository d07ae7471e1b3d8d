"""Checks of one generated program (or regression case) against the reference.

The reference is `tests/transforms/interp.py`'s `run_work_items` on the kernel in work-item form
(`loomcl.driver.compiler.build(source).module`, before any transform), in checked mode: every work-item a
generator advanced barrier to barrier, with bounds, race, uninitialized-read and UB checks, so an
illegal program is reported as such (`InvalidProgram`) instead of as a compiler bug.

Then each program is checked
  (a) in the interpreter, on the work-group form of every pipeline configuration (`INTERP_CONFIGS`,
      with the verifier after every pass), and
  (b) natively through the public runtime for every build-option configuration (`NATIVE_CONFIGS`).
Outputs are compared bit-exactly. One program per source: the pipeline clones the whole module for
each kernel, so sharing a source between programs costs more in cloning than it saves in parsing.
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field

import numpy as np

from loomcl.driver import compiler
from loomcl.options import CompilerOptions
from loomcl.transforms.pipeline import work_group_function

try:
    from transforms import interp  # under pytest: tests/ is on sys.path
except ImportError:
    from tests.transforms import interp  # `python3 -m tests.difftest` from the repository root

from .generator import PRELUDE, Program

INTERP_CONFIGS = {
    "default": CompilerOptions(verify_each=True),
    "no-structured": CompilerOptions(structured=False, verify_each=True),
    "no-fold-guards": CompilerOptions(fold_guards=False, verify_each=True),
    "no-horizontal-loops": CompilerOptions(horizontal_loops=False, verify_each=True),
    "no-grid-stride": CompilerOptions(grid_stride=False, verify_each=True),
    "no-register-blocking": CompilerOptions(register_blocking=False, verify_each=True),
    "no-transpose-private": CompilerOptions(transpose_private=False, verify_each=True),
    "loop-order-bfo": CompilerOptions(loop_order="bfo", verify_each=True),
    "context-all": CompilerOptions(context_all=True, verify_each=True),
    "ids-fit-int": CompilerOptions(ids_fit_int=True, verify_each=True),
    "no-scalarize": CompilerOptions(scalarize=False, verify_each=True),
    "no-wfv": CompilerOptions(wfv=False, verify_each=True),
    "wfv-everywhere": CompilerOptions(wfv_everywhere=True, verify_each=True),
}
NATIVE_CONFIGS = ["", "-loomcl-no-structured", "-loomcl-no-fold-guards", "-loomcl-no-horizontal-loops",
                  "-loomcl-no-grid-stride", "-loomcl-no-register-blocking", "-loomcl-no-transpose-private",
                  "-loomcl-loop-order-bfo", "-loomcl-context-all", "-loomcl-no-scalarize", "-loomcl-no-parallel-metadata",
                  "-loomcl-no-vectorize", "-loomcl-no-interleave", "-loomcl-no-vectorize-x", "-loomcl-unroll-small-x-loops",
                  "-loomcl-row-group-order", "-loomcl-no-scalar-scatters", "-loomcl-no-nsw", "-loomcl-no-streaming-stores",
                  "-loomcl-check", "-loomcl-no-wfv"]
REFERENCE_STEPS = 3_000_000
WORK_GROUP_STEPS = 6_000_000


class InvalidProgram(Exception):
    """The reference rejected the program (a generator bug, not a compiler bug)."""


@dataclass
class Finding:
    seed: int
    config: str  # "interp:NAME", "native:OPTIONS" or "reference"
    kind: str  # wrong output | error | crash | hang | invalid program
    detail: str
    observed: list | None = None

    def line(self) -> str:
        return f"seed {self.seed} [{self.config}] {self.kind}: {self.detail}"


@dataclass
class Case:
    """A launch of one kernel: what the regression files and generated programs both describe."""

    seed: int
    kernel: str
    global_size: tuple
    local_size: tuple
    args: list = field(default_factory=list)  # numpy arrays and scalars, in parameter order
    output: int = 0  # index of the argument compared
    local_args: dict = field(default_factory=dict)  # argument index -> bytes of __local memory

    def fresh_args(self):
        return [a.copy() if isinstance(a, np.ndarray) else a for a in self.args]

    @property
    def num_groups(self):
        return tuple(g // l for g, l in zip(self.global_size, self.local_size))


def case_of(program: Program, kernel: str | None = None) -> Case:
    L = program.items_per_group
    return Case(program.seed, kernel or program.kernel, tuple(program.global_size), tuple(program.local_size),
                [program.out_initial.copy(), program.inputs.copy(), np.zeros(L, np.int32), np.int32(program.n)],
                0, {2: 4 * L})


# -- the reference and the interpreter checks ---------------------------------------------------------------


def interp_args(case: Case):
    args = case.fresh_args()
    for index, size in case.local_args.items():
        args[index] = np.zeros(size, np.uint8)
    return [a.item() if isinstance(a, np.generic) else a for a in args]


def reference(module, case: Case) -> np.ndarray:
    """The output per OpenCL's semantics; raises InvalidProgram when the program is not legal."""
    args = interp_args(case)
    try:
        interp.run_work_items(module.functions[case.kernel], args, case.num_groups, case.local_size, checked=True,
                              step_limit=REFERENCE_STEPS)
    except (interp.UndefinedBehavior, interp.StepLimitExceeded) as e:
        raise InvalidProgram(f"{type(e).__name__}: {e}") from None
    return args[case.output]


def reference_output(program: Program):
    """The reference output of a generated program, or None if it does not build or is illegal."""
    try:
        module = compiler.build(PRELUDE + program.source).module
        return reference(module, case_of(program))
    except Exception:  # noqa: BLE001
        return None


def _first_difference(got, expected) -> str:
    diff = np.flatnonzero(got.view(np.uint32) != expected.view(np.uint32))
    i = int(diff[0])
    return (f"{len(diff)} of {len(expected)} elements differ, first [{i}]: got {int(got.view(np.uint32)[i])} "
            f"expected {int(expected.view(np.uint32)[i])}")


def compare(case: Case, config: str, got, expected) -> Finding | None:
    if np.array_equal(np.asarray(got).view(np.uint32), np.asarray(expected).view(np.uint32)):
        return None
    return Finding(case.seed, config, "wrong output", _first_difference(got, expected),
                   [int(x) for x in np.asarray(got).view(np.uint32)])


def _error(case: Case, config: str, e: BaseException) -> Finding:
    where = traceback.extract_tb(e.__traceback__)[-1]
    return Finding(case.seed, config, "error",
                   f"{type(e).__name__}: {str(e)[:300]} (at {where.filename.split('/')[-1]}:{where.lineno})")


def interp_check(module, case: Case, expected, configs=INTERP_CONFIGS) -> list[Finding]:
    """The work-group form of every pipeline configuration, in the interpreter."""
    findings = []
    for name, options in configs.items():
        config = f"interp:{name}"
        try:
            function = work_group_function(module, case.kernel, case.local_size, options)
            args = interp_args(case)
            interp.run_work_groups(function, args, case.num_groups, step_limit=WORK_GROUP_STEPS,
                                   work_dim=len(case.local_size))
        except Exception as e:  # noqa: BLE001 - any failure of the compiler is a finding
            findings.append(_error(case, config, e))
            continue
        found = compare(case, config, args[case.output], expected)
        if found:
            findings.append(found)
    return findings


# -- native runs through the public runtime --------------------------------------------------------------------


class Native:
    """One context and queue, reused for every native check of a process."""

    def __init__(self):
        import loomcl as cl

        self.cl = cl
        self.context = cl.create_some_context()
        self.queue = cl.CommandQueue(self.context)

    def build(self, source: str, options: str):
        return self.cl.Program(self.context, source).build(options=options)

    def launch(self, program, case: Case) -> np.ndarray:
        cl, mf = self.cl, self.cl.mem_flags
        args = []
        for index, a in enumerate(case.fresh_args()):
            if index in case.local_args:
                args.append(cl.LocalMemory(case.local_args[index]))
            elif isinstance(a, np.ndarray):
                args.append(cl.Buffer(self.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a))
            else:
                args.append(a)
        getattr(program, case.kernel)(self.queue, case.global_size, case.local_size, *args)
        out = np.empty_like(case.args[case.output])
        cl.enqueue_copy(self.queue, out, args[case.output])
        self.queue.finish()
        return out
