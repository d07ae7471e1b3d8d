"""The compiler's options: one frozen object, parsed once at build time, read by every stage.

A build-options string (`Program.build(options=...)`, `loomcl build --options`) carries the
front-end's options (`-D`, `-I`, `-cl-*`; frontend/options.py) and loomcl's own `-loomcl-*`
switches, listed in `SWITCHES` below. `CompilerOptions.split` takes the latter out and gives the
rest to the front-end. The same object then goes to the work-group pipeline (transforms/pipeline.py:
which passes run, verification and printing between them) and to code generation (codegen/: the
LLVM pipeline and the object cache), so a switch is declared once and never copied between classes.
Nothing reads the environment mid-build: `LOOMCL_CHECK=1` (checked mode for every build of the
process) is read once per build, by `split`; `LOOMCL_STRICT=1` (internal errors of optional passes
raised, not fallen back from: the test suite and the differential tester) when options are made.

The benchmark switches techniques off to measure them (bench/configs.py names the variants).
`ids_fit_int` has no switch: the runtime sets it per launch (every global id of the launch fits in
a C int) and it is part of the work-group function's specialization key; so is `streaming` (the
parameters whose stores stream past the caches: engine/streaming.py decides, `streaming_stores`
switches the decision off).
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import ClassVar


CHECK_ENVIRONMENT = "LOOMCL_CHECK"
STRICT_ENVIRONMENT = "LOOMCL_STRICT"


def _strict_by_environment() -> bool:
    return os.environ.get(STRICT_ENVIRONMENT, "").strip() not in ("", "0")


@dataclass(frozen=True)
class CompilerOptions:
    # -- the work-group pipeline (transforms/pipeline.py) -----------------------------------------
    structured: bool = True
    """Keep uniform control flow around barriers as scalar group-level code (the structured form)."""
    fold_guards: bool = True
    """Fold `if (lid < s)` into work-item loop bounds (fold-local-id-guards)."""
    horizontal_loops: bool = True
    """Implicit barriers in barrier-free uniform inner loops (pocl 4.6); structured form only."""
    register_blocking: bool = True
    """Interchanged kernel loops run per strip of work-items, their state in registers (register-blocking)."""
    transpose_private: bool = True
    """Private arrays' context arrays element-major, unit-stride along x (transpose-private-arrays)."""
    loop_order: str = "locality"
    """Which legal kernel loops implicit-loop-barriers interchanges with the work-item loop:
    "locality" (Kim's stride rule, transforms/loop_order.py) or "bfo" (every innermost one)."""
    wfv: bool = True
    """Whole-function vectorization of x work-item loops with loops inside (vectorize-work-items)."""
    wfv_everywhere: bool = False
    """Tests only (no switch): WFV on 4 lanes wherever it is legal, its cost model off (the difftest)."""
    context_all: bool = False
    """Context arrays for every value crossing a barrier (no uniform slots); implies plain CBS."""
    ids_fit_int: bool = False
    """The launch's global ids fit in a C int (set by the runtime per launch, never by a switch)."""
    streaming_stores: bool = True
    """The runtime may ask for streaming (non-temporal) stores to large write-only buffers (`streaming`)."""
    streaming: tuple[int, ...] = ()
    """Parameters whose vector stores stream past the caches (set by the runtime per launch, never by
    a switch: write-only, 64-byte aligned buffers larger than the last-level cache; launches whose
    dimension-0 global offset and enqueued local size are multiples of 64; codegen/streaming_stores.py)."""
    scalarize: bool = True
    """Vector values become one scalar per lane, so work-item loops vectorize (scalarize-vectors)."""
    checked: bool = False
    """Checked mode: bounds checks on every access and barrier-divergence checks (insert-checks;
    `-loomcl-check` or LOOMCL_CHECK=1 in the environment of the process that builds)."""

    # -- code generation (codegen/) -------------------------------------------------------------
    parallel_metadata: bool = True
    """llvm.access.group + llvm.loop.parallel_accesses on work-item loops (pocl 4.2)."""
    vectorize: bool = True
    """LLVM's loop and SLP vectorizers."""
    vectorize_x: bool = True
    """Short kernel loops inside x work-item loops unrolled fully, rolled x loops of 16 doubles
    vectorized 16 wide, so the x loop is what LLVM vectorizes (codegen/unroll_hints.py)."""
    nsw: bool = True
    """`nsw` on signed int/long add, sub and mul (C leaves their overflow undefined), so that
    `y * width + x` stays affine when widened and vectorizes (stencil5 2.2x); it costs the box filters
    boxAvg1/boxAvgH1V1 1.3x, cause not found, so it is a micro-profiling variant too."""
    scalar_scatters: bool = True
    """Stores to computed addresses stay scalar stores in vectorized loops, not scattered vector stores
    (x86 `prefer-no-scatter`; jit/llvm.py says why)."""
    interleave: bool = True
    """Loop interleaving (several vector iterations in flight)."""
    roll_small_x_loops: bool = True
    """x work-item loops of at most 64 work-items kept from LLVM's full unroll, so that its loop
    vectorizer gets them (codegen/llvm_emitter.py)."""
    tiled_group_order: bool = True
    """Kernels that walk arrays down their columns get their work-groups in tiles of groups, not
    row by row (transforms/group_order.py)."""
    unroll: bool = True
    opt_level: int = 3
    """LLVM's optimization level; -cl-opt-disable makes it 0."""
    fast_math_flags: tuple[str, ...] = ()
    """LLVM fast-math flags on the kernel's floating-point operations, as the -cl-*-math build
    options allow (`math_flags`). Empty by default: the kernel's arithmetic stays IEEE-exact."""
    denormals_are_zero: bool = False
    """-cl-denorms-are-zero: kernels run with subnormal inputs and results flushed to zero."""
    uniform_work_group_size: bool = False
    """-cl-uniform-work-group-size: the runtime refuses a launch whose global size is not a multiple
    of its local size (INVALID_WORK_GROUP_SIZE), as the API spec asks of such a program."""
    use_cache: bool = True
    """The on-disk object cache; it does not change the code, so it is not in the cache key."""
    image_formats: tuple = ()
    """((parameter index, channel order, data type), ...) of a launch's image arguments, which image
    code is specialized for (set by the runtime per launch, never by a switch)."""

    # -- the runtime ------------------------------------------------------------------------------
    microprofile: bool = True
    """Launches time a few compiled variants of the kernel on their first work-groups and run the
    rest with the fastest (engine/microprofile.py); off in checked mode and with
    LOOMCL_MICROPROFILE=0. It does not change any variant's code, so it is not in the cache key."""

    # -- debugging the pipeline -----------------------------------------------------------------
    strict: bool = dataclasses.field(default_factory=_strict_by_environment)
    """An internal error in an optional pass is raised instead of leaving the pass out with a warning
    in the build log (transforms/pipeline.py): tests must see every such bug. LOOMCL_STRICT=1 in the
    environment when the options are made (tests/conftest.py sets it for the test suite)."""
    verify_each: bool = False
    """Run the IR verifier after every pass (and check that a pass reporting no change made none)."""
    print_after: tuple[str, ...] = ()
    """Pass names (or "all") whose output is printed to stderr."""

    SWITCHES: ClassVar[dict[str, tuple[str, object]]] = {
        "-loomcl-no-structured": ("structured", False),
        "-loomcl-no-fold-guards": ("fold_guards", False),
        "-loomcl-no-horizontal-loops": ("horizontal_loops", False),
        "-loomcl-no-register-blocking": ("register_blocking", False),
        "-loomcl-no-transpose-private": ("transpose_private", False),
        "-loomcl-no-wfv": ("wfv", False),
        "-loomcl-context-all": ("context_all", True),
        "-loomcl-loop-order-bfo": ("loop_order", "bfo"),
        "-loomcl-no-scalarize": ("scalarize", False),
        "-loomcl-no-parallel-metadata": ("parallel_metadata", False),
        "-loomcl-no-vectorize": ("vectorize", False),
        "-loomcl-no-interleave": ("interleave", False),
        "-loomcl-no-microprofile": ("microprofile", False),
        "-loomcl-no-vectorize-x": ("vectorize_x", False),
        "-loomcl-no-nsw": ("nsw", False),
        "-loomcl-no-scalar-scatters": ("scalar_scatters", False),
        "-loomcl-no-streaming-stores": ("streaming_stores", False),
        "-loomcl-unroll-small-x-loops": ("roll_small_x_loops", False),
        "-loomcl-row-group-order": ("tiled_group_order", False),
        "-loomcl-verify-each": ("verify_each", True),
        "-loomcl-check": ("checked", True),
    }
    PRINT_AFTER: ClassVar[str] = "-loomcl-print-after="  # repeatable: -loomcl-print-after=PASS

    @classmethod
    def split(cls, options: str) -> tuple[CompilerOptions, str]:
        """Take loomcl's own switches out of a build option string; the rest is the front-end's."""
        values: dict[str, object] = {}
        printed: list[str] = []
        rest = []
        for word in options.split():
            if word in cls.SWITCHES:
                name, value = cls.SWITCHES[word]
                values[name] = value
            elif word.startswith(cls.PRINT_AFTER):
                printed.append(word[len(cls.PRINT_AFTER):])
            else:
                rest.append(word)
        if os.environ.get(CHECK_ENVIRONMENT, "").strip() not in ("", "0"):
            values["checked"] = True
        return cls(print_after=tuple(printed), **values), " ".join(rest)

    def replace(self, **changes) -> CompilerOptions:
        return dataclasses.replace(self, **changes)

    def with_switches(self, switches) -> CompilerOptions:
        """These options with the `-loomcl-*` switches of `switches` (SWITCHES' names) applied."""
        return self.replace(**dict(self.SWITCHES[word] for word in switches)) if switches else self

    # -- what the switches mean together --------------------------------------------------------

    @property
    def uses_structured_form(self) -> bool:
        """structurize-uniform-barriers runs: `context_all` measures the plain CBS form's context
        arrays, so it overrides `structured`."""
        return self.structured and not self.context_all

    @property
    def uses_microprofile(self) -> bool:
        """Launches may choose among variants: never in checked mode, whose launches report the
        sites of one known code."""
        return self.microprofile and not self.checked

    @property
    def uses_horizontal_loops(self) -> bool:
        """implicit-loop-barriers runs: only in the structured form, where the loop it makes becomes
        group-level scalar control flow (in plain CBS it would become a dispatcher loop)."""
        return self.horizontal_loops and self.uses_structured_form

    @property
    def uses_transpose_private(self) -> bool:
        """transpose-private-arrays runs: the element-major layout pays where the x loop is the one
        LLVM vectorizes (`vectorize_x`, `roll_small_x_loops`); across j (the old layout's SLP
        choice) it would not."""
        return self.transpose_private and self.vectorize_x and self.roll_small_x_loops

    @property
    def uses_register_blocking(self) -> bool:
        """register-blocking runs: it strips the loops that implicit-loop-barriers made group-level."""
        return self.register_blocking and self.uses_horizontal_loops

    def prints_after(self, pass_name: str) -> bool:
        return pass_name in self.print_after or "all" in self.print_after

    def codegen_key(self) -> str:
        """The fields that change native code for the same LLVM IR text, as text for the object-cache
        key. The pipeline's switches change the LLVM IR text itself, which is in the key; checked
        mode does too, and is named besides (only when on, so existing entries stay valid)."""
        key = (f"pm={int(self.parallel_metadata)} vec={int(self.vectorize)} il={int(self.interleave)} "
               f"unroll={int(self.unroll)} O{self.opt_level}")
        # The math options also show in the IR text (flags, attributes); keyed here too, and only
        # when set, so that the keys of default builds (and their cache entries) stay as they were.
        if self.fast_math_flags:
            key += f" fmf={','.join(self.fast_math_flags)}"
        if self.denormals_are_zero:
            key += " daz"
        if self.checked:
            key += " checked"
        if self.streaming:
            key += f" stream={','.join(map(str, self.streaming))}"
        return key

    def with_build_options(self, build) -> CompilerOptions:
        """These options with the code-generating OpenCL build options of `build` (a
        frontend.BuildOptions) applied: the math flags, denormal flushing, -cl-opt-disable and -cl-uniform-work-group-size."""
        return self.replace(fast_math_flags=math_flags(build), denormals_are_zero=build.denorms_are_zero,
                            uniform_work_group_size=build.uniform_work_group_size,
                            opt_level=0 if build.opt_disable else self.opt_level)


# What each OpenCL math option permits (OpenCL API spec 5.8.6.2), as LLVM fast-math flags. The
# spec's implications are written out: unsafe-math includes mad-enable and no-signed-zeros, and
# fast-relaxed-math is unsafe-math plus finite-math-only.
_MATH_OPTION_FLAGS = {
    "mad_enable": ("contract",),
    "no_signed_zeros": ("nsz",),
    "unsafe_math_optimizations": ("reassoc", "nsz", "arcp", "contract", "afn"),
    "finite_math_only": ("nnan", "ninf"),
    "fast_relaxed_math": ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"),
}
LLVM_FLAG_ORDER = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")


def math_flags(build) -> tuple[str, ...]:
    """The LLVM fast-math flags that the math options of `build` allow, in LLVM's order."""
    allowed = {flag for option, flags in _MATH_OPTION_FLAGS.items() if getattr(build, option)
               for flag in flags}
    return tuple(flag for flag in LLVM_FLAG_ORDER if flag in allowed)


DEFAULT_OPTIONS = CompilerOptions()
