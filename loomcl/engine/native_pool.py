"""The worker pool's native half: LLVM IR for the parked workers and the launch call, and its JIT.

Why native: handing a launch to Python threads costs 80-160 µs on a VM (every wake-up of an idle vCPU
is a VM exit), while workers parked in JIT-ed code that spin on an atomic answer in about 1 µs
(../shared/LLVMLITE.md, "Launch cost from Python"). So the whole hand-off lives here; the Python side
(engine/pool.py) only starts the threads, sizes the arenas and calls `loomcl_pool_run` through ctypes
(which releases the GIL). The IR is hand-written text, JIT-ed in this process at the first launch
(jit/llvm.py's compile_ir, under LLVM's one lock): only the code generator runs on it, no IR pipeline.

Protocol (all shared state is in globals of this module; one launch at a time, the Python side holds
a lock around `loomcl_pool_run`):

* `gen` (i32, also the futex word) counts publications. A worker waits for it to change: it spins
  with `pause` for a while (`spin` pauses: SPIN_ITERATIONS, or SPIN_BUSY while other processes use
  the cores, engine/contention.py), then sleeps on a futex (`sleepers` tells the publisher to wake it).
* `join` (i64) is the door of the current launch: high 32 bits = the launch's generation, bit 31 =
  closed, low 31 bits = workers inside. A worker enters with a CAS that checks the generation and the
  closed bit, so a worker that wakes late can never run a stale launch; it leaves with a decrement.
* The caller publishes the region descriptors, opens the door, bumps `gen`, runs chunks itself, then
  closes the door and waits only for the workers that got in (spinning, then yielding the CPU in
  case such a worker was preempted). A worker that never wakes (or a pool
  with no threads at all) therefore cannot hang a launch.
* Groups are claimed in chunks from `next` with `atomicrmw add` (dynamic load balance, Kim ch. 5).
  Regions run one after another; `next` counts across all of them (a flat group index).
* A launch whose work is tiny runs on the caller alone: sharing it saves less than the hand-off
  costs, and a worker that got in and is then preempted (other processes share the cores) makes the
  caller wait for it for a scheduler tick (the heavy tails of small launches under load). Each
  request keeps a note, `solo`, from its last run: a solo run that took under SOLO_NS stays solo; a
  shared run goes solo when the caller's own part of it, times the participants, is under SOLO_NS
  (the caller's part does not include waiting for a late worker, so a preempted worker does not
  keep a small launch shared). A solo run claims no chunk after SOLO_NS (`deadline`): the groups
  left are then shared as in any launch, so a launch whose work grew (the same shape, a bigger loop
  count) loses at most SOLO_NS to the note.

* Each participant runs its chunks through the guard (engine/guard.py, whose IR is part of this module):
  a kernel fault or Ctrl-C ends them early, and `loomcl_pool_run` returns the launch's status
  (0, or STATUS_FAULT / STATUS_CANCELLED / STATUS_CHECK) instead of taking the process down.
  `cancel`, set by the SIGINT handler, is checked at every chunk claim.

The worker exits when `shutdown` is set (at interpreter exit) so no thread is inside JIT-ed code when
the engine goes away. Workers whose index is at or above `allowed` park on the `config` futex, so
`set_thread_count` can shrink the pool without stopping threads.
"""
from __future__ import annotations

import ctypes

from .guard import LIBC_SYMBOLS, SLOT_BYTES, STATUS_CANCELLED, FaultRecord, guard_ir

# struct region: one uniform-local-size part of an NDRange (see abi/kernel.py and engine/ndrange.py).
REGION_IR = "{ ptr, ptr, ptr, i64, i64 }"  # entry, args, launch, first flat group, group count


class LaunchRequest(ctypes.Structure):
    """What `loomcl_pool_run` takes: one pointer, so the ctypes call is as cheap as it gets. `solo`
    is the run's own note (0 at first): whether the next launch of this request runs on the caller
    alone (see SOLO_NS)."""

    _fields_ = [("regions", ctypes.c_void_p), ("count", ctypes.c_int64), ("total", ctypes.c_int64),
                ("solo", ctypes.c_int64)]


