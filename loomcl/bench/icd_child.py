"""The parent's end of an icd_worker process: start it with the target's environment, ask, time out.

A worker that dies (an ICD that crashes its process) or stops answering (one that hangs) is killed and
reported with its exit status and the end of its stderr; the bench goes on without that column.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import loomcl

from .impls import names_loomcls_icd

STARTUP_S = 300.0       # importing pyopencl and loomcl, and the loader opening the ICDs, on a loaded machine


class ChildFailed(Exception):
    """The worker died, hung or broke the protocol; the message says how."""


def target_env(target: str, vendor_file: Path | None, threads: int | None) -> dict[str, str]:
    """The worker's environment: this loomcl first on its path, the loader pointed at the right ICDs."""
    env = dict(os.environ)
    package_parent = str(Path(loomcl.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
    if threads:
        env["LOOMCL_THREADS"] = str(threads)
    if target.startswith("icd") and vendor_file is not None:
        env["OCL_ICD_VENDORS"] = str(vendor_file)
    elif target == "pocl" and names_loomcls_icd(env.get("OCL_ICD_VENDORS")):
        del env["OCL_ICD_VENDORS"]
    return env


class Child:
    def __init__(self, target: str, env: dict[str, str]):
        self.target = target
        self.failed = ""        # why it stopped answering, once it has
        self._stderr = tempfile.TemporaryFile()
        self._process = subprocess.Popen([sys.executable, "-m", "loomcl.bench.icd_worker", target],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                         env=env, text=True)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def hello(self) -> dict:
        """The worker's first message: {"status": "ok", "device": ...} or why it is unavailable."""
        return self._answer(STARTUP_S)

    def ask(self, command: dict, timeout_s: float) -> dict:
        try:
            self._process.stdin.write(json.dumps(command) + "\n")
            self._process.stdin.flush()
        except OSError:
            pass        # it died: the answer says how
        return self._answer(timeout_s)

    def _answer(self, timeout_s: float) -> dict:
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            self.kill()
            raise ChildFailed(f"no answer within {timeout_s:.0f} s (killed){self._stderr_tail()}") from None
        if line is None:
            self._process.wait()
            raise ChildFailed(f"the process ended ({_exit_status(self._process.returncode)}){self._stderr_tail()}")
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            self.kill()
            raise ChildFailed(f"answered {line.strip()[:200]!r}, not JSON") from None

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        lines = [line for line in self._stderr.read().decode(errors="replace").splitlines() if line.strip()]
        return f": {lines[-1].strip()[:300]}" if lines else ""

    def kill(self) -> None:
        self._process.kill()
        self._process.wait()

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self._process.stdin.write('{"cmd": "quit"}\n')
                self._process.stdin.close()
                self._process.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()
        self._stderr.close()


def _exit_status(code: int) -> str:
    if code < 0:
        return f"killed by signal {-code}"
    return f"exit status {code}"
