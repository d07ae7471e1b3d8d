"""Replay the kernel launches recorded from pyopencl's tests (pyopencl_capture.py with
PYOPENCL_CAPTURE_LAUNCHES=1) on loomcl, and compare every buffer with what the reference (PoCL)
left in it.

    python3 -m tests.corpus.pyopencl_replay [--folder /tmp/pyopencl_kernels] [--timeout 300]

A launch record holds the program (by its key), the kernel, the sizes, each argument (a buffer's
bytes before and after, a local size, a number or the bytes of a numpy scalar). Each program runs
in a child process with a time limit, its launches one after another: loomcl builds the program
with pyopencl's options, fills fresh buffers with the bytes they held before, launches with the
same sizes and arguments, and reads the buffers back. Integers and structs must match bit for bit;
floating-point elements (the pointee type of the kernel's parameter) within RTOL relative (or of the
buffer's largest value), NaN where the reference has NaN. Outcomes: `exact`, `close` (the largest relative
difference), `near-zero` (close but for elements tiny against the buffer's largest: look at them),
`MISMATCH` (the first differing element), `error` (the exception), `crash`, `timeout`.
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import subprocess
import sys

import numpy as np

from loomcl.options import CompilerOptions

FOLDER = pathlib.Path("/tmp/pyopencl_kernels")
RTOL = {4: 1e-5, 8: 1e-13, 2: 1e-3}
COMPLEX_OF_SIZE = {8: np.complex64, 16: np.complex128}


def load(path: pathlib.Path) -> tuple[dict, dict]:
    with np.load(path) as data:
        return json.loads(str(data["meta"])), {k: data[k] for k in data.files if k != "meta"}


def arguments(cl, ctx, meta: dict, arrays: dict, params) -> tuple[list, dict]:
    args, buffers = [], {}
    for described, param in zip(meta["args"], params):
        kind = described[0]
        if kind == "buffer":
            slot = described[1]
            if slot not in buffers:
                buffers[slot] = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                          hostbuf=arrays[f"before{slot}"].copy())
            args.append(buffers[slot])
        elif kind == "local":
            args.append(cl.LocalMemory(described[1]))
        elif kind == "null":
            args.append(None)
        elif kind == "bytes":
            raw = bytes.fromhex(described[1])
            value = np.void(raw) if described[2] == "V" else np.frombuffer(raw, described[2])[0]
            if described[2] != "V" and param.dtype is None and param.size != value.nbytes:
                value = COMPLEX_OF_SIZE[param.size](value)  # pyopencl converts to the kernel's complex type
            args.append(value)
        else:
            args.append(described[1])
    return args, buffers


def element_dtypes(source: str, options: str) -> dict[str, list]:
    """kernel name -> per parameter, the one floating-point type all scalars of its pointee (or of
    the value) are made of (a float4, pyopencl's complex unions), the integer type of an integer
    pointee, or None (mixed records: compared bit for bit)."""
    from loomcl import frontend
    from loomcl.frontend import types as ft

    def leaves(t):
        t = t.unqualified()
        if isinstance(t, (ft.IntegerType, ft.FloatType)):
            return {t}
        if isinstance(t, ft.VectorType):
            return leaves(t.element)
        if isinstance(t, ft.ArrayType):
            return leaves(t.element)
        if t.is_record:
            return set().union(*(leaves(f.type) for f in t.record.fields))
        return {None}

    def dtype_of(t):
        t = t.pointee if isinstance(t, ft.PointerType) else t
        found = leaves(t)
        if len(found) != 1 or None in found:
            return None
        (leaf,) = found
        if isinstance(leaf, ft.FloatType):
            return np.dtype(f"f{leaf.size}")
        return np.dtype(f"{'i' if leaf.signed and not leaf.is_bool else 'u'}{leaf.size}")

    _, options = CompilerOptions.split(options)
    unit = frontend.parse_program(source, frontend.parse_options(options))
    return {k.name: [dtype_of(param.type) for param in k.params] for k in unit.kernels}


def compare(expected: np.ndarray, got: np.ndarray, dtype) -> tuple[str, str]:
    """Bit for bit, or for floats: each element within RTOL of its reference, or within RTOL of the
    buffer's largest value (a function next to its zeros, where rounding differences in the
    arguments are magnified), NaN for NaN, infinities equal."""
    if expected.tobytes() == got.tobytes():
        return "exact", ""
    if dtype is None or dtype.kind != "f" or expected.size % dtype.itemsize:
        first = int(np.flatnonzero(expected != got)[0])
        return "MISMATCH", f"byte {first} of {expected.size}: {expected[first]} != {got[first]}"
    want, have = expected.view(dtype).astype(np.float64), got.view(dtype).astype(np.float64)
    rtol = RTOL[dtype.itemsize]
    finite = np.isfinite(want)
    largest = float(np.abs(want[finite]).max(initial=0.0))
    with np.errstate(invalid="ignore", over="ignore"):
        difference = np.abs(want - have)
        relative = np.where(finite, difference / np.maximum(np.abs(want), np.finfo(dtype).tiny), 0.0)
        good = np.where(finite, (relative <= rtol) | (difference <= rtol * largest),
                        (want == have) | (np.isnan(want) & np.isnan(have)))
    worst = float(relative[finite & ~np.isnan(relative)].max(initial=0.0))
    if good.all():
        near_zero = not (relative[finite] <= rtol).all()
        return ("near-zero" if near_zero else "close"), f"max rel diff {worst:.2e}"
    first = int(np.flatnonzero(~good)[0])
    return "MISMATCH", f"{dtype.name}[{first}] of {want.size}: ref {want[first]!r} loomcl {have[first]!r} (max rel {worst:.2e})"


_RANK = {"exact": 0, "close": 1, "near-zero": 2, "MISMATCH": 3}


def _empty_ndrange(meta: dict) -> dict:
    """pyopencl's allow_empty_ndrange where the launch asked for it (older records lack it: a
    launch with a zero dimension succeeded on the reference, so it must have been allowed)."""
    empty = meta.get("allow_empty_ndrange", 0 in meta["global_size"])
    return {"allow_empty_ndrange": True} if empty else {}


def replay_program(paths: list[pathlib.Path], folder: pathlib.Path) -> None:
    """In the child: build the program once, replay each launch, print one JSON line per launch."""
    import loomcl as cl

    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    record = json.loads((folder / f"{load(paths[0])[0]['program']}.json").read_text())
    program = cl.Program(ctx, record["source"]).build(options=record["options"])
    dtypes_of = element_dtypes(record["source"], record["options"])
    for path in paths:
        meta, arrays = load(path)
        if meta["kernel"] not in dtypes_of:  # recorded by an older capture from a reused program handle
            print(json.dumps({"launch": path.name, "status": "stale", "detail": "no such kernel"}), flush=True)
            continue
        kernel = getattr(program, meta["kernel"])
        params = kernel.signature.params
        outcome, detail = "exact", ""
        try:
            args, buffers = arguments(cl, ctx, meta, arrays, params)
            offset = meta["global_offset"]
            kernel(queue, tuple(meta["global_size"]), None if meta["local_size"] is None else tuple(meta["local_size"]),
                   *args, global_offset=None if offset is None else tuple(offset), **_empty_ndrange(meta))
            queue.finish()
            dtypes = {d[1]: t for d, t in zip(meta["args"], dtypes_of[meta["kernel"]]) if d[0] == "buffer"}
            for slot, buffer in sorted(buffers.items()):
                got = np.empty_like(arrays[f"after{slot}"])
                cl.enqueue_copy(queue, got, buffer)
                status, text = compare(arrays[f"after{slot}"], got, dtypes[slot])
                if _RANK[status] > _RANK[outcome]:
                    outcome, detail = status, f"buffer {slot}: {text}"
                if status == "MISMATCH":
                    break
        except Exception as error:  # noqa: BLE001 - reported in the table
            outcome, detail = "error", f"{type(error).__name__}: {str(error).splitlines()[0][:200]}"
        print(json.dumps({"launch": path.name, "status": outcome, "detail": detail}), flush=True)


def replay_in_child(key: str, paths: list[pathlib.Path], folder: pathlib.Path, timeout: float) -> list[dict]:
    command = [sys.executable, "-m", "tests.corpus.pyopencl_replay", "--folder", str(folder),
               "--program", key]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        out, tail = done.stdout, (done.stderr.strip().splitlines() or [""])[-1]
        failed = f"crash (exit {done.returncode}): {tail}" if done.returncode else ""
    except subprocess.TimeoutExpired as expired:
        out = (expired.stdout or b"").decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
        failed = f"timeout after {timeout:.0f} s"
    results = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    done_names = {r["launch"] for r in results}
    for path in paths:
        if path.name not in done_names:
            results.append({"launch": path.name, "status": "crash" if "crash" in failed else "timeout",
                            "detail": failed})
            break
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=pathlib.Path, default=FOLDER)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--program", help="replay one program's launches in this process")
    parser.add_argument("--only", help="only programs whose key starts with this")
    parser.add_argument("--skip", type=pathlib.Path, help="skip the launches an earlier run's output names")
    args = parser.parse_args()
    done = set(args.skip.read_text().split()) if args.skip else set()
    launches = collections.defaultdict(list)
    for path in sorted((args.folder / "launches").glob("*.npz")):
        if path.name not in done:
            launches[path.name.split("-")[0]].append(path)
    if args.program:
        replay_program(launches[args.program], args.folder)
        return 0
    tally = collections.Counter()
    for key, paths in sorted(launches.items()):
        if args.only and not key.startswith(args.only):
            continue
        for result in replay_in_child(key, paths, args.folder, args.timeout):
            tally[result["status"]] += 1
            print(f"{result['launch']:<70} {result['status']:<9} {result['detail'][:160]}", flush=True)
    print(f"\n{sum(tally.values())} launches: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
