"""Productive micro-profiling (Kim, ch. 7): a launch chooses among compiled variants of its kernel by
timing them on some of its own work-groups, and keeps their results.

When a kernel is launched again with a (local size, argument shape class) (shape_class.py) and its
first such launch took MIN_LAUNCH_NS or more, the runtime compiles the variants of variants.py for
it: in the background, one selection at a time, while the launches run the program as built
(`LOOMCL_MICROPROFILE=sync`: before the first launch, for reproducible runs and tests). A kernel
launched once, or briefly, compiles nothing more: its variants could only serve later launches, and
would not earn back their compile time.

Once they are ready, a launch runs profiling rounds. A round gives every variant two slices of
`size` consecutive groups, in the order A B C C B A (rotated from round to round), and times each
(the pool runs a slice like a launch: group_slices.py); the mirrored order cancels work that grows
or shrinks along the range. The rounds are spread over the whole NDRange, so that they sample all of
its workload (Mandelbrot's rows outside the set cost little and favour other code than those inside
it). Every group runs exactly once, by one variant, and its results are kept: the variants are the
same kernel, so a group's outputs are the same whichever computes it (Kim 7.2.2, "fully
productive"). The groups between the rounds run afterwards with the winner, or before the choice
with the best variant so far (Kim's eager execution). After ROUNDS rounds, in one launch or gathered
over several smaller ones, the variant with the lowest median of its per-round time relative to the
round's fastest wins (a variant more than DROP_RATIO times slower than a round's fastest twice leaves
the race, so that small launches, mostly profiling rounds, pay little for a hopeless variant): the normalization within a round cancels work that differs between rounds,
the median a round that the machine disturbed. The winner is installed in the kernel's launch plans
(LaunchPlan.install) and remembered on disk (choices.py); a later process compiles only the winner.

Slices aim at SLICE_NS each, as estimated from earlier timed runs (else a first round, not counted,
calibrates them and warms the caches), and hold at least MIN_SLICE_PER_THREAD groups per thread; the
rounds of one launch take at most 1/PROFILE_SHARE of its groups (all of them in a launch too small
for that), and a launch with no room for one round runs the default.

What is profiled: launches of at least MIN_GROUPS work-groups of kernels built with `microprofile`
on (`-loomcl-no-microprofile`, LOOMCL_MICROPROFILE=0 and checked mode turn it off), without printf (the
printing is such a launch's cost and its order its point), whose regions share one arena layout.
Smaller launches run the program as built and compile nothing more. Events time a profiled launch as
a whole (the rounds run inside the command, like its other groups).
"""
from __future__ import annotations

import os
import queue
import statistics
import threading
import time
from dataclasses import dataclass

from . import choices, variants
from .group_slices import GroupSlice
from .shape_class import choice_key, shape_class

ENVIRONMENT = "LOOMCL_MICROPROFILE"  # 0/off: never; sync: compile variants before the first launch
FORCE_ENVIRONMENT = "LOOMCL_MICROPROFILE_FORCE"  # tests: this variant wins whatever the times say
OFF, SYNC, BACKGROUND = "off", "sync", "background"

MIN_GROUPS = 16
MIN_LAUNCH_NS = 1_000_000
ROUNDS = 5
PROFILE_SHARE = 4
SLICE_NS = 1_000_000
MIN_SLICE_PER_THREAD = 1
DROP_RATIO = 3.0


@dataclass
class Stats:
    """What micro-profiling did in this process (tests read it; so may a curious user)."""
    selections: int = 0         # (kernel code, shape class) pairs met
    variants_compiled: int = 0  # variant work-group functions compiled (the default not counted)
    variant_failures: int = 0   # variants that did not compile (the kernel runs without them)
    profiled_launches: int = 0
    profiled_groups: int = 0
    decisions: int = 0
    remembered: int = 0         # choices taken from disk


stats = Stats()


def mode() -> str:
    text = os.environ.get(ENVIRONMENT, "").strip().lower()
    if text in ("0", "off", "no", "false"):
        return OFF
    return SYNC if text == "sync" else BACKGROUND


