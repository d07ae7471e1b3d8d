"""The worker pool's guard: kernel faults and Ctrl-C become a launch status instead of killing the process.

Native, like the rest of the pool (engine/native_pool.py splices this IR into its module), because a signal
handler must not touch Python. Linux on x86-64 with glibc: the layouts of `struct sigaction`,
`siginfo_t`, `stack_t` and `jmp_buf` below are that ABI's.

Faults. A participant (the caller or a worker) runs its chunks of a launch inside `guarded_chunks`,
which records a recovery point with `sigsetjmp` (without saving the signal mask: that would cost a
system call per launch) and marks its slot active. The SIGSEGV/SIGBUS/SIGFPE handler looks for the
active slot of the faulting thread (by pthread_self, which costs no system call); if there is one, the
fault came from kernel code: it records the signal, its code and the faulting address (the first fault
of a launch wins), makes the other participants stop claiming groups (`next` jumps past every range),
and `siglongjmp`s back to the recovery point, which unblocks the signals the mask kept. Otherwise the
fault is not ours and goes to the handler that was installed before (Python's faulthandler, say): its
function is called, or a default or ignored disposition is put back and the signal raised again. Every
participant thread gets an alternate signal stack, so that a kernel that overflows its stack is
caught too.

Ctrl-C. The SIGINT handler is chained in front of Python's: during a launch it sets `cancel` and sends
the cancellation signal (SIGRTMIN + 6, which neither Python nor glibc uses) to every active participant, then calls
Python's handler, which makes Python raise KeyboardInterrupt once the launch returns. The cancellation
signal jumps a participant out of its kernel code through the same recovery point as a fault, so even a
work-item that never terminates is stopped, and kernel code carries no cancellation checks at all:
its cost is zero. A participant between chunks sees `cancel` when it claims the next chunk. The
handler stores `cancel` before it reads the slots and a participant marks its slot before it reads
`cancel` (both sequentially consistent), so a participant is either signalled or sees the flag.
SIGINT blocks the cancellation signal while it runs: a participant that takes the SIGINT itself jumps
out only after Python's handler has seen the signal.
"""
from __future__ import annotations

import ctypes
import signal

# Status of a launch, returned by loomcl_pool_run. The first non-zero status of a launch wins.
STATUS_OK = 0
STATUS_FAULT = 1  # a kernel raised SIGSEGV, SIGBUS or SIGFPE
STATUS_CANCELLED = 2  # SIGINT arrived during the launch
STATUS_CHECK = 3  # reserved for checked mode: a kernel found a violation and stopped the launch

CANCEL_SIGNAL = signal.SIGRTMIN + 6  # glibc keeps SIGRTMIN - 2 and - 1 for itself
FAULT_SIGNALS = (signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE)
SLOT_BYTES = 256  # pthread_t, i32 active, 4 bytes of padding, jmp_buf (200 bytes on x86-64 glibc)
ALT_STACK_BYTES = 64 * 1024
STOP = 1 << 62  # `next` after a fault: past every launch's groups, and far from overflowing

# libc functions the guard calls; the JIT resolves them through llvm.add_symbol (engine/native_pool.py).
LIBC_SYMBOLS = ("__sigsetjmp", "siglongjmp", "sigaction", "sigaltstack", "pthread_sigmask",
                "sigemptyset", "sigaddset", "malloc", "raise", "pthread_self", "pthread_kill")


class FaultRecord(ctypes.Structure):
    """What `loomcl_pool_last_fault` reports about the first fault of the last launch."""

    _fields_ = [("signal", ctypes.c_int32), ("code", ctypes.c_int32), ("address", ctypes.c_uint64)]