class RegionDesc(ctypes.Structure):
    """`struct region` as the native launch reads it."""

    _fields_ = [
        ("entry", ctypes.c_void_p),
        ("args", ctypes.c_void_p),
        ("launch", ctypes.c_void_p),
        ("first", ctypes.c_int64),
        ("count", ctypes.c_int64),
    ]


CHUNKS_PER_THREAD = 8
MAX_CHUNK = 1024
SPIN_ITERATIONS = 20000  # ~0.1-0.3 ms of `pause` before a worker sleeps on the futex
SPIN_BUSY = 100  # ... when other processes want the cores (engine/contention.py): sleep at once
SOLO_NS = 5000  # a launch of less work than this (ns on one thread) runs on the caller alone
CLOSED = 1 << 31
COUNT_MASK = CLOSED - 1
CODEGEN_OPT_LEVEL = 2  # the code generator's level; the IR is hand-written and runs no IR pipeline
ENTRY_POINTS = ("loomcl_pool_worker", "loomcl_pool_run", "loomcl_pool_configure", "loomcl_guard_install",
                "loomcl_guard_install_interrupt", "loomcl_guard_thread_setup", "loomcl_pool_last_fault",
                "loomcl_pool_stop", "loomcl_pool_set_spin")

POOL_IR = r"""
%region = type REGION
%entry_fn = type void (ptr, ptr, i64, i64, ptr)

; The shared state is internal, so the position-independent code reaches it PC-relative, not via a GOT.
@gen = internal global i32 0, align 64
@sleepers = internal global i32 0, align 64
@config = internal global i32 0, align 64
@allowed = internal global i32 0, align 4
@shutdown = internal global i32 0, align 4
@join = internal global i64 0, align 64
@next = internal global i64 0, align 64
@regions = internal global ptr null, align 64
@nregions = internal global i64 0
@total = internal global i64 0
@chunk = internal global i64 1
@deadline = internal global i64 0   ; a solo run's: claim no chunk after it (0: none)
@arenas = internal global ptr null
@spin = internal global i32 SPIN   ; pauses before sleeping (workers) or yielding (the caller's drain)

declare i64 @syscall(i64, ...)
declare i32 @clock_gettime(i32, ptr)
declare i64 @llvm.smax.i64(i64, i64)
declare i64 @llvm.smin.i64(i64, i64)

define internal void @pause() alwaysinline {
  call void asm sideeffect "pause", "~{memory}"()
  ret void
}

define internal i64 @now_ns() {
  %ts = alloca { i64, i64 }, align 8
  %r = call i32 @clock_gettime(i32 1, ptr %ts)   ; CLOCK_MONOTONIC (vDSO: no system call)
  %sp = getelementptr { i64, i64 }, ptr %ts, i64 0, i32 0
  %s = load i64, ptr %sp
  %np = getelementptr { i64, i64 }, ptr %ts, i64 0, i32 1
  %n = load i64, ptr %np
  %sn = mul i64 %s, 1000000000
  %t = add i64 %sn, %n
  ret i64 %t
}

define internal void @futex_wait(ptr %addr, i32 %val) {
  %v = zext i32 %val to i64
  %r = call i64 (i64, ...) @syscall(i64 202, ptr %addr, i64 128, i64 %v, ptr null, ptr null, i64 0)
  ret void
}

define internal void @futex_wake(ptr %addr) {
  %r = call i64 (i64, ...) @syscall(i64 202, ptr %addr, i64 129, i64 2147483647, ptr null, ptr null, i64 0)
  ret void
}

; Wait until *addr != old; spin first, then sleep. Returns the new value.
define internal i32 @wait_change(ptr %addr, i32 %old, ptr %sleepers) {
entry:
  br label %spin
spin:
  %i = phi i32 [ 0, %entry ], [ %i1, %spin_more ], [ 0, %woke ]
  %cur = load atomic i32, ptr %addr acquire, align 4
  %changed = icmp ne i32 %cur, %old
  br i1 %changed, label %done, label %spin_more
spin_more:
  call void @pause()
  %i1 = add i32 %i, 1
  %limit = load atomic i32, ptr @spin monotonic, align 4
  %keep = icmp ult i32 %i1, %limit
  br i1 %keep, label %spin, label %sleep
sleep:
  %s0 = atomicrmw add ptr %sleepers, i32 1 seq_cst
  %cur2 = load atomic i32, ptr %addr seq_cst, align 4
  %same = icmp eq i32 %cur2, %old
  br i1 %same, label %block, label %woke
block:
  call void @futex_wait(ptr %addr, i32 %old)
  br label %woke
woke:
  %s1 = atomicrmw sub ptr %sleepers, i32 1 seq_cst
  br label %spin
done:
  ret i32 %cur
}

; Claim chunks of the flat group range until it is exhausted; run each chunk region by region.
define internal void @run_chunks(ptr %arena) {
entry:
  %total = load i64, ptr @total
  %chunk = load i64, ptr @chunk
  %regs = load ptr, ptr @regions
  %nreg = load i64, ptr @nregions
  br label %claim
claim:
  %cancelled = load atomic i32, ptr @cancel seq_cst, align 4   ; Ctrl-C: claim nothing more
  %stop = icmp ne i32 %cancelled, 0
  br i1 %stop, label %out, label %timed
timed:
  %dl = load i64, ptr @deadline
  %has_dl = icmp ne i64 %dl, 0
  br i1 %has_dl, label %check_dl, label %take
check_dl:
  %now = call i64 @now_ns()
  %past = icmp sgt i64 %now, %dl
  br i1 %past, label %out, label %take
take:
  %start = atomicrmw add ptr @next, i64 %chunk monotonic
  %more = icmp slt i64 %start, %total
  br i1 %more, label %have, label %out
have:
  %end0 = add i64 %start, %chunk
  %short = icmp slt i64 %end0, %total
  %end = select i1 %short, i64 %end0, i64 %total
  br label %region_loop
region_loop:
  %r = phi i64 [ 0, %have ], [ %r1, %region_next ]
  %rp = getelementptr %region, ptr %regs, i64 %r
  %fp = getelementptr %region, ptr %rp, i64 0, i32 3
  %first = load i64, ptr %fp
  %cp = getelementptr %region, ptr %rp, i64 0, i32 4
  %count = load i64, ptr %cp
  %last = add i64 %first, %count
  %lo_in = icmp sgt i64 %start, %first
  %lo = select i1 %lo_in, i64 %start, i64 %first
  %hi_in = icmp slt i64 %end, %last
  %hi = select i1 %hi_in, i64 %end, i64 %last
  %nonempty = icmp slt i64 %lo, %hi
  br i1 %nonempty, label %call, label %region_next
call:
  %ep = getelementptr %region, ptr %rp, i64 0, i32 0
  %fn = load ptr, ptr %ep
  %ap = getelementptr %region, ptr %rp, i64 0, i32 1
  %args = load ptr, ptr %ap
  %lp = getelementptr %region, ptr %rp, i64 0, i32 2
  %launch = load ptr, ptr %lp
  %b = sub i64 %lo, %first
  %e = sub i64 %hi, %first
  call void %fn(ptr %args, ptr %launch, i64 %b, i64 %e, ptr %arena)
  br label %region_next
region_next:
  %r1 = add i64 %r, 1
  %rdone = icmp sge i64 %r1, %nreg
  br i1 %rdone, label %claim, label %region_loop
out:
  ret void
}

define void @loomcl_pool_worker(i64 %index) {
entry:
  call void @loomcl_guard_thread_setup()
  %g0 = load atomic i32, ptr @gen acquire, align 4
  %idx32 = trunc i64 %index to i32
  br label %top
top:
  %last = phi i32 [ %g0, %entry ], [ %last, %parked_done ], [ %g, %try_join ], [ %g, %left ], [ %g, %enter_fail ]
  %sd = load atomic i32, ptr @shutdown acquire, align 4
  %stop = icmp ne i32 %sd, 0
  br i1 %stop, label %exit, label %check_allowed
check_allowed:
  %cfg = load atomic i32, ptr @config acquire, align 4
  %allowed = load atomic i32, ptr @allowed acquire, align 4
  %ok = icmp slt i32 %idx32, %allowed
  br i1 %ok, label %wait_gen, label %parked
parked:
  %sd2 = load atomic i32, ptr @shutdown seq_cst, align 4
  %stop2 = icmp ne i32 %sd2, 0
  br i1 %stop2, label %exit, label %park_block
park_block:
  call void @futex_wait(ptr @config, i32 %cfg)
  br label %parked_done
parked_done:
  br label %top
wait_gen:
  %g = call i32 @wait_change(ptr @gen, i32 %last, ptr @sleepers)
  br label %try_join
try_join:
  %j = load atomic i64, ptr @join acquire, align 8
  %jgen64 = lshr i64 %j, 32
  %jgen = trunc i64 %jgen64 to i32
  %samegen = icmp eq i32 %jgen, %g
  %closed = and i64 %j, CLOSED
  %open = icmp eq i64 %closed, 0
  %can = and i1 %samegen, %open
  br i1 %can, label %enter, label %top
enter:
  %j1 = add i64 %j, 1
  %pair = cmpxchg ptr @join, i64 %j, i64 %j1 acq_rel acquire
  %entered = extractvalue { i64, i1 } %pair, 1
  br i1 %entered, label %work, label %enter_fail
enter_fail:
  br label %top
work:
  %arenas = load ptr, ptr @arenas
  %slot = add i64 %index, 1
  %ap = getelementptr ptr, ptr %arenas, i64 %slot
  %arena = load ptr, ptr %ap
  %table = load ptr, ptr @slots
  %slot_at = mul i64 %slot, SLOT_BYTES
  %own = getelementptr i8, ptr %table, i64 %slot_at
  %ended = call i32 @guarded_chunks(ptr %own, ptr %arena)
  %lv = atomicrmw sub ptr @join, i64 1 release
  br label %left
left:
  br label %top
exit:
  ret void
}

; Run an NDRange. `request` = { ptr regions, i64 nregions, i64 total }: `nregions` descriptors whose
; groups are numbered consecutively, `total` groups in all. The chunk size gives each participant
; about CHUNKS_PER_THREAD chunks (dynamic balance) and is capped at MAX_CHUNK groups. Returns the
; launch's status (engine/guard.py): 0, or why it stopped early.
define i32 @loomcl_pool_run(ptr %request) {
entry:
  store atomic i32 0, ptr @status monotonic, align 4
  store atomic i32 0, ptr @cancel monotonic, align 4
  store atomic i32 1, ptr @running seq_cst, align 4
  %slot0 = load ptr, ptr @slots
  %regs = load ptr, ptr %request
  %np = getelementptr { ptr, i64, i64 }, ptr %request, i64 0, i32 1
  %nreg = load i64, ptr %np
  %tp = getelementptr { ptr, i64, i64 }, ptr %request, i64 0, i32 2
  %total = load i64, ptr %tp
  %sop = getelementptr { ptr, i64, i64, i64 }, ptr %request, i64 0, i32 3
  %solo_note = load i64, ptr %sop
  %noted_solo = icmp ne i64 %solo_note, 0
  %allowed = load atomic i32, ptr @allowed acquire, align 4
  %workers = sext i32 %allowed to i64
  %threads = add i64 %workers, 1
  %per = mul i64 %threads, CHUNKS_PER_THREAD
  %c0 = sdiv i64 %total, %per
  %c1 = call i64 @llvm.smax.i64(i64 %c0, i64 1)
  %chunk = call i64 @llvm.smin.i64(i64 %c1, i64 MAX_CHUNK)
  store ptr %regs, ptr @regions
  store i64 %nreg, ptr @nregions
  store i64 %total, ptr @total
  store i64 %chunk, ptr @chunk
  %nobody = icmp sle i32 %allowed, 0
  %few = icmp sle i64 %total, %chunk
  %alone = or i1 %nobody, %few
  %arenas = load ptr, ptr @arenas
  %arena0 = load ptr, ptr %arenas
  br i1 %alone, label %solo, label %shareable
shareable:
  %t0 = call i64 @now_ns()
  br i1 %noted_solo, label %solo_by_note, label %publish
solo_by_note:
  ; alone until SOLO_NS have passed; then the groups left are shared (the work changed). Chunks
  ; 4x the usual: fewer claims and clock reads, and at most a quarter of a 2-thread launch alone.
  %deadline = add i64 %t0, SOLO_NS
  store i64 %deadline, ptr @deadline
  %solo_chunk = shl i64 %chunk, 2
  store i64 %solo_chunk, ptr @chunk
  store atomic i64 0, ptr @next monotonic, align 8
  %noted_end = call i32 @guarded_chunks(ptr %slot0, ptr %arena0)
  store i64 0, ptr @deadline
  %claimed = load atomic i64, ptr @next monotonic, align 8
  %left = icmp slt i64 %claimed, %total
  %clean = icmp eq i32 %noted_end, 0
  %halted = load atomic i32, ptr @cancel seq_cst, align 4
  %going = icmp eq i32 %halted, 0
  %share0 = and i1 %left, %clean
  %share = and i1 %share0, %going
  br i1 %share, label %escalate, label %solo_done
escalate:
  store i64 %chunk, ptr @chunk
  br label %open
solo_done:
  %t1 = call i64 @now_ns()
  %solo_took = sub i64 %t1, %t0
  %still_small = icmp slt i64 %solo_took, SOLO_NS
  %note1 = zext i1 %still_small to i64
  store i64 %note1, ptr %sop
  br label %finish
solo:
  store atomic i64 0, ptr @next monotonic, align 8
  %solo_end = call i32 @guarded_chunks(ptr %slot0, ptr %arena0)
  br label %finish
publish:
  store atomic i64 0, ptr @next monotonic, align 8
  br label %open
open:
  %g = load i32, ptr @gen
  %g1 = add i32 %g, 1
  %g64 = zext i32 %g1 to i64
  %door = shl i64 %g64, 32
  store atomic i64 %door, ptr @join release, align 8
  store atomic i32 %g1, ptr @gen seq_cst, align 4
  %sl = load atomic i32, ptr @sleepers seq_cst, align 4
  %wake = icmp sgt i32 %sl, 0
  br i1 %wake, label %do_wake, label %own
do_wake:
  call void @futex_wake(ptr @gen)
  br label %own
own:
  %own_end = call i32 @guarded_chunks(ptr %slot0, ptr %arena0)
  %old = atomicrmw or ptr @join, i64 CLOSED acq_rel
  %t2 = call i64 @now_ns()
  %own_took = sub i64 %t2, %t0
  %work_estimate = mul i64 %own_took, %threads
  %small = icmp slt i64 %work_estimate, SOLO_NS
  %note2 = zext i1 %small to i64
  store i64 %note2, ptr %sop
  br label %drain
drain:
  %k = phi i32 [ 0, %own ], [ %k1, %spin ], [ 0, %yield ]
  %j = load atomic i64, ptr @join acquire, align 8
  %inside = and i64 %j, COUNT_MASK
  %empty = icmp eq i64 %inside, 0
  br i1 %empty, label %done, label %spin
spin:
  call void @pause()
  %k1 = add i32 %k, 1
  %limit = load atomic i32, ptr @spin monotonic, align 4
  %patient = icmp ult i32 %k1, %limit
  br i1 %patient, label %drain, label %yield
yield:
  ; a worker inside may have been preempted (other processes share the cores): give it the CPU
  %y = call i64 (i64, ...) @syscall(i64 24)
  br label %drain
done:
  br label %finish
finish:
  store atomic i32 0, ptr @running seq_cst, align 4
  %st = load atomic i32, ptr @status seq_cst, align 4
  %c = load atomic i32, ptr @cancel seq_cst, align 4
  %ok = icmp eq i32 %st, 0
  %interrupted = icmp ne i32 %c, 0
  %late = and i1 %ok, %interrupted
  %result = select i1 %late, i32 STATUS_CANCELLED, i32 %st
  ret i32 %result
}

define void @loomcl_pool_set_spin(i32 %limit) {
  store atomic i32 %limit, ptr @spin monotonic, align 4
  ret void
}

; Called from Python when `allowed` or `shutdown` changed: wake everybody so they re-read them.
define void @loomcl_pool_poke() {
  %c = atomicrmw add ptr @config, i32 1 seq_cst
  %g = atomicrmw add ptr @gen, i32 1 seq_cst
  call void @futex_wake(ptr @config)
  call void @futex_wake(ptr @gen)
  ret void
}

; `slots` holds `nslots` participant slots (engine/guard.py); the table only grows, and the old ones
; stay allocated, so a signal handler reading the table while it changes reads valid memory.
define void @loomcl_pool_configure(i32 %allowed, i32 %shutdown, ptr %arenas, ptr %slots, i64 %nslots) {
  store ptr %arenas, ptr @arenas
  store atomic ptr %slots, ptr @slots release, align 8
  store atomic i64 %nslots, ptr @nslots release, align 8
  store atomic i32 %allowed, ptr @allowed seq_cst, align 4
  store atomic i32 %shutdown, ptr @shutdown seq_cst, align 4
  call void @loomcl_pool_poke()
  ret void
}
"""


