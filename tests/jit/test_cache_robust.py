"""A cache that never breaks: damaged entries are rebuilt and replaced, concurrent builders are safe,
an unwritable directory only warns, the size stays bounded. Builds run in real child processes."""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the long tier: each test starts processes that build real kernels

from loomcl.jit import cache, cache_entry
from loomcl.jit.cache_config import cache_directory, parse_size

ROOT = Path(__file__).parents[2]

_CHILD = """
import json, sys
import numpy as np
import loomcl as cl
from loomcl import jit
from loomcl.driver import frontend_cache
frontend_cache.enabled = lambda: False   # these tests count and damage the object cache's entries
factor = int(sys.argv[1])
source = "kernel void scale(global float *x) { x[get_global_id(0)] *= %d.0f; }" % factor
ctx = cl.create_some_context()
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, source).build()
x = np.arange(256, dtype=np.float32)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
prg.scale(queue, (256,), (64,), buf)
out = np.empty_like(x)
cl.enqueue_copy(queue, out, buf)
queue.finish()
print(json.dumps({"ok": bool((out == x * factor).all()), "compiled": jit.stats.optimizer_runs,
                  "hits": jit.stats.disk_cache_hits}))
"""


def build_in_child(cache_dir, factor=3, **env) -> tuple[dict, str]:
    environment = dict(os.environ, LOOMCL_CACHE_DIR=str(cache_dir), PYTHONPATH=str(ROOT), **env)
    child = subprocess.run([sys.executable, "-c", _CHILD, str(factor)], env=environment, capture_output=True,
                           text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-3000:]
    return json.loads(child.stdout.strip().splitlines()[-1]), child.stderr


def only_entry(cache_dir) -> Path:
    (entry,) = Path(cache_dir).glob("*" + cache.SUFFIX)
    return entry


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def flip_a_payload_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[cache_entry.HEADER_SIZE + 100] ^= 0x40
    path.write_bytes(bytes(data))


def file_under_another_key(path: Path) -> None:
    payload = cache_entry.unpack(path.stem, path.read_bytes())
    path.write_bytes(cache_entry.pack("ab" * 32, payload))


def bare_object(path: Path) -> None:  # an earlier loomcl's format: the object file alone
    path.write_bytes(cache_entry.unpack(path.stem, path.read_bytes()))


def empty(path: Path) -> None:
    path.write_bytes(b"")


@pytest.mark.parametrize("damage", [truncate, flip_a_payload_byte, file_under_another_key, bare_object, empty])
def test_a_damaged_entry_is_rebuilt_and_replaced(damage, tmp_path):
    first, _ = build_in_child(tmp_path)
    assert first == {"ok": True, "compiled": 1, "hits": 0}
    entry = only_entry(tmp_path)
    good = entry.read_bytes()
    damage(entry)
    rebuilt, _ = build_in_child(tmp_path)
    assert rebuilt == {"ok": True, "compiled": 1, "hits": 0}
    assert only_entry(tmp_path).read_bytes() == good  # replaced by a good entry (codegen is deterministic)
    again, _ = build_in_child(tmp_path)
    assert again == {"ok": True, "compiled": 0, "hits": 1}


def test_four_processes_building_the_same_program_at_once(tmp_path):
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: build_in_child(tmp_path)[0], range(4)))
    assert all(result["ok"] for result in results)
    entry = only_entry(tmp_path)
    cache_entry.unpack(entry.stem, entry.read_bytes())  # whole and valid
    assert not list(tmp_path.glob(".*.tmp"))
    assert build_in_child(tmp_path)[0] == {"ok": True, "compiled": 0, "hits": 1}


