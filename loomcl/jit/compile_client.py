"""Running LLVM's optimizer and code generator in compile servers (compile_server.py), so that no LLVM
failure kills the user's process.

A server is started at the first cache miss that needs one (a cache hit starts no process) and kept for
the next compile; several threads compiling at once get a server each, up to the number of cores. When
a server dies (an LLVM assertion aborts it, a crash) or takes longer than `LOOMCL_COMPILE_TIMEOUT`
seconds (default 120; then it is killed), the compile raises `LLVMFailure` carrying what LLVM printed,
and the next compile starts a fresh server. A server's stderr goes to an anonymous temporary file:
the text it gained during a failed request is the failure's message; after a successful one it is
passed on to this process's stderr, as if LLVM had run here.
"""
from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import warnings
from pathlib import Path

import llvmlite

from . import compile_server
from .errors import JITError, LLVMFailure
from .llvm import numbered_lines

DEFAULT_TIMEOUT_S = 120.0
_SERVER_SCRIPT = Path(compile_server.__file__)


def compile_timeout() -> float:
    """`LOOMCL_COMPILE_TIMEOUT` in seconds; an unusable value warns and gives the default."""
    text = os.environ.get("LOOMCL_COMPILE_TIMEOUT", "")
    if not text:
        return DEFAULT_TIMEOUT_S
    try:
        seconds = float(text)
        if seconds > 0:
            return seconds
    except ValueError:
        pass
    warnings.warn(f"LOOMCL_COMPILE_TIMEOUT={text!r} is not a positive number of seconds; "
                  f"using {DEFAULT_TIMEOUT_S:g}", RuntimeWarning, stacklevel=3)
    return DEFAULT_TIMEOUT_S


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


class ServerGone(Exception):
    """The server stopped answering: it died, or it was killed for taking too long."""


class CompileServer:
    """One server process and the pipes to it; used by one thread at a time."""

    def __init__(self) -> None:
        self.log = tempfile.TemporaryFile()
        env = dict(os.environ)
        # The server needs llvmlite from wherever this process found it.
        site = str(Path(llvmlite.__file__).parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (site, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen([sys.executable, str(_SERVER_SCRIPT)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.log, env=env)

    def request(self, header: dict, text: str, timeout: float) -> tuple[bool, bytes, str]:
        """(ok, result, what LLVM printed meanwhile); raises ServerGone with LLVM's last words.
        The timeout is a timer that kills the server, which ends the blocked read (portable: Windows
        cannot select() on pipes)."""
        start = self.log.seek(0, os.SEEK_END)
        expired = threading.Event()
        timer = threading.Timer(timeout, lambda: (expired.set(), self.kill()))
        timer.daemon = True
        timer.start()
        try:
            self.process.stdin.write(compile_server.frame(json.dumps(header).encode())
                                     + compile_server.frame(text.encode()))
            self.process.stdin.flush()
            answer = json.loads(self._read_frame())
            result = self._read_frame()
        except (OSError, EOFError, ValueError):
            timer.cancel()
            if expired.is_set():
                raise ServerGone(f"LLVM did not finish within {timeout:g} s (LOOMCL_COMPILE_TIMEOUT); "
                                 f"the compile was stopped.\n{self._printed_since(start)}".rstrip()) from None
            raise ServerGone(self._death_message(start)) from None
        except BaseException:  # KeyboardInterrupt mid-request: the protocol is out of step
            self.kill()
            raise
        finally:
            timer.cancel()
        return answer["ok"], result, self._printed_since(start)

    def _read_frame(self) -> bytes:
        size = compile_server.frame_length(self._read_exactly(compile_server.LENGTH_BYTES))
        return self._read_exactly(size)

    def _read_exactly(self, size: int) -> bytes:
        data = self.process.stdout.read(size)  # buffered: short only at the end of the stream
        if len(data) < size:
            raise EOFError
        return data

    def _printed_since(self, start: int) -> str:
        self.log.seek(start)
        return self.log.read().decode(errors="replace")

    def _death_message(self, start: int) -> str:
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.process.returncode
        printed = self._printed_since(start).strip()
        what = (f"LLVM crashed (signal {_signal_name(-code)})" if code < 0
                else f"loomcl's compile server ({_SERVER_SCRIPT}) ended with exit status {code}")
        return f"{what} while compiling the kernel" + (f":\n{printed}" if printed else "")

    def kill(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.kill()
            except OSError:  # it ended meanwhile
                pass
            self.process.wait()

    def close(self) -> None:
        """Kill the server if it still runs, and free its pipes and log."""
        self.kill()
        for stream in (self.process.stdin, self.process.stdout, self.log):
            try:
                stream.close()
            except OSError:  # a broken pipe's unwritten bytes
                pass

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class ServerPool:
    """Idle servers, reused; one more is started when every server is busy, up to `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._idle: list[CompileServer] = []
        self._count = 0
        self._pid = os.getpid()
        self.started = 0  # servers started in this process's life (a cache hit must start none)
        self._available = threading.Condition()

    def compile(self, header: dict, text: str) -> tuple[bool, bytes, str]:
        server = self._acquire()
        healthy = False
        try:
            ok, result, printed = server.request(header, text, compile_timeout())
            healthy = True
        except ServerGone as gone:
            raise LLVMFailure(str(gone)) from None
        finally:
            self._release(server, healthy and server.alive)
        return ok, result, printed

    def _acquire(self) -> CompileServer:
        with self._available:
            if self._pid != os.getpid():  # a forked child: the servers and their pipes are the parent's
                self._idle, self._count, self._pid = [], 0, os.getpid()
            while True:
                while self._idle:
                    server = self._idle.pop()
                    if server.alive:
                        return server
                    self._count -= 1  # died while idle (killed from outside): replace it
                    server.close()
                if self._count < self.limit:
                    break
                self._available.wait()
            self._count += 1
            self.started += 1
        try:
            return CompileServer()
        except OSError as error:
            self._release(None, False)
            raise LLVMFailure(f"cannot start loomcl's compile server ({sys.executable} {_SERVER_SCRIPT}): "
                              f"{error}") from None
        except BaseException:
            self._release(None, False)
            raise

    def _release(self, server: CompileServer | None, reuse: bool) -> None:
        with self._available:
            if reuse:
                self._idle.append(server)
            else:
                self._count -= 1
                if server is not None:
                    server.close()
            self._available.notify()

    def prestart(self) -> None:
        """Start a server now, to boot while the caller does other work, unless one exists."""
        with self._available:
            if self._pid != os.getpid() or self._count:
                return
            self._count += 1
            self.started += 1
        try:
            server = CompileServer()
        except BaseException:
            self._release(None, False)
            raise
        self._release(server, True)

    def shutdown(self) -> None:
        """Stop the idle servers (at exit; tests)."""
        with self._available:
            idle, self._idle = self._idle, []
            self._count -= len(idle)
        for server in idle:
            server.close()


POOL = ServerPool(limit=max(1, os.cpu_count() or 1))
atexit.register(POOL.shutdown)


def compile_text(text: str, header: dict) -> bytes:
    """Optimize and generate code for LLVM IR text in a server; LLVM's warnings go to our stderr."""
    ok, result, printed = POOL.compile(header, text)
    if printed:
        sys.stderr.write(printed)
    if not ok:  # the server is fine; it is our text that LLVM's parser or verifier refused
        raise JITError(f"LLVM rejected the emitted module: {result.decode()}\n{numbered_lines(text)}")
    return result