def pool_ir() -> str:
    """The pool module's LLVM IR, with the guard's (engine/guard.py), its constants filled in."""
    pool = (
        POOL_IR.replace("REGION", REGION_IR)
        .replace("SPIN", str(SPIN_ITERATIONS))
        .replace("SOLO_NS", str(SOLO_NS))
        .replace("COUNT_MASK", str(COUNT_MASK))
        .replace("CLOSED", str(CLOSED))
        .replace("CHUNKS_PER_THREAD", str(CHUNKS_PER_THREAD))
        .replace("MAX_CHUNK", str(MAX_CHUNK))
        .replace("SLOT_BYTES", str(SLOT_BYTES))
        .replace("STATUS_CANCELLED", str(STATUS_CANCELLED))
    )
    return pool + guard_ir()


class NativePool:
    """The JIT-ed pool functions as ctypes callables; each instance has its own engine and globals.

    The engine lives for the life of the process (jit keeps every engine): worker threads execute its
    code, and freeing it under them at interpreter shutdown would crash the exit. A forked child makes
    a new instance, since the parent's globals describe threads the child does not have.
    """

    def __init__(self) -> None:
        from ..jit import llvm  # (here: importing the engine loads no LLVM)

        llvm.provide_symbols(_libc_symbols())
        address = llvm.compile_ir(pool_ir(), ENTRY_POINTS, CODEGEN_OPT_LEVEL)
        self.worker = ctypes.CFUNCTYPE(None, ctypes.c_int64)(address["loomcl_pool_worker"])
        self.run = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)(address["loomcl_pool_run"])
        self.configure = ctypes.CFUNCTYPE(
            None, ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64
        )(address["loomcl_pool_configure"])
        self.install_guard = ctypes.CFUNCTYPE(None, ctypes.c_int32)(address["loomcl_guard_install"])
        self.install_interrupt = ctypes.CFUNCTYPE(None)(address["loomcl_guard_install_interrupt"])
        self.thread_setup = ctypes.CFUNCTYPE(None)(address["loomcl_guard_thread_setup"])
        self._last_fault = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address["loomcl_pool_last_fault"])
        self.set_spin = ctypes.CFUNCTYPE(None, ctypes.c_int32)(address["loomcl_pool_set_spin"])
        self.stop_address = address["loomcl_pool_stop"]  # void(i32 status), callable from kernel code

    def last_fault(self) -> FaultRecord:
        """The first fault of the last launch whose status was STATUS_FAULT."""
        record = FaultRecord()
        self._last_fault(ctypes.addressof(record))
        return record


def _libc_symbols() -> dict[str, int]:
    """The libc functions the pool calls (futex and sched_yield through `syscall`, the guard's signal
    functions), for the JIT's symbol resolver."""
    libc = ctypes.CDLL(None)
    return {name: ctypes.cast(getattr(libc, name), ctypes.c_void_p).value
            for name in ("syscall", "clock_gettime", *LIBC_SYMBOLS)}