class Candidate:
    """A variant compiled for every region of a selection: its functions, its entries in batch order."""

    __slots__ = ("name", "functions", "entries")

    def __init__(self, name: str, functions: dict, local_sizes: tuple) -> None:
        self.name, self.functions = name, functions
        self.entries = tuple(functions[size].address for size in local_sizes)

    def same_code(self, other: Candidate) -> bool:
        return all(f.code_key == other.functions[size].code_key for size, f in self.functions.items())

    def same_layout(self, other: Candidate) -> bool:
        """The same groups for the same indices (a slice's groups must be the ones no other variant
        runs: the walk over groups, in rows or tiles, must agree) and the same arena (local arguments
        at the same offsets, as big)."""
        return all(_layout(f) == _layout(other.functions[size]) for size, f in self.functions.items())


def _layout(function) -> tuple:
    return function.group_tile, function.static_local_bytes, function.private_bytes


class Selection:
    """The variant choice for one kernel code and shape class, shared by the plans of that class."""

    def __init__(self, kernel_name: str, key: str, shape: str, default: Candidate, compile_variant) -> None:
        self.kernel_name, self.key, self.shape = kernel_name, key, shape
        self.default = default
        self._compile_variant = compile_variant  # (local size, switches) -> WorkGroupFunction
        self.candidates: list[Candidate] | None = None  # None while they compile
        self.winner: Candidate | None = None
        self.rounds: list[dict[str, float]] = []  # per round: variant name -> ns per group
        self.estimate_ns = 0.0  # ns per group of the default, from the last timed run
        self.lock = threading.Lock()
        self.ready = threading.Event()  # set when the candidates are known (or the winner was remembered)
        self._requested = False  # the background compile of the candidates was asked for
        self.remembered = False  # the winner came from disk (choices.py)
        self._strikes: dict[str, int] = {}  # rounds in which a candidate was DROP_RATIO behind

    # -- compiling ------------------------------------------------------------------------------

    def start(self, how: str) -> None:
        """Take the remembered winner, or compile the candidates now (SYNC); in the background
        they compile when a second launch shows the kernel worth them (`run`)."""
        remembered = choices.load(self.key)
        if remembered is not None:
            found = self.default if remembered == self.default.name else self._candidate(variants.named(remembered))
            if found is not None:
                self.winner, self.remembered = found, True
                stats.remembered += 1
                self.ready.set()
                return
        if how == SYNC:
            self.compile_candidates()

    def compile_candidates(self) -> None:
        found = [self.default]
        try:
            for variant in variants.VARIANTS[1:]:
                candidate = self._candidate(variant)
                if candidate is not None and not any(candidate.same_code(c) for c in found):
                    found.append(candidate)
        finally:
            with self.lock:
                self.candidates = found
                if len(found) == 1:
                    self._decide({self.default.name: 1.0})
            self.ready.set()

    def _candidate(self, variant: variants.Variant) -> Candidate | None:
        """`variant` compiled for every region, or None: it did not compile, or lays out the arena
        differently (local arguments would move)."""
        try:
            functions = {size: self._compile_variant(size, variant.switches) for size in self.default.functions}
        except Exception:  # noqa: BLE001 - a variant is optional: the kernel runs as built without it
            stats.variant_failures += 1
            return None
        stats.variants_compiled += len(functions)
        candidate = Candidate(variant.name, functions, tuple(self.default.functions))
        return candidate if candidate.same_layout(self.default) else None

    # -- running --------------------------------------------------------------------------------

    def run(self, plan, pool, arena: int, block, image: bytes):
        """Run all groups of `plan` (one batch), profiling as far as this launch allows; the pool's
        LaunchFailure or None."""
        batch = plan.batches[0]
        if self.winner is not None:
            plan.install(self.winner.functions)
            plan.selection = None
            return pool.run(batch.request_pointer, batch.total_groups, arena, block, image)
        if self.candidates is None:
            if self.worth_variants(batch.total_groups):  # launched again, and long enough
                self._requested = True
                _BACKGROUND.submit(self)
            failure = self._run_default(pool, batch, arena, block, image)
            if not self._requested and self.estimate_ns * batch.total_groups < MIN_LAUNCH_NS:
                plan.selection = None  # too brief to be worth variants: its launches stop being timed
            return failure
        if not self.lock.acquire(blocking=False):  # another queue's launch is profiling it
            return self._run_default(pool, batch, arena, block, image)
        try:
            return self._profile(plan, pool, batch, arena, block, image)
        finally:
            self.lock.release()

    def worth_variants(self, groups: int) -> bool:
        """A launch like an earlier one that took MIN_LAUNCH_NS or more: start compiling variants."""
        return not self._requested and self.estimate_ns > 0 and self.estimate_ns * groups >= MIN_LAUNCH_NS

    def _run_default(self, pool, batch, arena, block, image):
        start = time.perf_counter_ns()
        failure = pool.run(batch.request_pointer, batch.total_groups, arena, block, image)
        self.estimate_ns = (time.perf_counter_ns() - start) / batch.total_groups
        return failure

    def _profile(self, plan, pool, batch, arena, block, image):
        total, count = batch.total_groups, len(self.candidates)
        smallest = MIN_SLICE_PER_THREAD * pool.thread_count
        span = 2 * count * smallest  # the groups of the smallest round
        budget = total // PROFILE_SHARE if total >= PROFILE_SHARE * ROUNDS * span else total
        if budget < span:
            return self._run_default(pool, batch, arena, block, image)
        stats.profiled_launches += 1
        ran = []  # the [begin, end) ranges run so far
        if self.estimate_ns == 0:  # a first round sizes the slices and warms the caches; not counted
            times, failure = self._round(pool, batch, 0, smallest, arena, block, image)
            if failure is not None:
                return failure
            self.estimate_ns = min(times.values())
            ran.append((0, span))
        start = ran[-1][1] if ran else 0
        room = min(budget, total) - start
        left = ROUNDS - len(self.rounds)
        size = self._slice_size(smallest, room // (2 * count * left))
        rounds = min(left, room // (2 * count * size))
        stride = (total - start) // max(rounds, 1)  # rounds spread over the launch: its whole workload
        for index in range(rounds):
            begin = start + index * stride
            if len(self.candidates) == 1:
                break
            times, failure = self._round(pool, batch, begin, size, arena, block, image)
            if failure is not None:
                return failure
            self.rounds.append(times)
            ran.append((begin, begin + 2 * len(times) * size))
            self._drop_hopeless(times)
        stats.profiled_groups += sum(end - begin for begin, end in ran)
        if len(self.rounds) >= ROUNDS or len(self.candidates) == 1:
            self._decide(self.scores())
            plan.install(self.winner.functions)
            plan.selection = None
        return self._run_gaps(pool, batch, ran, self.winner or self._best_so_far(), arena, block, image)

    def _run_gaps(self, pool, batch, ran: list, best: Candidate, arena, block, image):
        """The groups that no round ran, with `best`."""
        position = 0
        for begin, end in ran + [(batch.total_groups, batch.total_groups)]:
            if position < begin:
                part = GroupSlice(batch, best.entries, position, begin)
                failure = pool.run(part.pointer, part.groups, arena, block, image)
                if failure is not None:
                    return failure
            position = end
        return None

    def _best_so_far(self) -> Candidate:
        if not self.rounds:
            return self.default
        scores = self.scores()
        return min(self.candidates, key=lambda c: scores[c.name])

    def _slice_size(self, smallest: int, room: int) -> int:
        """Groups per slice: about SLICE_NS of work by the last estimate, within `room`."""
        wanted = int(SLICE_NS / self.estimate_ns) if self.estimate_ns > 0 else smallest
        return max(smallest, min(wanted, room))

    def _round(self, pool, batch, position: int, size: int, arena, block, image):
        """Two slices of `size` groups per candidate from `position` on, in the order A B C C B A
        (rotated by the rounds so far), so that work that grows or shrinks along the range weighs
        on all alike: (ns per group by name, the pool's failure or None)."""
        turn = len(self.rounds) % len(self.candidates)
        order = self.candidates[turn:] + self.candidates[:turn]
        times = dict.fromkeys((c.name for c in order), 0.0)
        for candidate in order + order[::-1]:
            elapsed, failure = _timed(pool, GroupSlice(batch, candidate.entries, position, position + size),
                                      arena, block, image)
            if failure is not None:
                return times, failure
            times[candidate.name] += elapsed / (2 * size)
            position += size
        return times, None

    # -- choosing -------------------------------------------------------------------------------

    def _drop_hopeless(self, times: dict[str, float]) -> None:
        """A candidate more than DROP_RATIO times slower than the fastest in two counted rounds
        leaves the race (a scalar variant of a vectorizable kernel is 5-10x slower): a small launch
        whose groups are mostly profiling rounds pays for it twice, not ROUNDS times. Two, since a
        slice that the machine preempted can look that slow once; counted rounds, since in the
        calibrating one each variant's code and data are touched for the first time. (The forced
        winner of the tests stays.)"""
        fastest = min(times.values())
        for name, value in times.items():
            if value > DROP_RATIO * fastest and value != fastest:
                self._strikes[name] = self._strikes.get(name, 0) + 1
        forced = os.environ.get(FORCE_ENVIRONMENT, "")
        self.candidates = [c for c in self.candidates if self._strikes.get(c.name, 0) < 2 or c.name == forced]

    def scores(self) -> dict[str, float]:
        """Per remaining variant, the median over rounds of its time relative to the round's fastest."""
        ratios: dict[str, list[float]] = {c.name: [] for c in self.candidates}
        for times in self.rounds:
            fastest = min(times.values()) or 1e-9
            for name in ratios:
                if name in times:
                    ratios[name].append(times[name] / fastest)
        return {name: statistics.median(values) if values else 1.0 for name, values in ratios.items()}

    def _decide(self, scores: dict[str, float]) -> None:
        by_name = {c.name: c for c in self.candidates}
        forced = os.environ.get(FORCE_ENVIRONMENT, "")
        name = forced if forced in by_name else min(scores, key=scores.get)
        self.winner = by_name[name]
        stats.decisions += 1
        choices.store(self.key, name, {"kernel": self.kernel_name, "shape": self.shape, "rounds": len(self.rounds),
                                       "scores": {n: round(s, 4) for n, s in scores.items()}})


def _timed(pool, part: GroupSlice, arena: int, block, image) -> tuple[int, object]:
    start = time.perf_counter_ns()
    failure = pool.run(part.pointer, part.groups, arena, block, image)
    return time.perf_counter_ns() - start, failure


def attach(plan, args, signature, options, compile_variant, selections: dict, threads: int) -> None:
    """Let `plan`'s launches choose their variant: install the known winner of its class, or give
    the plan the class's selection (made, and its variants compiled or loaded, on first meeting).
    `compile_variant(local size, switches)` compiles the kernel with variant switches; `selections`
    is the kernel's, by choice key."""
    how = mode()
    if (how == OFF or not options.uses_microprofile or signature.uses_printf or len(plan.batches) != 1
            or plan.batches[0].total_groups < MIN_GROUPS):
        return
    batch = plan.batches[0]
    functions = {function.local_size: function for _, function in plan.regions}
    if not all(f.code_key for f in functions.values()):
        return  # code that the cache cannot name (tests' hand-written kernels): nothing to remember it by
    shape = shape_class(plan, batch, args, threads)
    key = choice_key(shape, (functions[size] for size in batch.local_sizes))
    selection = selections.get(key)
    if selection is None:
        default = Candidate(variants.DEFAULT.name, functions, batch.local_sizes)
        selection = selections[key] = Selection(signature.name, key, shape, default, compile_variant)
        stats.selections += 1
        selection.start(how)
    if selection.winner is not None:
        plan.install(selection.winner.functions)
    else:
        plan.selection = selection


def choices_of(kernel) -> dict[str, str | None]:
    """A kernel's selections: shape class -> the chosen variant's name (None while undecided)."""
    return {s.shape: s.winner.name if s.winner else None for s in kernel._selections.values()}


class _BackgroundCompiles:
    """One daemon thread compiling the selections' variants in turn: at most one variant compile
    competes with the program's own work at a time."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, selection: Selection) -> None:
        self._queue.put(selection)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name="loomcl-variants", daemon=True)
                self._thread.start()

    def _serve(self) -> None:
        while True:
            self._queue.get().compile_candidates()


_BACKGROUND = _BackgroundCompiles()


def _forget_thread_in_child() -> None:
    """A forked child has no compile thread (nor the parent's queue): it starts its own."""
    global _BACKGROUND
    _BACKGROUND = _BackgroundCompiles()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_thread_in_child)