GUARD_IR = r"""
%sigaction = type { ptr, [16 x i64], i32, ptr }
%stack = type { ptr, i32, i64 }

@slots = internal global ptr null, align 64    ; SLOT_BYTES per participant: caller 0, worker i at i + 1
@nslots = internal global i64 0
@status = internal global i32 0, align 64
@cancel = internal global i32 0, align 64
@running = internal global i32 0, align 64
@fault_signal = internal global i32 0
@fault_code = internal global i32 0
@fault_address = internal global i64 0
@cancel_signal = internal global i32 0
@saved = internal global [65 x %sigaction] zeroinitializer   ; the handlers we chained in front of

declare i32 @__sigsetjmp(ptr, i32) returns_twice
declare void @siglongjmp(ptr, i32) noreturn
declare i32 @sigaction(i32, ptr, ptr)
declare i32 @sigaltstack(ptr, ptr)
declare i32 @pthread_sigmask(i32, ptr, ptr)
declare i32 @sigemptyset(ptr)
declare i32 @sigaddset(ptr, i32)
declare ptr @malloc(i64)
declare i32 @raise(i32)
declare i64 @pthread_self()
declare i32 @pthread_kill(i64, i32)

; Run chunks of the current launch with a recovery point; returns 0, or the signal that ended them.
define internal i32 @guarded_chunks(ptr %slot, ptr %arena) noinline {
entry:
  %self = call i64 @pthread_self()
  store atomic i64 %self, ptr %slot monotonic, align 8
  %jb = getelementptr i8, ptr %slot, i64 16
  %r = call i32 @__sigsetjmp(ptr %jb, i32 0) returns_twice
  %first = icmp eq i32 %r, 0
  br i1 %first, label %run, label %caught
run:
  %active = getelementptr i8, ptr %slot, i64 8
  store atomic i32 1, ptr %active seq_cst, align 4
  call void @run_chunks(ptr %arena)
  store atomic i32 0, ptr %active release, align 4
  ret i32 0
caught:
  call void @unblock_guard_signals()
  ret i32 %r
}

define internal void @unblock_guard_signals() {
  %set = alloca [16 x i64], align 8
  %e = call i32 @sigemptyset(ptr %set)
  %a1 = call i32 @sigaddset(ptr %set, i32 SIGSEGV)
  %a2 = call i32 @sigaddset(ptr %set, i32 SIGBUS)
  %a3 = call i32 @sigaddset(ptr %set, i32 SIGFPE)
  %cs = load i32, ptr @cancel_signal
  %a4 = call i32 @sigaddset(ptr %set, i32 %cs)
  %m = call i32 @pthread_sigmask(i32 1, ptr %set, ptr null)   ; SIG_UNBLOCK
  ret void
}

; The slot of the calling thread if it is running kernel code, else null.
define internal ptr @own_active_slot() {
entry:
  %self = call i64 @pthread_self()
  %n = load atomic i64, ptr @nslots acquire, align 8     ; before the table: configure grows both
  %table = load atomic ptr, ptr @slots acquire, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %check, label %none
check:
  %off = mul i64 %i, SLOT_BYTES
  %slot = getelementptr i8, ptr %table, i64 %off
  %t = load atomic i64, ptr %slot monotonic, align 8
  %mine = icmp eq i64 %t, %self
  br i1 %mine, label %check_active, label %next
check_active:
  %ap = getelementptr i8, ptr %slot, i64 8
  %a = load atomic i32, ptr %ap seq_cst, align 4
  %on = icmp ne i32 %a, 0
  br i1 %on, label %found, label %next
next:
  %i1 = add i64 %i, 1
  br label %loop
found:
  ret ptr %slot
none:
  ret ptr null
}

; Hand a signal that is not ours to the disposition that was installed before ours.
define internal void @chain(i32 %sig, ptr %info, ptr %context) {
entry:
  %old = getelementptr [65 x %sigaction], ptr @saved, i64 0, i32 %sig
  %h = load ptr, ptr %old
  %hi = ptrtoint ptr %h to i64
  %default = icmp ule i64 %hi, 1      ; SIG_DFL or SIG_IGN
  br i1 %default, label %again, label %call
again:
  ; put the old disposition back and raise again: the signal is blocked in here, so it is delivered
  ; (default: the process ends, as it would have without us) when this handler returns
  %s = call i32 @sigaction(i32 %sig, ptr %old, ptr null)
  %r = call i32 @raise(i32 %sig)
  ret void
call:
  ; an sa_handler takes only the first argument; the x86-64 calling convention ignores the others
  call void %h(i32 %sig, ptr %info, ptr %context)
  ret void
}

; SIGSEGV, SIGBUS, SIGFPE and the cancellation signal.
define internal void @on_fault(i32 %sig, ptr %info, ptr %context) {
entry:
  %cs = load i32, ptr @cancel_signal
  %cancelling = icmp eq i32 %sig, %cs
  %slot = call ptr @own_active_slot()
  %inside = icmp ne ptr %slot, null
  br i1 %inside, label %recover, label %outside
recover:
  %kind = select i1 %cancelling, i32 STATUS_CANCELLED, i32 STATUS_FAULT
  %pair = cmpxchg ptr @status, i32 0, i32 %kind seq_cst seq_cst
  %won = extractvalue { i32, i1 } %pair, 1
  %is_fault = xor i1 %cancelling, true
  %keep = and i1 %won, %is_fault
  br i1 %keep, label %remember, label %leave
remember:
  %cp = getelementptr i8, ptr %info, i64 8
  %code = load i32, ptr %cp
  %ap = getelementptr i8, ptr %info, i64 16
  %address = load i64, ptr %ap
  store i32 %sig, ptr @fault_signal
  store i32 %code, ptr @fault_code
  store i64 %address, ptr @fault_address
  br label %leave
leave:
  store atomic i64 STOP, ptr @next seq_cst, align 8
  %active = getelementptr i8, ptr %slot, i64 8
  store atomic i32 0, ptr %active seq_cst, align 4
  %jb = getelementptr i8, ptr %slot, i64 16
  call void @siglongjmp(ptr %jb, i32 %sig)
  unreachable
outside:
  br i1 %cancelling, label %late, label %not_ours
late:
  ret void   ; a cancellation that arrived after its participant left kernel code
not_ours:
  call void @chain(i32 %sig, ptr %info, ptr %context)
  ret void
}

define internal void @on_interrupt(i32 %sig, ptr %info, ptr %context) {
entry:
  %r = load atomic i32, ptr @running seq_cst, align 4
  %busy = icmp ne i32 %r, 0
  br i1 %busy, label %stop, label %pass
stop:
  store atomic i32 1, ptr @cancel seq_cst, align 4
  call void @signal_active()
  br label %pass
pass:
  call void @chain(i32 %sig, ptr %info, ptr %context)
  ret void
}

; Send the cancellation signal to every participant in kernel code. (A participant's thread is alive
; while its slot is active; if it has just left, glibc's pthread_kill finds it gone, or a thread that
; reuses its descriptor ignores the signal, having no active slot.)
define internal void @signal_active() {
entry:
  %cs = load i32, ptr @cancel_signal
  %n = load atomic i64, ptr @nslots acquire, align 8
  %table = load atomic ptr, ptr @slots acquire, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %check, label %done
check:
  %off = mul i64 %i, SLOT_BYTES
  %slot = getelementptr i8, ptr %table, i64 %off
  %ap = getelementptr i8, ptr %slot, i64 8
  %a = load atomic i32, ptr %ap seq_cst, align 4
  %on = icmp ne i32 %a, 0
  br i1 %on, label %kill, label %next
kill:
  %t = load atomic i64, ptr %slot monotonic, align 8
  %k = call i32 @pthread_kill(i64 %t, i32 %cs)
  br label %next
next:
  %i1 = add i64 %i, 1
  br label %loop
done:
  ret void
}

; Put `handler` in front of the current disposition of `sig`, unless it is there already.
define internal void @install(i32 %sig, ptr %handler, i32 %block) {
entry:
  %cur = alloca %sigaction, align 8
  %q = call i32 @sigaction(i32 %sig, ptr null, ptr %cur)
  %h = load ptr, ptr %cur
  %ours = icmp eq ptr %h, %handler
  br i1 %ours, label %done, label %put
put:
  %new = alloca %sigaction, align 8
  store %sigaction zeroinitializer, ptr %new
  store ptr %handler, ptr %new
  %mask = getelementptr %sigaction, ptr %new, i64 0, i32 1
  %e = call i32 @sigemptyset(ptr %mask)
  %blocks = icmp sgt i32 %block, 0
  br i1 %blocks, label %add, label %set
add:
  %a = call i32 @sigaddset(ptr %mask, i32 %block)
  br label %set
set:
  %fp = getelementptr %sigaction, ptr %new, i64 0, i32 2
  store i32 SA_FLAGS, ptr %fp
  %old = getelementptr [65 x %sigaction], ptr @saved, i64 0, i32 %sig
  %s = call i32 @sigaction(i32 %sig, ptr %new, ptr %old)
  br label %done
done:
  ret void
}

; Install the fault handlers, once: a handler put in front of ours later (faulthandler enabled after
; the first launch) saved ours as its previous one, so going in front of it again would make a cycle.
define void @loomcl_guard_install(i32 %cancel_signal) {
  store i32 %cancel_signal, ptr @cancel_signal
  call void @install(i32 SIGSEGV, ptr @on_fault, i32 0)
  call void @install(i32 SIGBUS, ptr @on_fault, i32 0)
  call void @install(i32 SIGFPE, ptr @on_fault, i32 0)
  call void @install(i32 %cancel_signal, ptr @on_fault, i32 0)
  ret void
}

; Put the SIGINT handler in front of Python's; called again whenever Python installed its handler anew
; (Python's handler never calls a previous one, so this makes no cycle).
define void @loomcl_guard_install_interrupt() {
  %cs = load i32, ptr @cancel_signal
  call void @install(i32 SIGINT, ptr @on_interrupt, i32 %cs)
  ret void
}

; Give the calling thread an alternate signal stack if it has none (leaked with the thread: 64 KiB).
define void @loomcl_guard_thread_setup() {
entry:
  %old = alloca %stack, align 8
  %q = call i32 @sigaltstack(ptr null, ptr %old)
  %fp = getelementptr %stack, ptr %old, i64 0, i32 1
  %flags = load i32, ptr %fp
  %off = and i32 %flags, 2      ; SS_DISABLE
  %none = icmp ne i32 %off, 0
  br i1 %none, label %make, label %done
make:
  %memory = call ptr @malloc(i64 ALT_STACK_BYTES)
  %got = icmp ne ptr %memory, null
  br i1 %got, label %set, label %done
set:
  %new = alloca %stack, align 8
  store %stack { ptr null, i32 0, i64 ALT_STACK_BYTES }, ptr %new
  store ptr %memory, ptr %new
  %s = call i32 @sigaltstack(ptr %new, ptr null)
  br label %done
done:
  ret void
}

; End the current launch early with `status` (the first status of a launch wins): no participant claims
; another group. For kernel code that finds a violation (checked mode).
define void @loomcl_pool_stop(i32 %status) {
  %pair = cmpxchg ptr @status, i32 0, i32 %status seq_cst seq_cst
  store atomic i64 STOP, ptr @next seq_cst, align 8
  ret void
}

define void @loomcl_pool_last_fault(ptr %out) {
  %s = load i32, ptr @fault_signal
  store i32 %s, ptr %out
  %c = load i32, ptr @fault_code
  %cp = getelementptr i8, ptr %out, i64 4
  store i32 %c, ptr %cp
  %a = load i64, ptr @fault_address
  %ap = getelementptr i8, ptr %out, i64 8
  store i64 %a, ptr %ap
  ret void
}
"""

SA_SIGINFO, SA_ONSTACK = 0x4, 0x08000000


def guard_ir() -> str:
    """The guard's IR with its constants filled in (spliced into the pool module)."""
    constants = {
        "SLOT_BYTES": SLOT_BYTES,
        "ALT_STACK_BYTES": ALT_STACK_BYTES,
        "STATUS_CANCELLED": STATUS_CANCELLED,
        "STATUS_FAULT": STATUS_FAULT,
        "SA_FLAGS": SA_SIGINFO | SA_ONSTACK,
        "STOP": STOP,
        "SIGSEGV": int(signal.SIGSEGV),
        "SIGBUS": int(signal.SIGBUS),
        "SIGFPE": int(signal.SIGFPE),
        "SIGINT": int(signal.SIGINT),
    }
    text = GUARD_IR
    for name, value in constants.items():
        text = text.replace(name, str(value))
    return text
