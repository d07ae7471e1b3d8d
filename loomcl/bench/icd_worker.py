"""A child process that runs icd_ops on one target, driven by icd_section through its stdin and stdout.

    python -m loomcl.bench.icd_worker loomcl|icd|pocl

`loomcl` is loomcl's own Python API, `icd` is pyopencl on loomcl's ICD (the parent points
OCL_ICD_VENDORS at loomcl's vendor file), `pocl` is pyopencl on PoCL. Each target gets a process of
its own: an ICD loader reads OCL_ICD_VENDORS once per process, and a crash or a hang in an ICD under
development then costs its column, not the bench. `icd-split` is `icd` with a clock around each of
the ICD's entry points, which tells a call's time inside loomcl from pyopencl's own (the Python and
C++ around the OpenCL calls, and the loader); the clock costs a little on every OpenCL call, so this
process only splits calls, and `icd` times them.

Protocol, one JSON object per line: the worker first answers {"status": "ok", "device": ...} or
{"status": "unavailable", "reason": ...}; then for each command {"cmd": "prepare"|"time"|"check",
"op": NAME, "n": N[, "count": K]} it answers {"status": "ok", ...} (prepare: "seconds", a typical
call; time: "us", one entry per call, and for icd-split "inside_us", the part of each inside loomcl's
entry points) or {"status": "mismatch"|"error", "reason": ...}.
"""
from __future__ import annotations

import json
import os
import sys
import time
import warnings

from . import impls
from .configs import CONFIGS
from .icd_ops import BY_NAME, Ready, Session, inputs
from .runner import compare

LOOMCL_PLATFORM = "loomcl"


def open_target(target: str) -> tuple[Session, str] | str:
    """(the target's session, its device's name), or why it is not available."""
    if target == "loomcl":
        impl = impls.open_loomcl(CONFIGS["default"], None)
    elif target == "pocl":
        impl = impls.open_pocl()
    elif target == "icd":
        impl = _open_icd()
    elif target == "icd-split":
        if not install_clock():
            return "loomcl.icd.entry has no implementations() to put a clock around"
        impl = _open_icd()
    else:
        return f"unknown target {target!r}"
    if isinstance(impl, str):
        return impl.split(" not available: ", 1)[-1]    # the section names the target itself
    # A queue as users make it: no profiling, which costs PoCL time stamps on every command.
    return Session(impl.cl, impl.context, impl.cl.CommandQueue(impl.context)), impl.device_name


def _open_icd() -> impls.Implementation | str:
    try:
        import pyopencl as cl
    except Exception as exc:  # noqa: BLE001 - any import failure means "not available"
        return f"pyopencl does not import ({exc})"
    vendors = os.environ.get("OCL_ICD_VENDORS", "(unset)")
    try:
        platforms = cl.get_platforms()
    except Exception as exc:  # noqa: BLE001
        return f"the ICD loader lists no platform with OCL_ICD_VENDORS={vendors} ({impls.first_line(str(exc))})"
    for platform in platforms:
        if platform.name == LOOMCL_PLATFORM:
            return impls.open_device("pyopencl→loomcl", "icd", cl, platform.get_devices()[0], "")
    return f"the ICD loader does not list loomcl's platform with OCL_ICD_VENDORS={vendors}"


INSIDE = [0.0]      # seconds spent inside loomcl's ICD entry points, once install_clock() has run


def install_clock() -> bool:
    """Put a clock around each entry point loomcl's ICD builds its dispatch table from; must run before
    pyopencl first lists the platforms (the ICD library enters this same interpreter's loomcl)."""
    try:
        from loomcl.icd import entry
        implementations = entry.implementations
    except (ImportError, AttributeError):
        return False

    def clocked(function, clock=time.perf_counter, inside=INSIDE):
        def call(*args):
            start = clock()
            try:
                return function(*args)
            finally:
                inside[0] += clock() - start
        return call

    entry.implementations = lambda: {name: clocked(f) for name, f in implementations().items()}
    return True


class Worker:
    def __init__(self, session: Session, split: bool = False):
        self.session, self.split = session, split
        self.ready: dict[tuple[str, int], Ready] = {}

    def handle(self, command: dict) -> dict:
        op, key = BY_NAME[command["op"]], (command["op"], command["n"])
        try:
            if command["cmd"] == "prepare":
                self.ready[key] = op.setup(self.session, *inputs(command["n"]))
                checked = self.check(op, key)
                return checked if checked["status"] != "ok" else {"status": "ok", "seconds": self.typical(key)}
            if command["cmd"] == "time":
                inside = []
                us = self.time(key, command["count"], inside)
                return {"status": "ok", "us": us, **({"inside_us": inside} if self.split else {})}
            if command["cmd"] == "check":
                return self.check(op, key)
        except Exception as exc:  # noqa: BLE001 - a failing call only loses its cell
            return {"status": "error", "reason": f"{type(exc).__name__}: {impls.first_line(str(exc))}"}
        return {"status": "error", "reason": f"unknown command {command['cmd']!r}"}

    def check(self, op, key) -> dict:
        ready = self.ready[key]
        result = ready.run()
        self.session.queue.finish()
        agreement = compare(op.name, ready.read(result), op.reference(*inputs(key[1])), op.tolerance)
        return {"status": "ok"} if agreement.ok else {"status": "mismatch", "reason": agreement.message}

    def typical(self, key) -> float:
        """Seconds per call after the check's warm-up: the median of three (sets how many to time)."""
        return sorted(t * 1e-6 for t in self.time(key, 3))[1]

    def time(self, key, count: int, inside: list[float] | None = None) -> list[float]:
        """µs of each of `count` calls; `inside` gets the µs of each spent inside loomcl's ICD."""
        run, finish = self.ready[key].run, self.session.queue.finish
        times = []
        for _ in range(count):
            INSIDE[0] = 0.0
            start = time.perf_counter()
            run()
            finish()
            times.append((time.perf_counter() - start) * 1e6)
            if inside is not None:
                inside.append(INSIDE[0] * 1e6)
        return times


def main(argv: list[str]) -> int:
    # The replies own the real stdout; anything else printed (a build log, a warning) goes to stderr.
    channel = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    warnings.simplefilter("ignore")   # pyopencl's CompilerWarning for PoCL's build chatter

    def reply(message: dict) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    opened = open_target(argv[0] if argv else "")
    if isinstance(opened, str):
        reply({"status": "unavailable", "reason": opened})
        return 0
    session, device = opened
    reply({"status": "ok", "device": device})
    worker = Worker(session, split=argv[0] == "icd-split")
    for line in sys.stdin:
        command = json.loads(line)
        if command.get("cmd") == "quit":
            break
        reply(worker.handle(command))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