def test_no_writable_directory_warns_once_and_builds(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    script = _CHILD + "\nprg2 = cl.Program(ctx, source.replace('scale', 'twice')).build()\n" \
                      "prg2.twice(queue, (256,), (64,), buf); queue.finish()\n"
    env = dict(os.environ, LOOMCL_CACHE_DIR=str(blocker / "cache"), PYTHONPATH=str(ROOT))
    child = subprocess.run([sys.executable, "-c", script, "5"], env=env, capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-3000:]
    assert json.loads(child.stdout.splitlines()[-1])["ok"]
    assert child.stderr.count("loomcl cannot write its kernel cache in") == 1, child.stderr


def test_a_zero_size_turns_the_disk_cache_off_silently(tmp_path):
    result, stderr = build_in_child(tmp_path, LOOMCL_CACHE_SIZE="0")
    assert result == {"ok": True, "compiled": 1, "hits": 0}
    assert not list(tmp_path.iterdir()) and "Warning" not in stderr


def test_least_recently_used_entries_are_evicted(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOMCL_CACHE_DIR", str(tmp_path))
    entry_size = cache_entry.HEADER_SIZE + 1000
    monkeypatch.setenv("LOOMCL_CACHE_SIZE", str(3 * entry_size))
    keys = [f"{i:064x}" for i in range(4)]
    for age, key in enumerate(keys[:3]):
        cache.store(key, bytes(1000))
        os.utime(tmp_path / f"{key}{cache.SUFFIX}", (1000 + age, 1000 + age))
    assert cache.load(keys[0]) == bytes(1000)  # the oldest, used now: the most recent
    cache.store(keys[3], bytes(1000))
    assert sorted(p.stem for p in tmp_path.glob("*" + cache.SUFFIX)) == sorted([keys[0], keys[2], keys[3]])
    assert cache.info().total_bytes == 3 * entry_size


def test_eviction_happens_across_real_builds(tmp_path):
    build_in_child(tmp_path, factor=2)
    size = only_entry(tmp_path).stat().st_size
    for factor in (3, 4):
        result, _ = build_in_child(tmp_path, factor=factor, LOOMCL_CACHE_SIZE=str(2 * size + size // 2))
        assert result["ok"]
    assert len(list(tmp_path.glob("*" + cache.SUFFIX))) == 2
    assert build_in_child(tmp_path, factor=4)[0]["hits"] == 1  # the newest survived
    assert build_in_child(tmp_path, factor=2)[0]["hits"] == 0  # the oldest went first


@pytest.mark.parametrize("text, size", [("1073741824", 1 << 30), ("500M", 500 << 20), ("2g", 2 << 30),
                                        ("1GiB", 1 << 30), ("64k", 64 << 10), ("1.5G", 3 << 29), ("0", 0)])
def test_sizes(text, size):
    assert parse_size(text) == size


def test_a_bad_size_warns_and_uses_the_default(monkeypatch):
    monkeypatch.setenv("LOOMCL_CACHE_SIZE", "lots")
    with pytest.warns(RuntimeWarning, match="LOOMCL_CACHE_SIZE='lots'"):
        assert cache.size_limit() == 1 << 30


@pytest.mark.parametrize("platform, env, expected", [
    ("linux", {"XDG_CACHE_HOME": "/xdg"}, "/xdg/loomcl"),
    ("linux", {}, "~/.cache/loomcl"),
    ("linux", {"XDG_CACHE_HOME": "relative"}, "~/.cache/loomcl"),  # the XDG spec ignores relative paths
    ("darwin", {}, "~/Library/Caches/loomcl"),
    ("win32", {"LOCALAPPDATA": "/appdata"}, "/appdata/loomcl/Cache"),
])
def test_the_default_directory_follows_the_platform(platform, env, expected, monkeypatch):
    monkeypatch.delenv("LOOMCL_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "platform", platform)
    assert cache_directory() == Path(os.path.expanduser(expected))


def _cli(cache_dir, *words) -> str:
    env = dict(os.environ, LOOMCL_CACHE_DIR=str(cache_dir), PYTHONPATH=str(ROOT))
    child = subprocess.run([sys.executable, "-m", "loomcl", "cache", *words], env=env, capture_output=True,
                           text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    return child.stdout


def test_cache_info_and_clear_on_the_command_line(tmp_path):
    build_in_child(tmp_path)
    size = only_entry(tmp_path).stat().st_size
    kib = f"{size / 1024:.1f} KiB".replace(".0 ", " ")
    info = _cli(tmp_path, "info")
    assert info.splitlines() == [f"directory  {tmp_path}", "entries    1", f"size       {kib} of 1 GiB", "writable   yes"]
    assert _cli(tmp_path, "clear") == f"removed 1 entry ({kib}) from {tmp_path}\n"
    assert "entries    0" in _cli(tmp_path, "info")
