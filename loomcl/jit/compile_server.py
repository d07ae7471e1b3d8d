"""The compile server: LLVM's optimizer and code generator in a process of their own.

llvmlite's LLVM is built with assertions on, and an LLVM bug (an assertion, a crash, a compile that
never ends) would otherwise take the user's process down. The client (compile_client.py) starts this
file as a script, `python compile_server.py`, and keeps it for the next kernel; when it dies, only the
build fails. It imports nothing but the standard library, llvmlite and nontemporal.py, so it starts in
~0.1 s. It is the only place where kernels meet LLVM's optimizer; in the user's process LLVM is
reached only through llvm.py.

Protocol, over the server's stdin and stdout: a frame is an 8-byte little-endian length and that many
bytes. A request is two frames, a JSON header (`cpu`, `features`, `triple`, `opt_level`, `vectorize`,
`interleave`, `unroll`, `streaming`: parameters whose stores stream (nontemporal.py), `emit`:
"object", "assembly" or "llvm") and the LLVM IR text; the answer is two
frames, a JSON header (`ok`) and the result (the object file, the text, or the error message). LLVM
writes its messages (an assertion's, too) to stderr, which the client captures.
"""
from __future__ import annotations

import json
import os
import signal
import struct
import sys

import llvmlite.binding as llvm

try:
    from .nontemporal import mark_nontemporal
except ImportError:  # run as a script: this file's folder is on sys.path
    from nontemporal import mark_nontemporal

_LENGTH = struct.Struct("<Q")
LENGTH_BYTES = _LENGTH.size


def read_frame(stream) -> bytes | None:
    """One frame from a binary stream; None at a clean end of input."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    body = stream.read(size)
    if len(body) < size:
        return None
    return body


def frame_length(head: bytes) -> int:
    return _LENGTH.unpack(head)[0]


def frame(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


def optimize(module, machine, opt_level: int, vectorize: bool, interleave: bool, unroll: bool) -> None:
    """Run LLVM's O-level pipeline on `module` in place, with the vectorizers as asked."""
    pto = llvm.create_pipeline_tuning_options(speed_level=opt_level)
    pto.loop_vectorization = vectorize
    pto.slp_vectorization = vectorize
    pto.loop_interleaving = interleave
    pto.loop_unrolling = unroll
    pass_builder = llvm.create_pass_builder(machine, pto)
    pass_builder.getModulePassManager().run(module, pass_builder)


class Compiler:
    """Target machines by (cpu, features, opt level), made once per server."""

    def __init__(self) -> None:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        llvm.initialize_native_asmparser()
        self._machines = {}

    def machine(self, job: dict):
        key = (job["triple"], job["cpu"], job["features"], job["opt_level"])
        if key not in self._machines:
            target = llvm.Target.from_triple(job["triple"])
            self._machines[key] = target.create_target_machine(
                cpu=job["cpu"], features=job["features"], opt=job["opt_level"], reloc="pic", codemodel="default")
        return self._machines[key]

    def run(self, job: dict, text: str) -> bytes:
        machine = self.machine(job)
        module = llvm.parse_assembly(text)
        module.verify()
        optimize(module, machine, job["opt_level"], job["vectorize"], job["interleave"], job["unroll"])
        if job.get("streaming"):
            module = llvm.parse_assembly(mark_nontemporal(str(module), job["streaming"]))
        if job["emit"] == "object":
            return machine.emit_object(module)
        if job["emit"] == "assembly":
            return machine.emit_assembly(module).encode()
        return str(module).encode()


def serve(requests, answers) -> None:
    compiler = Compiler()
    while True:
        header, text = read_frame(requests), read_frame(requests)
        if header is None or text is None:
            return  # the client closed the pipe: it is done, or gone
        try:
            result, ok = compiler.run(json.loads(header), text.decode()), True
        except Exception as error:  # a Python-level failure (LLVM rejected the text): report, keep serving
            result, ok = f"{type(error).__name__}: {error}".encode(), False
        answers.write(frame(json.dumps({"ok": ok}).encode()) + frame(result))
        answers.flush()


def main() -> None:
    # Ctrl-C at the terminal reaches the whole process group; the client decides what an interrupt
    # means (it kills a server it stops waiting for), so the server itself ignores it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The protocol owns the original stdout; anything else printing to fd 1 lands on stderr instead.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
