"""A pytest plugin that records every OpenCL program pyopencl builds: its source, its build options
(as pyopencl passes them to the driver, with its own `-I` of pyopencl's headers) and the test that
built it, into a folder (env PYOPENCL_CAPTURE_DIR, default /tmp/pyopencl_kernels), one JSON file per
distinct (source, options), named by their hash.

With PYOPENCL_CAPTURE_LAUNCHES=1 it also records kernel launches (`kernel(queue, gsize, lsize,
*args)`, the way pyopencl's array, elementwise, reduction and scan code launch): the sizes, every
argument, and every buffer's bytes before and after the launch, into launches/KEY-KERNEL-N.npz (a
few launches per kernel, of buffers up to LAUNCH_BYTES in all). pyopencl_replay.py replays them on
loomcl and compares the buffers with what the reference computed.

    PYOPENCL_TEST=portable python3 -m pytest -p tests.corpus.pyopencl_capture test_array.py

pyopencl's own tests run unchanged on whatever platform they choose (PoCL here); the capture only
wraps `pyopencl.Program.build`. Whether the build succeeded there is recorded too, so that the survey
(pyopencl_survey.py) can tell programs that are meant to fail from gaps in loomcl.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib

import pyopencl

import numpy as np

FOLDER = pathlib.Path(os.environ.get("PYOPENCL_CAPTURE_DIR", "/tmp/pyopencl_kernels"))
LAUNCH_BYTES = 16 << 20
LAUNCHES_PER_KERNEL = 3
_original_build = pyopencl.Program.build
_original_call = pyopencl.Kernel.__call__
_program_keys: dict[int, tuple[str, str]] = {}  # a built _Program's int_ptr -> (its record's key, source)
_launch_counts: dict[tuple[str, str], int] = {}
_BUFFER = pyopencl.MemoryObjectHolder  # a Buffer, or a memory pool's PooledBuffer


def _record(program, options, built: bool) -> None:
    source = getattr(program, "_source", None)
    if source is None:  # built from binaries or IL: nothing to compile from source
        return
    if isinstance(source, bytes):
        source = source.decode("utf-8", errors="replace")
    options_bytes, include_path = program._process_build_options(program._context, options)
    option_text = options_bytes.decode("utf-8")
    key = hashlib.sha256((source + "\0" + option_text).encode()).hexdigest()[:20]
    if program._prg is not None:
        _program_keys[program._prg.int_ptr] = (key, source)
    path = FOLDER / f"{key}.json"
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
    if path.exists():
        entry = json.loads(path.read_text())
        if test and test not in entry["tests"] and len(entry["tests"]) < 20:
            entry["tests"].append(test)
            _write(path, entry)
        return
    FOLDER.mkdir(parents=True, exist_ok=True)
    entry = {"source": source, "options": option_text, "include_path": list(include_path),
             "built_on_reference": built, "tests": [test] if test else []}
    _write(path, entry)


def _write(path: pathlib.Path, entry: dict) -> None:
    """Atomically: a survey may be reading the folder while the tests run."""
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps(entry, indent=1))
    temporary.replace(path)


def _capturing_build(self, options=None, devices=None, cache_dir=None):
    context = getattr(self, "_context", None)  # the build deletes it on a cached build
    try:
        result = _original_build(self, options, devices, cache_dir)
    except Exception:
        if context is not None:
            self._context = context
            _record(self, options, built=False)
        raise
    if context is not None:
        deleted = not hasattr(self, "_context")
        self._context = context
        _record(self, options, built=True)
        if deleted:
            del self._context
    return result


pyopencl.Program.build = _capturing_build


def _buffer_bytes(queue, buffer) -> np.ndarray:
    host = np.empty(buffer.size, np.uint8)
    pyopencl.enqueue_copy(queue, host, buffer)
    return host


def _capturing_call(self, queue, global_size, local_size, *args, **kwargs):
    key = _key_of(self.program)
    count_key = (key, self.function_name)
    count = _launch_counts.get(count_key, 0)
    args_as_set = _as_set(self, args)
    buffers = {a.int_ptr: a for a in args_as_set or () if isinstance(a, _BUFFER)}
    if key is None or count >= LAUNCHES_PER_KERNEL or args_as_set is None \
            or sum(b.size for b in buffers.values()) > LAUNCH_BYTES or not _all_complete(kwargs.get("wait_for")):
        return _original_call(self, queue, global_size, local_size, *args, **kwargs)
    _launch_counts[count_key] = count + 1
    queue.finish()
    arrays, described, seen = {}, [], {}
    for arg in args_as_set:
        if isinstance(arg, _BUFFER):
            slot = seen.setdefault(arg.int_ptr, len(seen))
            arrays[f"before{slot}"] = _buffer_bytes(queue, arg)
            described.append(["buffer", slot])
        elif isinstance(arg, pyopencl.LocalMemory):
            described.append(["local", arg.size])
        elif arg is None:
            described.append(["null"])
        elif isinstance(arg, (np.generic, np.ndarray)):
            value = np.asarray(arg)
            described.append(["bytes", value.tobytes().hex(), value.dtype.str if value.dtype.names is None else "V"])
        else:
            described.append(["number", arg])
    event = _original_call(self, queue, global_size, local_size, *args, **kwargs)
    queue.finish()
    for pointer, slot in seen.items():
        arrays[f"after{slot}"] = _buffer_bytes(queue, buffers[pointer])
    if kwargs.get("g_times_l"):  # pyopencl's scan gives the number of groups
        global_size = [g * size for g, size in zip(global_size, local_size)]
    meta = {"program": key, "kernel": self.function_name, "global_size": list(global_size),
            "local_size": None if local_size is None else list(local_size),
            "global_offset": kwargs.get("global_offset"), "args": described,
            "allow_empty_ndrange": bool(kwargs.get("allow_empty_ndrange")),
            "test": os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]}
    folder = FOLDER / "launches"
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(folder / f"{key}-{self.function_name}-{count}.npz", meta=np.array(json.dumps(meta)), **arrays)
    return event


def _key_of(program) -> str | None:
    """The record of the program a kernel belongs to; None for a program built some other way (a
    handle's address is reused once its program is freed, hence the check of the source)."""
    key, source = _program_keys.get(program.int_ptr, (None, None))
    if key is None or program.get_info(pyopencl.program_info.SOURCE) != source:
        return None
    return key


def _as_set(kernel, args) -> list | None:
    """The arguments as the invoker sets them: a pyopencl Array becomes its base buffer and, where
    the kernel takes one, its offset in bytes. None if some argument cannot be recorded."""
    from pyopencl.array import Array

    arrays = sum(isinstance(a, Array) for a in args)
    with_offsets = len(args) + arrays == kernel.num_args
    if not with_offsets and len(args) != kernel.num_args:
        return None
    out = []
    for arg in args:
        if isinstance(arg, Array):
            if not with_offsets and arg.offset:
                return None
            if not (arg.base_data is None or isinstance(arg.base_data, _BUFFER)):
                return None  # shared virtual memory
            out.extend([arg.base_data, arg.offset] if with_offsets else [arg.base_data])
        elif _recordable(arg):
            out.append(arg)
        else:
            return None
    return out


def _all_complete(events) -> bool:
    """Whether the launch waits on nothing pending (a user event set later would hang the finish)."""
    complete = pyopencl.command_execution_status.COMPLETE
    return all(event.command_execution_status == complete for event in events or ())


def _recordable(arg) -> bool:
    if isinstance(arg, (_BUFFER, pyopencl.LocalMemory, np.generic, int, float)) or arg is None:
        return True
    return isinstance(arg, np.ndarray) and arg.shape == ()


if os.environ.get("PYOPENCL_CAPTURE_LAUNCHES") == "1":
    pyopencl.Kernel.__call__ = _capturing_call
